/**
 * The service's own moves: it offers new tasks (to the named participant, or to the best eligible
 * one), re-matches when an offer is declined or lapses, declines what nobody can take or what ran
 * past its deadline, and settles results whose review window passed. What each due task needs is
 * the decider's choice (domain/dispatch.ts, on the service's tick); this service finds the due
 * tasks and the directory to match them against.
 *
 * Every process runs one dispatcher. It reads only tasks whose `next_timer_at` is due (an indexed
 * column kept by the lifecycle), so timers survive restarts and need no memory. It is woken at
 * once when a task is submitted here, and sweeps every TIMER_SWEEP_INTERVAL otherwise. Several
 * dispatchers may pick the same task: each move is a compare-and-set on the version read, so one
 * wins and the others find the task changed and leave it.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as SqlClient from "effect/sql/SqlClient"
import type * as SqlError from "effect/sql/SqlError"
import { AppConfig } from "../config/app_config.ts"
import type { StorageUnavailable } from "../domain/errors.ts"
import type { MatchingDirectory } from "../domain/participant.ts"
import type { StoredTask } from "../domain/task_record.ts"
import { sampledRoot } from "../tracing.ts"
import { Lifecycle } from "./lifecycle.ts"
import { ParticipantDirectory } from "./participant_directory.ts"
import { SandboxClock } from "./sandbox_clock.ts"
import { loggedOncePerMinute } from "./storage.ts"
import { TaskEvents } from "./task_events.ts"
import { TaskStore } from "./task_store.ts"

const batch = 100

const nobody: ReadonlySet<string> = new Set()

/** What a sweep with no task to match decides with: nobody. */
const noDirectory: MatchingDirectory = { everyone: [], unavailable: nobody }

/** States whose decision may need the directory (an offer or a re-match). */
const matchingStates: ReadonlySet<string> = new Set(["open", "matching", "awaiting_participant"])

export class Dispatcher extends Context.Service<
  Dispatcher,
  {
    /**
     * Looks at the tasks due at the current instant (`Clock`), a batch at most, and makes the
     * moves they need; gives how many were due. A task that changed since it was read is left to
     * the next sweep.
     */
    readonly sweep: Effect.Effect<number, StorageUnavailable | SqlError.SqlError>
  }
>()("task-marketplace/services/Dispatcher") {
  static readonly layer = Layer.effect(
    Dispatcher,
    Effect.gen(function* () {
      const config = yield* AppConfig
      const store = yield* TaskStore
      const directory = yield* ParticipantDirectory
      const lifecycle = yield* Lifecycle
      const sql = yield* SqlClient.SqlClient
      const time = yield* SandboxClock

      /**
       * The service's tick on `task` as the sweep read it: the decider makes the move it needs now,
       * if any (domain/dispatch.ts). A task that changed since it was read, or was moved meanwhile
       * so that the table no longer allows the move, is someone else's win and the next sweep's to
       * look at; storage trouble waits for the next sweep.
       */
      const handle = Effect.fnUntraced(
        function* (task: StoredTask, { everyone, unavailable }: MatchingDirectory) {
          yield* lifecycle.transition({
            reference: task.reference,
            read: task,
            command: { _tag: "Tick", seen: task.version, everyone, unavailable }
          })
        },
        (effect, task) =>
          effect.pipe(
            Effect.catchTags({
              InvalidTransition: () => Effect.void,
              TaskNotFound: () => Effect.void
            }),
            Effect.catchCause((cause) =>
              Effect.logWarning("dispatching a task failed").pipe(
                Effect.annotateLogs({ reference: task.reference, cause })
              )
            )
          )
      )

      // On the embedded database a sweep's moves share one transaction, so one commit (one fsync)
      // instead of one per task; each move is still its own compare-and-set, and nothing of the
      // sweep is visible to a reader before that commit (the connection is held until it). On
      // Postgres each move commits alone: a long transaction would hold row locks other processes'
      // moves and requests wait on.
      const together: <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E | SqlError.SqlError, R> =
        sql.onDialectOrElse({ sqlite: () => sql.withTransaction, orElse: () => (effect) => effect })

      const sampler = config.tracing?.sampler
      const sweep = Effect.gen(function* () {
        const now = new Date(yield* time.now).toISOString()
        // Looking for due tasks is not traced (it runs every TIMER_SWEEP_INTERVAL in every process);
        // a sweep that has moves to make is, as one trace over them when the sampler keeps it (an
        // unsampled sweep makes no span at all, like an unsampled request).
        const due = yield* store.due(now, batch).pipe(Effect.withTracerEnabled(false))
        if (due.length === 0) return 0
        // The directory is read once a sweep, and only when a due task may need matching: inside the
        // sweep's root, so that its statements are traced only with the sweep (never a span alone).
        const needsDirectory = due.some((task) => matchingStates.has(task.state))
        yield* Effect.flatMap(needsDirectory ? directory.matching : Effect.succeed(noDirectory), (view) =>
          together(Effect.forEach(due, (task) => handle(task, view), { discard: true }))
        ).pipe(sampledRoot(sampler, "Dispatcher.sweep", { attributes: { "tasks.due": due.length } }))
        return due.length
      })

      return Dispatcher.of({ sweep })
    })
  )

  /** The same with the services of ours it needs (the database and `AppConfig` still to give). */
  static readonly layerWithDependencies = Dispatcher.layer.pipe(
    Layer.provide([
      Lifecycle.layerWithDependencies,
      ParticipantDirectory.layer,
      SandboxClock.layerWithDependencies,
      TaskEvents.layer,
      TaskStore.layer
    ])
  )
}

/**
 * Every process's dispatcher at work: a sweep when woken (`TaskEvents.dueNow`) and every
 * TIMER_SWEEP_INTERVAL otherwise, at once again while sweeps find full batches.
 */
export const DispatcherWorker = Layer.effectDiscard(
  Effect.gen(function* () {
    const config = yield* AppConfig
    const events = yield* TaskEvents
    const { sweep } = yield* Dispatcher

    // A sweep that fails (storage down, most often) is logged, and retried at the next interval.
    const loggedSweep = loggedOncePerMinute(sweep, {
      failing: "a dispatcher sweep failed; retrying every interval",
      recovered: "the dispatcher's sweeps work again",
      fallback: 0
    })

    yield* Effect.gen(function* () {
      for (;;) {
        const handled = yield* loggedSweep
        // A full batch means more are due: go on at once; otherwise wait for a signal or the interval.
        if (handled < batch) yield* events.nextDue(config.timerSweepMs)
      }
    }).pipe(Effect.forkScoped)
  })
).pipe(Layer.provide(Dispatcher.layer))
