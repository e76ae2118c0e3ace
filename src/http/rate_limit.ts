/**
 * The request limiter (RATE_LIMIT), one for REST and MCP, attached to the routes it limits: the REST
 * API's routes through `rateLimitMiddleware` (server.ts), each MCP endpoint's
 * through `limiter` (mcp/endpoint.ts, which counts a tool call by its tool). The health endpoints are
 * never limited, nor the authorization server's and the console's pages (sign-in and registration
 * have limits of their own); a path no route serves is not counted.
 *
 * A request within the limit is answered with `ratelimit-*` headers (set on its final response,
 * whatever the handler or the envelope made of it); past the limit, 429 `rate_limited` with
 * `Retry-After`, and the handler does not run.
 */
import * as Effect from "effect/Effect"
import * as HttpEffect from "effect/http/HttpEffect"
import type * as HttpMiddleware from "effect/http/HttpMiddleware"
import * as HttpRouter from "effect/http/HttpRouter"
import * as HttpServerRequest from "effect/http/HttpServerRequest"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import * as Option from "effect/Option"
import { errorBody } from "../api/envelope.ts"
import { AppConfig } from "../config/app_config.ts"
import { type LimitState, RateLimits, type RequestKind } from "../services/rate_limits.ts"

/** The routes the limiter never counts (load balancers and orchestrators poll them). */
const unlimitedRoutes: ReadonlySet<string> = new Set(["/healthz", "/readyz"])

const limitHeaders = (state: LimitState) => ({
  "ratelimit-limit": String(state.limit),
  "ratelimit-remaining": String(state.remaining),
  "ratelimit-reset": String(state.resetSeconds)
})

/**
 * `limit(request, kind, answer)`: `answer` if the request's client is within its limit for `kind`,
 * else the 429. An identity when RATE_LIMIT is off.
 */
export const limiter = Effect.gen(function* () {
  const config = yield* AppConfig
  const rateLimits = yield* RateLimits
  const on = config.rateLimit !== undefined
  const rateLimited = (state: LimitState, retryAfter: number) =>
    HttpServerResponse.jsonUnsafe(
      {
        error: errorBody(
          config.docsUrl,
          "rate_limited",
          `Too many requests: the limit is ${state.limit} per window for this client.`,
          { hint: `Retry after ${retryAfter} seconds; wait for changes with ?wait=N instead of polling fast.` }
        )
      },
      { status: 429, headers: { ...limitHeaders(state), "retry-after": String(retryAfter) } }
    )
  return <E, R>(
    request: HttpServerRequest.HttpServerRequest,
    kind: RequestKind,
    answer: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>
  ): Effect.Effect<HttpServerResponse.HttpServerResponse, E, R | HttpServerRequest.HttpServerRequest> =>
    on
      ? Effect.flatMap(
          rateLimits.consume(
            Option.getOrElse(request.remoteAddress, () => "unknown"),
            kind
          ),
          (state) => {
            if (state === undefined) return answer
            if (state.retryAfterSeconds !== undefined) {
              return Effect.succeed(rateLimited(state, state.retryAfterSeconds))
            }
            const headers = limitHeaders(state)
            return Effect.andThen(
              HttpEffect.appendPreResponseHandler((_, response) =>
                Effect.succeed(HttpServerResponse.setHeaders(response, headers))
              ),
              answer
            )
          }
        )
      : answer
})

/** What a REST request counts as: reads (and CORS preflights) against one limit, writes against another. */
const kindOf = (method: string): RequestKind =>
  method === "GET" || method === "HEAD" || method === "OPTIONS" ? "read" : "write"

/** The limiter on the REST API's routes (server.ts); none when RATE_LIMIT is off. */
export const rateLimitMiddleware = Effect.gen(function* () {
  const config = yield* AppConfig
  const limit = yield* limiter
  if (config.rateLimit === undefined) return undefined
  const middleware: HttpMiddleware.HttpMiddleware = (httpEffect) =>
    Effect.flatMap(HttpRouter.RouteContext, ({ route }) =>
      unlimitedRoutes.has(route.path)
        ? httpEffect
        : Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
            limit(request, kindOf(request.method), httpEffect)
          )
    )
  return middleware
})
