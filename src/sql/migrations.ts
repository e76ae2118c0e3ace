/**
 * Versioned schema migrations, run at start-up through effect/sql's generic Migrator, so SQLite
 * and Postgres apply the same record (on Postgres the migrator locks its table, so several
 * processes starting at once apply each migration exactly once).
 *
 * Portable types only: TEXT for strings, timestamps (ISO 8601 UTC, which sort correctly as text)
 * and JSON documents; INTEGER for counters.
 */
import * as Effect from "effect/Effect"
import * as Migrator from "effect/sql/Migrator"
import * as SqlClient from "effect/sql/SqlClient"

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

const addParticipantSearchIndex = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  // A substring index over participants.search_text, so `q` need not scan the directory
  // (docs/decisions/participant-search.md). It only narrows: the LIKE on search_text still
  // decides every match, and queries shorter than three characters (no trigram) scan as before.
  yield* sql.onDialectOrElse({
    // An FTS5 table of trigrams over the participants rows themselves (external content: no copy
    // of the text), kept in step by triggers in the writer's own transaction. Case-sensitive,
    // because search_text and q are both lower-cased already: a phrase query is then an exact
    // substring test. Linked by rowid, which is stable: participants is never rebuilt, and VACUUM
    // keeps the rowids of a table with an index (test/services/participant_search.test.ts).
    sqlite: () =>
      Effect.gen(function* () {
        yield* sql`
          CREATE VIRTUAL TABLE participants_search USING fts5(
            search_text, content = 'participants', tokenize = 'trigram case_sensitive 1'
          )
        `
        yield* sql`
          CREATE TRIGGER participants_search_insert AFTER INSERT ON participants BEGIN
            INSERT INTO participants_search (rowid, search_text) VALUES (new.rowid, new.search_text);
          END
        `
        yield* sql`
          CREATE TRIGGER participants_search_delete AFTER DELETE ON participants BEGIN
            INSERT INTO participants_search (participants_search, rowid, search_text)
              VALUES ('delete', old.rowid, old.search_text);
          END
        `
        yield* sql`
          CREATE TRIGGER participants_search_update AFTER UPDATE OF search_text ON participants
          WHEN old.search_text IS NOT new.search_text BEGIN
            INSERT INTO participants_search (participants_search, rowid, search_text)
              VALUES ('delete', old.rowid, old.search_text);
            INSERT INTO participants_search (rowid, search_text) VALUES (new.rowid, new.search_text);
          END
        `
        yield* sql`INSERT INTO participants_search (participants_search) VALUES ('rebuild')`
      }),
    // pg_trgm ships with Postgres (contrib) and is a trusted extension: the database owner may
    // create it. Its GIN operator class serves LIKE '%…%' for patterns with a trigram in them.
    pg: () =>
      Effect.gen(function* () {
        yield* sql`CREATE EXTENSION IF NOT EXISTS pg_trgm`
        yield* sql`CREATE INDEX participants_search_trgm_idx ON participants USING gin (search_text gin_trgm_ops)`
      }),
    orElse: () => Effect.die(new Error("participant search index: unsupported SQL dialect"))
  })
})

/**
 * A version of the participant directory, moved by every write to it in the same transaction:
 * processes keep the directory in memory for matching and re-read it only when this moves.
 */
const addDirectoryVersion = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE directory_state (id INTEGER PRIMARY KEY CHECK (id = 1), version BIGINT NOT NULL)`
  yield* sql`INSERT INTO directory_state (id, version) VALUES (1, 1)`
})

/**
 * SQLite: a (slug, search_text) index, so that walking slug order and testing search_text reads
 * this index alone and a row only when it matches — about ten times faster than reading the wide
 * rows, and cheap enough to serve a q too short for trigrams by a walk
 * (docs/decisions/participant-search.md). Not on Postgres: a B-tree entry there must stay under about
 * 2.7 kB, and search_text has no length limit.
 */
const addParticipantSlugSearchIndex = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql.onDialectOrElse({
    sqlite: () => sql`CREATE INDEX participants_slug_search_idx ON participants (slug, search_text)`,
    orElse: () => Effect.void
  })
})

/**
 * Postgres: participants are ordered by slug in code-point order (collation "C"), as on SQLite,
 * whatever the database's default collation (en_US, for one, ignores hyphens at first): pages and
 * cursors are the same on both backends, and the in-memory listing (which compares strings as
 * JavaScript does) agrees with the database.
 */
const orderSlugsByCodePoint = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql.onDialectOrElse({
    pg: () => sql`ALTER TABLE participants ALTER COLUMN slug TYPE TEXT COLLATE "C"`,
    orElse: () => Effect.void
  })
})

/**
 * No query reads tasks by state alone (a participant's tasks use the (participant_slug, state)
 * index), so the index on state only cost every insert and state change a B-tree write
 * (docs/performance.md).
 */
const dropTaskStateIndex = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`DROP INDEX IF EXISTS tasks_state_idx`
})

/**
 * Why nobody could take a task as submitted (a JSON object, null when someone could): recorded
 * once at submission, so every read's `next_step` explains a doomed task without ranking again.
 */
const addTaskInfeasibility = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE tasks ADD COLUMN infeasibility TEXT`
})

/**
 * MCP sessions, kept where every process reads them: a client's requests may reach any process
 * behind one address, and each process re-creates the session from its `initialize` (mcp/sessions.ts).
 */
const createMcpSessions = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE mcp_sessions (
      id TEXT PRIMARY KEY,
      initialize TEXT NOT NULL,
      created_at TEXT NOT NULL
    )
  `
  // Each new session clears out the expired ones: by this index, not a scan of the table.
  yield* sql`CREATE INDEX mcp_sessions_created_at_idx ON mcp_sessions (created_at)`
})

/**
 * Participants' own sign-in (the embedded authorization server, docs/decisions/accounts.md):
 * - `participant_logins`: one per participant, the OAuth subject (`id`), an email unique whatever
 *   its case (`email_key`), a password hash once one is chosen;
 * - `login_links`: one-time links to choose a password (invitation, reset), kept as a hash;
 * - `sign_in_attempts`: failures counted per account and per address (throttling), shared by
 *   every process;
 * - `oauth_records`: what the authorization server stores (clients, grants, codes, sessions,
 *   refresh tokens…), one row per model and id, with the columns it looks rows up by (`used_at`:
 *   when a registered client first completed a flow; the ones that never do are collected);
 * - `oauth_signing_keys`: the keys its tokens are signed with, made at first start, rotated by the
 *   operator; a retired key stays published until the tokens it signed have expired.
 */
const createAccountsAndOAuth = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE participant_logins (
      id TEXT PRIMARY KEY,
      email TEXT NOT NULL,
      email_key TEXT NOT NULL UNIQUE,
      participant_slug TEXT NOT NULL UNIQUE,
      password_hash TEXT,
      password_changed_at TEXT,
      created_at TEXT NOT NULL
    )
  `
  yield* sql`
    CREATE TABLE login_links (
      token_hash TEXT PRIMARY KEY,
      login_id TEXT NOT NULL,
      purpose TEXT NOT NULL,
      expires_at TEXT NOT NULL,
      used_at TEXT,
      created_at TEXT NOT NULL
    )
  `
  yield* sql`CREATE INDEX login_links_login_id_idx ON login_links (login_id)`
  yield* sql`
    CREATE TABLE sign_in_attempts (
      key TEXT PRIMARY KEY,
      failures INTEGER NOT NULL,
      window_started_at TEXT NOT NULL
    )
  `
  yield* sql`
    CREATE TABLE oauth_records (
      model TEXT NOT NULL,
      id TEXT NOT NULL,
      payload TEXT NOT NULL,
      grant_id TEXT,
      uid TEXT,
      user_code TEXT,
      account_id TEXT,
      client_id TEXT,
      expires_at TEXT,
      consumed_at TEXT,
      used_at TEXT,
      created_at TEXT NOT NULL,
      PRIMARY KEY (model, id)
    )
  `
  yield* sql`CREATE INDEX oauth_records_grant_id_idx ON oauth_records (grant_id)`
  yield* sql`CREATE INDEX oauth_records_uid_idx ON oauth_records (uid)`
  yield* sql`CREATE INDEX oauth_records_expires_at_idx ON oauth_records (expires_at)`
  yield* sql`CREATE INDEX oauth_records_account_client_idx ON oauth_records (account_id, client_id)`
  yield* sql`
    CREATE TABLE oauth_signing_keys (
      kid TEXT PRIMARY KEY,
      private_jwk TEXT NOT NULL,
      created_at TEXT NOT NULL,
      retired_at TEXT
    )
  `
})

/**
 * Whose an MCP session is: the OAuth subject that opened a session of the participant's MCP
 * endpoint (mcp/sessions.ts refuses it to any other subject's token), NULL for the agents' endpoint,
 * whose sessions are nobody's. One column keeps the two endpoints' sessions apart as well.
 */
const addMcpSessionSubject = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE mcp_sessions ADD COLUMN subject TEXT`
})

/**
 * Participants' own profiles (issue 24):
 * - `unavailable_participants`: who has switched their availability off (no row: available, so
 *   every participant before this migration is), listed or awaiting approval alike;
 * - `directory_state.availability_version`: moved by every change of it, in the same transaction,
 *   so each process re-reads that small set (never the directory) when it moves;
 * - `pending_participants`: profiles made by an open sign-up, awaiting the operator's approval. A
 *   table apart from `participants`, so that nothing unapproved can reach the directory's reads
 *   (listing, search, matching) and their optimised paths stay as they are. Slugs are unique across
 *   both tables (the sign-up looks in both; the approval moves a row from one to the other).
 */
const addParticipantProfiles = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE unavailable_participants (slug TEXT PRIMARY KEY, since TEXT NOT NULL)`
  yield* sql`ALTER TABLE directory_state ADD COLUMN availability_version BIGINT NOT NULL DEFAULT 0`
  yield* sql`
    CREATE TABLE pending_participants (
      slug TEXT PRIMARY KEY,
      name TEXT NOT NULL,
      discipline TEXT NOT NULL,
      location TEXT NOT NULL,
      task_type TEXT NOT NULL,
      tags TEXT NOT NULL,
      capabilities TEXT NOT NULL,
      returns TEXT NOT NULL,
      boundary TEXT,
      created_at TEXT NOT NULL
    )
  `
})

/**
 * Uploaded files (evidence, services/artifacts.ts): one row per file, its bytes in the blob store
 * under `blob_key`. A row is written when an upload starts; `sha256`, `size` and `content_type`
 * are NULL until its bytes are stored, `attached_at` until a submitted result carries it. Staged
 * rows (not attached) are swept after an hour, so an upload cut short by a crash leaves nothing
 * for long.
 */
const createArtifacts = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE artifacts (
      id TEXT PRIMARY KEY,
      reference TEXT NOT NULL,
      uploader TEXT NOT NULL,
      name TEXT NOT NULL,
      blob_key TEXT NOT NULL,
      content_type TEXT,
      size BIGINT,
      sha256 TEXT,
      created_at TEXT NOT NULL,
      attached_at TEXT
    )
  `
  yield* sql`CREATE INDEX artifacts_reference_uploader_idx ON artifacts (reference, uploader)`
  // The sweep reads staged files by age; attached ones (the many) are not in this index.
  yield* sql`CREATE INDEX artifacts_staged_idx ON artifacts (created_at) WHERE attached_at IS NULL`
})

/**
 * Signed webhooks (issue 26): a task's `webhook_url`, and the outbox of its events. An event row is
 * written in the transaction that records the transition it reports, so none is lost to a crash;
 * `history_index` is the history entry it reports (unique per task: a move is recorded once);
 * `url` and `body` are what every attempt sends.
 * `state` is pending, delivered or failed; `next_attempt_at` is when a pending event is due (moved
 * past a claim's lease while an attempt is under way); `claim` names the attempt that holds it.
 */
const addWebhooks = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE tasks ADD COLUMN webhook_url TEXT`
  yield* sql`
    CREATE TABLE webhook_events (
      id TEXT PRIMARY KEY,
      reference TEXT NOT NULL,
      history_index INTEGER NOT NULL,
      url TEXT NOT NULL,
      body TEXT NOT NULL,
      created_at TEXT NOT NULL,
      state TEXT NOT NULL,
      next_attempt_at TEXT,
      claim TEXT,
      attempts TEXT NOT NULL,
      UNIQUE (reference, history_index)
    )
  `
  // Only pending events are looked for by time; delivered and failed ones (the many) are not in it.
  yield* sql`CREATE INDEX webhook_events_due_idx ON webhook_events (next_attempt_at) WHERE state = 'pending'`
})

/**
 * The sandbox (issue 27): `service_mode`, one row saying whether the database is a sandbox's or a
 * live one, written by the first start that finds none (a database that already holds tasks is
 * live: it is marked so here), and the sandbox clock's offset, the milliseconds it has been moved
 * forward (only ever grows; every process reads it from here).
 */
const addServiceMode = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE service_mode (
      id INTEGER PRIMARY KEY CHECK (id = 1),
      mode TEXT NOT NULL,
      clock_offset_ms BIGINT NOT NULL
    )
  `
  yield* sql`INSERT INTO service_mode (id, mode, clock_offset_ms) SELECT 1, 'live', 0 WHERE EXISTS (SELECT 1 FROM tasks)`
})

/**
 * A one-time link replaced by a newer one for the same login is kept, marked, until it would have
 * expired: opening it says it was replaced, not that it does not exist.
 */
const addLoginLinkReplaced = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE login_links ADD COLUMN replaced_at TEXT`
})

/**
 * Facts a server records for the processes that share its database: its public address, for the
 * operator tool's links (services/public_address.ts).
 */
const createServiceFacts = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE service_facts (name TEXT PRIMARY KEY, value TEXT NOT NULL, updated_at TEXT NOT NULL)`
})

/**
 * The conversation on each task (services/task_messages.ts): one thread per participant the agent
 * talks with, read oldest first.
 */
const createTaskMessages = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE task_messages (
      id TEXT PRIMARY KEY,
      reference TEXT NOT NULL,
      participant_slug TEXT NOT NULL,
      author TEXT NOT NULL,
      body TEXT NOT NULL,
      created_at TEXT NOT NULL
    )
  `
  yield* sql`CREATE INDEX task_messages_reference_idx ON task_messages (reference, participant_slug, created_at)`
})

/**
 * Mail (issue 38): the outbox of mails, a row written in the transaction of the change that causes
 * it (an invitation, an offer…), so none is lost to a crash. `message_id` is the mail's
 * `Message-ID`, the same on every attempt; `content` what it says (domain/mail.ts), erased once it
 * is sent or given up (it may hold a one-time link); `participant_slug` whom a notification is
 * for. `state`, `next_attempt_at` and `claim` as in `webhook_events`; `attempts` counts them and
 * `last_error` says why the last one failed. `gather_key` groups the mails of a gathered kind
 * (none yet: a task's messages will be). `mail_preferences` holds the notifications each
 * participant turned off; `participant_logins.email_confirmed_at` when a sign-up's address was
 * confirmed.
 */
const createMailOutbox = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE mail_outbox (
      id TEXT PRIMARY KEY,
      message_id TEXT NOT NULL UNIQUE,
      kind TEXT NOT NULL,
      recipient TEXT NOT NULL,
      participant_slug TEXT,
      gather_key TEXT,
      content TEXT,
      created_at TEXT NOT NULL,
      state TEXT NOT NULL,
      next_attempt_at TEXT,
      claim TEXT,
      attempts INTEGER NOT NULL,
      last_error TEXT,
      sent_at TEXT
    )
  `
  yield* sql`CREATE INDEX mail_outbox_due_idx ON mail_outbox (next_attempt_at) WHERE state = 'pending'`
  // When a sign-up's address was confirmed by the link mailed to it (null: not yet, or not a sign-up).
  yield* sql`ALTER TABLE participant_logins ADD COLUMN email_confirmed_at TEXT`
  // The notifications a participant turned off: one row per kind (domain/mail.ts), none when all are on.
  yield* sql`
    CREATE TABLE mail_preferences (
      participant_slug TEXT NOT NULL,
      kind TEXT NOT NULL,
      off_at TEXT NOT NULL,
      PRIMARY KEY (participant_slug, kind)
    )
  `
})

/**
 * MCP Tasks (issue 37): `mcp_tasks`, one row per task-augmented `submit_task` — the hash of the MCP
 * task id (a capability, like the task token: a leaked database grants nothing), the marketplace
 * task it follows, and when it was made. Its status is the marketplace task's own
 * (operations/mcp_tasks.ts): nothing else is kept. Rows whose time-to-live is over are deleted as
 * new ones are made.
 */
const createMcpTasks = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE mcp_tasks (
      id_hash TEXT PRIMARY KEY,
      reference TEXT NOT NULL,
      created_at TEXT NOT NULL
    )
  `
  // Each new MCP task clears out expired ones, looking only at those older than a time-to-live.
  yield* sql`CREATE INDEX mcp_tasks_created_at_idx ON mcp_tasks (created_at)`
})

/**
 * A task's messages reach its agent by webhook (issue 38): `webhook_events` holds `task.message`
 * events beside the `task.updated` ones. An event's place in its task's delivery order is now
 * `position` (from 0, unique per task), no longer the history entry it reports: `type` says which
 * event it is, `history_index` the entry a `task.updated` reports (null for a message) and
 * `message_id` the message a `task.message` carries (null otherwise). Rebuilt rather than altered,
 * the same on both backends (SQLite cannot drop a constraint); existing events keep their order.
 */
const addMessageEvents = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE webhook_events_new (
      id TEXT PRIMARY KEY,
      reference TEXT NOT NULL,
      position INTEGER NOT NULL,
      type TEXT NOT NULL,
      history_index INTEGER,
      message_id TEXT UNIQUE,
      url TEXT NOT NULL,
      body TEXT NOT NULL,
      created_at TEXT NOT NULL,
      state TEXT NOT NULL,
      next_attempt_at TEXT,
      claim TEXT,
      attempts TEXT NOT NULL,
      UNIQUE (reference, position),
      UNIQUE (reference, history_index)
    )
  `
  yield* sql`
    INSERT INTO webhook_events_new
      (id, reference, position, type, history_index, message_id, url, body, created_at, state, next_attempt_at, claim, attempts)
    SELECT id, reference, history_index, 'task.updated', history_index, NULL, url, body, created_at, state, next_attempt_at,
      claim, attempts
    FROM webhook_events
  `
  yield* sql`DROP TABLE webhook_events`
  yield* sql`ALTER TABLE webhook_events_new RENAME TO webhook_events`
  yield* sql`CREATE INDEX webhook_events_due_idx ON webhook_events (next_attempt_at) WHERE state = 'pending'`
})

const migrations = {
  "1_create_participants": createParticipants,
  "2_create_tasks": createTasks,
  "3_create_service_secrets": createServiceSecrets,
  "4_add_lifecycle": addLifecycle,
  "5_participant_search_index": addParticipantSearchIndex,
  "6_add_directory_version": addDirectoryVersion,
  "7_participant_slug_search_index": addParticipantSlugSearchIndex,
  "8_slug_order_by_code_point": orderSlugsByCodePoint,
  "9_drop_task_state_index": dropTaskStateIndex,
  "10_add_task_infeasibility": addTaskInfeasibility,
  "11_create_mcp_sessions": createMcpSessions,
  "12_create_accounts_and_oauth": createAccountsAndOAuth,
  "13_add_mcp_session_subject": addMcpSessionSubject,
  "14_create_artifacts": createArtifacts,
  "15_participant_profiles": addParticipantProfiles,
  "16_add_webhooks": addWebhooks,
  "17_add_service_mode": addServiceMode,
  "18_add_login_link_replaced": addLoginLinkReplaced,
  "19_create_service_facts": createServiceFacts,
  "20_create_task_messages": createTaskMessages,
  "21_create_mail_outbox": createMailOutbox,
  "22_create_mcp_tasks": createMcpTasks,
  "23_add_message_events": addMessageEvents
}

/** The ids of the migrations, in order (with gaps where a number was never used). */
export const migrationIds = Object.keys(migrations)
  .map((key) => Number.parseInt(key, 10))
  .sort((a, b) => a - b)

/** The id of the newest migration: a database that has applied it is current. */
export const latestMigrationId = Math.max(...migrationIds)

export const loader = Migrator.fromRecord(migrations)

export const runMigrations = Migrator.make({})({ loader, table: migrationsTable })
