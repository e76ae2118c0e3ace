/**
 * Task storage. Idempotency lives here, in the database: `idempotency_key` is UNIQUE and the
 * insert is `ON CONFLICT DO NOTHING`, so concurrent submissions with one key — from any number of
 * processes — create exactly one row, and every loser reads the winner's row.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as SqlClient from "effect/sql/SqlClient"
import type * as SqlError from "effect/sql/SqlError"
import * as SqlSchema from "effect/sql/SqlSchema"
import { StorageUnavailable } from "../domain/errors.ts"
import { Infeasibility } from "../domain/feasibility.ts"
import type { TaskState } from "../domain/lifecycle.ts"
import { Brief, HistoryEntry, Outcome, RecordedResult } from "../domain/task.ts"
import { StoredTask } from "../domain/task_record.ts"
import { IntegerColumn } from "../sql/columns.ts"
import { CommitMarks, readAtMark } from "../sql/commit_marks.ts"
import { hotFn } from "../tracing.ts"
import { referencePattern } from "./ids.ts"
import { decodeEach, groupCommit, storageCallFor, undecodableRow } from "./storage.ts"

/**
 * A row of `tasks` as either backend returns it: JSON members are TEXT columns, integers may come
 * back as BigInt, column names are snake_case. Decoding it gives the `StoredTask`.
 */
export const TaskRow = Schema.Struct({
  ...StoredTask.fields,
  brief: Schema.fromJsonString(Brief),
  result: Schema.NullOr(Schema.fromJsonString(RecordedResult)),
  outcome: Schema.NullOr(Schema.fromJsonString(Outcome)),
  history: Schema.fromJsonString(Schema.Array(HistoryEntry)),
  version: IntegerColumn,
  passedOver: Schema.fromJsonString(Schema.Array(Schema.String)),
  infeasibility: Schema.NullOr(Schema.fromJsonString(Infeasibility)),
  revisions: IntegerColumn
}).pipe(
  Schema.encodeKeys({
    executionMode: "execution_mode",
    participantSlug: "participant_slug",
    tokenHash: "token_hash",
    idempotencyKey: "idempotency_key",
    draftFingerprint: "draft_fingerprint",
    createdAt: "created_at",
    updatedAt: "updated_at",
    requestedParticipant: "requested_participant",
    passedOver: "passed_over",
    offerExpiresAt: "offer_expires_at",
    reviewDueAt: "review_due_at",
    deadlineAt: "deadline_at",
    nextTimerAt: "next_timer_at",
    webhookUrl: "webhook_url"
  })
)

export type InsertOutcome =
  | { readonly _tag: "Created"; readonly task: StoredTask }
  /** The idempotency key was already taken; `task` is the row that holds it. */
  | { readonly _tag: "KeyTaken"; readonly task: StoredTask }

/** How many tasks' versions a process remembers (about 100 bytes each). */
export const keptVersions = 10_000

export class TaskStore extends Context.Service<
  TaskStore,
  {
    /**
     * Inserts `task` unless its idempotency key is taken; `alongside` (the task's first webhook
     * event) is written in the same transaction, only when the task is created.
     */
    insert(
      task: StoredTask,
      alongside?: Effect.Effect<void, StorageUnavailable>
    ): Effect.Effect<InsertOutcome, StorageUnavailable>
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
    /**
     * Tasks offered to or held by any of `slugs` and in one of `states`, least recently changed
     * first, at most `limit` (read through the (participant_slug, state) index).
     */
    heldBy(
      slugs: ReadonlyArray<string>,
      states: ReadonlyArray<TaskState>,
      limit: number
    ): Effect.Effect<ReadonlyArray<StoredTask>, StorageUnavailable>
  }
>()("task-marketplace/services/TaskStore") {
  static readonly layer = Layer.effect(
    TaskStore,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const asStorageCall = storageCallFor(sql)

      /** One task by a unique column, decoded; a row that does not decode is a logged defect. */
      const findOne = (column: "reference" | "idempotency_key") => {
        const find = SqlSchema.findOneOption({
          Request: Schema.String,
          Result: TaskRow,
          execute: (value) => sql`SELECT * FROM tasks WHERE ${sql(column)} = ${value}`
        })
        return (value: string): Effect.Effect<StoredTask | undefined, SqlError.SqlError> =>
          find(value).pipe(
            Effect.map(Option.getOrUndefined),
            Effect.catchTag("SchemaError", undecodableRow("tasks", `${column} ${value}`))
          )
      }
      const selectByKey = findOne("idempotency_key")
      const decodeRows = decodeEach(
        TaskRow,
        "tasks",
        (row) => `reference ${(row as { reference?: unknown }).reference}`
      )

      const insertRow = Effect.fnUntraced(function* (task: StoredTask) {
        const inserted = yield* sql<{ reference: string }>`
          INSERT INTO tasks (reference, state, execution_mode, participant_slug, agent, principal, brief, result, outcome,
            history, version, token_hash, idempotency_key, draft_fingerprint, created_at, updated_at,
            requested_participant, passed_over, offer_expires_at, review_due_at, deadline_at, infeasibility, revisions,
            next_timer_at, webhook_url)
          VALUES (${task.reference}, ${task.state}, ${task.executionMode}, ${task.participantSlug}, ${task.agent},
            ${task.principal}, ${JSON.stringify(task.brief)}, ${nullableJson(task.result)}, ${nullableJson(task.outcome)},
            ${JSON.stringify(task.history)}, ${task.version}, ${task.tokenHash}, ${task.idempotencyKey},
            ${task.draftFingerprint}, ${task.createdAt}, ${task.updatedAt}, ${task.requestedParticipant},
            ${JSON.stringify(task.passedOver)}, ${task.offerExpiresAt}, ${task.reviewDueAt}, ${task.deadlineAt},
            ${nullableJson(task.infeasibility)}, ${task.revisions}, ${task.nextTimerAt}, ${task.webhookUrl})
          ON CONFLICT (idempotency_key) DO NOTHING
          RETURNING reference
        `
        if (inserted.length > 0 || task.idempotencyKey === null) return { _tag: "Created", task } as const
        const holder = yield* selectByKey(task.idempotencyKey)
        if (holder === undefined) {
          // The conflicting row vanished between the two statements: tasks are never deleted, so
          // this is storage misbehaving; the caller answers 503 and the agent retries with the key.
          return yield* new StorageUnavailable({ cause: "idempotency row not found after conflict" })
        }
        return { _tag: "KeyTaken", task: holder } as const
      }, asStorageCall)
      const insertOne = ({
        task,
        alongside
      }: {
        task: StoredTask
        alongside?: Effect.Effect<void, StorageUnavailable>
      }) =>
        alongside === undefined
          ? insertRow(task)
          : asStorageCall(
              sql.withTransaction(
                Effect.tap(insertRow(task), (outcome) => (outcome._tag === "Created" ? alongside : Effect.void))
              )
            )
      // Concurrent submissions share a commit on the embedded database (see `groupCommit`).
      const writeOne = yield* groupCommit(sql, insertOne)
      const insert = hotFn("TaskStore.insert")(function* (
        task: StoredTask,
        alongside?: Effect.Effect<void, StorageUnavailable>
      ) {
        return yield* writeOne(alongside === undefined ? { task } : { task, alongside })
      })

      const byReference = findOne("reference")
      // Only a reference of the shape the service issues is looked up, here for every caller: any
      // other names no task, and some (a NUL, which Postgres text cannot hold) would fail the query
      // as storage unavailable.
      const findByReference = hotFn("TaskStore.findByReference")(
        (reference: string) => (referencePattern.test(reference) ? byReference(reference) : Effect.succeed(undefined)),
        asStorageCall
      )
      const findByIdempotencyKey = hotFn("TaskStore.findByIdempotencyKey")(
        (key: string) => selectByKey(key),
        asStorageCall
      )

      // The read behind every poll. A task's version (null: no such task) is kept at the commit mark taken before it was read,
      // which any commit by any process moves: the mark is read fresh for every request.
      const commitMarks = yield* CommitMarks
      const versionAtMark = readAtMark(commitMarks, keptVersions, (reference: string) =>
        Effect.map(
          asStorageCall(sql<{ version: number | bigint }>`SELECT version FROM tasks WHERE reference = ${reference}`),
          (rows) => (rows[0] === undefined ? null : Number(rows[0].version))
        )
      )
      const versionOf = hotFn("TaskStore.versionOf")(function* (reference: string) {
        // As findByReference: a reference the service never issues names no task.
        if (!referencePattern.test(reference)) return undefined
        return (yield* versionAtMark(reference)) ?? undefined
      })

      const update = hotFn("TaskStore.update")(function* (task: StoredTask, expectedVersion: number) {
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

      const due = Effect.fn("TaskStore.due")(function* (now: string, limit: number) {
        const rows = yield* sql`
          SELECT * FROM tasks WHERE next_timer_at <= ${now} ORDER BY next_timer_at LIMIT ${limit}
        `
        return yield* decodeRows(rows)
      }, asStorageCall)

      const forParticipant = Effect.fn("TaskStore.forParticipant")(function* (slug: string) {
        const rows = yield* sql`
          SELECT * FROM tasks WHERE participant_slug = ${slug}
            AND state IN ('awaiting_participant', 'accepted', 'in_flight', 'submitted', 'settled', 'declined', 'cancelled')
          ORDER BY created_at DESC LIMIT 200
        `
        return yield* decodeRows(rows)
      }, asStorageCall)

      const selectHeldBy = Effect.fnUntraced(function* (
        slugs: ReadonlyArray<string>,
        states: ReadonlyArray<TaskState>,
        limit: number
      ) {
        const rows = yield* sql`
          SELECT * FROM tasks WHERE ${sql.in("participant_slug", slugs)} AND ${sql.in("state", states)}
          ORDER BY updated_at LIMIT ${limit}
        `
        return yield* decodeRows(rows)
      }, asStorageCall)
      const heldBy = Effect.fn("TaskStore.heldBy")(function* (
        slugs: ReadonlyArray<string>,
        states: ReadonlyArray<TaskState>,
        limit: number
      ) {
        if (slugs.length === 0 || states.length === 0) return []
        return yield* selectHeldBy(slugs, states, limit)
      })

      return TaskStore.of({
        insert,
        findByReference,
        findByIdempotencyKey,
        versionOf,
        update,
        due,
        forParticipant,
        heldBy
      })
    })
  )
}

const nullableJson = (value: unknown) => (value === null || value === undefined ? null : JSON.stringify(value))
