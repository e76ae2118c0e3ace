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

const addLifecycle = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  // The lifecycle's bookkeeping: who the task named, the participants who declined or let an offer
  // lapse (never offered it again), the three timers, revisions used, and the earliest instant
  // the service must look at the task again (indexed: the timer sweep reads only due tasks).
  yield* sql`ALTER TABLE tasks ADD COLUMN requested_participant TEXT`
  yield* sql`ALTER TABLE tasks ADD COLUMN passed_over TEXT NOT NULL DEFAULT '[]'`
  yield* sql`ALTER TABLE tasks ADD COLUMN offer_expires_at TEXT`
  yield* sql`ALTER TABLE tasks ADD COLUMN review_due_at TEXT`
  yield* sql`ALTER TABLE tasks ADD COLUMN deadline_at TEXT`
  yield* sql`ALTER TABLE tasks ADD COLUMN revisions INTEGER NOT NULL DEFAULT 0`
  yield* sql`ALTER TABLE tasks ADD COLUMN next_timer_at TEXT`
  yield* sql`UPDATE tasks SET requested_participant = participant_slug, next_timer_at = created_at WHERE state = 'open'`
  yield* sql`CREATE INDEX tasks_next_timer_idx ON tasks (next_timer_at)`
  yield* sql`CREATE INDEX tasks_participant_idx ON tasks (participant_slug, state)`
  // A participant is linked to the subject (sub) of their OAuth access tokens by the operator.
  yield* sql`
    CREATE TABLE participant_accounts (
      subject TEXT PRIMARY KEY,
      participant_slug TEXT NOT NULL,
      linked_at TEXT NOT NULL
    )
  `
  yield* sql`CREATE INDEX participant_accounts_slug_idx ON participant_accounts (participant_slug)`
})

const migrations = {
  "1_create_participants": createParticipants,
  "2_create_tasks": createTasks,
  "3_create_service_secrets": createServiceSecrets,
  "4_add_lifecycle": addLifecycle
}

/** The id of the newest migration: a database that has applied it is current. */
export const latestMigrationId = Math.max(...Object.keys(migrations).map((key) => Number.parseInt(key, 10)))

export const loader = Migrator.fromRecord(migrations)

export const runMigrations = Migrator.make({})({ loader, table: migrationsTable })
