/**
 * Starts the service: reads the configuration, migrates the database, serves HTTP. Nothing else.
 */
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as References from "effect/References"
import * as Runtime from "effect/Runtime"
import { serveOn } from "./app.ts"
import { AppConfig } from "./config/app_config.ts"
import { loadSettings } from "./config/load.ts"
import { NodeServerLayer } from "./http/server.ts"
import { LoggerLayer } from "./logging.ts"
import { tracingLayer } from "./tracing.ts"

/** Why the server could not listen, in one line naming what to change (the port's variable). */
export const listenFailure = (cause: unknown, host: string, port: number): string => {
  const code = (cause as { code?: unknown } | undefined)?.code
  const where = `${host}:${port}`
  if (code === "EADDRINUSE")
    return `Cannot listen on ${where}: the port is in use. Stop what listens there, or set PORT to a free port.`
  if (code === "EACCES")
    return `Cannot listen on ${where}: permission denied (ports below 1024 need privileges). Set PORT to 1024 or above.`
  if (code === "EADDRNOTAVAIL")
    return `Cannot listen on ${where}: the address is not one of this machine's. Set HOST to one of its addresses.`
  return `Cannot listen on ${where}: ${cause instanceof Error ? cause.message : String(cause)}. Check PORT and HOST.`
}

const main = Effect.gen(function* () {
  const config = yield* loadSettings
  const announce = Effect.suspend(() =>
    Effect.logInfo("listening").pipe(
      Effect.annotateLogs({
        url: config.publicBaseUrl,
        database: config.database._tag === "Sqlite" ? `sqlite:${config.database.filename}` : "postgres",
        // performance.now() counts from process start: loading the modules, migrating, listening.
        startup_ms: Math.round(performance.now())
      })
    )
  )
  const server = serveOn(NodeServerLayer).pipe(Layer.provide(Layer.succeed(AppConfig, config)))
  // Announce only once everything is built: migrated, seeded and listening.
  return yield* Effect.scoped(Effect.andThen(Layer.build(server), Effect.andThen(announce, Effect.never))).pipe(
    Effect.catchTag("ServeError", (error) =>
      Effect.sync(() => {
        process.stderr.write(`${listenFailure(error.cause, config.host, config.port)}\n`)
        process.exitCode = 1
      })
    ),
    Effect.provideService(References.MinimumLogLevel, config.logLevel),
    // Spans are made only when a collector receives them (src/tracing.ts).
    Effect.provide(tracingLayer(config.tracing)),
    Effect.provideService(References.TracerEnabled, config.tracing !== undefined)
  )
}).pipe(
  Effect.catchTag("InvalidConfig", (error) =>
    Effect.sync(() => {
      process.stderr.write(`${error.message}\n`)
      process.exitCode = 1
    })
  ),
  Effect.provide(LoggerLayer)
)

// SIGTERM/SIGINT interrupt the program: the server stops accepting, drains in-flight requests and
// closes the database; a shutdown that completes that way is a clean exit (0), not a failure.
// The same signal often comes twice: Ctrl-C reaches the whole process group, and npm and
// scripts/node.mjs forward it too. runMain stops listening once the program has ended, and a
// signal landing between that and the process's exit would kill it by the signal instead of 0;
// these listeners keep that one from doing so (a second signal never forced an exit: the first one
// already shuts down).
const alreadyStopping = () => {}
process.on("SIGINT", alreadyStopping)
process.on("SIGTERM", alreadyStopping)
NodeRuntime.runMain(main, {
  teardown: (exit, onExit) =>
    Exit.isFailure(exit) && Cause.hasInterruptsOnly(exit.cause) ? onExit(0) : Runtime.defaultTeardown(exit, onExit)
})
