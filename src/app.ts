/**
 * The composition root, open: the service's layers as pieces a caller composes — storage, the
 * services over it, the operations the adapters share, the background workers, the routes — and
 * the compositions the server, the operator tool and the fetch handler use. A test builds the
 * same stack with any piece swapped (`Layer.merge` puts a replacement over the piece it replaces,
 * e.g. a failing `TaskStore` over `RepositoriesLayer`) or left out (no `WorkersLayer`).
 *
 * Layers, bottom up (each needs the ones below it and `AppConfig`):
 * `StorageLayer` → `RepositoriesLayer` → `ServicesLayer` → `OperationsLayer` (+ `WorkersLayer`) →
 * `RoutesLayer`. Naming: docs/decisions/layers.md.
 */

import * as HttpRouter from "effect/http/HttpRouter"
import * as HttpServer from "effect/http/HttpServer"
import * as Layer from "effect/Layer"
import { AppConfig } from "./config/app_config.ts"
import type { AppSettings } from "./config/settings.ts"
import { ConsoleRoutes } from "./console/routes.ts"
import { MailLinkRoutes } from "./http/mail_links.ts"
import { routerConfig } from "./http/routes.ts"
import { RestRoutes, serveRoutes } from "./http/server.ts"
import { ParticipantMcpRoutes } from "./mcp/participant_server.ts"
import { McpRoutes } from "./mcp/server.ts"
import { OAuthRoutes } from "./oauth/server.ts"
import { AgentOperations } from "./operations/agent.ts"
import { ConsoleSignIn } from "./operations/console_sign_in.ts"
import { McpTaskOperations } from "./operations/mcp_tasks.ts"
import { ParticipantOperations } from "./operations/participant.ts"
import { AccessTokens } from "./services/access_tokens.ts"
import { Accounts } from "./services/accounts.ts"
import { ArtifactSweepWorker, Artifacts } from "./services/artifacts.ts"
import { AttemptLimits } from "./services/attempt_limits.ts"
import { BlobStore } from "./services/blob_store.ts"
import { DispatcherWorker } from "./services/dispatcher.ts"
import { Health } from "./services/health.ts"
import { Ids } from "./services/ids.ts"
import { Lifecycle } from "./services/lifecycle.ts"
import { Logins } from "./services/logins/service.ts"
import { MailOutbox } from "./services/mail_outbox.ts"
import { MailPreferences } from "./services/mail_preferences.ts"
import { MailSenderWorker } from "./services/mail_sender.ts"
import { McpSessionStore } from "./services/mcp_session_store.ts"
import { McpTaskStore } from "./services/mcp_task_store.ts"
import { OAuthRecords } from "./services/oauth_records.ts"
import { ParticipantDirectory } from "./services/participant_directory.ts"
import { Passwords } from "./services/passwords.ts"
import { Profiles } from "./services/profiles.ts"
import { PublicAddressSeed } from "./services/public_address.ts"
import { RateLimits } from "./services/rate_limits.ts"
import { SampleCatalogueSeed } from "./services/sample_catalogue.ts"
import { SandboxClock } from "./services/sandbox_clock.ts"
import { OAuthCookieSecret } from "./services/service_secrets.ts"
import { SigningKeys, SigningKeyWorker } from "./services/signing_keys.ts"
import { SimulatorWorker } from "./services/simulator.ts"
import { TaskActions } from "./services/task_actions.ts"
import { TaskEvents } from "./services/task_events.ts"
import { TaskMessages } from "./services/task_messages.ts"
import { TaskStore } from "./services/task_store.ts"
import { TaskTokens } from "./services/task_tokens.ts"
import { Tasks } from "./services/tasks.ts"
import { WebhookDeliveryWorker } from "./services/webhook_delivery.ts"
import { WebhookOutbox } from "./services/webhook_outbox.ts"
import { DatabaseLayer } from "./sql/database.ts"

/** The configured database, connected and migrated (`SqlClient` and its commit marks). */
export const StorageLayer = DatabaseLayer

/**
 * The services that stand on storage alone: the stores (tasks, participants, accounts, events,
 * webhooks, MCP sessions and tasks, OAuth records), tokens, keys, secrets, ids and limits.
 */
export const RepositoriesLayer = Layer.mergeAll(
  ParticipantDirectory.layer,
  TaskStore.layer,
  TaskTokens.layer,
  Ids.layer,
  Health.layer,
  Accounts.layer,
  // The same SigningKeys for both (one build per layer): the tokens' keys are the issuer's.
  AccessTokens.layerWithDependencies,
  SigningKeys.layer,
  TaskEvents.layer,
  WebhookOutbox.layer,
  MailOutbox.layer,
  MailPreferences.layer,
  RateLimits.layer,
  McpSessionStore.layer,
  McpTaskStore.layer,
  OAuthRecords.layer,
  OAuthCookieSecret.layer,
  Passwords.layer,
  AttemptLimits.layer
)

/**
 * The services with rules of their own, over the repositories: the sandbox clock (built first: a
 * sandbox never starts on a live database, nor the other way round), the sample catalogue seeded
 * after it, uploaded files and their blob store, the lifecycle, the tasks and their moves, logins
 * and profiles.
 */
export const ServicesLayer = Layer.mergeAll(TaskActions.layer, Tasks.layer, Profiles.layer, TaskMessages.layer).pipe(
  Layer.provideMerge(Logins.layer),
  Layer.provideMerge(Lifecycle.layer),
  // The blob store makes its directories when built: after the sandbox check, as the seed is.
  Layer.provideMerge(Artifacts.layer.pipe(Layer.provideMerge(BlobStore.layer))),
  Layer.provideMerge(SampleCatalogueSeed),
  Layer.provideMerge(SandboxClock.layer)
)

/**
 * The transport-free operations REST, MCP and the console share, the console's sign-in (what it
 * needs of the authorization server's records), and MCP tasks (over the agent's operations).
 */
export const OperationsLayer = McpTaskOperations.layer.pipe(
  Layer.provideMerge(Layer.mergeAll(AgentOperations.layer, ParticipantOperations.layer, ConsoleSignIn.layer))
)

/**
 * The service's own moves, made in the background by every server process: offers and timers,
 * the sandbox's simulated participants, webhook deliveries, mail, the sweep of staged files, and the
 * embedded issuer's first signing key. A one-shot command (the operator tool) runs none.
 */
export const WorkersLayer = Layer.mergeAll(
  DispatcherWorker,
  SimulatorWorker,
  WebhookDeliveryWorker,
  MailSenderWorker,
  SigningKeyWorker,
  ArtifactSweepWorker
)

/** The operations and every service below them, on the configured database: what a command uses. */
export const CommandServicesLayer = OperationsLayer.pipe(
  Layer.provideMerge(ServicesLayer),
  Layer.provideMerge(RepositoriesLayer),
  Layer.provideMerge(StorageLayer)
)

/** What a server runs: the operations and services, with the workers; it records its public address. */
export const ServerServicesLayer = Layer.mergeAll(OperationsLayer, WorkersLayer, PublicAddressSeed).pipe(
  Layer.provideMerge(ServicesLayer),
  Layer.provideMerge(RepositoriesLayer),
  Layer.provideMerge(StorageLayer)
)

/** The services a server's routes may be given: the server's, or a test's composition of the same pieces. */
export type AppServices = Layer.Success<typeof ServerServicesLayer>

/**
 * Every route: the REST API with its documents, the two MCP endpoints, the embedded authorization
 * server with its pages, the participant's console, and the pages mails link to (address confirmation, one-click unsubscribe), on one router; the services still to give.
 */
export const RoutesLayer = Layer.mergeAll(
  RestRoutes,
  McpRoutes,
  ParticipantMcpRoutes,
  OAuthRoutes,
  ConsoleRoutes,
  MailLinkRoutes
)

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
export const serveOn = <A, E, R>(
  server: Layer.Layer<A, E, R>,
  services: Layer.Layer<AppServices, Layer.Error<typeof ServerServicesLayer>, AppConfig> = ServerServicesLayer
) => serveRoutes(RoutesLayer.pipe(Layer.provide(services))).pipe(Layer.provide(Layer.provide(server, services)))

/**
 * The whole app as a fetch handler (`Request` → `Promise<Response>`), e.g. for serverless hosts or
 * tests: the settings read from the environment, with `overrides` merged over them
 * (`AppConfig.layerWithOverrides`; a bad variable fails the first request with `InvalidConfig`).
 */
export const makeFetchHandler = (overrides: Partial<AppSettings> = {}) =>
  HttpRouter.toWebHandler(
    RoutesLayer.pipe(
      Layer.provide(ServerServicesLayer),
      Layer.provide(AppConfig.layerWithOverrides(overrides)),
      Layer.provide(HttpServer.layerServices)
    ),
    { disableLogger: true, routerConfig }
  )
