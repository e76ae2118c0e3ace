/**
 * The lifecycle service: applies a transition of the table (domain/lifecycle.ts) to a stored task
 * atomically — compare-and-set on the row's version, so of two concurrent moves from one state
 * exactly one wins and the other is re-judged against the state it lost to — records `history`,
 * sets `outcome` on terminal states, re-arms the timers, records the task's webhook events in the
 * same transaction (services/webhook_outbox.ts), and announces the change.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as SqlClient from "effect/sql/SqlClient"
import { AppConfig } from "../config/app_config.ts"
import { InvalidTransition, type StorageUnavailable, TaskNotFound } from "../domain/errors.ts"
import {
  type Actor,
  findTransition,
  isTerminal,
  type OutcomeReason,
  outcomeMessages,
  type TaskState,
  type Transition
} from "../domain/lifecycle.ts"
import { tracedFn } from "../tracing.ts"
import { referencePattern } from "./ids.ts"
import { SandboxClock } from "./sandbox_clock.ts"
import { storageCallFor } from "./storage.ts"
import { TaskEvents } from "./task_events.ts"
import { type StoredTask, TaskStore } from "./task_store.ts"
import { WebhookOutbox } from "./webhook_outbox.ts"

export interface TransitionRequest<G = never> {
  readonly reference: string
  readonly to: TaskState
  readonly actor: Actor
  /** The outcome reason (terminal states) or the reason code recorded in history. */
  readonly reason?: OutcomeReason | undefined
  /** Free text from the actor (a revision request, a rejection, a cancellation), kept in history. */
  readonly note?: string | undefined
  /** A check of the current row beyond the table, e.g. that this participant holds the task. */
  readonly guard?: ((task: StoredTask) => Effect.Effect<void, G>) | undefined
  /** Further changes made together with the move (the result, the offered participant, …). */
  readonly change?: ((task: StoredTask) => Partial<Mutable>) | undefined
  /**
   * Writes outside the task's row made in the same transaction as the move (a result's files
   * marked attached): when it fails, the move is not made either, and its failure is the answer.
   */
  readonly alongside?: ((task: StoredTask) => Effect.Effect<void, G | StorageUnavailable>) | undefined
  /**
   * The task as the caller has just read it: the first attempt starts from it instead of reading
   * it again. A copy that is no longer current only loses the compare-and-set, and the next
   * attempt reads the row.
   */
  readonly read?: StoredTask | undefined
  /**
   * A second move, by the same actor, made in the same write right after the first (e.g. the
   * service's `open` → `matching` → `awaiting_participant` when it has its match at hand): both
   * are checked against the table and recorded in history, and nobody ever reads the state between.
   */
  readonly followedBy?: Omit<Move, "actor"> | undefined
}

/** What one move changes: the state entered, by whom, why, and what else changes with it. */
type Move = Pick<TransitionRequest, "to" | "actor" | "reason" | "note" | "change">

type Mutable = Pick<StoredTask, "participantSlug" | "result" | "passedOver" | "revisions">

export class Lifecycle extends Context.Service<
  Lifecycle,
  {
    transition<G = never>(
      request: TransitionRequest<G>
    ): Effect.Effect<StoredTask, TaskNotFound | InvalidTransition | StorageUnavailable | G>
    /** When the task should next be looked at by the service, for a state entered at `now`. */
    schedule(task: StoredTask, now: number): Pick<StoredTask, "offerExpiresAt" | "reviewDueAt" | "nextTimerAt">
  }
>()("task-marketplace/services/Lifecycle") {
  static readonly layer = Layer.effect(
    Lifecycle,
    Effect.gen(function* () {
      const config = yield* AppConfig
      const store = yield* TaskStore
      const events = yield* TaskEvents
      const sql = yield* SqlClient.SqlClient
      const outbox = yield* WebhookOutbox
      const time = yield* SandboxClock
      const asStorageCall = storageCallFor(sql)

      /**
       * The compare-and-set write of a move, with what must be written alongside it in one
       * transaction: the request's own writes, and the webhook events of each state `entered`.
       */
      const write = <G>(
        next: StoredTask,
        expectedVersion: number,
        request: TransitionRequest<G>,
        entered: ReadonlyArray<StoredTask>
      ) => {
        const writes = [
          ...(request.alongside === undefined ? [] : [request.alongside(next)]),
          ...(next.webhookUrl === null ? [] : [outbox.record(entered)])
        ]
        if (writes.length === 0) return store.update(next, expectedVersion)
        return asStorageCall(
          sql.withTransaction(
            Effect.flatMap(store.update(next, expectedVersion), (updated) =>
              updated ? Effect.as(Effect.all(writes, { discard: true }), true) : Effect.succeed(false)
            )
          )
        )
      }

      const iso = (ms: number) => new Date(ms).toISOString()

      const schedule = (task: StoredTask, now: number) => {
        const offerExpiresAt =
          task.state === "awaiting_participant" ? (task.offerExpiresAt ?? iso(now + config.offerTimeoutMs)) : null
        const reviewDueAt = task.state === "submitted" ? (task.reviewDueAt ?? iso(now + config.reviewWindowMs)) : null
        const candidates: Array<string> = []
        if (task.state === "open" || task.state === "matching") candidates.push(iso(now))
        if (offerExpiresAt !== null) candidates.push(offerExpiresAt)
        if (reviewDueAt !== null) candidates.push(reviewDueAt)
        // A deadline only matters until a participant accepts (DECISIONS §5).
        if (task.deadlineAt !== null && ["open", "matching", "awaiting_participant"].includes(task.state)) {
          candidates.push(task.deadlineAt)
        }
        candidates.sort()
        return { offerExpiresAt, reviewDueAt, nextTimerAt: candidates[0] ?? null }
      }

      /**
       * The task as it enters `move.to` from `current` at `at` by the table's `row` (not yet
       * scheduled or versioned).
       */
      const enter = (current: StoredTask, move: Move, row: Transition, at: string): StoredTask => {
        // Without an explicit reason, a terminal move records the one its table row names.
        const outcomeReason: OutcomeReason =
          move.reason ??
          (move.to === "cancelled"
            ? move.actor === "operator"
              ? "cancelled_by_operator"
              : "cancelled_by_agent"
            : (row.reasons?.[0] ?? "no_match"))
        return {
          ...current,
          ...(move.change?.(current) ?? {}),
          state: move.to,
          // Timers of the state being left never carry over.
          offerExpiresAt: null,
          reviewDueAt: null,
          updatedAt: at,
          history: [
            ...current.history,
            {
              from: current.state,
              to: move.to,
              actor: move.actor,
              ...(move.reason === undefined && move.note === undefined
                ? {}
                : { reason: [move.reason, move.note].filter((s) => s !== undefined).join(": ") }),
              at
            }
          ],
          outcome: isTerminal(move.to)
            ? {
                state: move.to,
                reason: outcomeReason,
                message:
                  move.note === undefined
                    ? outcomeMessages[outcomeReason]
                    : `${outcomeMessages[outcomeReason]} ${move.note}`,
                decided_at: at
              }
            : current.outcome
        }
      }

      const transition = tracedFn("Lifecycle.transition")(function* <G>(request: TransitionRequest<G>) {
        if (!referencePattern.test(request.reference)) return yield* new TaskNotFound({ reference: request.reference })
        // Compare-and-set; a lost race re-reads and re-judges. A handful of rounds is plenty: each
        // loss means another transition succeeded, and the table has no long chains of them.
        for (let attempt = 0; ; attempt++) {
          const current =
            attempt === 0 && request.read?.reference === request.reference
              ? request.read
              : yield* store.findByReference(request.reference)
          if (current === undefined) return yield* new TaskNotFound({ reference: request.reference })
          const refused = (from: TaskState, move: Move) =>
            new InvalidTransition({ reference: current.reference, from, to: move.to, actor: move.actor })
          const moves =
            request.followedBy === undefined ? [request] : [request, { ...request.followedBy, actor: request.actor }]
          const now = yield* time.now
          const at = iso(now)
          // One version per recorded move, so the version is the length of the history.
          let entered = current
          // The task as it entered each state: what each move's webhook event reports.
          const steps: Array<StoredTask> = []
          for (let i = 0; i < moves.length; i++) {
            const move = moves[i]!
            const row = findTransition(entered.state, move.to, move.actor)
            if (row === undefined) return yield* refused(entered.state, move)
            // The guard judges the task as read, once the table allows its first move.
            if (i === 0 && request.guard !== undefined) yield* request.guard(current)
            entered = { ...enter(entered, move, row, at), version: entered.version + 1 }
            steps.push(entered)
          }
          const next: StoredTask = { ...entered, ...schedule(entered, now) }
          steps[steps.length - 1] = next
          if (yield* write(next, current.version, request, steps)) {
            yield* events.changed(next.reference)
            if (next.state === "open" || next.state === "matching") yield* events.dueNow
            if (next.webhookUrl !== null) yield* outbox.wake
            return next
          }
          if (attempt >= 8) {
            return yield* new InvalidTransition({
              reference: current.reference,
              from: current.state,
              to: request.to,
              actor: request.actor,
              detail: "the task kept changing concurrently"
            })
          }
        }
      })

      return Lifecycle.of({ transition, schedule })
    })
  )

  /** The same with the services of ours it needs (the database and `AppConfig` still to give). */
  static readonly layerWithDependencies = Lifecycle.layer.pipe(
    Layer.provide([SandboxClock.layerWithDependencies, TaskEvents.layer, TaskStore.layer, WebhookOutbox.layer])
  )
}
