/**
 * MCP sessions shared by every process behind one address. Effect's MCP server keeps its sessions
 * in the memory of the process that answered `initialize`; behind a load balancer the next request
 * of the same client may reach another process, which would answer 404 (unknown session). So each
 * new session's `initialize` is kept in the database (services/mcp_session_store.ts), and a
 * process that meets a session it has not seen opens its own with the same `initialize` (same
 * protocol revision, same client capabilities) and serves the request under it — the client keeps
 * the session id it was given. A session ended (DELETE) in one process has ended in all of them.
 *
 * Each MCP endpoint has its own (`makeSharedSessions` once per endpoint: the agents' and the
 * participant's). A participant's session is its subject's: the subject of the access token that
 * opened it is kept with it, and a request presenting another subject's token (or none, as the
 * agents' endpoint does) is answered as if the session did not exist — see `serve`.
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

/**
 * Sessions this process remembers at most: the oldest is then forgotten and its own session ended;
 * it is re-opened from the database when it is next used.
 */
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

/**
 * Ends this process's own session (Effect keeps every session until it is ended): one the
 * database no longer has, or one this process stops remembering.
 */
const endOwn = <E, R>(serveRoute: Serve<E, R>, request: HttpServerRequest.HttpServerRequest, own: string) =>
  Effect.asVoid(aside(serveRoute, rebuilt(request, { [sessionHeader]: own }, "DELETE", undefined)))

export const makeSharedSessions = (store: McpSessionStore["Service"]) => {
  /** The session id a client holds → this process's own session for it (the same id where it began here). */
  const local = new Map<string, string>()
  /**
   * Past the bound, the oldest sessions are forgotten and their own sessions ended (each request
   * checks first, so the map never holds more than one new entry past it).
   */
  const trim = <E, R>(serveRoute: Serve<E, R>, request: HttpServerRequest.HttpServerRequest) => {
    if (local.size <= remembered) return Effect.void
    const [oldest, itsOwn] = local.entries().next().value!
    local.delete(oldest)
    return endOwn(serveRoute, request, itsOwn)
  }
  /** Forgets a session the database no longer has, and ends this process's own for it. */
  const forget = <E, R>(serveRoute: Serve<E, R>, request: HttpServerRequest.HttpServerRequest, held: string) => {
    const own = local.get(held)
    if (own === undefined) return Effect.void
    local.delete(held)
    return endOwn(serveRoute, request, own)
  }

  /** Once the response of a new session's `initialize` is final: the session kept for every process. */
  const recordOpened = (body: string, subject: string | undefined) =>
    HttpEffect.appendPreResponseHandler((_, response) => {
      const opened = response.headers[sessionHeader]
      if (response.status !== 200 || opened === undefined) return Effect.succeed(response)
      return store.record(opened, body, subject).pipe(
        Effect.tap(() =>
          Effect.sync(() => {
            local.set(opened, opened)
          })
        ),
        // Not kept: other processes will not know it (404 there, and the client starts again).
        Effect.catch(() => Effect.void),
        Effect.as(response)
      )
    })

  // Made once, not per request (docs/performance.md, "No generator function made per request").
  const serve = Effect.fnUntraced(function* <E, R>(
    serveRoute: Serve<E, R>,
    request: HttpServerRequest.HttpServerRequest,
    body: string,
    subject: string | undefined
  ) {
    yield* trim(serveRoute, request)
    const held = request.headers[sessionHeader]
    if (held === undefined) {
      // A new session may begin here (else MCP refuses the request, as it says, with no session).
      const response = yield* serveAs(serveRoute, request)
      yield* recordOpened(body, subject)
      return response
    }
    const session = yield* store.find(held)
    if (session === undefined) {
      // Ended, expired or never issued: 404, and the client starts a new session (MCP's rule).
      yield* forget(serveRoute, request, held)
      return HttpServerResponse.empty({ status: 404 })
    }
    if (session.subject !== subject) {
      // Another subject's session (or another endpoint's): 404, not 403. To this caller it does
      // not exist — a 403 would confirm that the id is live for someone — and MCP clients answer
      // 404 by opening a new session, under the caller's own token: what a host whose user
      // signed in as someone else needs. The session stands for its own subject (nothing is
      // forgotten or ended: a DELETE with the wrong token ends nothing either).
      return HttpServerResponse.empty({ status: 404 })
    }
    let own = local.get(held)
    if (own === undefined) {
      own = yield* reopen(serveRoute, request, session.initialize)
      if (own === undefined) return HttpServerResponse.empty({ status: 404 })
      local.set(held, own)
    }
    // Ended in the database first: should that fail, the session still stands everywhere, as the
    // client's retry will find it; ended the other way round, other processes would go on serving it.
    if (request.method === "DELETE") yield* store.remove(held)
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
    if (request.method === "DELETE") local.delete(held)
    return response
  })
  /**
   * Serves an MCP request under its session, wherever it began. `subject`: the verified subject of
   * the participant's endpoint's request (its session must be theirs), undefined on the agents'.
   */
  return <E, R>(
    serveRoute: Serve<E, R>,
    request: HttpServerRequest.HttpServerRequest,
    body: string,
    subject: string | undefined = undefined
  ): Effect.Effect<
    HttpServerResponse.HttpServerResponse,
    E | StorageUnavailable,
    R | HttpServerRequest.HttpServerRequest
  > => serve(serveRoute, request, body, subject)
}
