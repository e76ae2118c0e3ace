/**
 * The lifecycle service: read → decide → write → retry. It reads the task, asks the decider
 * (domain/decider.ts) what a command makes of it, and writes the moves' result with a
 * compare-and-set on the row's version — so of two concurrent moves from one state exactly one wins
 * and the other is read and judged again against the state it lost to — together with the task's
 * webhook events (services/webhook_outbox.ts) and any write the caller makes alongside, in one
 * transaction; then it announces the change.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Result from "effect/Result"
import * as SqlClient from "effect/sql/SqlClient"
import { AppConfig } from "../config/app_config.ts"
import { type Command, decide, evolve, type Policy, type RefusalOf } from "../domain/decider.ts"
import { InvalidTransition, type StorageUnavailable, TaskNotFound } from "../domain/errors.ts"
import { maxRevisions } from "../domain/lifecycle.ts"
import { workMailsOf } from "../domain/mail.ts"
import type { StoredTask } from "../domain/task_record.ts"
import { hotFn } from "../tracing.ts"
import { MailOutbox } from "./mail_outbox.ts"
import { SandboxClock } from "./sandbox_clock.ts"
import { storageCallFor } from "./storage.ts"
import { TaskEvents } from "./task_events.ts"
import { TaskStore } from "./task_store.ts"
import { WebhookOutbox } from "./webhook_outbox.ts"

/** A command for one task, with what the service needs beside it. */
export interface CommandRequest<C extends Command, E = never> {
  readonly reference: string
  readonly command: C
  /**
   * The task as the caller has just read it: the first attempt starts from it instead of reading
   * it again. A copy that is no longer current only loses the compare-and-set, and the next
   * attempt reads the row.
   */
  readonly read?: StoredTask | undefined
  /**
   * Writes outside the task's row made in the same transaction as the moves (a result's files
   * marked attached): when it fails, the moves are not made either, and its failure is the answer.
   */
  readonly alongside?: ((task: StoredTask) => Effect.Effect<void, E | StorageUnavailable>) | undefined
}

/** After this many lost compare-and-sets in a row a command is refused (see `transition`). */
const attempts = 8

/**
 * Applies a command: the task after its moves (as it was when the command makes none), or the
 * decider's refusal; TaskNotFound for a reference no task has; InvalidTransition when the task kept
 * changing concurrently.
 */
type LifecycleTransition = <C extends Command, E = never>(
  request: CommandRequest<C, E>
) => Effect.Effect<StoredTask, TaskNotFound | InvalidTransition | RefusalOf<C> | StorageUnavailable | E>

export class Lifecycle extends Context.Service<Lifecycle, { readonly transition: LifecycleTransition }>()(
  "task-marketplace/services/Lifecycle"
) {
  static readonly layer = Layer.effect(
    Lifecycle,
    Effect.gen(function* () {
      const config = yield* AppConfig
      const store = yield* TaskStore
      const events = yield* TaskEvents
      const sql = yield* SqlClient.SqlClient
      const outbox = yield* WebhookOutbox
      const mail = yield* MailOutbox
      const taskUrl = (reference: string) => `${config.publicBaseUrl}/console/tasks/${encodeURIComponent(reference)}`
      const time = yield* SandboxClock
      const asStorageCall = storageCallFor(sql)
      const policy: Policy = {
        offerTimeoutMs: config.offerTimeoutMs,
        reviewWindowMs: config.reviewWindowMs,
        maxRevisions
      }

      /**
       * The compare-and-set write of the moves' result, with what must be written alongside it in
       * one transaction: the caller's own writes, and the webhook events of each state `entered`.
       */
      const write = <E>(
        next: StoredTask,
        expectedVersion: number,
        alongside: CommandRequest<Command, E>["alongside"],
        entered: ReadonlyArray<StoredTask>
      ) => {
        // The participant's notifications of the move (mail off: none).
        const mails = mail.enabled ? workMailsOf(entered, config.offerTimeoutMs, taskUrl) : []
        const writes = [
          ...(alongside === undefined ? [] : [alongside(next)]),
          ...(next.webhookUrl === null ? [] : [outbox.record(entered)]),
          ...(mails.length === 0 ? [] : [asStorageCall(mail.queue(mails))])
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

      const transition = hotFn("Lifecycle.transition")(function* (request: CommandRequest<Command, unknown>) {
        const { reference } = request
        // Compare-and-set; a lost race re-reads and re-judges. A handful of rounds is plenty: each
        // loss means another move succeeded, and the table has no long chains of them.
        for (let attempt = 0; ; attempt++) {
          const current =
            attempt === 0 && request.read?.reference === reference
              ? request.read
              : yield* store.findByReference(reference)
          if (current === undefined) return yield* new TaskNotFound({ reference })
          const decided = decide(current, request.command, yield* time.now, policy)
          if (Result.isFailure(decided)) return yield* Effect.fail(decided.failure)
          const moves = decided.success
          if (moves.length === 0) return current
          // The task as it entered each state: what each move's webhook event reports.
          const entered: Array<StoredTask> = []
          let next = current
          for (const move of moves) {
            next = evolve(next, move)
            entered.push(next)
          }
          if (yield* write(next, current.version, request.alongside, entered)) {
            yield* events.changed(next.reference)
            if (next.state === "open" || next.state === "matching") yield* events.dueNow
            if (next.webhookUrl !== null) yield* outbox.wake
            if (mail.enabled) yield* mail.wake
            return next
          }
          if (attempt >= attempts) {
            return yield* new InvalidTransition({
              reference,
              from: current.state,
              to: moves[0]!.to,
              actor: moves[0]!.actor,
              detail: "the task kept changing concurrently"
            })
          }
        }
      })

      // The decider types each command's refusals (`RefusalOf`); one body serves them all.
      return Lifecycle.of({ transition: transition as LifecycleTransition })
    })
  )

  /** The same with the services of ours it needs (the database and `AppConfig` still to give). */
  static readonly layerWithDependencies = Lifecycle.layer.pipe(
    Layer.provide([
      SandboxClock.layerWithDependencies,
      TaskEvents.layer,
      TaskStore.layer,
      WebhookOutbox.layer,
      MailOutbox.layer
    ])
  )
}
