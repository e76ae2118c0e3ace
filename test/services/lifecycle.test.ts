// The lifecycle service over the active test backend (SQLite or Postgres), against the transition
// table as data (DECISIONS §5): random sequences of moves follow the table exactly (history,
// outcome, version), concurrent moves from one state have exactly one winner (compare-and-set on
// the row version), and entering a state arms exactly that state's timers.
// No dispatcher runs here: tasks are inserted directly with `nextTimerAt: null`.
import { assert, describe, layer } from "@effect/vitest"
import { Effect, Layer, Result, Schema } from "effect"
import type { InvalidTransition } from "../../src/domain/errors.ts"
import {
  type Actor,
  actors,
  allowedFrom,
  findTransition,
  isTerminal,
  maxRevisions,
  type OutcomeReason,
  outcomeMessages,
  type TaskState,
  TaskState as TaskStateSchema,
  type Transition,
  taskStates,
  transitions
} from "../../src/domain/lifecycle.ts"
import type { StoredTask } from "../../src/domain/task_record.ts"
import { Artifacts } from "../../src/services/artifacts.ts"
import { BlobStore } from "../../src/services/blob_store.ts"
import { Lifecycle, type TransitionRequest } from "../../src/services/lifecycle.ts"
import { SandboxClock } from "../../src/services/sandbox_clock.ts"
import { TaskActions } from "../../src/services/task_actions.ts"
import { TaskEvents } from "../../src/services/task_events.ts"
import { TaskStore } from "../../src/services/task_store.ts"
import { TaskTokens } from "../../src/services/task_tokens.ts"
import { WebhookOutbox } from "../../src/services/webhook_outbox.ts"
import { TestSqlLayer } from "../support/database.ts"
import { testConfig } from "../support/settings.ts"
import { nextReference, storedTask } from "../support/tasks.ts"

const offerTimeoutMs = 90 * 60_000
const reviewWindowMs = 5 * 3600_000

/** How often a compare-and-set lost (the row's version had moved on): proof that races really raced. */
const casLosses = { count: 0 }
/** How many times a task was read from the store. */
const storeReads = { count: 0 }
/** How many writes of a task were attempted. */
const storeWrites = { count: 0 }

/**
 * The real store, counting the updates that lost their compare-and-set. Each update first yields
 * to the other fibers, as a round trip to a database server does: the embedded SQLite answers
 * synchronously, and without that pause moves started together would simply run one after another.
 */
const CountingStore = Layer.effect(
  TaskStore,
  Effect.gen(function* () {
    const store = yield* TaskStore
    return TaskStore.of({
      ...store,
      findByReference: (reference) =>
        Effect.andThen(
          Effect.sync(() => storeReads.count++),
          store.findByReference(reference)
        ),
      update: (task, expectedVersion) =>
        Effect.andThen(
          Effect.sync(() => storeWrites.count++),
          Effect.andThen(Effect.yieldNow, store.update(task, expectedVersion))
        ).pipe(
          Effect.tap((won) =>
            Effect.sync(() => {
              if (!won) casLosses.count++
            })
          )
        )
    })
  })
).pipe(Layer.provide(TaskStore.layer))

const ServicesLive = TaskActions.layer.pipe(
  Layer.provideMerge(Lifecycle.layer),
  Layer.provideMerge(Artifacts.layer.pipe(Layer.provide(BlobStore.layer))),
  Layer.provideMerge(SandboxClock.layer),
  Layer.provideMerge(Layer.mergeAll(CountingStore, TaskEvents.layer, TaskTokens.layer, WebhookOutbox.layer)),
  Layer.provideMerge(TestSqlLayer),
  Layer.provideMerge(testConfig({ offerTimeoutMs, reviewWindowMs }))
)

const created = "2026-11-21T10:00:00.000Z"

/** A task already in `state`, with the members that state implies (participant, result). */
const taskIn = (state: TaskState, overrides: Partial<StoredTask> = {}): StoredTask =>
  storedTask({
    state,
    participantSlug: ["open", "matching"].includes(state) ? null : "lukas-schmidt",
    result: ["submitted", "settled"].includes(state)
      ? { summary: "done", fields: {}, artifacts: [], submitted_at: created }
      : null,
    version: 5,
    ...overrides
  })

const insert = (task: StoredTask) =>
  Effect.gen(function* () {
    const outcome = yield* (yield* TaskStore).insert(task)
    assert.strictEqual(outcome._tag, "Created")
    return task
  })

const read = (reference: string) =>
  Effect.gen(function* () {
    const task = yield* (yield* TaskStore).findByReference(reference)
    assert.isDefined(task, `task ${reference} vanished`)
    return task!
  })

/** The outcome reason a caller passes for a terminal move (as TaskActions and the dispatcher do). */
const reasonFor = (row: Transition, actor: Actor, pick: number): OutcomeReason | undefined => {
  if (!isTerminal(row.to)) return undefined
  if (row.to === "cancelled") return actor === "operator" ? "cancelled_by_operator" : "cancelled_by_agent"
  const reasons = row.reasons ?? []
  return reasons[pick % reasons.length]
}

interface Recorded {
  readonly from: TaskState
  readonly to: TaskState
  readonly actor: Actor
  readonly reason: OutcomeReason | undefined
}

const iso = (ms: number) => new Date(ms).toISOString()
const late = () => iso(Date.now() + 48 * 3600_000)

/** Timer invariants of a stored task without a deadline (DECISIONS §5, Lifecycle.schedule). */
const assertTimersWithoutDeadline = (task: StoredTask) => {
  const where = `${task.state} (${task.reference})`
  if (task.state === "awaiting_participant") {
    assert.isNotNull(task.offerExpiresAt, `offerExpiresAt in ${where}`)
    assert.strictEqual(task.nextTimerAt, task.offerExpiresAt, `nextTimerAt in ${where}`)
  } else {
    assert.isNull(task.offerExpiresAt, `offerExpiresAt in ${where}`)
  }
  if (task.state === "submitted") {
    assert.isNotNull(task.reviewDueAt, `reviewDueAt in ${where}`)
    assert.strictEqual(task.nextTimerAt, task.reviewDueAt, `nextTimerAt in ${where}`)
  } else {
    assert.isNull(task.reviewDueAt, `reviewDueAt in ${where}`)
  }
  if (task.state === "open" || task.state === "matching") {
    assert.strictEqual(task.nextTimerAt, task.updatedAt, `open/matching is due at once: ${where}`)
  }
  if (["accepted", "in_flight", "settled", "declined", "cancelled"].includes(task.state)) {
    assert.isNull(task.nextTimerAt, `nextTimerAt in ${where}`)
  }
}

/**
 * Applies one attempted move to the task and checks it against the table; returns the move when
 * it was applied.
 */
const step = (reference: string, to: TaskState, actor: Actor, pick: number) =>
  Effect.gen(function* () {
    const lifecycle = yield* Lifecycle
    const before = yield* read(reference)
    const row = findTransition(before.state, to, actor)
    const reason = row === undefined ? undefined : reasonFor(row, actor, pick)
    const result = yield* Effect.result(lifecycle.transition({ reference, to, actor, reason }))
    const after = yield* read(reference)
    const label = `${before.state} → ${to} by ${actor}`
    if (isTerminal(before.state)) assert.isUndefined(row, `the table has a move out of terminal ${before.state}`)
    if (row === undefined) {
      assert.isTrue(Result.isFailure(result), `${label} is not in the table but succeeded`)
      if (Result.isFailure(result)) {
        const error = result.failure as InvalidTransition
        assert.strictEqual(error._tag, "InvalidTransition", label)
        assert.strictEqual(error.from, before.state, label)
        assert.strictEqual(error.to, to, label)
        assert.strictEqual(error.actor, actor, label)
        assert.strictEqual(error.reference, reference, label)
      }
      assert.deepStrictEqual(after, before, `a refused ${label} changed the stored task`)
      return undefined
    }
    assert.isTrue(
      Result.isSuccess(result),
      `${label} is in the table but failed: ${Result.isFailure(result) ? JSON.stringify(result.failure) : ""}`
    )
    if (Result.isFailure(result)) return undefined
    const returned = result.success
    assert.deepStrictEqual(returned, after, "the returned task is what was stored")
    assert.strictEqual(after.state, to, label)
    assert.strictEqual(after.version, before.version + 1, `version after ${label}`)
    assert.strictEqual(after.history.length, before.history.length + 1, `history after ${label}`)
    assert.deepStrictEqual(after.history.slice(0, -1), before.history, `history is append-only (${label})`)
    const entry = after.history.at(-1)!
    assert.strictEqual(entry.from, before.state)
    assert.strictEqual(entry.to, to)
    assert.strictEqual(entry.actor, actor)
    assert.strictEqual(entry.at, after.updatedAt)
    assert.strictEqual(entry.reason, reason)
    if (isTerminal(to)) {
      assert.deepStrictEqual(after.outcome, {
        state: to,
        reason,
        message: outcomeMessages[reason!],
        decided_at: after.updatedAt
      })
    } else {
      assert.isNull(after.outcome, `outcome after ${label}`)
    }
    assertTimersWithoutDeadline(after)
    return { from: before.state, to, actor, reason } satisfies Recorded
  })

/** What must hold of the stored task after a whole sequence of attempts. */
const assertFinal = (reference: string, applied: ReadonlyArray<Recorded>) =>
  Effect.gen(function* () {
    const task = yield* read(reference)
    assert.strictEqual(task.history.length, 1 + applied.length)
    assert.strictEqual(task.version, 1 + applied.length)
    assert.deepStrictEqual(task.history[0], { from: null, to: "open", actor: "agent", at: created })
    applied.forEach((move, i) => {
      const entry = task.history[i + 1]!
      assert.deepStrictEqual([entry.from, entry.to, entry.actor], [move.from, move.to, move.actor])
      assert.isDefined(findTransition(move.from, move.to, move.actor))
    })
    // Each entry starts where the previous one ended, and times never go backwards.
    for (let i = 1; i < task.history.length; i++) {
      assert.strictEqual(task.history[i]!.from, task.history[i - 1]!.to)
      assert.isTrue(task.history[i]!.at >= task.history[i - 1]!.at)
    }
    assert.strictEqual(task.state, applied.at(-1)?.to ?? "open")
    if (isTerminal(task.state)) {
      assert.isNotNull(task.outcome)
      assert.strictEqual((task.outcome as { state: string }).state, task.state)
    } else {
      assert.isNull(task.outcome)
    }
    // Nothing but the terminal move may follow a terminal state.
    const firstTerminal = applied.findIndex((m) => isTerminal(m.to))
    if (firstTerminal !== -1) assert.strictEqual(firstTerminal, applied.length - 1)
  })

const Attempt = Schema.Struct({ to: TaskStateSchema, actor: Schema.Literals(actors) })
const Attempts = Schema.Array(Attempt).check(Schema.isMaxLength(30))

/**
 * A move that is either random (`to`, `actor`) or, when `guided`, the `pick`-th row allowed from
 * the current state: random moves alone seldom get past `open`, guided ones reach the review.
 */
const Mixed = Schema.Struct({
  to: TaskStateSchema,
  actor: Schema.Literals(actors),
  guided: Schema.Boolean,
  pick: Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 1000 }))
})
const MixedAttempts = Schema.Array(Mixed).check(Schema.isMaxLength(30))

const propertyOptions = { timeout: 90_000, arbitrary: { runs: 100, size: 30 } } as const

layer(ServicesLive, { excludeTestServices: true, timeout: "60 seconds" })("Lifecycle", (it) => {
  describe("the transition table", () => {
    it("is well-formed: eleven states, terminal states have no way out, every non-terminal state one", () => {
      assert.strictEqual(taskStates.length, 11)
      for (const state of taskStates) {
        if (isTerminal(state)) assert.deepStrictEqual(allowedFrom(state), [])
        else if (state !== "draft" && state !== "preflight_failed") assert.isAbove(allowedFrom(state).length, 0, state)
      }
      for (const row of transitions) {
        if (row.reasons !== undefined) assert.isTrue(isTerminal(row.to), `${row.to} has reasons`)
      }
      assert.strictEqual(maxRevisions, 3)
    })
  })

  describe("random sequences of moves from open", () => {
    it.effect.prop(
      "random {to, actor} attempts: applied exactly when the table has the row, refused with InvalidTransition otherwise",
      { attempts: Attempts },
      ({ attempts }) =>
        Effect.gen(function* () {
          assert.isAtMost(attempts.length, 30)
          const task = yield* insert(storedTask())
          const applied: Array<Recorded> = []
          for (const attempt of attempts) {
            const move = yield* step(task.reference, attempt.to, attempt.actor, 0)
            if (move !== undefined) applied.push(move)
          }
          yield* assertFinal(task.reference, applied)
        }),
      propertyOptions
    )

    it.effect.prop(
      "random and guided attempts (reaching accepted, in_flight, submitted, revisions and settlement)",
      { attempts: MixedAttempts },
      ({ attempts }) =>
        Effect.gen(function* () {
          const task = yield* insert(storedTask())
          const applied: Array<Recorded> = []
          for (const attempt of attempts) {
            let { to, actor } = attempt
            if (attempt.guided) {
              // Mostly onward (non-terminal) rows, so that sequences get deep before they end.
              const allowed = allowedFrom((yield* read(task.reference)).state)
              const onward = allowed.filter((t) => !isTerminal(t.to))
              const pool = attempt.pick % 5 === 0 || onward.length === 0 ? allowed : onward
              const row = pool[attempt.pick % Math.max(1, pool.length)]
              if (row !== undefined) {
                to = row.to
                actor = row.actors[attempt.pick % row.actors.length]!
              }
            }
            const move = yield* step(task.reference, to, actor, attempt.pick)
            if (move !== undefined) applied.push(move)
          }
          yield* assertFinal(task.reference, applied)
        }),
      propertyOptions
    )

    it.effect("every (from, to, actor) triple from every reachable state is judged by the table", () =>
      Effect.gen(function* () {
        const lifecycle = yield* Lifecycle
        let successes = 0
        let refusals = 0
        for (const from of taskStates) {
          for (const to of taskStates) {
            for (const actor of actors) {
              const task = yield* insert(taskIn(from))
              const row = findTransition(from, to, actor)
              const result = yield* Effect.result(
                lifecycle.transition({ reference: task.reference, to, actor, reason: row && reasonFor(row, actor, 0) })
              )
              assert.strictEqual(Result.isSuccess(result), row !== undefined, `${from} → ${to} by ${actor}`)
              if (Result.isFailure(result)) {
                assert.strictEqual((result.failure as { _tag: string })._tag, "InvalidTransition")
                refusals++
              } else successes++
            }
          }
        }
        const rows = transitions.filter((t) => t.from !== null).reduce((n, t) => n + t.actors.length, 0)
        assert.strictEqual(successes, rows)
        assert.strictEqual(refusals, 11 * 11 * 4 - rows)
      })
    )

    it.effect("a move given the task as read starts from it; given a stale copy, it judges the stored row", () =>
      Effect.gen(function* () {
        const lifecycle = yield* Lifecycle
        // Current copy: used as is (the move applies on top of it).
        const fresh = yield* insert(taskIn("open"))
        const readsBefore = storeReads.count
        const moved = yield* lifecycle.transition({
          reference: fresh.reference,
          to: "matching",
          actor: "service",
          read: fresh
        })
        assert.strictEqual(storeReads.count, readsBefore, "the task given was not read again")
        assert.strictEqual(moved.version, fresh.version + 1)
        assert.deepStrictEqual(yield* read(fresh.reference), moved)
        // Stale copy (the task has moved on to matching since): the compare-and-set loses, the row is
        // read again and judged as it is — matching → awaiting_participant, not a second open → matching.
        const stale = fresh
        const next = yield* lifecycle.transition({
          reference: fresh.reference,
          to: "awaiting_participant",
          actor: "service",
          change: () => ({ participantSlug: "lukas-schmidt" }),
          read: stale
        })
        assert.strictEqual(next.version, moved.version + 1)
        assert.deepStrictEqual(
          next.history.map((entry) => [entry.from, entry.to]),
          [...moved.history.map((entry) => [entry.from, entry.to]), ["matching", "awaiting_participant"]]
        )
        assert.deepStrictEqual(yield* read(fresh.reference), next)
      })
    )

    it.effect("an unknown or malformed reference is TaskNotFound", () =>
      Effect.gen(function* () {
        const lifecycle = yield* Lifecycle
        for (const reference of [nextReference(), "tsk_short", "", "' OR '1'='1"]) {
          const error = yield* Effect.flip(lifecycle.transition({ reference, to: "cancelled", actor: "agent" }))
          assert.strictEqual(error._tag, "TaskNotFound")
        }
      })
    )
  })

  describe("outcomes", () => {
    it.effect("a terminal move without an explicit reason still records a coherent outcome", () =>
      Effect.gen(function* () {
        // TransitionRequest.reason is optional. Whatever the default, the outcome must name a
        // reason the table allows for that move (and, for a cancel, the one of the actor who
        // cancelled), and its message must be that reason's message.
        const lifecycle = yield* Lifecycle
        const problems: Array<string> = []
        for (const row of transitions) {
          if (row.from === null || !isTerminal(row.to)) continue
          for (const actor of row.actors) {
            const task = yield* insert(taskIn(row.from))
            const ended = yield* lifecycle.transition({ reference: task.reference, to: row.to, actor })
            const outcome = ended.outcome as { state: string; reason: OutcomeReason; message: string }
            const label = `${row.from} → ${row.to} by ${actor} without a reason`
            assert.strictEqual(outcome.state, row.to, label)
            if (!(row.reasons ?? []).includes(outcome.reason)) {
              problems.push(`${label}: outcome.reason ${outcome.reason} is not one of ${row.reasons?.join(", ")}`)
            }
            if (row.to === "cancelled" && outcome.reason !== reasonFor(row, actor, 0)) {
              problems.push(`${label}: outcome.reason ${outcome.reason}, expected ${reasonFor(row, actor, 0)}`)
            }
            if (outcome.message !== outcomeMessages[outcome.reason]) {
              problems.push(`${label}: message ${JSON.stringify(outcome.message)} is not that of ${outcome.reason}`)
            }
          }
        }
        assert.deepStrictEqual(problems, [])
      })
    )
  })

  describe("two moves in one write (`followedBy`)", () => {
    it.effect("open → matching → awaiting_participant: one write, both moves in history, the offer armed", () =>
      Effect.gen(function* () {
        const lifecycle = yield* Lifecycle
        const task = yield* insert(taskIn("open"))
        const writes = storeWrites.count
        const offered = yield* lifecycle.transition({
          reference: task.reference,
          to: "matching",
          actor: "service",
          followedBy: { to: "awaiting_participant", change: () => ({ participantSlug: "lukas-schmidt" }) }
        })
        assert.strictEqual(storeWrites.count - writes, 1)
        assert.deepStrictEqual(yield* read(task.reference), offered)
        assert.strictEqual(offered.state, "awaiting_participant")
        assert.strictEqual(offered.participantSlug, "lukas-schmidt")
        // One version per recorded move.
        assert.strictEqual(offered.version, task.version + 2)
        const [toMatching, toOffered] = offered.history.slice(-2)
        assert.deepStrictEqual(
          [toMatching, toOffered].map((h) => [h?.from, h?.to, h?.actor]),
          [
            ["open", "matching", "service"],
            ["matching", "awaiting_participant", "service"]
          ]
        )
        assert.strictEqual(toMatching?.at, toOffered?.at)
        assert.strictEqual(offered.updatedAt, toOffered?.at)
        assert.strictEqual(Date.parse(offered.offerExpiresAt!) - Date.parse(toOffered!.at), offerTimeoutMs)
        assert.strictEqual(offered.nextTimerAt, offered.offerExpiresAt)
      })
    )

    it.effect("a second move the table refuses from the state between: InvalidTransition, nothing written", () =>
      Effect.gen(function* () {
        const lifecycle = yield* Lifecycle
        const task = yield* insert(taskIn("open"))
        const writes = storeWrites.count
        const refused = yield* Effect.flip(
          lifecycle.transition({
            reference: task.reference,
            to: "matching",
            actor: "service",
            followedBy: { to: "accepted" }
          })
        )
        assert.strictEqual(refused._tag, "InvalidTransition")
        assert.deepStrictEqual(
          [(refused as InvalidTransition).from, (refused as InvalidTransition).to],
          ["matching", "accepted"]
        )
        assert.strictEqual(storeWrites.count, writes)
        assert.deepStrictEqual(yield* read(task.reference), task)
      })
    )
  })

  describe("concurrent moves from one state: exactly one wins", () => {
    /**
     * Runs the moves at once on a fresh task in `from`; asserts one success, every other refused
     * with InvalidTransition from the winner's state, and one new history entry.
     */
    /** At least one compare-and-set was lost over the rounds: the moves really ran side by side. */
    const assertRaced = (lostBefore: number) => {
      assert.isAbove(casLosses.count - lostBefore, 0, "no compare-and-set was ever lost: the moves did not race")
    }

    const race = (from: TaskState, moves: ReadonlyArray<Omit<TransitionRequest, "reference">>) =>
      Effect.gen(function* () {
        const lifecycle = yield* Lifecycle
        const task = yield* insert(taskIn(from))
        const results = yield* Effect.forEach(
          moves,
          (move) => Effect.result(lifecycle.transition({ ...move, reference: task.reference })),
          { concurrency: "unbounded" }
        )
        const winners = results.flatMap((r, i) => (Result.isSuccess(r) ? [{ ...moves[i]!, task: r.success }] : []))
        assert.strictEqual(winners.length, 1, `winners: ${JSON.stringify(winners.map((w) => [w.to, w.actor]))}`)
        const winner = winners[0]!
        for (const r of results) {
          if (Result.isFailure(r)) {
            const error = r.failure as InvalidTransition
            assert.strictEqual(error._tag, "InvalidTransition")
            // Re-judged against the state it lost to.
            assert.strictEqual(error.from, winner.to)
          }
        }
        const stored = yield* read(task.reference)
        assert.strictEqual(stored.state, winner.to)
        assert.strictEqual(stored.version, task.version + 1)
        assert.strictEqual(stored.history.length, task.history.length + 1)
        const entry = stored.history.at(-1)!
        assert.deepStrictEqual([entry.from, entry.to, entry.actor], [from, winner.to, winner.actor])
        assert.deepStrictEqual(stored, winner.task)
        return stored
      })

    it.effect("awaiting_participant: accept vs decline by the participant (20 rounds)", () =>
      Effect.gen(function* () {
        const lostBefore = casLosses.count
        for (let round = 0; round < 20; round++) {
          yield* race("awaiting_participant", [
            { to: "accepted", actor: "participant" },
            { to: "declined", actor: "participant", reason: "participant_declined" }
          ])
        }
        assertRaced(lostBefore)
      })
    )

    it.effect("awaiting_participant: 10 concurrent accepts (20 rounds)", () =>
      Effect.gen(function* () {
        const lostBefore = casLosses.count
        for (let round = 0; round < 20; round++) {
          const stored = yield* race(
            "awaiting_participant",
            Array.from({ length: 10 }, () => ({ to: "accepted", actor: "participant" }) as const)
          )
          assert.isNull(stored.nextTimerAt)
          assert.isNull(stored.offerExpiresAt)
        }
        assertRaced(lostBefore)
      })
    )

    it.effect("matching: 10 concurrent cancels by agent and operator (20 rounds)", () =>
      Effect.gen(function* () {
        const lostBefore = casLosses.count
        for (let round = 0; round < 20; round++) {
          const stored = yield* race(
            "matching",
            Array.from({ length: 10 }, (_, i) =>
              i % 2 === 0
                ? ({ to: "cancelled", actor: "agent", reason: "cancelled_by_agent" } as const)
                : ({ to: "cancelled", actor: "operator", reason: "cancelled_by_operator" } as const)
            )
          )
          const outcome = stored.outcome as { state: string; reason: string }
          assert.strictEqual(outcome.state, "cancelled")
          const winner = stored.history.at(-1)!.actor
          assert.strictEqual(outcome.reason, winner === "agent" ? "cancelled_by_agent" : "cancelled_by_operator")
          assert.strictEqual(stored.history.filter((h) => h.to === "cancelled").length, 1)
        }
        assertRaced(lostBefore)
      })
    )

    it.effect("submitted: accept vs reject vs revise vs auto-accept (20 rounds)", () =>
      Effect.gen(function* () {
        const lostBefore = casLosses.count
        for (let round = 0; round < 20; round++) {
          yield* race("submitted", [
            { to: "settled", actor: "agent", reason: "accepted" },
            { to: "declined", actor: "agent", reason: "result_rejected", note: "blurry" },
            { to: "in_flight", actor: "agent", note: "revision requested: sharper" },
            { to: "settled", actor: "service", reason: "auto_accepted" }
          ])
        }
        assertRaced(lostBefore)
      })
    )

    it.effect("open: six moves at once, several of which apply in turn: no update is lost (20 rounds)", () =>
      Effect.gen(function* () {
        const lifecycle = yield* Lifecycle
        const lostBefore = casLosses.count
        for (let round = 0; round < 20; round++) {
          const task = yield* insert(taskIn("open", { version: 1 }))
          const moves: ReadonlyArray<Omit<TransitionRequest, "reference">> = [
            { to: "matching", actor: "service" },
            { to: "declined", actor: "service", reason: "deadline_passed" },
            { to: "cancelled", actor: "agent", reason: "cancelled_by_agent" },
            { to: "awaiting_participant", actor: "service" },
            { to: "awaiting_participant", actor: "service" },
            { to: "accepted", actor: "participant" }
          ]
          const results = yield* Effect.forEach(
            moves,
            (move) => Effect.result(lifecycle.transition({ ...move, reference: task.reference })),
            { concurrency: "unbounded" }
          )
          const successes = results.filter(Result.isSuccess).map((r) => r.success)
          for (const r of results) {
            if (Result.isFailure(r)) assert.strictEqual((r.failure as { _tag: string })._tag, "InvalidTransition")
          }
          assert.isAbove(successes.length, 0)
          // Every applied move got its own version, one after another, and its own history entry.
          const versions = successes.map((t) => t.version).sort((a, b) => a - b)
          assert.deepStrictEqual(
            versions,
            successes.map((_, i) => task.version + 1 + i)
          )
          const stored = yield* read(task.reference)
          assert.strictEqual(stored.version, task.version + successes.length)
          const added = stored.history.slice(task.history.length)
          assert.strictEqual(added.length, successes.length)
          for (const applied of successes) {
            const entry = stored.history[applied.version - 1]!
            assert.deepStrictEqual(entry, applied.history.at(-1))
          }
          // The entries form a path through the table.
          let state: TaskState = "open"
          for (const entry of added) {
            assert.strictEqual(entry.from, state)
            assert.isDefined(findTransition(state, entry.to, entry.actor), `${state} → ${entry.to}`)
            state = entry.to
          }
          assert.strictEqual(stored.state, state)
          // Once terminal, nothing else applied.
          assert.isTrue(added.findIndex((e) => isTerminal(e.to)) === -1 || isTerminal(stored.state))
        }
        assertRaced(lostBefore)
      })
    )

    it.effect(
      "accept vs cancel from awaiting_participant: the cancel always lands, the accept only if it came first (20 rounds)",
      () =>
        Effect.gen(function* () {
          const lifecycle = yield* Lifecycle
          const lostBefore = casLosses.count
          for (let round = 0; round < 20; round++) {
            const task = yield* insert(taskIn("awaiting_participant"))
            const [accept, cancel] = yield* Effect.all(
              [
                Effect.result(
                  lifecycle.transition({ reference: task.reference, to: "accepted", actor: "participant" })
                ),
                Effect.result(
                  lifecycle.transition({
                    reference: task.reference,
                    to: "cancelled",
                    actor: "agent",
                    reason: "cancelled_by_agent"
                  })
                )
              ],
              { concurrency: "unbounded" }
            )
            assert.isTrue(Result.isSuccess(cancel), "cancel is allowed from awaiting_participant and accepted")
            const stored = yield* read(task.reference)
            assert.strictEqual(stored.state, "cancelled")
            const added = stored.history.slice(task.history.length).map((h) => `${h.from}→${h.to}`)
            if (Result.isSuccess(accept)) {
              assert.deepStrictEqual(added, ["awaiting_participant→accepted", "accepted→cancelled"])
              assert.strictEqual(stored.version, task.version + 2)
            } else {
              assert.strictEqual((accept.failure as InvalidTransition).from, "cancelled")
              assert.deepStrictEqual(added, ["awaiting_participant→cancelled"])
              assert.strictEqual(stored.version, task.version + 1)
            }
          }
          assertRaced(lostBefore)
        })
    )

    it.effect("10 concurrent revision requests at the last allowed revision: one applied, the limit holds", () =>
      Effect.gen(function* () {
        const actions = yield* TaskActions
        const tokens = yield* TaskTokens
        const lostBefore = casLosses.count
        for (let round = 0; round < 20; round++) {
          const reference = nextReference()
          const token = tokens.tokenFor(reference)
          const task = yield* insert(
            taskIn("submitted", { reference, tokenHash: tokens.hash(token), revisions: maxRevisions - 1 })
          )
          const results = yield* Effect.forEach(
            Array.from({ length: 10 }, (_, i) => i),
            (i) => Effect.result(actions.review(reference, token, { decision: "revise", reason: `change ${i}` })),
            { concurrency: "unbounded" }
          )
          assert.strictEqual(results.filter(Result.isSuccess).length, 1)
          for (const r of results) {
            if (Result.isFailure(r)) assert.strictEqual(r.failure._tag, "InvalidTransition")
          }
          const stored = yield* read(reference)
          assert.strictEqual(stored.state, "in_flight")
          assert.strictEqual(stored.revisions, maxRevisions)
          assert.strictEqual(stored.history.length, task.history.length + 1)
        }
        assertRaced(lostBefore)
      })
    )
  })

  describe("the revision limit (TaskActions over the lifecycle)", () => {
    it.effect(`at most ${maxRevisions} revisions; then only accept or reject`, () =>
      Effect.gen(function* () {
        const actions = yield* TaskActions
        const lifecycle = yield* Lifecycle
        const tokens = yield* TaskTokens
        const reference = nextReference()
        const token = tokens.tokenFor(reference)
        yield* insert(taskIn("submitted", { reference, tokenHash: tokens.hash(token) }))
        for (let i = 1; i <= maxRevisions; i++) {
          const revised = yield* actions.review(reference, token, { decision: "revise", reason: `round ${i}` })
          assert.strictEqual(revised.state, "in_flight")
          assert.strictEqual(revised.revisions, i)
          assert.isNull(revised.reviewDueAt)
          yield* lifecycle.transition({ reference, to: "submitted", actor: "participant" })
        }
        const error = yield* Effect.flip(actions.review(reference, token, { decision: "revise", reason: "once more" }))
        assert.strictEqual(error._tag, "InvalidTransition")
        assert.strictEqual((yield* read(reference)).state, "submitted")
        const settled = yield* actions.review(reference, token, { decision: "accept" })
        assert.strictEqual(settled.state, "settled")
        assert.strictEqual((settled.outcome as { reason: string }).reason, "accepted")
        assert.strictEqual(settled.history.filter((h) => h.to === "in_flight").length, maxRevisions)
      })
    )
  })

  describe("timers", () => {
    /** Runs a move and returns the stored task with the wall-clock window it happened in. */
    const timed = (request: TransitionRequest) =>
      Effect.gen(function* () {
        const lifecycle = yield* Lifecycle
        const t0 = Date.now()
        yield* lifecycle.transition(request)
        const t1 = Date.now()
        return { task: yield* read(request.reference), t0, t1 }
      })

    const assertAround = (value: string | null, t0: number, t1: number, offset: number, label: string) => {
      assert.isNotNull(value, label)
      const ms = Date.parse(value!)
      assert.isTrue(
        ms >= t0 + offset && ms <= t1 + offset,
        `${label}: ${value} not in [${iso(t0 + offset)}, ${iso(t1 + offset)}]`
      )
    }

    it.effect("entering awaiting_participant arms the offer timeout; nextTimerAt is it (no deadline)", () =>
      Effect.gen(function* () {
        const task = yield* insert(storedTask())
        const {
          task: offered,
          t0,
          t1
        } = yield* timed({
          reference: task.reference,
          to: "awaiting_participant",
          actor: "service",
          change: () => ({ participantSlug: "lukas-schmidt" })
        })
        assert.strictEqual(offered.participantSlug, "lukas-schmidt")
        assertAround(offered.offerExpiresAt, t0, t1, offerTimeoutMs, "offerExpiresAt")
        assert.strictEqual(offered.nextTimerAt, offered.offerExpiresAt)
        assert.isNull(offered.reviewDueAt)
      })
    )

    it.effect("awaiting_participant with a deadline: nextTimerAt is the earlier of offer timeout and deadline", () =>
      Effect.gen(function* () {
        const soon = iso(Date.now() + 10 * 60_000)
        const late = iso(Date.now() + 48 * 3600_000)
        const early = yield* insert(storedTask({ deadlineAt: soon }))
        const { task: a } = yield* timed({ reference: early.reference, to: "awaiting_participant", actor: "service" })
        assert.strictEqual(a.nextTimerAt, soon)
        assert.isNotNull(a.offerExpiresAt)
        const far = yield* insert(storedTask({ deadlineAt: late }))
        const { task: b } = yield* timed({ reference: far.reference, to: "awaiting_participant", actor: "service" })
        assert.strictEqual(b.nextTimerAt, b.offerExpiresAt)
      })
    )

    it.effect("open and matching are due at once (or at an earlier, passed deadline)", () =>
      Effect.gen(function* () {
        const task = yield* insert(storedTask())
        const { task: matching, t0, t1 } = yield* timed({ reference: task.reference, to: "matching", actor: "service" })
        assertAround(matching.nextTimerAt, t0, t1, 0, "matching nextTimerAt")
        assert.strictEqual(matching.nextTimerAt, matching.updatedAt)
        assert.isNull(matching.offerExpiresAt)
        // Back to matching after an offer lapsed: the old offer timer does not survive.
        const offered = yield* insert(
          taskIn("awaiting_participant", { offerExpiresAt: "2000-01-01T00:00:00.000Z", deadlineAt: late() })
        )
        const {
          task: rematching,
          t0: u0,
          t1: u1
        } = yield* timed({
          reference: offered.reference,
          to: "matching",
          actor: "service",
          change: () => ({ participantSlug: null })
        })
        assert.isNull(rematching.offerExpiresAt)
        assertAround(rematching.nextTimerAt, u0, u1, 0, "re-matching nextTimerAt")
        // Offered again: a fresh offer timeout, not the lapsed one.
        const {
          task: reoffered,
          t0: v0,
          t1: v1
        } = yield* timed({
          reference: offered.reference,
          to: "awaiting_participant",
          actor: "service"
        })
        assertAround(reoffered.offerExpiresAt, v0, v1, offerTimeoutMs, "fresh offerExpiresAt")
        // A deadline that already passed is earlier than "now".
        const passed = "2001-01-01T00:00:00.000Z"
        const overdue = yield* insert(storedTask({ deadlineAt: passed }))
        const { task: overdueMatching } = yield* timed({
          reference: overdue.reference,
          to: "matching",
          actor: "service"
        })
        assert.strictEqual(overdueMatching.nextTimerAt, passed)
      })
    )

    it.effect("accepted and in_flight have no timer, even with a deadline (it no longer matters)", () =>
      Effect.gen(function* () {
        const offered = yield* insert(
          taskIn("awaiting_participant", {
            offerExpiresAt: iso(Date.now() + offerTimeoutMs),
            deadlineAt: iso(Date.now() + 3600_000),
            nextTimerAt: iso(Date.now() + 3600_000)
          })
        )
        const { task: accepted } = yield* timed({ reference: offered.reference, to: "accepted", actor: "participant" })
        assert.isNull(accepted.nextTimerAt)
        assert.isNull(accepted.offerExpiresAt)
        assert.isNull(accepted.reviewDueAt)
        const { task: started } = yield* timed({ reference: offered.reference, to: "in_flight", actor: "participant" })
        assert.isNull(started.nextTimerAt)
        assert.isNull(started.offerExpiresAt)
      })
    )

    it.effect("entering submitted arms the review window; a revision clears it; a resubmission re-arms it", () =>
      Effect.gen(function* () {
        const task = yield* insert(taskIn("in_flight", { deadlineAt: iso(Date.now() - 3600_000) }))
        const {
          task: submitted,
          t0,
          t1
        } = yield* timed({
          reference: task.reference,
          to: "submitted",
          actor: "participant"
        })
        assertAround(submitted.reviewDueAt, t0, t1, reviewWindowMs, "reviewDueAt")
        // The passed deadline does not matter any more.
        assert.strictEqual(submitted.nextTimerAt, submitted.reviewDueAt)
        assert.isNull(submitted.offerExpiresAt)
        const { task: revising } = yield* timed({ reference: task.reference, to: "in_flight", actor: "agent" })
        assert.isNull(revising.reviewDueAt)
        assert.isNull(revising.nextTimerAt)
        const {
          task: again,
          t0: u0,
          t1: u1
        } = yield* timed({
          reference: task.reference,
          to: "submitted",
          actor: "participant"
        })
        assertAround(again.reviewDueAt, u0, u1, reviewWindowMs, "fresh reviewDueAt")
      })
    )

    it.effect("terminal states have no timer", () =>
      Effect.gen(function* () {
        const cases: ReadonlyArray<[TaskState, TaskState, Actor, OutcomeReason]> = [
          ["awaiting_participant", "cancelled", "agent", "cancelled_by_agent"],
          ["awaiting_participant", "declined", "service", "accept_timeout"],
          ["matching", "declined", "service", "no_match"],
          ["open", "declined", "service", "deadline_passed"],
          ["accepted", "cancelled", "operator", "cancelled_by_operator"],
          ["submitted", "settled", "service", "auto_accepted"],
          ["submitted", "declined", "agent", "result_rejected"]
        ]
        for (const [from, to, actor, reason] of cases) {
          const task = yield* insert(
            taskIn(from, {
              deadlineAt: iso(Date.now() + 3600_000),
              offerExpiresAt: from === "awaiting_participant" ? iso(Date.now() + 60_000) : null,
              reviewDueAt: from === "submitted" ? iso(Date.now() + 60_000) : null,
              nextTimerAt: iso(Date.now() + 60_000)
            })
          )
          const { task: ended } = yield* timed({ reference: task.reference, to, actor, reason })
          assert.strictEqual(ended.state, to)
          assert.isNull(ended.nextTimerAt, `${from} → ${to}`)
          assert.isNull(ended.offerExpiresAt, `${from} → ${to}`)
          assert.isNull(ended.reviewDueAt, `${from} → ${to}`)
          assert.deepStrictEqual(ended.outcome, {
            state: to,
            reason,
            message: outcomeMessages[reason],
            decided_at: ended.updatedAt
          })
        }
      })
    )
  })
})
