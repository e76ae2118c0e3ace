/**
 * One log line per request, through the service's logger (src/logging.ts): `message: "request"`,
 * method, path without its query string, status, duration, request id, and, where traces are
 * collected, the trace id: the sampled server span's, else the caller's `traceparent`'s, else a
 * fresh one (a request's line and its spans, and a caller's logs, can be matched). Never
 * headers, bodies or query strings, which may carry credentials and personal data. Logged at Info:
 * `LOG_LEVEL=Warn` and above log no requests.
 */
import { randomUUID } from "node:crypto"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import type * as HttpMiddleware from "effect/http/HttpMiddleware"
import * as HttpServerRequest from "effect/http/HttpServerRequest"
import * as HttpTraceContext from "effect/http/HttpTraceContext"
import * as Option from "effect/Option"
import * as Tracer from "effect/Tracer"
import { AppConfig } from "../config/app_config.ts"
import { truncate } from "../operations/invalid_request.ts"
import { RequestId } from "./request_id.ts"

/** The trace a request belongs to: its server span's when sampled, else the caller's, if any. */
const traceIdOf = (context: Context.Context<never>, request: HttpServerRequest.HttpServerRequest) => {
  const span = Context.getOrUndefined(context, Tracer.ParentSpan)
  if (span !== undefined) return span.traceId
  if (request.headers.traceparent === undefined) return undefined
  return Option.getOrUndefined(HttpTraceContext.fromHeaders(request.headers))?.traceId
}

/**
 * A fresh trace id: 32 lowercase hex digits, as W3C Trace Context writes one. Taken from a random
 * UUID (Node draws those from a buffer it refills in bulk) rather than from 16 fresh random bytes
 * (a system call per request).
 */
const freshTraceId = () => randomUUID().replaceAll("-", "")

export const requestLogMiddleware = Effect.gen(function* () {
  const traced = (yield* AppConfig).tracing !== undefined
  const middleware: HttpMiddleware.HttpMiddleware = (httpEffect) =>
    Effect.withFiber((fiber) => {
      const started = performance.now()
      const request = Context.getUnsafe(fiber.context, HttpServerRequest.HttpServerRequest)
      return Effect.tap(httpEffect, (response) =>
        Effect.logInfo("request", {
          method: request.method,
          path: truncate(request.url.split("?", 1)[0] ?? "/"),
          status: response.status,
          duration_ms: Math.round((performance.now() - started) * 100) / 100,
          request_id: fiber.getRef(RequestId),
          ...(traced ? { trace_id: traceIdOf(fiber.context, request) ?? freshTraceId() } : {})
        })
      )
    })
  return middleware
})
