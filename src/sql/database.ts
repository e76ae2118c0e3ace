/**
 * The database the configuration names — the embedded SQLite file by default, Postgres for a
 * DATABASE_URL of postgres:// — migrated before anything else uses it.
 */
import { PgClient } from "@effect/sql-pg"
import { Effect, Layer } from "effect"
import { AppConfig } from "../config.ts"
import { runMigrations } from "./migrations.ts"
import * as NodeSqliteClient from "./NodeSqliteClient.ts"

/** The `SqlClient` for the configured database, with every migration applied. */
export const DatabaseLive = Layer.unwrap(
  Effect.gen(function* () {
    const { database } = yield* AppConfig
    const client =
      database._tag === "Sqlite"
        ? NodeSqliteClient.layer({ filename: database.filename })
        : PgClient.layer({ url: database.url })
    return Layer.effectDiscard(runMigrations).pipe(Layer.provideMerge(client))
  })
)
