/**
 * The HTTP adapter assembled: the API's handlers, the OpenAPI document at its three addresses,
 * the docs page and the envelope middleware — as router layers, served by Node or exported as a
 * web-standard fetch handler.
 */
import { createServer } from "node:http"
import { NodeHttpServer } from "@effect/platform-node"
import { Effect, Layer } from "effect"
import { HttpRouter, HttpServer, HttpServerResponse } from "effect/http"
import { HttpApiBuilder, HttpApiScalar } from "effect/http-api"
import { MarketplaceApi } from "../api/api.ts"
import { AppConfig } from "../config.ts"
import { DiscoveryHandlers } from "./discovery.ts"
import { DraftsHandlers } from "./drafts.ts"
import { EnvelopeMiddleware } from "./middleware.ts"
import { openApiDocument } from "./openapi.ts"
import { ParticipantsHandlers } from "./participants.ts"
import { docsPath, openApiPaths } from "./routes.ts"
import { TasksHandlers } from "./tasks.ts"

const OpenApiRoutes = HttpRouter.use(
  Effect.fnUntraced(function* (router) {
    const config = yield* AppConfig
    const document = HttpServerResponse.jsonUnsafe(openApiDocument(config.publicBaseUrl))
    for (const path of openApiPaths) yield* router.add("GET", path, document)
  })
)

/** Every route of the service, with the services the handlers need still to be provided. */
export const RoutesLive = Layer.mergeAll(
  HttpApiBuilder.layer(MarketplaceApi).pipe(
    Layer.provide([DiscoveryHandlers, ParticipantsHandlers, DraftsHandlers, TasksHandlers])
  ),
  OpenApiRoutes,
  HttpApiScalar.layer(MarketplaceApi, { path: docsPath }),
  EnvelopeMiddleware
)

/** The Node HTTP server on the configured host and port. */
export const NodeServerLive = Layer.unwrap(
  Effect.gen(function* () {
    const config = yield* AppConfig
    return NodeHttpServer.layer(createServer, {
      port: config.port,
      host: config.host,
      gracefulShutdownTimeout: "10 seconds"
    })
  })
)

/** Serves the routes (Effect's default per-request logger is replaced by our one-line log). */
export const serveRoutes = <E, R>(routes: Layer.Layer<never, E, R>) =>
  HttpRouter.serve(routes, { disableLogger: true, disableListenLog: true })

export { HttpServer }
