/**
 * Versioned schema migrations, run at start-up through effect/sql's generic Migrator, so SQLite
 * and Postgres apply the same record (on Postgres the migrator locks its table, so several
 * processes starting at once apply each migration exactly once).
 *
 * Portable types only: TEXT for strings, timestamps (ISO 8601 UTC, which sort correctly as text)
 * and JSON documents; INTEGER for counters.
 */
import { Effect } from "effect"
import { Migrator, SqlClient } from "effect/sql"

const createParticipants = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE participants (
      slug TEXT PRIMARY KEY,
      name TEXT NOT NULL,
      discipline TEXT NOT NULL,
      location TEXT NOT NULL,
      task_type TEXT NOT NULL,
      tags TEXT NOT NULL,
      capabilities TEXT NOT NULL,
      returns TEXT NOT NULL,
      boundary TEXT,
      search_text TEXT NOT NULL,
      created_at TEXT NOT NULL
    )
  `
})

const createTasks = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  // idempotency_key is UNIQUE: the database, not a process-local lock, guarantees that one key
  // creates at most one task, across every server process sharing the database.
  yield* sql`
    CREATE TABLE tasks (
      reference TEXT PRIMARY KEY,
      state TEXT NOT NULL,
      execution_mode TEXT NOT NULL,
      participant_slug TEXT,
      agent TEXT NOT NULL,
      principal TEXT,
      brief TEXT NOT NULL,
      result TEXT,
      outcome TEXT,
      history TEXT NOT NULL,
      version INTEGER NOT NULL,
      token_hash TEXT NOT NULL,
      idempotency_key TEXT UNIQUE,
      draft_fingerprint TEXT NOT NULL,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    )
  `
  yield* sql`CREATE INDEX tasks_state_idx ON tasks (state)`
})

const createServiceSecrets = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE service_secrets (name TEXT PRIMARY KEY, value TEXT NOT NULL, created_at TEXT NOT NULL)`
})

export const migrationsTable = "schema_migrations"

const migrations = {
  "1_create_participants": createParticipants,
  "2_create_tasks": createTasks,
  "3_create_service_secrets": createServiceSecrets
}

/** The id of the newest migration: a database that has applied it is current. */
export const latestMigrationId = Math.max(...Object.keys(migrations).map((key) => Number.parseInt(key, 10)))

export const loader = Migrator.fromRecord(migrations)

export const runMigrations = Migrator.make({})({ loader, table: migrationsTable })
