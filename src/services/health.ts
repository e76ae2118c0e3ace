/**
 * Liveness and readiness: the process answers (`/healthz`); the database answers and has every
 * migration this code expects (`/readyz`), so a load balancer sends traffic only where it can be
 * served.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as SqlClient from "effect/sql/SqlClient"
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
      const readiness = asStorageCall(
        sql<{ id: number | bigint | string | null }>`SELECT MAX(migration_id) AS id FROM ${sql(migrationsTable)}`
      ).pipe(
        Effect.map((rows): Readiness => {
          const current = Number(rows[0]?.id ?? 0) >= latestMigrationId
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
