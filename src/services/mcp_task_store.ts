/**
 * Where MCP tasks are kept (issue 37): in the database every process shares, so any process —
 * and the same one after a restart — answers for an MCP task id. An MCP task id is a capability
 * (whoever holds it may read and cancel the marketplace task it follows, and review it through the
 * agents' tools): only its SHA-256 hash is stored, as for task tokens. What an MCP task says is the
 * marketplace task's own state (operations/mcp_tasks.ts); the row only ties the id to it.
 */
import { hash } from "node:crypto"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as SqlClient from "effect/sql/SqlClient"
import { StorageUnavailable } from "../domain/errors.ts"

/** An MCP task as stored: the marketplace task it follows, and when it was made. */
export interface StoredMcpTask {
  readonly reference: string
  readonly createdAt: string
}

/** The hash an MCP task id is kept (and looked up) by. */
export const mcpTaskIdHash = (id: string) => hash("sha256", id, "base64url")

export class McpTaskStore extends Context.Service<
  McpTaskStore,
  {
    /**
     * Keeps a new MCP task, and deletes those whose time-to-live is over: made before
     * `expiredBefore` and following a task that ended (settled, declined, cancelled) before it too.
     */
    record(id: string, task: StoredMcpTask, expiredBefore: string): Effect.Effect<void, StorageUnavailable>
    find(id: string): Effect.Effect<StoredMcpTask | undefined, StorageUnavailable>
  }
>()("task-marketplace/services/McpTaskStore") {
  static readonly layer = Layer.effect(
    McpTaskStore,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const unavailable = Effect.mapError((cause: unknown) => new StorageUnavailable({ cause }))
      const record = Effect.fn("McpTaskStore.record")(function* (
        id: string,
        task: StoredMcpTask,
        expiredBefore: string
      ) {
        yield* sql`
          INSERT INTO mcp_tasks (id_hash, reference, created_at)
          VALUES (${mcpTaskIdHash(id)}, ${task.reference}, ${task.createdAt})`
        // A task's last change is no earlier than its completion: one that ended before the cutoff
        // completed before it. Only rows older than the cutoff are looked at (by their index), each
        // task by its key.
        yield* sql`
          DELETE FROM mcp_tasks
          WHERE created_at < ${expiredBefore}
            AND EXISTS (
              SELECT 1 FROM tasks
              WHERE tasks.reference = mcp_tasks.reference
                AND tasks.state IN ('settled', 'declined', 'cancelled')
                AND tasks.updated_at < ${expiredBefore})`
      }, unavailable)
      const find = Effect.fn("McpTaskStore.find")(function* (id: string) {
        const rows = yield* sql<{ readonly reference: string; readonly created_at: string }>`
          SELECT reference, created_at FROM mcp_tasks WHERE id_hash = ${mcpTaskIdHash(id)}`
        const row = rows[0]
        return row === undefined ? undefined : { reference: row.reference, createdAt: row.created_at }
      }, unavailable)
      return McpTaskStore.of({ record, find })
    })
  )
}
