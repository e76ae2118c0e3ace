/**
 * An MCP endpoint's route, with the transport's guards attached to it — not to the text of its
 * path. Effect's MCP server (`McpServer.layerHttp`) registers its Streamable HTTP routes on a router
 * of this endpoint's own; the service's router has one route at the endpoint's path, for every
 * method, which guards each request and then hands it to that router:
 * - a browser client's CORS preflight is answered (MCP's own routes take no OPTIONS);
 * - the body is read under REST's limit (64 KiB; 413 before anything is read when Content-Length
 *   says more);
 * - the limiter counts the request as REST counts the same operation (a tool call by its tool,
 *   anything else as a read; http/rate_limit.ts);
 * - where the endpoint needs a caller (the participant's), the access token is verified (door.ts)
 *   and the caller provided to the request;
 * - MCP Tasks, which Effect's server does not serve, are answered by a front beside it where the
 *   endpoint has one (the agents': task_front.ts);
 * - the request is served under its session wherever the session began (sessions.ts);
 * - MCP's own empty refusals get a body that says why (refusals.ts);
 * - the API's middleware (CORS, the envelope: http/api_middleware.ts) is on this route alone, not
 *   on the MCP server's own routes behind it, whose answers it sees as this route's.
 *
 * Any other spelling of the path never reaches this route unguarded: it is redirected to this one
 * or is no route at all (http/canonical_path.ts, http/routes.ts).
 */
import * as ByteSize from "effect/ByteSize"
import * as Effect from "effect/Effect"
import * as HttpIncomingMessage from "effect/http/HttpIncomingMessage"
import * as HttpRouter from "effect/http/HttpRouter"
import type * as HttpServerRequest from "effect/http/HttpServerRequest"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import * as Layer from "effect/Layer"
import { errorBody, refusalBody } from "../api/envelope.ts"
import { maxBodyBytes } from "../api/parameters.ts"
import { ParticipantCaller } from "../api/security.ts"
import { AppConfig } from "../config/app_config.ts"
import { StorageUnavailable } from "../domain/errors.ts"
import { ApiMiddleware } from "../http/api_middleware.ts"
import { tooLarge } from "../http/json_body.ts"
import { limiter } from "../http/rate_limit.ts"
import { routerConfig } from "../http/routes.ts"
import type { Caller } from "../operations/participant.ts"
import { McpSessionStore } from "../services/mcp_session_store.ts"
import { explained } from "./refusals.ts"
import { makeSharedSessions } from "./sessions.ts"
import type { Front } from "./task_front.ts"
import type { CallKind } from "./tools.ts"

/**
 * The methods of the MCP endpoint (Streamable HTTP), and what a browser client may send it. No GET:
 * this server sends nothing unprompted, so it opens no server-initiated stream (MCP allows a 405).
 */
const mcpMethods = "POST, DELETE, OPTIONS"
const mcpRequestHeaders =
  "content-type, accept, authorization, mcp-session-id, mcp-protocol-version, mcp-method, mcp-name, last-event-id, x-request-id"

const preflight = HttpServerResponse.empty({
  status: 204,
  headers: {
    allow: mcpMethods,
    "access-control-allow-methods": mcpMethods,
    "access-control-allow-headers": mcpRequestHeaders,
    "access-control-max-age": "600"
  }
})

const maxBody = ByteSize.bytes(maxBodyBytes)

const isTagged = (u: unknown, tag: string): u is { readonly _tag: string; readonly reason?: unknown } =>
  typeof u === "object" && u !== null && "_tag" in u && u._tag === tag

/** Signs the caller of a request in, or answers the refusal (the participant's endpoint: door.ts). */
export type Door = (
  request: HttpServerRequest.HttpServerRequest
) => Effect.Effect<Caller, HttpServerResponse.HttpServerResponse>

export interface McpEndpointOptions<E, R, RD> {
  /** The endpoint's path on this server. */
  readonly path: string
  /** Effect's MCP server with its tools, resources and prompts: it registers its routes on the router it is given. */
  readonly server: Layer.Layer<never, E, R>
  /** What a POST body counts as for the limiter. */
  readonly callKind: (body: string) => CallKind
  /** Where every request needs a signed-in caller; none on the agents' endpoint. */
  readonly door?: Effect.Effect<Door, never, RD> | undefined
  /** What answers some POSTed messages before the MCP server does (MCP Tasks: task_front.ts). */
  readonly front?: Effect.Effect<Front, never, RD> | undefined
}

/** The endpoint's guarded route on the service's router, and its MCP server behind it. */
export const mcpEndpoint = <E, R, RD = never>(options: McpEndpointOptions<E, R, RD>) =>
  Layer.unwrap(
    Effect.gen(function* () {
      const own = yield* Effect.provideService(HttpRouter.make, HttpRouter.RouterConfig, routerConfig)
      const serveOwn = own.asHttpEffect()
      const route = HttpRouter.use(
        Effect.fnUntraced(function* (router) {
          const config = yield* AppConfig
          const limit = yield* limiter
          const sessions = makeSharedSessions(yield* McpSessionStore)
          const door = options.door === undefined ? undefined : yield* options.door
          const front = options.front === undefined ? undefined : yield* options.front
          const docs = config.docsUrl
          const envelope = (body: ReturnType<typeof errorBody>, headers: Record<string, string> = {}) =>
            HttpServerResponse.jsonUnsafe({ error: body }, { status: body.status, headers })
          const payloadTooLarge = envelope(tooLarge(docs).error)
          const unreadableBody = envelope(errorBody(docs, "invalid_json", "The request body could not be read."))
          const unavailable = envelope(refusalBody(docs, new StorageUnavailable({ cause: undefined })))
          const methodNotAllowed = (method: string) =>
            envelope(
              errorBody(docs, "method_not_allowed", `${method.slice(0, 20)} is not allowed on ${options.path}.`, {
                hint: "The MCP endpoint takes POST (JSON-RPC messages) and DELETE (ending a session), as MCP's Streamable HTTP transport defines."
              }),
              { allow: mcpMethods }
            )

          /** The request served by the MCP server under its session (and, behind a door, as its caller). */
          const underSession = (request: HttpServerRequest.HttpServerRequest, body: string) =>
            door === undefined
              ? sessions(serveOwn, request, body)
              : Effect.flatMap(Effect.result(door(request)), (signedIn) =>
                  signedIn._tag === "Failure"
                    ? Effect.succeed(signedIn.failure)
                    : // The caller reaches the tools through the request's own context (participant_server.ts).
                      sessions(
                        Effect.provideService(serveOwn, ParticipantCaller, signedIn.success),
                        request,
                        body,
                        signedIn.success.subject
                      )
                )

          const serve = (request: HttpServerRequest.HttpServerRequest, body: string) =>
            (
              (request.method === "POST" ? front?.(request, body, underSession) : undefined) ??
              underSession(request, body)
            ).pipe(
              Effect.map(explained),
              Effect.catch((error) =>
                isTagged(error, "StorageUnavailable")
                  ? Effect.succeed(unavailable)
                  : // A method the MCP server has no route for at all.
                    isTagged(error, "HttpServerError") && isTagged(error.reason, "RouteNotFound")
                    ? Effect.succeed(methodNotAllowed(request.method))
                    : Effect.fail(error)
              )
            )

          yield* router.add("*", options.path as `/${string}`, (request) => {
            if (request.method === "OPTIONS") return Effect.succeed(preflight)
            if (Number(request.headers["content-length"]) > maxBodyBytes) return Effect.succeed(payloadTooLarge)
            return request.text.pipe(
              Effect.provideService(HttpIncomingMessage.MaxBodySize, maxBody),
              Effect.matchEffect({
                onFailure: (error) =>
                  Effect.succeed(
                    error.reason._tag === "RequestParseError" && error.reason.reason === "BodyTooLarge"
                      ? payloadTooLarge
                      : unreadableBody
                  ),
                onSuccess: (body) =>
                  limit(request, request.method === "POST" ? options.callKind(body) : "read", serve(request, body))
              })
            )
          })
        })
      )
      return Layer.merge(
        route.pipe(Layer.provide(ApiMiddleware.layer)),
        Layer.provide(options.server, Layer.succeed(HttpRouter.HttpRouter, own))
      )
    })
  )
