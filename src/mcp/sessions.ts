/**
 * MCP sessions shared by every process behind one address. Effect's MCP server keeps its sessions
 * in the memory of the process that answered `initialize`; behind a load balancer the next request
 * of the same client may reach another process, which would answer 404 (unknown session). So each
 * new session's `initialize` is kept in the database (services/mcp_session_store.ts), and a
 * process that meets a session it has not seen opens its own with the same `initialize` (same
 * protocol revision, same client capabilities) and serves the request under it — the client keeps
 * the session id it was given. A session ended (DELETE) in one process has ended in all of them.
 *
 * The MCP routes are served unchanged: this runs the router's own handling (`serveRoute`, the
 * request's lookup and handler) with the request as the session's process knows it.
 */
import * as Effect from "effect/Effect"
import * as HttpEffect from "effect/http/HttpEffect"
import * as HttpServerRequest from "effect/http/HttpServerRequest"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import type { StorageUnavailable } from "../domain/errors.ts"
import type { McpSessionStore } from "../services/mcp_session_store.ts"

const sessionHeader = "mcp-session-id"

/** The request's headers as a plain record (Effect's Headers carry symbol-keyed members too). */
const plainHeaders = (request: HttpServerRequest.HttpServerRequest): Record<string, string> =>
  Object.fromEntries(Object.entries(request.headers))

/** Sessions this process remembers at most; one forgotten is re-opened from the database when it is next used. */
const remembered = 10_000

type Serve<E, R> = Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>

/** `serveRoute` (the router's handling of a request) run for `request`. */
const serveAs = <E, R>(serveRoute: Serve<E, R>, request: HttpServerRequest.HttpServerRequest) =>
  Effect.provideService(serveRoute, HttpServerRequest.HttpServerRequest, request)

/**
 * A request of this process's own, answered apart from the client's: as a request of its own
 * (HttpEffect.toHandled), whose response headers — the session id MCP sets as the response
 * leaves — are the final ones, and none of which reach the client's response.
 */
const aside = <E, R>(serveRoute: Serve<E, R>, request: HttpServerRequest.HttpServerRequest) => {
  let answered: HttpServerResponse.HttpServerResponse | undefined
  const keep = (_: HttpServerRequest.HttpServerRequest, response: HttpServerResponse.HttpServerResponse) =>
    Effect.sync(() => {
      answered = response
    })
  return Effect.map(
    Effect.provideService(HttpEffect.toHandled(serveRoute, keep), HttpServerRequest.HttpServerRequest, request),
    () => answered
  )
}

/** The request with other headers and the body already read, as the router and MCP server take it. */
const rebuilt = (
  request: HttpServerRequest.HttpServerRequest,
  headers: Record<string, string>,
  method: string,
  body: string | undefined
) => {
  const { "content-length": _length, ...rest } = headers
  return HttpServerRequest.fromWeb(
    new Request(`http://mcp.local${request.url}`, { method, headers: rest, ...(body === undefined ? {} : { body }) })
  )
}

/** Opens this process's own session from a stored `initialize`; its id, or undefined if refused. */
const reopen = Effect.fnUntraced(function* <E, R>(
  serveRoute: Serve<E, R>,
  request: HttpServerRequest.HttpServerRequest,
  initialize: string
) {
  const { [sessionHeader]: _held, ...sent } = plainHeaders(request)
  const headers = { ...sent, "content-type": "application/json", accept: "application/json, text/event-stream" }
  const opened = yield* aside(serveRoute, rebuilt(request, headers, "POST", initialize))
  const id = opened?.headers[sessionHeader]
  if (opened?.status !== 200 || id === undefined) return undefined
  yield* aside(
    serveRoute,
    rebuilt(
      request,
      { ...headers, [sessionHeader]: id, "mcp-protocol-version": opened.headers["mcp-protocol-version"] ?? "" },
      "POST",
      '{"jsonrpc":"2.0","method":"notifications/initialized"}'
    )
  )
  return id
})

export const makeSharedSessions = (store: McpSessionStore["Service"]) => {
  /** The session id a client holds → this process's own session for it (the same id where it began here). */
  const local = new Map<string, string>()
  const remember = (held: string, own: string) => {
    local.set(held, own)
    if (local.size > remembered) local.delete(local.keys().next().value!)
  }

  /** Once the response of a new session's `initialize` is final: the session kept for every process. */
  const recordOpened = (initialize: string) =>
    HttpEffect.appendPreResponseHandler((_, response) => {
      const opened = response.headers[sessionHeader]
      if (response.status !== 200 || opened === undefined) return Effect.succeed(response)
      remember(opened, opened)
      return Effect.as(
        Effect.catch(store.record(opened, initialize), () => Effect.sync(() => local.delete(opened))),
        response
      )
    })

  // Made once, not per request (docs/performance.md, "No generator function made per request").
  const serve = Effect.fnUntraced(function* <E, R>(
    serveRoute: Serve<E, R>,
    request: HttpServerRequest.HttpServerRequest,
    body: string
  ) {
    const held = request.headers[sessionHeader]
    if (held === undefined) {
      // A new session may begin here (else MCP refuses the request, as it says, with no session).
      const response = yield* serveAs(serveRoute, request)
      yield* recordOpened(body)
      return response
    }
    const initialize = yield* store.find(held)
    if (initialize === undefined) {
      // Ended, expired or never issued: 404, and the client starts a new session (MCP's rule).
      local.delete(held)
      return HttpServerResponse.empty({ status: 404 })
    }
    let own = local.get(held)
    if (own === undefined) {
      own = yield* reopen(serveRoute, request, initialize)
      if (own === undefined) return HttpServerResponse.empty({ status: 404 })
      remember(held, own)
    }
    const response = yield* serveAs(
      serveRoute,
      own === held
        ? request
        : rebuilt(
            request,
            { ...plainHeaders(request), [sessionHeader]: own },
            request.method,
            request.method === "POST" ? body : undefined
          )
    )
    if (request.method === "DELETE" && response.status < 300) {
      yield* store.remove(held)
      local.delete(held)
    }
    return response
  })
  return <E, R>(
    serveRoute: Serve<E, R>,
    request: HttpServerRequest.HttpServerRequest,
    body: string
  ): Effect.Effect<
    HttpServerResponse.HttpServerResponse,
    E | StorageUnavailable,
    R | HttpServerRequest.HttpServerRequest
  > => serve(serveRoute, request, body)
}
