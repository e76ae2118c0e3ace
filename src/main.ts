/**
 * Starts the service: reads the configuration, migrates the database, serves HTTP. Nothing else.
 */
import { NodeRuntime } from "@effect/platform-node"
import { Effect, Layer, Logger, References } from "effect"
import { AppRoutes } from "./app.ts"
import { AppConfig, loadSettings } from "./config.ts"
import { NodeServerLive, serveRoutes } from "./http/server.ts"

const startedAt = performance.now()

const main = Effect.gen(function* () {
  const config = yield* loadSettings
  const announce = Effect.logInfo("listening").pipe(
    Effect.annotateLogs({
      url: config.publicBaseUrl,
      database: config.database._tag === "Sqlite" ? `sqlite:${config.database.filename}` : "postgres",
      startup_ms: Math.round(performance.now() - startedAt)
    })
  )
  const server = Layer.mergeAll(serveRoutes(AppRoutes).pipe(Layer.provide(NodeServerLive)), Layer.effectDiscard(announce))
  return yield* Layer.launch(server.pipe(Layer.provide(Layer.succeed(AppConfig, config)))).pipe(
    Effect.provideService(References.MinimumLogLevel, config.logLevel)
  )
}).pipe(
  Effect.catchTag("InvalidConfig", (error) =>
    Effect.sync(() => {
      process.stderr.write(`${error.message}\n`)
      process.exitCode = 1
    })
  ),
  Effect.provide(Logger.layer([Logger.consoleJson]))
)

NodeRuntime.runMain(main)
