/**
 * Where MCP sessions are kept: in the database every process shares, so a client's requests may
 * reach any process behind one address (mcp/sessions.ts re-creates a session from its stored
 * `initialize` in a process that has not seen it). A session is a client's negotiated protocol
 * revision and capabilities, no credential: the tools' moves need the task's own token.
 */
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as SqlClient from "effect/sql/SqlClient"
import { StorageUnavailable } from "../domain/errors.ts"

/** Sessions nobody ended are forgotten after this long (a client then starts a new one, as MCP asks). */
const sessionLifetimeMs = 7 * 24 * 3600_000

export class McpSessionStore extends Context.Service<
  McpSessionStore,
  {
    /** Keeps a new session with the JSON-RPC `initialize` message that opened it. */
    record(id: string, initialize: string): Effect.Effect<void, StorageUnavailable>
    /** The `initialize` message of a live session, or undefined when it ended or never was. */
    find(id: string): Effect.Effect<string | undefined, StorageUnavailable>
    remove(id: string): Effect.Effect<void, StorageUnavailable>
  }
>()("task-marketplace/services/McpSessionStore") {
  static readonly layer = Layer.effect(
    McpSessionStore,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const unavailable = Effect.mapError((cause: unknown) => new StorageUnavailable({ cause }))
      const cutoff = Effect.map(Clock.currentTimeMillis, (now) => new Date(now - sessionLifetimeMs).toISOString())
      return McpSessionStore.of({
        record: (id, initialize) =>
          Effect.gen(function* () {
            const now = new Date(yield* Clock.currentTimeMillis).toISOString()
            yield* sql`INSERT INTO mcp_sessions (id, initialize, created_at) VALUES (${id}, ${initialize}, ${now})`
            // Each new session clears out the expired ones.
            yield* sql`DELETE FROM mcp_sessions WHERE created_at < ${yield* cutoff}`
          }).pipe(unavailable),
        find: (id) =>
          Effect.gen(function* () {
            const rows = yield* sql<{ readonly initialize: string }>`
              SELECT initialize FROM mcp_sessions WHERE id = ${id} AND created_at >= ${yield* cutoff}`
            return rows[0]?.initialize
          }).pipe(unavailable),
        remove: (id) => sql`DELETE FROM mcp_sessions WHERE id = ${id}`.pipe(Effect.asVoid, unavailable)
      })
    })
  )
}
