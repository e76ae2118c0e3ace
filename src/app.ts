/**
 * The service's layers composed: configuration → database → services → operations → HTTP routes
 * (REST and MCP). `main.ts`
 * serves them on Node; `makeFetchHandler` exposes the same app as a web-standard fetch handler.
 */

import * as HttpRouter from "effect/http/HttpRouter"
import * as HttpServer from "effect/http/HttpServer"
import * as Layer from "effect/Layer"
import type * as SqlClient from "effect/sql/SqlClient"
import { AppConfig, type AppSettings } from "./config.ts"
import { ConsoleRoutes } from "./console/routes.ts"
import { routerConfig } from "./http/routes.ts"
import { RoutesLive as RestRoutes, serveRoutes } from "./http/server.ts"
import { ParticipantMcpRoutes } from "./mcp/participant_server.ts"
import { McpRoutes } from "./mcp/server.ts"
import { OAuthRoutes } from "./oauth/server.ts"
import { AgentOperations } from "./operations/agent.ts"
import { ParticipantOperations } from "./operations/participant.ts"
import { AccessTokens } from "./services/access_tokens.ts"
import { Accounts } from "./services/accounts.ts"
import { ArtifactSweeperLive, Artifacts } from "./services/artifacts.ts"
import { AttemptLimits } from "./services/attempt_limits.ts"
import { BlobStore } from "./services/blob_store.ts"
import { DispatcherLive } from "./services/dispatcher.ts"
import { Health } from "./services/health.ts"
import { Ids } from "./services/ids.ts"
import { Lifecycle } from "./services/lifecycle.ts"
import { Logins } from "./services/logins/service.ts"
import { McpSessionStore } from "./services/mcp_session_store.ts"
import { OAuthRecords } from "./services/oauth_records.ts"
import { ParticipantDirectory } from "./services/participant_directory.ts"
import { Passwords } from "./services/passwords.ts"
import { Profiles } from "./services/profiles.ts"
import { RateLimits } from "./services/rate_limits.ts"
import { SampleCatalogueLive } from "./services/sample_catalogue.ts"
import { SandboxClock } from "./services/sandbox_clock.ts"
import { OAuthCookieSecret } from "./services/service_secrets.ts"
import { SigningKeys, SigningKeysAtStart } from "./services/signing_keys.ts"
import { SimulatorLive } from "./services/simulator.ts"
import { TaskActions } from "./services/task_actions.ts"
import { TaskEvents } from "./services/task_events.ts"
import { TaskStore } from "./services/task_store.ts"
import { TaskTokens } from "./services/task_tokens.ts"
import { Tasks } from "./services/tasks.ts"
import { WebhookDeliveryLive } from "./services/webhook_delivery.ts"
import { WebhookOutbox } from "./services/webhook_outbox.ts"
import { DatabaseLive } from "./sql/database.ts"

/** Replacements for the repositories, e.g. a store that fails, for tests of failure paths. */
export interface ServiceOverrides {
  readonly directory?: Layer.Layer<ParticipantDirectory, never, SqlClient.SqlClient>
  readonly store?: Layer.Layer<TaskStore, never, SqlClient.SqlClient>
  /**
   * Whether this process makes the service's own moves (offers, timers; the authorization
   * server's first key). Servers do; a one-shot command (the operator tool) makes only the move
   * it was asked for.
   */
  readonly dispatcher?: boolean
}

/** Participants' logins, with the password hashing and attempt limits they are built on. */
const LoginsLive = Logins.layer.pipe(Layer.provideMerge(Layer.mergeAll(Passwords.layer, AttemptLimits.layer)))

/** The transport-free services over the configured database (migrated and, if empty, seeded). */
export const makeServices = (overrides: ServiceOverrides = {}) =>
  Layer.mergeAll(
    AgentOperations.layer,
    ParticipantOperations.layer,
    Profiles.layer,
    overrides.dispatcher === false
      ? Layer.empty
      : Layer.mergeAll(DispatcherLive, SimulatorLive, WebhookDeliveryLive, SigningKeysAtStart, ArtifactSweeperLive)
  ).pipe(
    Layer.provideMerge(Layer.mergeAll(TaskActions.layer, Tasks.layer, LoginsLive)),
    Layer.provideMerge(Lifecycle.layer),
    Layer.provideMerge(Artifacts.layer.pipe(Layer.provideMerge(BlobStore.layer))),
    Layer.provideMerge(SampleCatalogueLive),
    // Before anything is seeded: a sandbox never starts on a live database, nor the other way round.
    Layer.provideMerge(SandboxClock.layer),
    Layer.provideMerge(
      Layer.mergeAll(
        overrides.directory ?? ParticipantDirectory.layer,
        overrides.store ?? TaskStore.layer,
        TaskTokens.layer,
        Ids.layer,
        Health.layer,
        Accounts.layer,
        AccessTokens.layer.pipe(Layer.provideMerge(SigningKeys.layer)),
        TaskEvents.layer,
        WebhookOutbox.layer,
        RateLimits.layer,
        McpSessionStore.layer,
        OAuthRecords.layer,
        OAuthCookieSecret.layer
      )
    ),
    Layer.provideMerge(DatabaseLive)
  )

export const ServicesLive = makeServices()

/**
 * Every route: the REST API with its documents, the two MCP endpoints, and the embedded
 * authorization server with its pages, on one router.
 */
const RoutesLive = Layer.mergeAll(RestRoutes, McpRoutes, ParticipantMcpRoutes, OAuthRoutes, ConsoleRoutes)

/** The HTTP routes with every service they need, given the configuration. */
export const AppRoutes = RoutesLive.pipe(Layer.provide(ServicesLive))

/**
 * The routes served by an HTTP server. The services (database connected, migrated, seeded) are
 * built before the server starts listening: a request that arrives during start-up must not
 * reach a socket nobody answers yet.
 *
 * They are given to the server's layer (built first, outputs not passed on) and to the routes
 * (which find them built and share them), not to the serving layer itself: every request's fiber
 * starts from the serving layer's context, and each copy Effect makes of it per request (the
 * router's, the handler group's) grew with every service in it (17 entries instead of 32).
 */
export const serveOn = <A, E, R>(server: Layer.Layer<A, E, R>, services: typeof ServicesLive = ServicesLive) =>
  serveRoutes(RoutesLive.pipe(Layer.provide(services))).pipe(Layer.provide(Layer.provide(server, services)))

/**
 * The whole app as a fetch handler (`Request` → `Promise<Response>`), e.g. for serverless hosts or
 * tests. Settings default to the environment; pass overrides to replace them.
 */
export const makeFetchHandler = (settings?: Partial<AppSettings>) =>
  HttpRouter.toWebHandler(
    AppRoutes.pipe(
      Layer.provide(settings === undefined ? AppConfig.layer : AppConfig.layerWith(settings)),
      Layer.provide(HttpServer.layerServices)
    ),
    { disableLogger: true, routerConfig }
  )
