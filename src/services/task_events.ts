/**
 * Task changes as signals: a long poll (`GET /tasks/{reference}?wait=N`) waits for its task to
 * change, and the dispatcher wakes when a task becomes due — in this process at once, and on
 * Postgres in every other process too (LISTEN/NOTIFY).
 *
 * Signals are hints, never the truth: a waiter always re-reads the task, and also re-checks on a
 * short interval, so a notification lost while a listener reconnects only delays an answer.
 */
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Queue from "effect/Queue"
import * as Schedule from "effect/Schedule"
import * as SqlClient from "effect/sql/SqlClient"
import { hotFn } from "../tracing.ts"

const channel = "task_changes"

/** How often a waiter re-reads its task even without a signal, in milliseconds. */
const recheckIntervalMs = 1000

export class TaskEvents extends Context.Service<
  TaskEvents,
  {
    /** Announce that a task changed (call after the change is committed). */
    changed(reference: string): Effect.Effect<void>
    /**
     * Waits until `isChanged` reports true (checked now, on every signal for the task, and every
     * `recheckIntervalMs`) or `timeoutMs` passes. Returns whether the change happened.
     */
    waitForChange<E>(
      reference: string,
      isChanged: Effect.Effect<boolean, E>,
      timeoutMs: number
    ): Effect.Effect<boolean, E>
    /** Wake the local dispatcher: a task is due now. */
    readonly dueNow: Effect.Effect<void>
    /** The dispatcher's pause: returns early when `dueNow` is signalled. */
    nextDue(timeoutMs: number): Effect.Effect<void>
  }
>()("task-marketplace/services/TaskEvents") {
  static readonly layer = Layer.effect(
    TaskEvents,
    Effect.gen(function* () {
      const waiters = new Map<string, Set<Deferred.Deferred<void>>>()
      const due = yield* Queue.sliding<void>(1)

      const wakeLocal = (reference: string) => {
        const set = waiters.get(reference)
        if (set !== undefined) for (const deferred of set) Deferred.doneUnsafe(deferred, Effect.void)
      }

      // The Postgres client module is loaded only on Postgres (where the database layer has loaded it already).
      const sql = yield* SqlClient.SqlClient
      const pg = yield* sql.onDialectOrElse({
        pg: () =>
          Effect.flatMap(
            Effect.promise(() => import("@effect/sql-pg/PgClient")),
            ({ PgClient }) => Effect.map(Effect.serviceOption(PgClient), Option.getOrUndefined)
          ),
        orElse: () => Effect.undefined
      })
      if (pg !== undefined) {
        // Every process listens; the listener holds one connection and is re-established after
        // the database restarts (a listener does not survive that by itself).
        yield* Effect.gen(function* () {
          const notifications = yield* pg.listen(channel)
          for (;;) {
            const notification = yield* Queue.take(notifications)
            wakeLocal(notification.payload)
          }
        }).pipe(
          Effect.scoped,
          Effect.catchCause(() => Effect.void),
          Effect.repeat(Schedule.spaced("1 second")),
          Effect.forkScoped
        )
      }

      const changed = hotFn("TaskEvents.changed")(function* (reference: string) {
        wakeLocal(reference)
        if (pg !== undefined) yield* pg.notify(channel, reference).pipe(Effect.ignore)
      })

      /** One round of a wait: true or false when it is over, undefined to go on. */
      const round = Effect.fnUntraced(function* <E>(
        isChanged: Effect.Effect<boolean, E>,
        signal: Deferred.Deferred<void>,
        deadline: number
      ) {
        if (yield* isChanged) return true
        const remaining = deadline - (yield* Clock.currentTimeMillis)
        if (remaining <= 0) return false
        yield* Effect.raceFirst(Deferred.await(signal), Effect.sleep(Math.min(remaining, recheckIntervalMs)))
        return undefined
      })

      // Generators made once, not per call or per round (docs/performance.md, "No generator function made per request").
      const waitForChange = Effect.fn("TaskEvents.waitForChange")(function* <E>(
        reference: string,
        isChanged: Effect.Effect<boolean, E>,
        timeoutMs: number
      ) {
        const deadline = (yield* Clock.currentTimeMillis) + timeoutMs
        for (;;) {
          const signal = yield* Deferred.make<void>()
          const set = waiters.get(reference) ?? new Set()
          set.add(signal)
          waiters.set(reference, set)
          const result = yield* round(isChanged, signal, deadline).pipe(
            Effect.ensuring(
              Effect.sync(() => {
                set.delete(signal)
                if (set.size === 0) waiters.delete(reference)
              })
            )
          )
          if (result !== undefined) return result
        }
      })

      return TaskEvents.of({
        changed,
        waitForChange,
        dueNow: Queue.offer(due, undefined).pipe(Effect.asVoid),
        nextDue: (timeoutMs) => Effect.raceFirst(Queue.take(due), Effect.sleep(timeoutMs)).pipe(Effect.asVoid)
      })
    })
  )
}
