/**
 * The one global middleware every request passes through — route lookup included — so that every
 * error the server can produce leaves in the published envelope: unknown paths (404), wrong methods
 * (405 + Allow), unreadable bodies, decode failures and defects (500, nothing internal disclosed).
 * It also sets `x-request-id` and writes the request's log line.
 */
import { randomUUID } from "node:crypto"
import * as ByteSize from "effect/ByteSize"
import * as Cause from "effect/Cause"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as HttpIncomingMessage from "effect/http/HttpIncomingMessage"
import * as HttpRouter from "effect/http/HttpRouter"
import * as HttpServerRequest from "effect/http/HttpServerRequest"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import * as HttpTraceContext from "effect/http/HttpTraceContext"
import * as Option from "effect/Option"
import * as References from "effect/References"
import * as Tracer from "effect/Tracer"
import { type ErrorBody, type ErrorCode, errorBody, errorCodes } from "../api/envelope.ts"
import { maxBodyBytes } from "../api/parameters.ts"
import { ParticipantCaller } from "../api/security.ts"
import { AppConfig, isEmbeddedIssuer, type Sampler } from "../config.ts"
import { isConsolePath } from "../domain/login.ts"
import { participantTools } from "../mcp/participant_tools.ts"
import { explained } from "../mcp/refusals.ts"
import { mcpPathOf, participantMcpPathOf } from "../mcp/server.ts"
import { makeSharedSessions } from "../mcp/sessions.ts"
import { type CallKind, callKind, callKindOf } from "../mcp/tools.ts"
import { isOAuthPath } from "../oauth/server.ts"
import { retryAfterSeconds, storageUnavailable } from "../operations/failures.ts"
import { invalidRequest } from "../operations/invalid_request.ts"
import { ParticipantOperations } from "../operations/participant.ts"
import { McpSessionStore } from "../services/mcp_session_store.ts"
import { type LimitState, RateLimits } from "../services/rate_limits.ts"
import { decidedSampling, isSampled, newTraceId } from "../tracing.ts"
import { tooLarge } from "./json_body.ts"
import { makeParticipantMcpDoor } from "./participant_mcp.ts"
import { disabledRequestLog, makeRequestLog, type RequestLog } from "./request_log.ts"
import { routeFor } from "./routes.ts"

const maxMcpBody = ByteSize.bytes(maxBodyBytes)

const saneRequestId = /^[A-Za-z0-9._:@/+=-]{1,128}$/

const corsHeaders = {
  "access-control-allow-origin": "*",
  "access-control-expose-headers":
    "etag, location, idempotent-replayed, retry-after, x-request-id, allow, www-authenticate, content-disposition, ratelimit-limit, ratelimit-remaining, ratelimit-reset, mcp-session-id, mcp-protocol-version"
}

/**
 * The methods of the MCP endpoint (Streamable HTTP), and what a browser client may send it. No GET:
 * this server sends nothing unprompted, so it opens no server-initiated stream (MCP allows a 405).
 */
const mcpMethods = "POST, DELETE, OPTIONS"
const mcpRequestHeaders =
  "content-type, accept, authorization, mcp-session-id, mcp-protocol-version, last-event-id, x-request-id"

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
    const limitsOn = config.rateLimit !== undefined
    const rateLimits = yield* RateLimits
    // RFC 9728 §5.1: a 401 names where the protected resource's metadata is.
    const wwwAuthenticate = `Bearer resource_metadata="${config.publicBaseUrl}/.well-known/oauth-protected-resource"`
    const log: RequestLog = ["All", "Trace", "Debug", "Info"].includes(config.logLevel)
      ? makeRequestLog()
      : disabledRequestLog

    const envelope = (body: ErrorBody, headers: Record<string, string> = {}) =>
      HttpServerResponse.jsonUnsafe({ error: body }, { status: body.status, headers })
    const payloadTooLarge = envelope(tooLarge(docs).error)
    const storageUnavailableResponse = envelope(storageUnavailable(docs).error)

    // The MCP endpoints, when they are served here (mcp/server.ts, mcp/participant_server.ts):
    // their sessions are shared by every process (mcp/sessions.ts), their bodies are read under
    // the same limit as REST's, and their own answers (MCP's 202, 400, 403, 404, 406) leave as MCP
    // defines them. The participant's endpoint also needs the participant's access token on every
    // request (participant_mcp.ts), whose caller it is served with.
    const sessionStore = yield* McpSessionStore
    const participantPath = participantMcpPathOf(config)
    const mcpEndpoints = new Map<string, McpEndpoint>()
    const agentPath = mcpPathOf(config)
    if (agentPath !== undefined) {
      mcpEndpoints.set(agentPath, { sessions: makeSharedSessions(sessionStore), callKind, door: undefined })
    }
    if (participantPath !== undefined) {
      mcpEndpoints.set(participantPath, {
        sessions: makeSharedSessions(sessionStore),
        callKind: callKindOf(participantTools),
        door: makeParticipantMcpDoor(config, participantPath, yield* ParticipantOperations)
      })
    }
    const isMcp = (path: string) => mcpEndpoints.has(path)
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
      if (route === undefined && isMcp(path)) {
        return envelope(
          errorBody(docs, "method_not_allowed", `${truncate(request.method)} is not allowed on ${path}.`, {
            hint: "The MCP endpoint takes POST (JSON-RPC messages) and DELETE (ending a session), as MCP's Streamable HTTP transport defines."
          }),
          { allow: mcpMethods }
        )
      }
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
          return envelope(invalidRequest(docs, kind, cause))
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
    const finish = (
      arrival: Arrival,
      limited: LimitState | undefined,
      answered: HttpServerResponse.HttpServerResponse,
      asAnswered = false
    ) => {
      let response = answered
      // Whatever produced an error response without a JSON body (a framework default such as an
      // empty 4xx or a text/plain 415), the client still gets the envelope — except MCP's own.
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
      if (limited !== undefined) {
        headers["ratelimit-limit"] = String(limited.limit)
        headers["ratelimit-remaining"] = String(limited.remaining)
        headers["ratelimit-reset"] = String(limited.resetSeconds)
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

    const rateLimited = (limit: number, retryAfter: number) =>
      envelope(
        errorBody(docs, "rate_limited", `Too many requests: the limit is ${limit} per window for this client.`, {
          hint: `Retry after ${retryAfter} seconds; wait for changes with ?wait=N instead of polling fast.`
        }),
        { "retry-after": String(retryAfter) }
      )

    /** The request answered: the limiter consulted (when limits are on), then the handler. */
    const respond = <E, R>(httpEffect: HttpEffect<E, R>, arrival: Arrival) => {
      const request = arrival.request
      if (isPagePath(arrival.path)) {
        return Effect.map(Effect.catchCause(httpEffect, recover(request, arrival.requestId)), (response) =>
          finish(arrival, undefined, response, true)
        )
      }
      const mcp = mcpEndpoints.get(arrival.path)
      if (mcp !== undefined) {
        // A browser client's CORS preflight is answered here; MCP's own routes take no OPTIONS.
        return request.method === "OPTIONS"
          ? Effect.succeed(finish(arrival, undefined, mcpPreflight))
          : respondMcp(httpEffect, arrival, mcp)
      }
      const handle = (limited: LimitState | undefined) =>
        limited?.retryAfterSeconds !== undefined
          ? Effect.succeed(finish(arrival, limited, rateLimited(limited.limit, limited.retryAfterSeconds)))
          : Effect.map(Effect.catchCause(httpEffect, recover(request, arrival.requestId)), (response) =>
              finish(arrival, limited, response)
            )
      if (!limitsOn || arrival.path === "/healthz" || arrival.path === "/readyz") return handle(undefined)
      return Effect.flatMap(
        rateLimits.consume(
          Option.getOrElse(request.remoteAddress, () => "unknown"),
          request.method === "GET" || request.method === "HEAD" || request.method === "OPTIONS" ? "read" : "write"
        ),
        handle
      )
    }

    const mcpPreflight = HttpServerResponse.empty({
      status: 204,
      headers: {
        allow: mcpMethods,
        "access-control-allow-methods": mcpMethods,
        "access-control-allow-headers": mcpRequestHeaders,
        "access-control-max-age": "600"
      }
    })
    const unreadableBody = envelope(errorBody(docs, "invalid_json", "The request body could not be read."))

    /**
     * An MCP request: its body read under REST's limit, counted by the limiter as REST counts the
     * same operation (a tool call by its tool; anything else as a read), its caller signed in
     * where the endpoint needs one (then its session must be the caller's), served with its
     * session wherever it began.
     */
    const respondMcp = <E, R>(httpEffect: HttpEffect<E, R>, arrival: Arrival, mcp: McpEndpoint) => {
      const request = arrival.request
      if (Number(request.headers["content-length"]) > maxBodyBytes) {
        return Effect.succeed(finish(arrival, undefined, payloadTooLarge))
      }
      const underSession = (body: string) =>
        mcp.door === undefined
          ? mcp.sessions(httpEffect, request, body)
          : Effect.flatMap(Effect.result(mcp.door(request)), (signedIn) =>
              signedIn._tag === "Failure"
                ? Effect.succeed(signedIn.failure)
                : // The caller reaches the tools through the request's own context (mcp/participant_server.ts).
                  mcp.sessions(
                    Effect.provideService(httpEffect, ParticipantCaller, signedIn.success),
                    request,
                    body,
                    signedIn.success.subject
                  )
            )
      const serve = (body: string) => (limited: LimitState | undefined) =>
        limited?.retryAfterSeconds !== undefined
          ? Effect.succeed(finish(arrival, limited, rateLimited(limited.limit, limited.retryAfterSeconds)))
          : underSession(body).pipe(
              Effect.catchTag("StorageUnavailable", () => Effect.succeed(storageUnavailableResponse)),
              Effect.catchCause(recover(request, arrival.requestId)),
              Effect.map((response) => finish(arrival, limited, explained(response), true))
            )
      return request.text.pipe(
        Effect.provideService(HttpIncomingMessage.MaxBodySize, maxMcpBody),
        Effect.matchEffect({
          onFailure: (error) =>
            Effect.succeed(
              finish(
                arrival,
                undefined,
                error.reason._tag === "RequestParseError" && error.reason.reason === "BodyTooLarge"
                  ? payloadTooLarge
                  : unreadableBody
              )
            ),
          onSuccess: (body) =>
            limitsOn
              ? Effect.flatMap(
                  rateLimits.consume(
                    Option.getOrElse(request.remoteAddress, () => "unknown"),
                    request.method === "POST" ? mcp.callKind(body) : "read"
                  ),
                  serve(body)
                )
              : serve(body)(undefined)
        })
      )
    }

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
          return Effect.succeed(finish(arrive(undefined), undefined, missingHost))
        }
        return sampler === undefined
          ? respond(httpEffect, arrive(undefined))
          : traced(httpEffect, request, arrive, sampler, fiber.getRef(References.TracerEnabled))
      })
  }),
  { global: true }
)

/** An MCP endpoint served here, as the middleware serves it. */
interface McpEndpoint {
  readonly sessions: ReturnType<typeof makeSharedSessions>
  readonly callKind: (body: string) => CallKind
  /** Signs the caller in (the participant's endpoint), or refuses the request; none on the agents' endpoint. */
  readonly door: ReturnType<typeof makeParticipantMcpDoor> | undefined
}

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
