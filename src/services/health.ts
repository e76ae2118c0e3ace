/**
 * Liveness and readiness: the process answers (`/healthz`); the database answers and has every
 * migration this code expects (`/readyz`), so a load balancer sends traffic only where it can be
 * served.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import * as SqlClient from "effect/sql/SqlClient"
import * as SqlSchema from "effect/sql/SqlSchema"
import { IntegerColumn } from "../sql/columns.ts"
import { latestMigrationId, migrationsTable } from "../sql/migrations.ts"
import { storageCallFor } from "./storage.ts"

export interface Readiness {
  readonly ready: boolean
  readonly checks: { readonly database: "ok" | "unavailable"; readonly migrations: "ok" | "pending" | "unknown" }
}

export class Health extends Context.Service<Health, { readonly readiness: Effect.Effect<Readiness> }>()(
  "task-marketplace/services/Health"
) {
  static readonly layer = Layer.effect(
    Health,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const asStorageCall = storageCallFor(sql)
      const latestApplied = SqlSchema.findOne({
        Request: Schema.Void,
        Result: Schema.Struct({ id: Schema.NullOr(IntegerColumn) }),
        execute: () => sql`SELECT MAX(migration_id) AS id FROM ${sql(migrationsTable)}`
      })
      const readiness = asStorageCall(latestApplied(undefined)).pipe(
        Effect.map(({ id }): Readiness => {
          const current = (id ?? 0) >= latestMigrationId
          return { ready: current, checks: { database: "ok", migrations: current ? "ok" : "pending" } }
        }),
        Effect.orElseSucceed(
          (): Readiness => ({ ready: false, checks: { database: "unavailable", migrations: "unknown" } })
        ),
        Effect.withSpan("Health.readiness")
      )
      return Health.of({ readiness })
    })
  )
}
