/**
 * Task storage. Idempotency lives here, in the database: `idempotency_key` is UNIQUE and the
 * insert is `ON CONFLICT DO NOTHING`, so concurrent submissions with one key — from any number of
 * processes — create exactly one row, and every loser reads the winner's row.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as SqlClient from "effect/sql/SqlClient"
import { StorageUnavailable } from "../domain/errors.ts"
import type { Infeasibility } from "../domain/feasibility.ts"
import type { TaskState } from "../domain/lifecycle.ts"
import type { Brief, HistoryEntry } from "../domain/task.ts"
import type { ExecutionMode } from "../domain/task_draft.ts"
import { CommitMarks } from "../sql/commit_marks.ts"
import { groupCommit, storageCallFor } from "./storage.ts"

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
  /** The participant the draft named (offered only to them), if any. */
  readonly requestedParticipant: string | null
  /** Participants who declined or let an offer lapse: never offered this task again. */
  readonly passedOver: ReadonlyArray<string>
  readonly offerExpiresAt: string | null
  readonly reviewDueAt: string | null
  readonly deadlineAt: string | null
  /** Why nobody could take the task as submitted, when nobody could: what its reads explain. */
  readonly infeasibility: Infeasibility | null
  readonly revisions: number
  /** The earliest instant the service must look at this task again (dispatch or a timer). */
  readonly nextTimerAt: string | null
}

export type InsertOutcome =
  | { readonly _tag: "Created"; readonly task: StoredTask }
  /** The idempotency key was already taken; `task` is the row that holds it. */
  | { readonly _tag: "KeyTaken"; readonly task: StoredTask }

/** How many tasks' versions a process remembers (about 100 bytes each). */
export const keptVersions = 10_000

export class TaskStore extends Context.Service<
  TaskStore,
  {
    insert(task: StoredTask): Effect.Effect<InsertOutcome, StorageUnavailable>
    findByReference(reference: string): Effect.Effect<StoredTask | undefined, StorageUnavailable>
    /** The task an idempotency key created, if any. */
    findByIdempotencyKey(key: string): Effect.Effect<StoredTask | undefined, StorageUnavailable>
    /** The stored version of a task alone (what a conditional read compares), if the task exists. */
    versionOf(reference: string): Effect.Effect<number | undefined, StorageUnavailable>
    /**
     * Writes `task` if the stored row still has `expectedVersion` (compare-and-set): false when
     * another writer got there first. `task.version` must be greater than `expectedVersion`.
     */
    update(task: StoredTask, expectedVersion: number): Effect.Effect<boolean, StorageUnavailable>
    /**
     * Tasks whose next timer is due at `now`, earliest first, as read now: a move made from one
     * of them is a compare-and-set on its version, so a copy that changed since only loses it.
     */
    due(now: string, limit: number): Effect.Effect<ReadonlyArray<StoredTask>, StorageUnavailable>
    /** Tasks offered to or held by a participant, newest first. */
    forParticipant(slug: string): Effect.Effect<ReadonlyArray<StoredTask>, StorageUnavailable>
  }
>()("task-marketplace/services/TaskStore") {
  static readonly layer = Layer.effect(
    TaskStore,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const asStorageCall = storageCallFor(sql)

      const selectByKey = (key: string) => sql<TaskRow>`SELECT * FROM tasks WHERE idempotency_key = ${key}`

      const insertOne = Effect.fnUntraced(function* (task: StoredTask) {
        const inserted = yield* sql<{ reference: string }>`
          INSERT INTO tasks (reference, state, execution_mode, participant_slug, agent, principal, brief, result, outcome,
            history, version, token_hash, idempotency_key, draft_fingerprint, created_at, updated_at,
            requested_participant, passed_over, offer_expires_at, review_due_at, deadline_at, infeasibility, revisions,
            next_timer_at)
          VALUES (${task.reference}, ${task.state}, ${task.executionMode}, ${task.participantSlug}, ${task.agent},
            ${task.principal}, ${JSON.stringify(task.brief)}, ${nullableJson(task.result)}, ${nullableJson(task.outcome)},
            ${JSON.stringify(task.history)}, ${task.version}, ${task.tokenHash}, ${task.idempotencyKey},
            ${task.draftFingerprint}, ${task.createdAt}, ${task.updatedAt}, ${task.requestedParticipant},
            ${JSON.stringify(task.passedOver)}, ${task.offerExpiresAt}, ${task.reviewDueAt}, ${task.deadlineAt},
            ${nullableJson(task.infeasibility)}, ${task.revisions}, ${task.nextTimerAt})
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
      // Concurrent submissions share a commit on the embedded database (see `groupCommit`).
      const insert = yield* groupCommit(sql, insertOne)

      const findByReference = Effect.fnUntraced(function* (reference: string) {
        const rows = yield* sql<TaskRow>`SELECT * FROM tasks WHERE reference = ${reference}`
        return rows[0] === undefined ? undefined : fromRow(rows[0])
      }, asStorageCall)

      const findByIdempotencyKey = Effect.fnUntraced(function* (key: string) {
        const rows = yield* selectByKey(key)
        return rows[0] === undefined ? undefined : fromRow(rows[0])
      }, asStorageCall)

      // The read behind every poll: a plain function, not a generator (one fiber frame less). A
      // version read is remembered with the commit mark taken before it, and answered again
      // without a statement while no commit, by any process, has moved the mark.
      const commitMarks = yield* CommitMarks
      const known = new Map<string, { readonly mark: number; readonly version: number | undefined }>()
      const versionOf = (reference: string) => {
        const mark = commitMarks.mark()
        if (mark !== undefined) {
          const remembered = known.get(reference)
          if (remembered?.mark === mark) return Effect.succeed(remembered.version)
        }
        return asStorageCall(
          Effect.map(
            sql<{ version: number | bigint }>`SELECT version FROM tasks WHERE reference = ${reference}`,
            (rows) => {
              const version = rows[0] === undefined ? undefined : Number(rows[0].version)
              if (mark !== undefined) {
                // Bounded: past the bound everything is let go at once (a poll then reads again).
                if (known.size >= keptVersions) known.clear()
                known.set(reference, { mark, version })
              }
              return version
            }
          )
        )
      }

      const update = Effect.fnUntraced(function* (task: StoredTask, expectedVersion: number) {
        const rows = yield* sql<{ reference: string }>`
          UPDATE tasks SET state = ${task.state}, participant_slug = ${task.participantSlug},
            result = ${nullableJson(task.result)}, outcome = ${nullableJson(task.outcome)},
            history = ${JSON.stringify(task.history)}, version = ${task.version}, updated_at = ${task.updatedAt},
            passed_over = ${JSON.stringify(task.passedOver)}, offer_expires_at = ${task.offerExpiresAt},
            review_due_at = ${task.reviewDueAt}, revisions = ${task.revisions}, next_timer_at = ${task.nextTimerAt}
          WHERE reference = ${task.reference} AND version = ${expectedVersion}
          RETURNING reference
        `
        return rows.length === 1
      }, asStorageCall)

      const due = Effect.fnUntraced(function* (now: string, limit: number) {
        const rows = yield* sql<TaskRow>`
          SELECT * FROM tasks WHERE next_timer_at <= ${now} ORDER BY next_timer_at LIMIT ${limit}
        `
        return rows.map(fromRow)
      }, asStorageCall)

      const forParticipant = Effect.fnUntraced(function* (slug: string) {
        const rows = yield* sql<TaskRow>`
          SELECT * FROM tasks WHERE participant_slug = ${slug}
            AND state IN ('awaiting_participant', 'accepted', 'in_flight', 'submitted', 'settled', 'declined', 'cancelled')
          ORDER BY created_at DESC LIMIT 200
        `
        return rows.map(fromRow)
      }, asStorageCall)

      return TaskStore.of({ insert, findByReference, findByIdempotencyKey, versionOf, update, due, forParticipant })
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
  readonly requested_participant: string | null
  readonly passed_over: string
  readonly offer_expires_at: string | null
  readonly review_due_at: string | null
  readonly deadline_at: string | null
  readonly infeasibility: string | null
  readonly revisions: number | bigint
  readonly next_timer_at: string | null
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
  updatedAt: row.updated_at,
  requestedParticipant: row.requested_participant,
  passedOver: JSON.parse(row.passed_over),
  offerExpiresAt: row.offer_expires_at,
  reviewDueAt: row.review_due_at,
  deadlineAt: row.deadline_at,
  infeasibility: row.infeasibility === null ? null : JSON.parse(row.infeasibility),
  revisions: Number(row.revisions),
  nextTimerAt: row.next_timer_at
})
