/**
 * Every error the server can produce leaves in the published envelope (api/envelope.ts): a typed
 * refusal, a request whose body cannot be read, a decode failure, a defect (500, nothing internal
 * disclosed, the request id to quote), an unknown path (404) or method (405 + `Allow`).
 *
 * Two middlewares share the mapping. `apiEnvelopeMiddleware` is on the API's routes, REST and MCP
 * (api_middleware.ts): it answers their failures, and turns a bare error status some framework
 * code answers with (an empty 4xx, a text/plain 415) into the envelope. `envelopeMiddleware` is
 * around every request (server.ts): it answers what no route did — no route for the path or the
 * method, a request without `Host`, the pages' failures — and names, on any 401 and 503, where the
 * protected resource's metadata is and when to retry. The pages' own answers (HTML, OAuth's JSON,
 * redirects) leave as written.
 */
import * as Cause from "effect/Cause"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import type * as HttpMiddleware from "effect/http/HttpMiddleware"
import * as HttpServerRequest from "effect/http/HttpServerRequest"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import { type ErrorBody, type ErrorCode, errorBody, errorCodes, refusalBody } from "../api/envelope.ts"
import { AppConfig } from "../config/app_config.ts"
import { retryAfterSeconds } from "../domain/errors.ts"
import { invalidRequest, truncate } from "../operations/invalid_request.ts"
import { corsHeaders, preflightAnswer } from "./cors.ts"
import { tooLarge } from "./json_body.ts"
import { RequestId } from "./request_id.ts"
import { routeFor } from "./routes.ts"

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

/** Where a status has several codes, the one a bare status stands for: the generic one. */
const genericCodes: ReadonlyArray<ErrorCode> = ["invalid_request", "not_found", "storage_unavailable"]

/** The code a bare status (an empty or non-JSON error response) stands for. */
const codeForStatus = (status: number): ErrorCode =>
  [...genericCodes, ...(Object.keys(errorCodes) as Array<ErrorCode>)].find(
    (code) => errorCodes[code].status === status
  ) ?? (status < 500 ? "invalid_request" : "internal_error")

const envelope = (body: ErrorBody, headers: Record<string, string> = {}) =>
  HttpServerResponse.jsonUnsafe({ error: body }, { status: body.status, headers })

const isJsonResponse = (response: HttpServerResponse.HttpServerResponse) => {
  const body = response.body
  const contentType = body._tag === "Empty" ? undefined : (body.contentType ?? response.headers["content-type"])
  return body._tag !== "Empty" && contentType !== undefined && contentType.includes("json")
}

const pickHeaders = (headers: Readonly<Record<string, string>>, names: ReadonlyArray<string>) =>
  Object.fromEntries(names.flatMap((name) => (headers[name] === undefined ? [] : [[name, headers[name]]])))

/** A request that reached Node as HTTP/1.1 (not a fetch handler's `Request`) and sent no Host. */
const isHttp11WithoutHost = (request: HttpServerRequest.HttpServerRequest) => {
  const source = request.source as { readonly httpVersion?: unknown; readonly headers?: Record<string, unknown> }
  return source.httpVersion === "1.1" && source.headers?.host === undefined
}

/** The mapping from what a request failed with to its answer, for the documentation at `docs`. */
const makeRecover = (docs: string) => {
  const payloadTooLarge = envelope(tooLarge(docs).error)

  const notFound = (request: HttpServerRequest.HttpServerRequest) => {
    const route = routeFor(request.url)
    if (route === undefined) {
      const path = request.url.split("?", 1)[0] ?? "/"
      return envelope(
        errorBody(docs, "not_found", `No endpoint at ${truncate(path)}.`, {
          hint: "Start from the service index, GET /api/public/v1, which lists every endpoint."
        }),
        corsHeaders
      )
    }
    const allow = route.methods.join(", ")
    if (request.method === "OPTIONS") return preflightAnswer(allow)
    const right = route.methods.filter((m) => m !== "HEAD")
    return envelope(
      errorBody(docs, "method_not_allowed", `${truncate(request.method)} is not allowed on ${route.path}.`, {
        hint: `Use ${right.join(" or ")} ${route.path}.`
      }),
      { ...corsHeaders, allow }
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
    if (tag === "HttpApiPayloadTooLarge") return payloadTooLarge
    return undefined
  }

  const internal = (cause: Cause.Cause<unknown>, requestId: string) =>
    Effect.as(
      Effect.logError("request failed", { request_id: requestId, cause: Cause.pretty(cause) }),
      envelope(
        errorBody(docs, "internal_error", "Something went wrong on our side; nothing was changed by this request.", {
          hint: `Retry later; if it persists, report the request id ${requestId}.`
        })
      )
    )

  /** Whatever the request failed with, as a response in the envelope (interrupts stay interrupts). */
  return (cause: Cause.Cause<unknown>) =>
    Effect.withFiber((fiber) => {
      if (Cause.hasInterruptsOnly(cause)) return Effect.failCause(cause)
      const request = Context.getUnsafe(fiber.context, HttpServerRequest.HttpServerRequest)
      const failure = Cause.findErrorOption(cause)
      const mapped = failure._tag === "Some" ? fromFailure(request, failure.value) : fromDefect(Cause.squash(cause))
      return mapped === undefined ? internal(cause, fiber.getRef(RequestId)) : Effect.succeed(mapped)
    })
}

/** On the API's routes: their failures answered in the envelope, and a bare error status too. */
export const apiEnvelopeMiddleware = Effect.gen(function* () {
  const config = yield* AppConfig
  const recover = makeRecover(config.docsUrl)
  const inEnvelope = (response: HttpServerResponse.HttpServerResponse) => {
    // Whatever produced an error response without a JSON body (a framework default such as an
    // empty 4xx or a text/plain 415), the client still gets the envelope.
    if (response.status < 400 || isJsonResponse(response)) return response
    const code = codeForStatus(response.status)
    return envelope(
      errorBody(config.docsUrl, code, errorCodes[code].meaning),
      pickHeaders(response.headers, ["allow", "retry-after"])
    )
  }
  const middleware: HttpMiddleware.HttpMiddleware = (httpEffect) =>
    Effect.map(Effect.catchCause(httpEffect, recover), inEnvelope)
  return middleware
})

/** Around every request: what no route answered, in the envelope; 401 and 503 say what to do next. */
export const envelopeMiddleware = Effect.gen(function* () {
  const config = yield* AppConfig
  const recover = makeRecover(config.docsUrl)
  // RFC 9728 §5.1: a 401 names where the protected resource's metadata is.
  const wwwAuthenticate = `Bearer resource_metadata="${config.publicBaseUrl}/.well-known/oauth-protected-resource"`
  const missingHost = envelope(
    errorBody(config.docsUrl, "invalid_request", "The Host header is missing; HTTP/1.1 requires it.", {
      hint: "Send Host: <the server's host name and port> with every request."
    }),
    { ...corsHeaders, connection: "close" }
  )
  const withNextStep = (response: HttpServerResponse.HttpServerResponse) =>
    // A resource other than the REST API (the participant's MCP endpoint) names its own metadata.
    response.status === 401 && response.headers["www-authenticate"] === undefined
      ? HttpServerResponse.setHeader(response, "www-authenticate", wwwAuthenticate)
      : response.status === 503 && response.headers["retry-after"] === undefined
        ? HttpServerResponse.setHeader(response, "retry-after", String(retryAfterSeconds))
        : response
  const middleware: HttpMiddleware.HttpMiddleware = (httpEffect) =>
    Effect.withFiber((fiber) => {
      const request = Context.getUnsafe(fiber.context, HttpServerRequest.HttpServerRequest)
      // HTTP/1.1 requires Host (RFC 9112 §3.2); Node lets such a request through to us
      // (server.ts) so that it is refused in the envelope, not with a bare 400.
      if (request.headers.host === undefined && isHttp11WithoutHost(request)) return Effect.succeed(missingHost)
      return Effect.map(Effect.catchCause(httpEffect, recover), withNextStep)
    })
  return middleware
})
