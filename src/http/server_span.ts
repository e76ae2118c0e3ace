/**
 * A request's trace. The sampler decides first, from the caller's `traceparent` (its sampled flag,
 * with a parent-based sampler) or the ratio, so that the requests nobody will see make no span at
 * all: they run with the tracer off (as every request starts, server.ts). A sampled request makes
 * its server span (Effect's own HTTP span is off, server.ts), continuing the caller's trace, and
 * runs under it with the tracer on, so its handler's spans (operations, services, SQL) are its
 * children. Without a collector configured there is no such middleware.
 */
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import type * as HttpMiddleware from "effect/http/HttpMiddleware"
import * as HttpServerRequest from "effect/http/HttpServerRequest"
import type * as HttpServerResponse from "effect/http/HttpServerResponse"
import * as HttpTraceContext from "effect/http/HttpTraceContext"
import * as Option from "effect/Option"
import * as References from "effect/References"
import * as Tracer from "effect/Tracer"
import { AppConfig } from "../config/app_config.ts"
import type { Sampler } from "../config/settings.ts"
import { decidedSampling, isSampled } from "../tracing.ts"
import { RequestId } from "./request_id.ts"
import { routeFor } from "./routes.ts"

/**
 * Ends a sampled server span with the attributes of OpenTelemetry's HTTP server conventions (not
 * the query string or any header, which may carry what a trace must not); a 5xx answer (or an
 * interruption) is the span's error, a 4xx the client's.
 */
const endServerSpan = (
  span: Tracer.Span,
  request: HttpServerRequest.HttpServerRequest,
  requestId: string,
  exit: Exit.Exit<HttpServerResponse.HttpServerResponse, unknown>,
  now: bigint
) => {
  span.attribute("http.request.method", request.method)
  span.attribute("url.path", request.url.split("?", 1)[0] ?? "/")
  const route = routeFor(request.url)
  if (route !== undefined) span.attribute("http.route", route.path)
  if (request.headers["user-agent"] !== undefined) span.attribute("user_agent.original", request.headers["user-agent"])
  if (Option.isSome(request.remoteAddress)) span.attribute("client.address", request.remoteAddress.value)
  span.attribute("request_id", requestId)
  if (Exit.isSuccess(exit)) {
    span.attribute("http.response.status_code", exit.value.status)
    span.end(now, exit.value.status >= 500 ? Exit.fail(`HTTP ${exit.value.status}`) : Exit.void)
  } else {
    span.end(now, exit)
  }
}

const traced =
  (sampler: Sampler): HttpMiddleware.HttpMiddleware =>
  (httpEffect) =>
    Effect.withFiber((fiber) => {
      const request = Context.getUnsafe(fiber.context, HttpServerRequest.HttpServerRequest)
      // Off as served by serveRoutes; on where the host did not turn it off (e.g. the fetch
      // handler), so each branch changes the fiber's context only when it must.
      const tracerOn = fiber.getRef(References.TracerEnabled)
      const parent = Option.getOrUndefined(HttpTraceContext.fromHeaders(request.headers))
      // As Effect marks a span whose caller did not sample it, before any sampler is asked.
      if (!isSampled(sampler, Option.fromUndefinedOr(parent), parent?.sampled !== false)) {
        return tracerOn ? Effect.withTracerEnabled(httpEffect, false) : httpEffect
      }
      const sampled = Effect.flatMap(
        Effect.makeSpan(request.method, { kind: "server", parent, annotations: decidedSampling, sampled: true }),
        (span) =>
          Effect.onExit(Effect.provideService(httpEffect, Tracer.ParentSpan, span), (exit) =>
            Effect.map(Clock.currentTimeNanos, (now) =>
              endServerSpan(span, request, fiber.getRef(RequestId), exit, now)
            )
          )
      )
      return tracerOn ? sampled : Effect.withTracerEnabled(sampled, true)
    })

/** The server span's middleware where a collector receives traces; none otherwise. */
export const serverSpanMiddleware = Effect.gen(function* () {
  const config = yield* AppConfig
  return config.tracing === undefined ? undefined : traced(config.tracing.sampler)
})
