/**
 * The database a test runs on. The suite runs once per backend (vitest projects, see
 * vitest.config.ts): `TEST_BACKEND=sqlite` gives each server a SQLite file in a temporary
 * directory; `TEST_BACKEND=postgres` gives each one a fresh database on `TEST_POSTGRES_URL`,
 * dropped afterwards. Tests read rows back through `rows`, whatever the backend.
 */
import { randomBytes } from "node:crypto"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { DatabaseSync } from "node:sqlite"
import { PgClient } from "@effect/sql-pg"
import { Effect, Layer, Redacted } from "effect"
import { Reactivity } from "effect/reactivity"
import { type SqlClient, Statement } from "effect/sql"
import type { DatabaseConfig } from "../../src/config/settings.ts"
import { DatabaseLayer } from "../../src/sql/database.ts"
import { testConfig } from "./settings.ts"

export type Backend = "sqlite" | "postgres"
export const backend: Backend = process.env.TEST_BACKEND === "postgres" ? "postgres" : "sqlite"
export const postgresAdminUrl = process.env.TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres"

export interface TestDatabase {
  readonly config: DatabaseConfig
  /** A `DATABASE_URL` for a child process. */
  readonly url: string
  /** Runs a read query against the database and returns its rows. */
  readonly rows: (query: string) => Promise<ReadonlyArray<Record<string, unknown>>>
  readonly count: (table: string) => Promise<number>
  /** Runs statements that change rows behind the services' back (what a test arranges). */
  readonly write: (statements: string) => Promise<void>
  readonly drop: () => Promise<void>
}

/** Runs statements on a Postgres database through @effect/sql-pg (no other client needed). */
export const onPostgres = <A>(url: string, f: (sql: SqlClient.SqlClient) => Effect.Effect<A, unknown>) =>
  Effect.runPromise(
    Effect.scoped(
      Effect.gen(function* () {
        const client = yield* PgClient.make({ url: Redacted.make(url), maxConnections: 1 })
        return yield* f(client)
      })
    ).pipe(Effect.provide(Reactivity.layer)) as Effect.Effect<A, unknown, never>
  )

const withDatabase = (admin: string, name: string) => {
  const url = new URL(admin)
  url.pathname = `/${name}`
  return url.toString()
}

export const freshDatabase = async (): Promise<TestDatabase> => {
  if (backend === "sqlite") {
    const dir = mkdtempSync(join(tmpdir(), "tm-test-"))
    const filename = join(dir, "marketplace.sqlite")
    const rows = async (query: string) => {
      const db = new DatabaseSync(filename, { readOnly: true })
      try {
        return db.prepare(query).all() as ReadonlyArray<Record<string, unknown>>
      } finally {
        db.close()
      }
    }
    const write = async (statements: string) => {
      const db = new DatabaseSync(filename)
      try {
        db.exec("PRAGMA busy_timeout = 5000")
        db.exec(statements)
      } finally {
        db.close()
      }
    }
    return {
      config: { _tag: "Sqlite", filename },
      url: `sqlite:${filename}`,
      rows,
      write,
      count: async (table) => Number((await rows(`SELECT COUNT(*) AS n FROM ${table}`))[0]?.n),
      drop: async () => rmSync(dir, { recursive: true, force: true })
    }
  }
  const name = `tm_test_${randomBytes(6).toString("hex")}`
  await onPostgres(postgresAdminUrl, (sql) => sql.unsafe(`CREATE DATABASE ${name}`))
  const url = withDatabase(postgresAdminUrl, name)
  const rows = (query: string) =>
    onPostgres(url, (sql) => sql.unsafe<Record<string, unknown>>(query)) as Promise<
      ReadonlyArray<Record<string, unknown>>
    >
  return {
    config: { _tag: "Postgres", url: Redacted.make(url) },
    url,
    rows,
    write: (statements) => onPostgres(url, (sql) => sql.unsafe(statements)).then(() => {}),
    count: async (table) => Number((await rows(`SELECT COUNT(*) AS n FROM ${table}`))[0]?.n),
    drop: () =>
      onPostgres(postgresAdminUrl, (sql) => sql.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => {})
  }
}

/** A migrated `SqlClient` on a fresh database of the active backend, dropped with the layer. */
export const TestSqlLayer = Layer.unwrap(
  Effect.gen(function* () {
    const database = yield* Effect.acquireRelease(Effect.promise(freshDatabase), (db) => Effect.promise(db.drop))
    return DatabaseLayer.pipe(Layer.provide(testConfig({ database: database.config })))
  })
)

/** Every SQL statement `effect` runs, compiled, with its parameters. */
export const statementsOf = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.gen(function* () {
    const seen: Array<readonly [string, ReadonlyArray<unknown>]> = []
    const result = yield* effect.pipe(
      Effect.provideService(Statement.CurrentTransformer, (statement) => {
        seen.push(statement.compile())
        return Effect.succeed(statement)
      })
    )
    return { result, statements: seen }
  })
