/**
 * The database the configuration names — the embedded SQLite file by default, Postgres for a
 * DATABASE_URL of postgres:// — migrated before anything else uses it.
 *
 * Postgres is a separate server that may be down when this process starts (or restarts with a
 * deployment): connecting and migrating are retried with capped backoff, logged, until it answers.
 * Afterwards the pool reconnects by itself; requests meanwhile get 503 (see services/storage.ts, which builds on this layer).
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schedule from "effect/Schedule"
import { AppConfig } from "../config/app_config.ts"
import { CommitMarks } from "./commit_marks.ts"
import { runMigrations } from "./migrations.ts"
import * as NodeSqliteClient from "./NodeSqliteClient.ts"

const untilReachable = Schedule.min([Schedule.exponential("250 millis"), Schedule.spaced("5 seconds")])

const retryWhileUnreachable = <A, E extends { readonly message: string }, R>(
  what: string,
  effect: Effect.Effect<A, E, R>
) =>
  effect.pipe(
    Effect.tapError((error) =>
      Effect.logWarning(`${what} failed; retrying`).pipe(Effect.annotateLogs({ reason: error.message }))
    ),
    Effect.retry(untilReachable)
  )

/** The `SqlClient` for the configured database, with every migration applied. */
export const DatabaseLayer = Layer.unwrap(
  Effect.gen(function* () {
    const { database } = yield* AppConfig
    if (database._tag === "Sqlite") {
      const commitMarks = Layer.effect(
        CommitMarks,
        Effect.map(NodeSqliteClient.NodeSqliteClient, (client) => ({ mark: client.commitMark }))
      )
      return Layer.mergeAll(Layer.effectDiscard(runMigrations), commitMarks).pipe(
        Layer.provideMerge(NodeSqliteClient.layer({ filename: database.filename }))
      )
    }
    // Loaded only for Postgres: the embedded default starts without the Postgres client (~0.3 s).
    const { PgClient } = yield* Effect.promise(() => import("@effect/sql-pg"))
    const client = PgClient.layerFrom(
      retryWhileUnreachable(
        "connecting to Postgres",
        PgClient.make({ url: database.url, connectTimeout: "5 seconds", applicationName: "task-marketplace" })
      )
    )
    return Layer.effectDiscard(retryWhileUnreachable("migrating Postgres", runMigrations)).pipe(
      Layer.provideMerge(client)
    )
  })
)
