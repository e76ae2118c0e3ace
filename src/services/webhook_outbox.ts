/**
 * The outbox of webhook events (`webhook_events`): one row per entry of a task's history
 * (`task.updated`), written in the transaction that records the transition, and one per message a
 * participant writes on the task (`task.message`), written in the transaction that keeps the
 * message — so an event exists exactly when what it reports does, and a process killed after the
 * commit leaves it here for the next one to send.
 *
 * Attempts are claimed with one conditional UPDATE (on Postgres skipping rows another process has
 * locked), so each attempt is made by one process. A claim is a lease: it moves the event's
 * `next_attempt_at` past the attempt's longest possible end, so if the process dies mid-attempt
 * the event falls due again and another process makes the attempt. A task's events go out in
 * order (`position`, from 0, the order they were written in): an event is not claimed while an
 * earlier one of its task is still pending. Writers of a task's events hold the task's row (a
 * transition updates it; a message locks it), so two never take the same place.
 */
import { randomBytes } from "node:crypto"
import * as Arr from "effect/Array"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Queue from "effect/Queue"
import * as Schema from "effect/Schema"
import * as SqlClient from "effect/sql/SqlClient"
import { AppConfig } from "../config/app_config.ts"
import type { StorageUnavailable } from "../domain/errors.ts"
import type { Message } from "../domain/messages.ts"
import type { StoredTask } from "../domain/task_record.ts"
import {
  DeliveryAttempt,
  DeliveryState,
  messageEventType,
  WebhookEventType,
  webhookEventType
} from "../domain/webhooks.ts"
import { IntegerColumn } from "../sql/columns.ts"
import { decodeEach, storageCallFor } from "./storage.ts"
import { taskViewFor } from "./task_view.ts"

/** An event as the outbox keeps it. */
export const StoredEvent = Schema.Struct({
  id: Schema.String,
  reference: Schema.String,
  /** The event's place in its task's delivery order, from 0. */
  position: Schema.Number,
  type: WebhookEventType,
  /** The history entry a `task.updated` reports; null for a `task.message`. */
  historyIndex: Schema.NullOr(Schema.Number),
  /** The message a `task.message` carries; null for a `task.updated`. */
  messageId: Schema.NullOr(Schema.String),
  /** The task's webhook_url. */
  url: Schema.String,
  /** The exact JSON that is signed and sent, the same on every attempt. */
  body: Schema.String,
  createdAt: Schema.String,
  state: DeliveryState,
  nextAttemptAt: Schema.NullOr(Schema.String),
  claim: Schema.NullOr(Schema.String),
  attempts: Schema.Array(DeliveryAttempt)
})
export type StoredEvent = typeof StoredEvent.Type

const EventRow = Schema.Struct({
  ...StoredEvent.fields,
  position: IntegerColumn,
  historyIndex: Schema.NullOr(IntegerColumn),
  attempts: Schema.fromJsonString(Schema.Array(DeliveryAttempt))
}).pipe(
  Schema.encodeKeys({
    historyIndex: "history_index",
    messageId: "message_id",
    createdAt: "created_at",
    nextAttemptAt: "next_attempt_at"
  })
)

/** What an attempt decided: delivered, failed for good, or pending again until `nextAttemptAt`. */
export interface AttemptOutcome {
  readonly state: DeliveryState
  readonly nextAttemptAt: string | null
  readonly attempts: ReadonlyArray<DeliveryAttempt>
}

/** A Standard Webhooks message id: `msg_` and 32 base64url characters (192 random bits). */
const eventId = () => `msg_${randomBytes(24).toString("base64url")}`

export class WebhookOutbox extends Context.Service<
  WebhookOutbox,
  {
    /**
     * Records the events of a write: `entered` holds the task as it entered each state the write
     * recorded, in order. Call it inside the write's transaction, and `wake` once it commits. Tasks
     * without a webhook have none.
     */
    record(entered: ReadonlyArray<StoredTask>): Effect.Effect<void, StorageUnavailable>
    /**
     * Records the `task.message` event of a message written on task `reference`, to be sent to
     * `url` after the task's earlier events. Call it inside the transaction that keeps the message,
     * holding the task's row, and `wake` once it commits.
     */
    recordMessage(reference: string, url: string, message: Message): Effect.Effect<void, StorageUnavailable>
    /**
     * Claims up to `limit` events due at `now`, each the earliest pending one of its task, for the
     * attempt named `claim`, until `leaseUntil`.
     */
    claimDue(
      now: string,
      leaseUntil: string,
      claim: string,
      limit: number
    ): Effect.Effect<ReadonlyArray<StoredEvent>, StorageUnavailable>
    /** Records an attempt's outcome, if the claim still holds the event (false when it lapsed). */
    finish(id: string, claim: string, outcome: AttemptOutcome): Effect.Effect<boolean, StorageUnavailable>
    /** A task's events, in order. */
    forTask(reference: string): Effect.Effect<ReadonlyArray<StoredEvent>, StorageUnavailable>
    /** Wakes this process's delivery worker: an event was committed or released. */
    readonly wake: Effect.Effect<void>
    /** The worker's pause: over after `timeoutMs`, or at once when woken. */
    nextDue(timeoutMs: number): Effect.Effect<void>
  }
>()("task-marketplace/services/WebhookOutbox") {
  static readonly layer = Layer.effect(
    WebhookOutbox,
    Effect.gen(function* () {
      const config = yield* AppConfig
      const sql = yield* SqlClient.SqlClient
      const asStorageCall = storageCallFor(sql)
      const view = taskViewFor(config)
      const decodeRows = decodeEach(EventRow, "webhook_events", (row) => `id ${(row as { id?: unknown }).id}`)
      const signal = yield* Queue.sliding<void>(1)
      const wake = Queue.offer(signal, undefined).pipe(Effect.asVoid)

      /** The next free place in a task's delivery order. */
      const nextPosition = (reference: string) =>
        Effect.map(
          sql<{ readonly next: number | bigint | string }>`
            SELECT COALESCE(MAX(position), -1) + 1 AS next FROM webhook_events WHERE reference = ${reference}
          `,
          (rows) => Number(rows[0]?.next ?? 0)
        )

      // An event is due at once, by real time: the sender's clock (a sandbox's tasks may be in
      // next week; its receivers are not).
      const record = Effect.fn("WebhookOutbox.record")(function* (entered: ReadonlyArray<StoredTask>) {
        const withHook = entered.filter((task) => task.webhookUrl !== null)
        const first = withHook[0]
        if (first === undefined) return
        const now = yield* Clock.currentTimeMillis
        // One write's states are of one task.
        const base = yield* asStorageCall(nextPosition(first.reference))
        const rows = withHook.map((task, i) => {
          const index = task.history.length - 1
          const at = task.history[index]!.at
          return {
            id: eventId(),
            reference: task.reference,
            position: base + i,
            type: webhookEventType,
            history_index: index,
            message_id: null,
            url: task.webhookUrl!,
            body: JSON.stringify({ type: webhookEventType, timestamp: at, data: view(task) }),
            created_at: at,
            state: "pending",
            next_attempt_at: new Date(now).toISOString(),
            claim: null,
            attempts: "[]"
          }
        })
        if (!Arr.isArrayNonEmpty(rows)) return
        yield* asStorageCall(sql`INSERT INTO webhook_events ${sql.insert(rows)}`)
      })

      const recordMessage = Effect.fn("WebhookOutbox.recordMessage")(function* (
        reference: string,
        url: string,
        message: Message
      ) {
        const now = yield* Clock.currentTimeMillis
        const position = yield* asStorageCall(nextPosition(reference))
        const row = {
          id: eventId(),
          reference,
          position,
          type: messageEventType,
          history_index: null,
          message_id: message.id,
          url,
          body: JSON.stringify({
            type: messageEventType,
            timestamp: message.created_at,
            data: { ...message, reference }
          }),
          created_at: message.created_at,
          state: "pending",
          next_attempt_at: new Date(now).toISOString(),
          claim: null,
          attempts: "[]"
        }
        yield* asStorageCall(sql`INSERT INTO webhook_events ${sql.insert(row)}`)
      })

      // The earliest pending event of each task, due now. On Postgres rows another process is
      // claiming are skipped rather than waited for; the UPDATE checks the state and time again, so
      // a row claimed meanwhile is never claimed twice.
      const claimDue = Effect.fn("WebhookOutbox.claimDue")(
        (now: string, leaseUntil: string, claim: string, limit: number) =>
          Effect.flatMap(
            sql`
              UPDATE webhook_events SET claim = ${claim}, next_attempt_at = ${leaseUntil}
              WHERE id IN (
                SELECT e.id FROM webhook_events e
                WHERE e.state = 'pending' AND e.next_attempt_at <= ${now}
                  AND NOT EXISTS (
                    SELECT 1 FROM webhook_events earlier
                    WHERE earlier.reference = e.reference AND earlier.position < e.position
                      AND earlier.state = 'pending'
                  )
                ORDER BY e.next_attempt_at
                LIMIT ${limit}
                ${sql.onDialectOrElse({ pg: () => sql.literal("FOR UPDATE SKIP LOCKED"), orElse: () => sql.literal("") })}
              )
              AND state = 'pending' AND next_attempt_at <= ${now}
              RETURNING *
            `,
            decodeRows
          ),
        asStorageCall
      )

      const finish = Effect.fn("WebhookOutbox.finish")(
        (id: string, claim: string, outcome: AttemptOutcome) =>
          Effect.map(
            sql<{ id: string }>`
              UPDATE webhook_events SET state = ${outcome.state}, next_attempt_at = ${outcome.nextAttemptAt},
                attempts = ${JSON.stringify(outcome.attempts)}, claim = NULL
              WHERE id = ${id} AND claim = ${claim}
              RETURNING id
            `,
            (rows) => rows.length === 1
          ),
        asStorageCall
      )

      const forTask = Effect.fn("WebhookOutbox.forTask")(
        (reference: string) =>
          Effect.flatMap(
            sql`SELECT * FROM webhook_events WHERE reference = ${reference} ORDER BY position`,
            decodeRows
          ),
        asStorageCall
      )

      return WebhookOutbox.of({
        record,
        recordMessage,
        claimDue,
        finish,
        forTask,
        wake,
        nextDue: (timeoutMs) => Effect.raceFirst(Queue.take(signal), Effect.sleep(timeoutMs)).pipe(Effect.asVoid)
      })
    })
  )
}
