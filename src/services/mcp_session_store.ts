/**
 * Where MCP sessions are kept: in the database every process shares, so a client's requests may
 * reach any process behind one address (mcp/sessions.ts re-creates a session from its stored
 * `initialize` in a process that has not seen it). A session is a client's negotiated protocol
 * revision and capabilities, no credential: the agents' tools need the task's own token, and every
 * request to the participant's endpoint its own access token. A participant's session records its
 * subject, so that it serves that subject only.
 */
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as SqlClient from "effect/sql/SqlClient"
import { StorageUnavailable } from "../domain/errors.ts"
import { CommitMarks, readAtMark } from "../sql/commit_marks.ts"

/** Sessions nobody ended are forgotten after this long (a client then starts a new one, as MCP asks). */
const sessionLifetimeMs = 7 * 24 * 3600_000

/** How many sessions' rows `find` keeps (the most recently used). */
const keptSessions = 1_000

/** A live session: the `initialize` that opened it, and whose it is (the agents' sessions are nobody's). */
export interface StoredMcpSession {
  readonly initialize: string
  readonly subject: string | undefined
}

export class McpSessionStore extends Context.Service<
  McpSessionStore,
  {
    /** Keeps a new session with the JSON-RPC `initialize` message that opened it, and its subject if it has one. */
    record(id: string, initialize: string, subject: string | undefined): Effect.Effect<void, StorageUnavailable>
    /** A live session, or undefined when it ended or never was. */
    find(id: string): Effect.Effect<StoredMcpSession | undefined, StorageUnavailable>
    remove(id: string): Effect.Effect<void, StorageUnavailable>
  }
>()("task-marketplace/services/McpSessionStore") {
  static readonly layer = Layer.effect(
    McpSessionStore,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const unavailable = Effect.mapError((cause: unknown) => new StorageUnavailable({ cause }))
      const cutoff = Effect.map(Clock.currentTimeMillis, (now) => new Date(now - sessionLifetimeMs).toISOString())
      const record = Effect.fn("McpSessionStore.record")(function* (
        id: string,
        initialize: string,
        subject: string | undefined
      ) {
        const now = new Date(yield* Clock.currentTimeMillis).toISOString()
        yield* sql`
          INSERT INTO mcp_sessions (id, initialize, created_at, subject)
          VALUES (${id}, ${initialize}, ${now}, ${subject ?? null})`
        // Each new session clears out the expired ones.
        yield* sql`DELETE FROM mcp_sessions WHERE created_at < ${yield* cutoff}`
      }, unavailable)
      // A session's row never changes: it is written once and removed. The row as read last (null:
      // none) is kept at the commit mark taken before it was read, which any commit by any process
      // moves (an ended session, a new one); its age is judged at every request.
      const commitMarks = yield* CommitMarks
      type Row = StoredMcpSession & { readonly createdAt: string }
      const rowOf = readAtMark(commitMarks, keptSessions, (id: string) =>
        Effect.map(
          sql<{ readonly initialize: string; readonly subject: string | null; readonly created_at: string }>`
            SELECT initialize, subject, created_at FROM mcp_sessions WHERE id = ${id}`,
          ([stored]): Row | null =>
            stored === undefined
              ? null
              : { initialize: stored.initialize, subject: stored.subject ?? undefined, createdAt: stored.created_at }
        )
      )
      const find = Effect.fn("McpSessionStore.find")(function* (id: string) {
        const row = yield* rowOf(id)
        if (row === null || row.createdAt < (yield* cutoff)) return undefined
        return { initialize: row.initialize, subject: row.subject }
      }, unavailable)
      const remove = Effect.fn("McpSessionStore.remove")(function* (id: string) {
        yield* sql`DELETE FROM mcp_sessions WHERE id = ${id}`
      }, unavailable)
      return McpSessionStore.of({ record, find, remove })
    })
  )
}
