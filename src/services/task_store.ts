/**
 * Task storage. Idempotency lives here, in the database: `idempotency_key` is UNIQUE and the
 * insert is `ON CONFLICT DO NOTHING`, so concurrent submissions with one key — from any number of
 * processes — create exactly one row, and every loser reads the winner's row.
 */
import { Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { StorageUnavailable } from "../domain/errors.ts"
import type { TaskState } from "../domain/lifecycle.ts"
import type { Brief, HistoryEntry } from "../domain/task.ts"
import type { ExecutionMode } from "../domain/task_draft.ts"
import { asStorageCall } from "./storage.ts"

export interface StoredTask {
  readonly reference: string
  readonly state: TaskState
  readonly executionMode: ExecutionMode
  readonly participantSlug: string | null
  readonly agent: string
  readonly principal: string | null
  readonly brief: Brief
  readonly result: unknown
  readonly outcome: unknown
  readonly history: ReadonlyArray<HistoryEntry>
  readonly version: number
  readonly tokenHash: string
  readonly idempotencyKey: string | null
  readonly draftFingerprint: string
  readonly createdAt: string
  readonly updatedAt: string
}

export type InsertOutcome =
  | { readonly _tag: "Created"; readonly task: StoredTask }
  /** The idempotency key was already taken; `task` is the row that holds it. */
  | { readonly _tag: "KeyTaken"; readonly task: StoredTask }

export class TaskStore extends Context.Service<
  TaskStore,
  {
    insert(task: StoredTask): Effect.Effect<InsertOutcome, StorageUnavailable>
    findByReference(reference: string): Effect.Effect<StoredTask | undefined, StorageUnavailable>
  }
>()("task-marketplace/services/TaskStore") {
  static readonly layer = Layer.effect(
    TaskStore,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient

      const selectByKey = (key: string) => sql<TaskRow>`SELECT * FROM tasks WHERE idempotency_key = ${key}`

      const insert = Effect.fn("TaskStore.insert")(function* (task: StoredTask) {
        const inserted = yield* sql<{ reference: string }>`
          INSERT INTO tasks (reference, state, execution_mode, participant_slug, agent, principal, brief, result, outcome,
            history, version, token_hash, idempotency_key, draft_fingerprint, created_at, updated_at)
          VALUES (${task.reference}, ${task.state}, ${task.executionMode}, ${task.participantSlug}, ${task.agent},
            ${task.principal}, ${JSON.stringify(task.brief)}, ${nullableJson(task.result)}, ${nullableJson(task.outcome)},
            ${JSON.stringify(task.history)}, ${task.version}, ${task.tokenHash}, ${task.idempotencyKey},
            ${task.draftFingerprint}, ${task.createdAt}, ${task.updatedAt})
          ON CONFLICT (idempotency_key) DO NOTHING
          RETURNING reference
        `
        if (inserted.length > 0 || task.idempotencyKey === null) return { _tag: "Created", task } as const
        const rows = yield* selectByKey(task.idempotencyKey)
        if (rows[0] === undefined) {
          // The conflicting row vanished between the two statements: tasks are never deleted, so
          // this is storage misbehaving; the caller answers 503 and the agent retries with the key.
          return yield* new StorageUnavailable({ cause: "idempotency row not found after conflict" })
        }
        return { _tag: "KeyTaken", task: fromRow(rows[0]) } as const
      }, asStorageCall)

      const findByReference = Effect.fn("TaskStore.findByReference")(function* (reference: string) {
        const rows = yield* sql<TaskRow>`SELECT * FROM tasks WHERE reference = ${reference}`
        return rows[0] === undefined ? undefined : fromRow(rows[0])
      }, asStorageCall)

      return TaskStore.of({ insert, findByReference })
    })
  )
}

const nullableJson = (value: unknown) => (value === null || value === undefined ? null : JSON.stringify(value))

interface TaskRow {
  readonly reference: string
  readonly state: TaskState
  readonly execution_mode: ExecutionMode
  readonly participant_slug: string | null
  readonly agent: string
  readonly principal: string | null
  readonly brief: string
  readonly result: string | null
  readonly outcome: string | null
  readonly history: string
  readonly version: number | bigint
  readonly token_hash: string
  readonly idempotency_key: string | null
  readonly draft_fingerprint: string
  readonly created_at: string
  readonly updated_at: string
}

const fromRow = (row: TaskRow): StoredTask => ({
  reference: row.reference,
  state: row.state,
  executionMode: row.execution_mode,
  participantSlug: row.participant_slug,
  agent: row.agent,
  principal: row.principal,
  brief: JSON.parse(row.brief),
  result: row.result === null ? null : JSON.parse(row.result),
  outcome: row.outcome === null ? null : JSON.parse(row.outcome),
  history: JSON.parse(row.history),
  version: Number(row.version),
  tokenHash: row.token_hash,
  idempotencyKey: row.idempotency_key,
  draftFingerprint: row.draft_fingerprint,
  createdAt: row.created_at,
  updatedAt: row.updated_at
})
