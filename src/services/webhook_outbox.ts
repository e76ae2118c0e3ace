/**
 * The outbox of webhook events (`webhook_events`): one row per entry of a task's history, written
 * in the transaction that records the transition, so an event exists exactly when its transition
 * does — a process killed after the commit leaves it here for the next one to send.
 *
 * Attempts are claimed with one conditional UPDATE (on Postgres skipping rows another process has
 * locked), so each attempt is made by one process. A claim is a lease: it moves the event's
 * `next_attempt_at` past the attempt's longest possible end, so if the process dies mid-attempt
 * the event falls due again and another process makes the attempt. A task's events go out in
 * order: an event is not claimed while an earlier one of its task is still pending.
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
import type { StoredTask } from "../domain/task_record.ts"
import { DeliveryAttempt, DeliveryState, webhookEventType } from "../domain/webhooks.ts"
import { IntegerColumn } from "../sql/columns.ts"
import { decodeEach, storageCallFor } from "./storage.ts"
import { taskViewFor } from "./task_view.ts"

/** An event as the outbox keeps it. */
export const StoredEvent = Schema.Struct({
  id: Schema.String,
  reference: Schema.String,
  historyIndex: Schema.Number,
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
  historyIndex: IntegerColumn,
  attempts: Schema.fromJsonString(Schema.Array(DeliveryAttempt))
}).pipe(
  Schema.encodeKeys({
    historyIndex: "history_index",
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

      // An event is due at once, by real time: the sender's clock (a sandbox's tasks may be in
      // next week; its receivers are not).
      const record = Effect.fn("WebhookOutbox.record")(function* (entered: ReadonlyArray<StoredTask>) {
        const now = yield* Clock.currentTimeMillis
        const rows = entered.flatMap((task) => {
          if (task.webhookUrl === null) return []
          const index = task.history.length - 1
          const at = task.history[index]!.at
          return [
            {
              id: eventId(),
              reference: task.reference,
              history_index: index,
              url: task.webhookUrl,
              body: JSON.stringify({ type: webhookEventType, timestamp: at, data: view(task) }),
              created_at: at,
              state: "pending",
              next_attempt_at: new Date(now).toISOString(),
              claim: null,
              attempts: "[]"
            }
          ]
        })
        if (!Arr.isArrayNonEmpty(rows)) return
        yield* asStorageCall(sql`INSERT INTO webhook_events ${sql.insert(rows)}`)
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
                    WHERE earlier.reference = e.reference AND earlier.history_index < e.history_index
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
            sql`SELECT * FROM webhook_events WHERE reference = ${reference} ORDER BY history_index`,
            decodeRows
          ),
        asStorageCall
      )

      return WebhookOutbox.of({
        record,
        claimDue,
        finish,
        forTask,
        wake,
        nextDue: (timeoutMs) => Effect.raceFirst(Queue.take(signal), Effect.sleep(timeoutMs)).pipe(Effect.asVoid)
      })
    })
  )
}
