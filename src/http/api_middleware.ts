/**
 * How middlewares compose (`inOrder`), and the middleware of the API's routes, REST (server.ts)
 * and MCP (mcp/endpoint.ts): CORS around the envelope of their answers.
 */
import * as Effect from "effect/Effect"
import type * as HttpMiddleware from "effect/http/HttpMiddleware"
import * as HttpRouter from "effect/http/HttpRouter"
import type * as HttpServerResponse from "effect/http/HttpServerResponse"
import { corsMiddleware } from "./cors.ts"
import { apiEnvelopeMiddleware } from "./error_envelope.ts"

/**
 * Middlewares applied in the order written: the first is the outermost; `undefined` is none. Typed
 * as passing errors and requirements through: what they need is the request's own (the request,
 * its route), and an error they do not answer goes on to the next.
 */
export const inOrder = (
  middlewares: ReadonlyArray<HttpMiddleware.HttpMiddleware | undefined>
): (<E, R>(
  httpEffect: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>
) => Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>) => {
  const present = middlewares.filter((middleware) => middleware !== undefined)
  return (httpEffect) => present.reduceRight((inner, middleware) => middleware(inner), httpEffect)
}

/** On the API's routes (REST and MCP): CORS around the envelope of their answers. */
export const ApiMiddleware = HttpRouter.middleware(
  Effect.map(apiEnvelopeMiddleware, (envelope) => inOrder([corsMiddleware, envelope]))
)
