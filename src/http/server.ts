/**
 * The HTTP adapter assembled: the API's handlers, the OpenAPI document at its three addresses,
 * the docs page and the envelope middleware — as router layers, served by Node or exported as a
 * web-standard fetch handler.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { Duplex } from "node:stream"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import * as Effect from "effect/Effect"
import * as HttpMiddleware from "effect/http/HttpMiddleware"
import * as HttpRouter from "effect/http/HttpRouter"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import * as HttpApiBuilder from "effect/http-api/HttpApiBuilder"
import * as Layer from "effect/Layer"
import * as References from "effect/References"
import { MarketplaceApi } from "../api/api.ts"
import { type ErrorCode, errorBody, errorCodes } from "../api/envelope.ts"
import { AppConfig } from "../config/app_config.ts"
import { defaultHttpTimeouts, type HttpTimeouts } from "../config/settings.ts"
import { apiPrefix } from "../domain/addresses.ts"
import { serviceIndex } from "../operations/discovery.ts"
import { prefersHtml } from "../pages/accept.ts"
import { AccountHandlers } from "./account.ts"
import { AgentHandlers } from "./agent.ts"
import { inOrder } from "./api_middleware.ts"
import {
  AgentAuthenticationLayer,
  ParticipantAuthenticationLayer,
  TaskReaderAuthenticationLayer
} from "./authentication.ts"
import { canonicalPathMiddleware } from "./canonical_path.ts"
import { corsMiddleware } from "./cors.ts"
import { DiscoveryHandlers, ParticipantMcpMetadataRoute } from "./discovery.ts"
import { docsPageHandler } from "./docs_page.ts"
import { DraftsHandlers } from "./drafts.ts"
import { apiEnvelopeMiddleware, envelopeMiddleware } from "./error_envelope.ts"
import { EvidenceHandlers } from "./evidence.ts"
import { HealthHandlers } from "./health.ts"
import { MessagesHandlers } from "./messages.ts"
import { staticDocument } from "./negotiation.ts"
import { openApiDocument } from "./openapi.ts"
import { ParticipantsHandlers } from "./participants.ts"
import { rateLimitMiddleware } from "./rate_limit.ts"
import { requestIdMiddleware } from "./request_id.ts"
import { requestLogMiddleware } from "./request_log.ts"
import { docsPath, openApiPaths, rootPath, routerConfig } from "./routes.ts"
import { SandboxRoutes } from "./sandbox.ts"
import { serverSpanMiddleware } from "./server_span.ts"
import { TasksHandlers } from "./tasks.ts"
import { makeTurnBatching } from "./turn_batching.ts"

/**
 * The OpenAPI document at its three addresses, and the docs page that renders it; both are made on
 * the first request for them and kept, with their compressed copies (negotiation.ts). And `/`,
 * which leads each client to what it can read: a browser to the docs page, anything else (an agent,
 * curl) to the service index, answered in place so that a JSON client follows no redirect.
 */
const DocumentRoutes = HttpRouter.use(
  Effect.fnUntraced(function* (router) {
    const config = yield* AppConfig
    const document = () => openApiDocument(config)
    const serveDocument = staticDocument("application/json", async () => ({ text: JSON.stringify(document()) }))
    for (const path of openApiPaths) yield* router.add("GET", path, serveDocument)
    yield* router.add("GET", docsPath, docsPageHandler(document))
    const toDocs = HttpServerResponse.redirect(config.docsUrl, { status: 302, headers: { vary: "accept" } })
    const index = HttpServerResponse.jsonUnsafe(serviceIndex(config), {
      headers: { vary: "accept", "content-location": apiPrefix }
    })
    yield* router.add("GET", rootPath, (request) =>
      Effect.succeed(prefersHtml(request.headers.accept) ? toDocs : index)
    )
  })
)

/**
 * Around every request, outermost first: its response's wait for the end of the turn
 * (turn_batching.ts), its id (request_id.ts), its trace (server_span.ts), its log line
 * (request_log.ts), the envelope for whatever no route answered (error_envelope.ts), and the one
 * spelling of each path (canonical_path.ts).
 */
export const GlobalMiddleware = HttpRouter.middleware(
  Effect.gen(function* () {
    return inOrder([
      makeTurnBatching(),
      requestIdMiddleware,
      yield* serverSpanMiddleware,
      yield* requestLogMiddleware,
      yield* envelopeMiddleware,
      yield* canonicalPathMiddleware
    ])
  }),
  { global: true }
)

/** On the REST API's routes, outermost first: CORS, the request limiter, the envelope of their answers. */
const RestMiddleware = HttpRouter.middleware(
  Effect.gen(function* () {
    return inOrder([corsMiddleware, yield* rateLimitMiddleware, yield* apiEnvelopeMiddleware])
  })
)

/**
 * The REST API's routes, with the services the handlers need still to be provided, and the global
 * middleware.
 */
export const RestRoutes = Layer.mergeAll(
  Layer.mergeAll(
    HttpApiBuilder.layer(MarketplaceApi).pipe(
      Layer.provide([
        DiscoveryHandlers,
        ParticipantsHandlers,
        DraftsHandlers,
        TasksHandlers,
        AgentHandlers,
        AccountHandlers,
        EvidenceHandlers,
        MessagesHandlers,
        HealthHandlers
      ]),
      Layer.provide([AgentAuthenticationLayer, ParticipantAuthenticationLayer, TaskReaderAuthenticationLayer])
    ),
    DocumentRoutes,
    ParticipantMcpMetadataRoute,
    SandboxRoutes
  ).pipe(Layer.provide(RestMiddleware.layer)),
  GlobalMiddleware
)

/**
 * A Node HTTP server whose protocol-level refusals — a request Node cannot parse, headers or URL
 * over 16 KiB, a request that never finished arriving, an `Expect` it cannot meet, a `CONNECT` —
 * are answered in the JSON envelope too, not with Node's bare status line. (A request without the
 * `Host` header HTTP/1.1 requires is let through, `requireHostHeader: false`, and refused by the
 * envelope middleware, which answers it like any other bad request.)
 *
 * Slow clients (DECISIONS §11) are node:http's own timeouts: the request line and headers must
 * arrive within `headersMs` and the whole request within `requestMs` (408 `request_timeout`, then
 * the connection is closed — also when the body stalls while a handler waits for it); a kept-alive
 * connection idle for `keepAliveMs` is closed (Node waits its `keepAliveTimeoutBuffer`, 1 s, on
 * top of the `Keep-Alive: timeout` it announces, so a client reusing the connection just in time
 * is not reset).
 */
export const makeNodeServer = (docsUrl: string, timeouts: HttpTimeouts = defaultHttpTimeouts) => {
  const server = createServer({
    headersTimeout: timeouts.headersMs,
    requestTimeout: timeouts.requestMs,
    keepAliveTimeout: timeouts.keepAliveMs,
    // Node checks the two request timeouts on this interval (its default is 30 s, so a 10 s limit
    // could hold a connection for 40 s); a quarter of the shorter one, at most 1 s, keeps them prompt.
    connectionsCheckingInterval: Math.max(25, Math.min(1000, Math.floor(timeouts.headersMs / 4))),
    requireHostHeader: false
  })
  const timeoutHint = `Send the request line and headers within ${seconds(timeouts.headersMs)} and the whole request within ${seconds(timeouts.requestMs)}.`
  /** A whole response in the envelope, written straight to a socket Node has not answered on. */
  const refusal = (code: ErrorCode, reason: string, message: string, hint?: string) => {
    const body = JSON.stringify({ error: errorBody(docsUrl, code, message, hint === undefined ? {} : { hint }) })
    return `HTTP/1.1 ${errorCodes[code].status} ${reason}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`
  }
  // The last response begun on each connection, so that a refusal never follows a started one.
  const responses = new WeakMap<Duplex, ServerResponse>()
  server.on("request", (request: IncomingMessage, response: ServerResponse) => {
    responses.set(request.socket, response)
  })
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Duplex) => {
    // Once a handler has started its response, a second status line would corrupt it: just close.
    const inFlight = responses.get(socket)
    const started = inFlight?.headersSent === true && !inFlight.writableFinished
    if (error.code === "ECONNRESET" || !socket.writable || started) {
      socket.destroy()
      return
    }
    socket.end(
      error.code === "HPE_HEADER_OVERFLOW"
        ? refusal(
            "headers_too_large",
            "Request Header Fields Too Large",
            "The request line and headers are larger than 16 KiB."
          )
        : error.code === "ERR_HTTP_REQUEST_TIMEOUT"
          ? refusal("request_timeout", "Request Timeout", "The request was not received in time.", timeoutHint)
          : refusal("invalid_request", "Bad Request", "The request is not valid HTTP/1.1.")
    )
  })
  // Node answers `Expect: 100-continue` itself; any other expectation comes here (else a bare 417).
  server.on("checkExpectation", (request: IncomingMessage, response: ServerResponse) => {
    const body = JSON.stringify({
      error: errorBody(
        docsUrl,
        "expectation_failed",
        `The server cannot meet the expectation ${JSON.stringify(String(request.headers.expect).slice(0, 100))}.`,
        { hint: "Send the request without an Expect header (or with Expect: 100-continue)." }
      )
    })
    response.writeHead(417, {
      "content-type": "application/json",
      "content-length": Buffer.byteLength(body),
      connection: "close"
    })
    response.end(body)
  })
  // This server is no proxy: a CONNECT (which Node hands over as a bare socket) is refused, not dropped.
  server.on("connect", (_request: IncomingMessage, socket: Duplex) => {
    socket.end(
      refusal(
        "invalid_request",
        "Bad Request",
        "CONNECT is not supported: this server is not a proxy.",
        "Send GET or POST requests to the API's paths; start from GET /api/public/v1."
      )
    )
  })
  return server
}

const seconds = (ms: number) => (ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`)

/** The Node HTTP server on the configured host and port. */
export const NodeServerLayer = Layer.unwrap(
  Effect.gen(function* () {
    const config = yield* AppConfig
    return NodeHttpServer.layer(() => makeNodeServer(config.docsUrl, config.httpTimeouts), {
      port: config.port,
      host: config.host,
      gracefulShutdownTimeout: "10 seconds"
    })
  })
)

/**
 * Serves the routes. Effect's default per-request logger is replaced by our one-line log, and its
 * request span by the envelope middleware's (one span per request, made where sampling decides
 * whether the handler's spans are built at all).
 */
export const serveRoutes = <E, R>(routes: Layer.Layer<never, E, R>) =>
  HttpRouter.serve(routes, { disableLogger: true, disableListenLog: true, routerConfig }).pipe(
    Layer.provide([
      Layer.succeed(HttpMiddleware.TracerDisabledWhen)(() => true),
      // Requests start with the tracer off; the envelope middleware turns it on for a sampled one.
      Layer.succeed(References.TracerEnabled)(false)
    ])
  )
