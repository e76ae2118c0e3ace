/**
 * The one global middleware every request passes through — route lookup included — so that every
 * error the server can produce leaves in the published envelope: unknown paths (404), wrong methods
 * (405 + Allow), unreadable bodies, decode failures and defects (500, nothing internal disclosed).
 * It also sets `x-request-id` and CORS, and writes the request's log line. Guards belong to their
 * routes, not to this: the request limiter (rate_limit.ts), the MCP endpoints' (mcp/endpoint.ts).
 */
import { randomUUID } from "node:crypto"
import * as Cause from "effect/Cause"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as HttpRouter from "effect/http/HttpRouter"
import * as HttpServerRequest from "effect/http/HttpServerRequest"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import * as HttpTraceContext from "effect/http/HttpTraceContext"
import * as Option from "effect/Option"
import * as References from "effect/References"
import * as Tracer from "effect/Tracer"
import { type ErrorBody, type ErrorCode, errorBody, errorCodes, refusalBody } from "../api/envelope.ts"
import { AppConfig } from "../config/app_config.ts"
import { isEmbeddedIssuer, type Sampler } from "../config/settings.ts"
import { retryAfterSeconds } from "../domain/errors.ts"
import { isConsolePath } from "../domain/login.ts"
import { isOAuthPath } from "../oauth/server.ts"
import { invalidRequest } from "../operations/invalid_request.ts"
import { decidedSampling, isSampled, newTraceId } from "../tracing.ts"
import { tooLarge } from "./json_body.ts"
import { disabledRequestLog, makeRequestLog, type RequestLog } from "./request_log.ts"
import { routeFor } from "./routes.ts"

const saneRequestId = /^[A-Za-z0-9._:@/+=-]{1,128}$/

const corsHeaders = {
  "access-control-allow-origin": "*",
  "access-control-expose-headers":
    "etag, location, idempotent-replayed, retry-after, x-request-id, allow, www-authenticate, content-disposition, ratelimit-limit, ratelimit-remaining, ratelimit-reset, mcp-session-id, mcp-protocol-version"
}

const isErrorBody = (u: unknown): u is ErrorBody =>
  typeof u === "object" &&
  u !== null &&
  typeof (u as ErrorBody).code === "string" &&
  typeof (u as ErrorBody).status === "number"

/** An error class instance from api/envelope.ts (its only field is the envelope body). */
const envelopeOf = (u: unknown): ErrorBody | undefined =>
  typeof u === "object" && u !== null && "error" in u && isErrorBody((u as { error: unknown }).error)
    ? (u as { error: ErrorBody }).error
    : undefined

const tagOf = (u: unknown): string | undefined =>
  typeof u === "object" && u !== null && "_tag" in u ? String((u as { _tag: unknown })._tag) : undefined

/** The code a bare status (an empty or non-JSON error response) stands for. */
/** Where a status has several codes, the one a bare status stands for: the generic one. */
const genericCodes: ReadonlyArray<ErrorCode> = ["invalid_request", "not_found", "storage_unavailable"]

/** The code a bare status (an empty or non-JSON error response) stands for. */
const codeForStatus = (status: number): ErrorCode =>
  [...genericCodes, ...(Object.keys(errorCodes) as Array<ErrorCode>)].find(
    (code) => errorCodes[code].status === status
  ) ?? (status < 500 ? "invalid_request" : "internal_error")

export const EnvelopeMiddleware = HttpRouter.middleware(
  Effect.gen(function* () {
    const config = yield* AppConfig
    const docs = config.docsUrl
    const sampler = config.tracing?.sampler
    // RFC 9728 §5.1: a 401 names where the protected resource's metadata is.
    const wwwAuthenticate = `Bearer resource_metadata="${config.publicBaseUrl}/.well-known/oauth-protected-resource"`
    const log: RequestLog = ["All", "Trace", "Debug", "Info"].includes(config.logLevel)
      ? makeRequestLog()
      : disabledRequestLog

    const envelope = (body: ErrorBody, headers: Record<string, string> = {}) =>
      HttpServerResponse.jsonUnsafe({ error: body }, { status: body.status, headers })
    const payloadTooLarge = envelope(tooLarge(docs).error)
    const embeddedIssuer = isEmbeddedIssuer(config)
    /**
     * The authorization server's and the console's pages: their answers (pages, OAuth's own JSON,
     * redirects) leave as they were written, without CORS, and the API's request limits do not
     * apply (sign-in has its own; every console move is a signed-in person's).
     */
    const isPagePath = (path: string) => embeddedIssuer && (isOAuthPath(path) || isConsolePath(path))

    const notFound = (request: HttpServerRequest.HttpServerRequest) => {
      const path = request.url.split("?", 1)[0] ?? "/"
      const route = routeFor(request.url)
      if (route === undefined) {
        return envelope(
          errorBody(docs, "not_found", `No endpoint at ${truncate(path)}.`, {
            hint: "Start from the service index, GET /api/public/v1, which lists every endpoint."
          })
        )
      }
      const allow = route.methods.join(", ")
      if (request.method === "OPTIONS") {
        return HttpServerResponse.empty({
          status: 204,
          headers: {
            allow: `${allow}, OPTIONS`,
            "access-control-allow-methods": `${allow}, OPTIONS`,
            "access-control-allow-headers": "content-type, idempotency-key, authorization, if-none-match, x-request-id",
            "access-control-max-age": "600"
          }
        })
      }
      const right = route.methods.filter((m) => m !== "HEAD")
      return envelope(
        errorBody(docs, "method_not_allowed", `${truncate(request.method)} is not allowed on ${route.path}.`, {
          hint: `Use ${right.join(" or ")} ${route.path}.`
        }),
        { allow }
      )
    }

    const fromFailure = (request: HttpServerRequest.HttpServerRequest, error: unknown) => {
      const body = envelopeOf(error)
      if (body !== undefined) return envelope(body)
      if (tagOf(error) === "HttpServerError") {
        const reason = (error as { reason: { _tag: string; reason?: string } }).reason
        if (reason._tag === "RouteNotFound") return notFound(request)
        if (reason._tag === "RequestParseError") {
          return reason.reason === "BodyTooLarge"
            ? payloadTooLarge
            : envelope(errorBody(docs, "invalid_json", "The request body could not be read."))
        }
      }
      return undefined
    }

    const fromDefect = (defect: unknown) => {
      const tag = tagOf(defect)
      if (tag === "HttpApiSchemaError") {
        const { kind, cause } = defect as { kind: string; cause: unknown }
        if (kind === "Params" || kind === "Query" || kind === "Headers" || kind === "Payload") {
          return envelope(refusalBody(docs, invalidRequest(kind, cause)))
        }
      }
      if (tag === "HttpApiPayloadTooLarge") {
        return payloadTooLarge
      }
      return undefined
    }

    const internal = (cause: Cause.Cause<unknown>, requestId: string) =>
      Effect.logError("request failed").pipe(
        Effect.annotateLogs({ request_id: requestId, cause: Cause.pretty(cause) }),
        Effect.as(
          envelope(
            errorBody(
              docs,
              "internal_error",
              "Something went wrong on our side; nothing was changed by this request.",
              {
                hint: `Retry later; if it persists, report the request id ${requestId}.`
              }
            )
          )
        )
      )

    /** Maps whatever the handler failed with to a response in the envelope (interrupts stay interrupts). */
    const recover =
      (request: HttpServerRequest.HttpServerRequest, requestId: string) => (cause: Cause.Cause<unknown>) => {
        if (Cause.hasInterruptsOnly(cause)) return Effect.failCause(cause)
        const failure = Cause.findErrorOption(cause)
        const mapped = failure._tag === "Some" ? fromFailure(request, failure.value) : fromDefect(Cause.squash(cause))
        return mapped === undefined ? internal(cause, requestId) : Effect.succeed(mapped)
      }

    /** The response as it leaves: in the envelope if it is an error, with every added header; logged. */
    const finish = (arrival: Arrival, answered: HttpServerResponse.HttpServerResponse, asAnswered = false) => {
      let response = answered
      // Whatever produced an error response without a JSON body (a framework default such as an
      // empty 4xx or a text/plain 415), the client still gets the envelope — except on the pages.
      if (!asAnswered && response.status >= 400 && !isJsonResponse(response)) {
        response = envelope(
          errorBody(docs, codeForStatus(response.status), errorCodes[codeForStatus(response.status)].meaning),
          pickHeaders(response.headers, ["allow", "retry-after"])
        )
      }
      // Every header the envelope adds, set in one copy of the response.
      // The authorization server's pages are for its own origin: no CORS on them.
      const cors = !isPagePath(arrival.path)
      const headers: Record<string, string> = cors
        ? { ...corsHeaders, "x-request-id": arrival.requestId }
        : { "x-request-id": arrival.requestId }
      // A resource other than the REST API (the participant's MCP endpoint) names its own metadata.
      if (response.status === 401 && response.headers["www-authenticate"] === undefined) {
        headers["www-authenticate"] = wwwAuthenticate
      }
      if (response.status === 503 && response.headers["retry-after"] === undefined) {
        headers["retry-after"] = String(retryAfterSeconds)
      }
      response = HttpServerResponse.setHeaders(response, headers)
      log.write({
        method: arrival.request.method,
        path: truncate(arrival.path),
        status: response.status,
        durationMs: performance.now() - arrival.started,
        requestId: arrival.requestId,
        traceId: arrival.traceId
      })
      return response
    }

    const missingHost = envelope(
      errorBody(docs, "invalid_request", "The Host header is missing; HTTP/1.1 requires it.", {
        hint: "Send Host: <the server's host name and port> with every request."
      }),
      { connection: "close" }
    )

    /** The request answered, and every error it produced in the envelope. */
    const respond = <E, R>(httpEffect: HttpEffect<E, R>, arrival: Arrival) =>
      Effect.map(Effect.catchCause(httpEffect, recover(arrival.request, arrival.requestId)), (response) =>
        finish(arrival, response, isPagePath(arrival.path))
      )

    /**
     * The request's trace. The sampler decides first, from the caller's `traceparent` (its
     * sampled flag, with a parent-based sampler) or the ratio, so that the 99 requests in a
     * hundred nobody will see make no span at all: they run with the tracer off (as every request
     * starts, server.ts), and their log line carries the caller's trace id or a new one. A sampled
     * request makes its server span (Effect's own HTTP span is turned off in server.ts),
     * continuing the caller's trace, and runs under it with the tracer on, so its handler's spans
     * (services, SQL) are its children.
     */
    const traced = <E, R>(
      httpEffect: HttpEffect<E, R>,
      request: HttpServerRequest.HttpServerRequest,
      arrive: (traceId: string) => Arrival,
      sampler: Sampler,
      // Off as served by serveRoutes; on where the host did not turn it off (e.g. the fetch
      // handler), so each branch changes the fiber's context only when it must.
      tracerOn: boolean
    ) => {
      const parent = Option.getOrUndefined(HttpTraceContext.fromHeaders(request.headers))
      // As Effect marks a span whose caller did not sample it, before any sampler is asked.
      if (!isSampled(sampler, Option.fromUndefinedOr(parent), parent?.sampled !== false)) {
        const answered = respond(httpEffect, arrive(parent?.traceId ?? newTraceId()))
        return tracerOn ? Effect.withTracerEnabled(answered, false) : answered
      }
      const sampled = Effect.flatMap(
        Effect.makeSpan(request.method, { kind: "server", parent, annotations: decidedSampling, sampled: true }),
        (span) => {
          const arrival = arrive(span.traceId)
          return Effect.onExit(Effect.provideService(respond(httpEffect, arrival), Tracer.ParentSpan, span), (exit) =>
            Effect.map(Clock.currentTimeNanos, (now) => endServerSpan(span, arrival, exit, now))
          )
        }
      )
      return tracerOn ? sampled : Effect.withTracerEnabled(sampled, true)
    }

    // Written with combinators rather than a generator: this runs for every request, and each
    // step of a generator is a fiber frame (~25 µs per request in all, measured against a
    // pass-through middleware).
    return (httpEffect) =>
      Effect.withFiber((fiber) => {
        const request = Context.getUnsafe(fiber.context, HttpServerRequest.HttpServerRequest)
        const incoming = request.headers["x-request-id"]
        const requestId = incoming !== undefined && saneRequestId.test(incoming) ? incoming : randomUUID()
        const started = performance.now()
        const arrive = (traceId: string | undefined): Arrival => ({
          request,
          path: request.url.split("?", 1)[0] ?? "/",
          requestId,
          started,
          traceId
        })
        // HTTP/1.1 requires Host (RFC 9112 §3.2); Node lets such a request through to us
        // (server.ts) so that it is refused in the envelope, not with a bare 400.
        if (request.headers.host === undefined && isHttp11WithoutHost(request)) {
          return Effect.succeed(finish(arrive(undefined), missingHost))
        }
        return sampler === undefined
          ? respond(httpEffect, arrive(undefined))
          : traced(httpEffect, request, arrive, sampler, fiber.getRef(References.TracerEnabled))
      })
  }),
  { global: true }
)

/** What the middleware knows of a request from its arrival: enough to finish and log it. */
interface Arrival {
  readonly request: HttpServerRequest.HttpServerRequest
  /** Without the query string. */
  readonly path: string
  readonly requestId: string
  readonly started: number
  readonly traceId: string | undefined
}

type HttpEffect<E, R> = Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>

/**
 * Ends a sampled server span with the attributes of OpenTelemetry's HTTP server conventions (not
 * the query string or any header, which may carry what a trace must not); a 5xx answer (or an
 * interruption) is the span's error, a 4xx the client's.
 */
const endServerSpan = (
  span: Tracer.Span,
  arrival: Arrival,
  exit: Exit.Exit<HttpServerResponse.HttpServerResponse, unknown>,
  now: bigint
) => {
  const request = arrival.request
  span.attribute("http.request.method", request.method)
  span.attribute("url.path", arrival.path)
  const route = routeFor(request.url)
  if (route !== undefined) span.attribute("http.route", route.path)
  if (request.headers["user-agent"] !== undefined) span.attribute("user_agent.original", request.headers["user-agent"])
  if (Option.isSome(request.remoteAddress)) span.attribute("client.address", request.remoteAddress.value)
  span.attribute("request_id", arrival.requestId)
  if (Exit.isSuccess(exit)) {
    span.attribute("http.response.status_code", exit.value.status)
    span.end(now, exit.value.status >= 500 ? Exit.fail(`HTTP ${exit.value.status}`) : Exit.void)
  } else {
    span.end(now, exit)
  }
}

/** A request that reached Node as HTTP/1.1 (not a fetch handler's `Request`) and sent no Host. */
const isHttp11WithoutHost = (request: HttpServerRequest.HttpServerRequest) => {
  const source = request.source as { readonly httpVersion?: unknown; readonly headers?: Record<string, unknown> }
  return source.httpVersion === "1.1" && source.headers?.host === undefined
}

const isJsonResponse = (response: HttpServerResponse.HttpServerResponse) => {
  const body = response.body
  const contentType = body._tag === "Empty" ? undefined : (body.contentType ?? response.headers["content-type"])
  return body._tag !== "Empty" && contentType !== undefined && contentType.includes("json")
}

const pickHeaders = (headers: Readonly<Record<string, string>>, names: ReadonlyArray<string>) =>
  Object.fromEntries(names.flatMap((name) => (headers[name] === undefined ? [] : [[name, headers[name]]])))

const truncate = (s: string) => (s.length > 200 ? `${s.slice(0, 197)}…` : s)
