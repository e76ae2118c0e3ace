/**
 * The sandbox's simulated participants at work (SANDBOX=on only): each behaves as its slug says
 * (domain/sandbox.ts). sim-delivers accepts, starts and submits within a few rounds, and again
 * when the agent asks for a revision; sim-declines declines; sim-silent does nothing (its offers
 * lapse through the dispatcher); sim-slow accepts and starts, then submits once the sandbox's
 * clock is `slowWorkMs` past the moment it started.
 *
 * Their moves are a person's moves: `TaskActions` with the participant's slug, so the history,
 * the checks (a result's fields against the task's result_schema) and the webhook events are the
 * same. Every process in a sandbox runs the loop, every TIMER_SWEEP_INTERVAL; several processes
 * may pick the same task, and since every move is a compare-and-set one of them wins and the
 * others' moves no longer fit the task: they are dropped.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import { AppConfig } from "../config/app_config.ts"
import type { ArtifactsUnusable, StorageUnavailable } from "../domain/errors.ts"
import type { TaskState } from "../domain/lifecycle.ts"
import type { ResultSubmission } from "../domain/moves.ts"
import { exampleFields } from "../domain/result_example.ts"
import { type SimulatedSlug, simulatedSlugs, slowWorkMs } from "../domain/sandbox.ts"
import type { StoredTask } from "../domain/task_record.ts"
import { sampledRoot } from "../tracing.ts"
import { SandboxClock } from "./sandbox_clock.ts"
import { loggedOncePerMinute } from "./storage.ts"
import { TaskActions } from "./task_actions.ts"
import { TaskStore } from "./task_store.ts"

/** What a simulated participant does with a task offered to or held by it. */
export type SimulatedMove = "accept" | "decline" | "start" | "submit"

/** The moment the task last entered in_flight (started, or sent back for a revision), in ms. */
const workStartedAt = (task: StoredTask): number | undefined => {
  const entered = task.history.findLast((entry) => entry.to === "in_flight")
  return entered === undefined ? undefined : Date.parse(entered.at)
}

/** At once, as a person keen on the work would: accept, start, deliver. */
const prompt: Partial<Record<TaskState, SimulatedMove>> = {
  awaiting_participant: "accept",
  accepted: "start",
  in_flight: "submit"
}

/** Each simulated participant's next move on a task, at `now` by the sandbox's clock. */
const behaviours: Readonly<Record<SimulatedSlug, (task: StoredTask, now: number) => SimulatedMove | undefined>> = {
  "sim-delivers": (task) => prompt[task.state],
  "sim-declines": (task) => (task.state === "awaiting_participant" ? "decline" : undefined),
  "sim-silent": () => undefined,
  "sim-slow": (task, now) => {
    if (task.state !== "in_flight") return prompt[task.state]
    const started = workStartedAt(task)
    return started !== undefined && now - started >= slowWorkMs ? "submit" : undefined
  }
}

const isSimulated = (slug: string | null): slug is SimulatedSlug => simulatedSlugs.includes(slug as SimulatedSlug)

/**
 * The move the participant holding `task` makes at `now` (the sandbox's time, in ms), if it is a
 * simulated one with something to do. Pure: the task and the time are its inputs.
 */
export const simulatedMove = (task: StoredTask, now: number): SimulatedMove | undefined =>
  isSimulated(task.participantSlug) ? behaviours[task.participantSlug](task, now) : undefined

/** Those who ever move (sim-silent never does: its tasks are not even read). */
const acting = simulatedSlugs.filter((slug) => slug !== "sim-silent")
/** The states in which a participant has a move to make. */
const actionable: ReadonlyArray<TaskState> = ["awaiting_participant", "accepted", "in_flight"]
/**
 * At most this many tasks a round. sim-slow's tasks stay in the set for six hours of the sandbox's
 * time, the oldest first: a sandbox holding more than this many at once would keep newer tasks
 * waiting until some are delivered.
 */
const batch = 500

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text)

/** A simulated result for `task`: a summary, the generated fields (when asked for), one text. */
const simulatedResult = (
  task: StoredTask,
  fields: Readonly<Record<string, unknown>> | undefined
): ResultSubmission => ({
  summary: `Simulated result for ${task.reference}: ${clip(task.brief.action, 200)}`,
  ...(fields === undefined ? {} : { fields }),
  artifacts: [
    {
      kind: "text",
      value: `Made by ${task.participantSlug}, a simulated participant of the sandbox, for the expected result: ${clip(task.brief.expected_result, 500)}`
    }
  ]
})

/** How many refused results a process remembers before it forgets them all (and tries each once more). */
const keptRefusals = 10_000

export class Simulator extends Context.Service<
  Simulator,
  {
    /**
     * Makes each simulated participant's next move on the tasks offered to or held by them (one
     * move a task); gives how many tasks had a move to make. A move that lost a race is dropped;
     * any other failure fails the round once every task has had its turn.
     */
    readonly round: Effect.Effect<number, StorageUnavailable | ArtifactsUnusable>
  }
>()("task-marketplace/services/Simulator") {
  static readonly layer = Layer.effect(
    Simulator,
    Effect.gen(function* () {
      const config = yield* AppConfig
      const store = yield* TaskStore
      const actions = yield* TaskActions
      const time = yield* SandboxClock

      // Tasks whose generated result was refused, with the version it was refused at: not tried
      // again while the task stays as it was (a schema the generator cannot satisfy must not be
      // retried every round). The task stays in_flight, for the agent to cancel.
      const refused = new Map<string, number>()

      const submit = Effect.fnUntraced(function* (task: StoredTask, slug: SimulatedSlug) {
        const schema = task.brief.result_schema
        // A schema nothing could be made for is sent an empty object: the service refuses it, as
        // it would a person's, and the refusal is remembered below.
        const fields = schema === undefined ? undefined : (exampleFields(schema) ?? {})
        return yield* actions.submit(task.reference, slug, simulatedResult(task, fields)).pipe(
          Effect.asVoid,
          Effect.catchTag("ResultRejected", ({ failures }) => {
            const first = !refused.has(task.reference)
            if (refused.size >= keptRefusals) refused.clear()
            refused.set(task.reference, task.version)
            return first
              ? Effect.logWarning(
                  "a simulated participant could not make a result that satisfies the task's result_schema; the task stays in_flight"
                ).pipe(Effect.annotateLogs({ reference: task.reference, participant: slug, failures }))
              : Effect.void
          })
        )
      })

      const moves = {
        accept: (task: StoredTask, slug: SimulatedSlug) => actions.accept(task.reference, slug),
        decline: (task: StoredTask, slug: SimulatedSlug) =>
          actions.decline(task.reference, slug, `${slug} declines every offer (sandbox)`),
        start: (task: StoredTask, slug: SimulatedSlug) => actions.start(task.reference, slug),
        submit
      }
      const act = (task: StoredTask, slug: SimulatedSlug, move: SimulatedMove) =>
        moves[move](task, slug).pipe(
          Effect.asVoid,
          // Another process, the agent or a timer moved the task first: the move is no longer ours.
          Effect.catchTags({
            InvalidTransition: () => Effect.void,
            NotPermitted: () => Effect.void,
            TaskNotFound: () => Effect.void
          })
        )

      /** The tasks with a move to make now, each with its move. */
      const dueAt = (held: ReadonlyArray<StoredTask>, now: number) =>
        held.flatMap((task) => {
          const slug = task.participantSlug
          const move = simulatedMove(task, now)
          if (move === undefined || !isSimulated(slug)) return []
          if (move === "submit" && refused.get(task.reference) === task.version) return []
          return [{ task, slug, move }]
        })

      const sampler = config.tracing?.sampler
      const round = Effect.gen(function* () {
        const now = yield* time.now
        // Looking for work is not traced (it runs every interval); a round with moves is, as one
        // trace over them when the sampler keeps it, like a dispatcher's sweep.
        const due = dueAt(yield* store.heldBy(acting, actionable, batch).pipe(Effect.withTracerEnabled(false)), now)
        if (due.length === 0) return 0
        // Every task has its turn even if one fails; the first failure then fails the round (logged
        // once a minute by the loop), and that task is tried again next round.
        const exits = yield* Effect.forEach(due, ({ task, slug, move }) => Effect.exit(act(task, slug, move))).pipe(
          sampledRoot(sampler, "Simulator.round", { attributes: { "tasks.due": due.length } })
        )
        const failed = exits.find(Exit.isFailure)
        if (failed !== undefined) return yield* Effect.failCause(failed.cause)
        return due.length
      })

      return Simulator.of({ round })
    })
  )

  /** The same with the services of ours it needs (the database and `AppConfig` still to give). */
  static readonly layerWithDependencies = Simulator.layer.pipe(
    Layer.provide([SandboxClock.layerWithDependencies, TaskActions.layerWithDependencies, TaskStore.layer])
  )
}

/**
 * The simulated participants at work in every process of a sandbox: a round every
 * TIMER_SWEEP_INTERVAL. Outside a sandbox this does nothing at all.
 */
export const SimulatorWorker = Layer.effectDiscard(
  Effect.gen(function* () {
    const config = yield* AppConfig
    if (!config.sandbox) return
    const { round } = yield* Simulator
    const loggedRound = loggedOncePerMinute(round, {
      failing: "a simulated participants' round failed; retrying every interval",
      recovered: "the simulated participants' rounds work again",
      fallback: 0
    })
    yield* Effect.forever(Effect.andThen(loggedRound, Effect.sleep(config.timerSweepMs))).pipe(Effect.forkScoped)
  })
).pipe(Layer.provide(Simulator.layer))
