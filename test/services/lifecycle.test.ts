// The lifecycle service over the active test backend (SQLite or Postgres): what storage adds to the
// decider. Concurrent commands on one task have exactly one winner per state (compare-and-set on
// the row version), the losers judged again against the state they lost to; a task given as read
// is used once, and a stale one loses its compare-and-set and is read again; the moves are written
// with their webhook events and the caller's write alongside in one transaction; what a command
// returns is what is stored. The rules themselves (the table, timers, outcomes, the revision
// limit, who may move) are the decider's, tested as pure functions in test/domain/decider.test.ts.
// No dispatcher runs here: tasks are inserted directly with `nextTimerAt: null`.
import { assert, describe, layer } from "@effect/vitest"
import { Effect, Layer, Result } from "effect"
import type { Command } from "../../src/domain/decider.ts"
import { type InvalidTransition, StorageUnavailable } from "../../src/domain/errors.ts"
import { type Actor, findTransition, isTerminal, maxRevisions, type TaskState } from "../../src/domain/lifecycle.ts"
import type { MoveRequest } from "../../src/domain/move_request.ts"
import type { StoredTask } from "../../src/domain/task_record.ts"
import { Artifacts } from "../../src/services/artifacts.ts"
import { BlobStore } from "../../src/services/blob_store.ts"
import { Lifecycle } from "../../src/services/lifecycle.ts"
import { MailOutbox } from "../../src/services/mail_outbox.ts"
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
  Layer.provideMerge(
    Layer.mergeAll(CountingStore, TaskEvents.layer, TaskTokens.layer, WebhookOutbox.layer, MailOutbox.layer)
  ),
  Layer.provideMerge(TestSqlLayer),
  Layer.provideMerge(testConfig({ offerTimeoutMs, reviewWindowMs }))
)

const created = "2026-11-21T10:00:00.000Z"
const holder = "lukas-schmidt"
const webhookUrl = "https://hooks.example.com/tasks"

/** A task already in `state`, with the members that state implies (participant, result). */
const taskIn = (state: TaskState, overrides: Partial<StoredTask> = {}): StoredTask =>
  storedTask({
    state,
    participantSlug: ["open", "matching"].includes(state) ? null : holder,
    result: ["submitted", "settled"].includes(state)
      ? { summary: "done", fields: {}, artifacts: [], submitted_at: created }
      : null,
    version: 5,
    ...overrides
  })

type MoveCommand = Extract<Command, { readonly _tag: "Move" }>

/** The decider's `Move` command: a row of the table as asked, with no rule beyond it. */
const move = (to: TaskState, actor: Actor, more: Omit<MoveRequest, "to" | "actor"> = {}): MoveCommand => ({
  _tag: "Move",
  to,
  actor,
  ...more
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

/** The history entries the outbox holds an event of, for a task. */
const eventsOf = (reference: string) =>
  Effect.gen(function* () {
    const events = yield* (yield* WebhookOutbox).forTask(reference)
    return events.map((event) => event.historyIndex)
  })

const iso = (ms: number) => new Date(ms).toISOString()

layer(ServicesLive, { excludeTestServices: true, timeout: "60 seconds" })("Lifecycle", (it) => {
  describe("reading, writing and storing", () => {
    it.effect(
      "what each command returns is what is stored: two moves in one write, the configured timers, every state to settled",
      () =>
        Effect.gen(function* () {
          const lifecycle = yield* Lifecycle
          const deadline = iso(Date.now() + 48 * 3600_000)
          const task = yield* insert(storedTask({ deadlineAt: deadline }))
          const reference = task.reference
          const apply = (command: Command) =>
            Effect.gen(function* () {
              const before = yield* read(reference)
              const after = yield* lifecycle.transition({ reference, command })
              assert.deepStrictEqual(yield* read(reference), after, `${command._tag}: returned is stored`)
              assert.deepStrictEqual(after.history.slice(0, before.history.length), before.history)
              assert.strictEqual(after.version, after.history.length)
              return after
            })

          const writes = storeWrites.count
          const offered = yield* apply(
            move("matching", "service", {
              followedBy: { to: "awaiting_participant", change: () => ({ participantSlug: holder }) }
            })
          )
          assert.strictEqual(storeWrites.count - writes, 1, "two moves, one write")
          assert.deepStrictEqual(
            offered.history.slice(1).map((h) => [h.from, h.to]),
            [
              ["open", "matching"],
              ["matching", "awaiting_participant"]
            ]
          )
          // The policy is the service's configuration.
          assert.strictEqual(Date.parse(offered.offerExpiresAt!) - Date.parse(offered.updatedAt), offerTimeoutMs)
          assert.strictEqual(offered.nextTimerAt, offered.offerExpiresAt)
          assert.strictEqual(offered.deadlineAt, deadline)

          yield* apply({ _tag: "Accept", participant: holder })
          yield* apply({ _tag: "Start", participant: holder })
          const result = { summary: "done", fields: { count: 3 }, artifacts: [], submitted_at: iso(Date.now()) }
          const submitted = yield* apply({ _tag: "Submit", participant: holder, result })
          assert.deepStrictEqual(submitted.result, result)
          assert.strictEqual(Date.parse(submitted.reviewDueAt!) - Date.parse(submitted.updatedAt), reviewWindowMs)
          const revising = yield* apply({ _tag: "Review", decision: { decision: "revise", reason: "sharper" } })
          assert.strictEqual(revising.revisions, 1)
          yield* apply({ _tag: "Submit", participant: holder, result })
          const settled = yield* apply({ _tag: "Review", decision: { decision: "accept" } })
          assert.strictEqual(settled.state, "settled")
          assert.strictEqual(settled.outcome?.reason, "accepted")
          assert.strictEqual(settled.history.length, 9)
          assert.isNull(settled.nextTimerAt)
        })
    )

    it.effect(
      "a command given the task as read starts from it; given a stale copy, it loses the compare-and-set, writing nothing, and judges the stored row",
      () =>
        Effect.gen(function* () {
          const lifecycle = yield* Lifecycle
          // Current copy: used as is (the move applies on top of it).
          const fresh = yield* insert(taskIn("open", { webhookUrl }))
          const readsBefore = storeReads.count
          const moved = yield* lifecycle.transition({
            reference: fresh.reference,
            command: move("matching", "service"),
            read: fresh
          })
          assert.strictEqual(storeReads.count, readsBefore, "the task given was not read again")
          assert.strictEqual(moved.version, fresh.version + 1)
          assert.deepStrictEqual(yield* read(fresh.reference), moved)
          // Stale copy (the task has moved on to matching since): the compare-and-set loses, the row is
          // read again and judged as it is — matching → awaiting_participant, not a second open → matching.
          const lost = casLosses.count
          const next = yield* lifecycle.transition({
            reference: fresh.reference,
            command: move("awaiting_participant", "service", { change: () => ({ participantSlug: holder }) }),
            read: fresh
          })
          assert.strictEqual(casLosses.count - lost, 1)
          assert.strictEqual(next.version, moved.version + 1)
          assert.deepStrictEqual(
            next.history.map((entry) => [entry.from, entry.to]),
            [...moved.history.map((entry) => [entry.from, entry.to]), ["matching", "awaiting_participant"]]
          )
          assert.deepStrictEqual(yield* read(fresh.reference), next)
          // One webhook event per move made: the attempt that lost wrote none.
          assert.deepStrictEqual(yield* eventsOf(fresh.reference), [1, 2])
        })
    )

    it.effect("an unknown or malformed reference is TaskNotFound", () =>
      Effect.gen(function* () {
        const lifecycle = yield* Lifecycle
        for (const reference of [nextReference(), "tsk_short", "", "' OR '1'='1"]) {
          const error = yield* Effect.flip(
            lifecycle.transition({ reference, command: { _tag: "Cancel", actor: "agent", reason: undefined } })
          )
          assert.strictEqual(error._tag, "TaskNotFound")
        }
      })
    )

    it.effect(
      "the webhook events of the states entered are written with the moves; a refusal or a failed write alongside writes neither",
      () =>
        Effect.gen(function* () {
          const lifecycle = yield* Lifecycle
          const task = yield* insert(taskIn("open", { version: 1, webhookUrl }))
          const { reference } = task
          const offered = yield* lifecycle.transition({
            reference,
            command: move("matching", "service", {
              followedBy: { to: "awaiting_participant", change: () => ({ participantSlug: holder }) }
            })
          })
          assert.deepStrictEqual(yield* eventsOf(reference), [1, 2], "one event per state entered")

          const refused = yield* Effect.flip(lifecycle.transition({ reference, command: move("settled", "agent") }))
          assert.strictEqual(refused._tag, "InvalidTransition")
          const stranger = yield* Effect.flip(
            lifecycle.transition({ reference, command: { _tag: "Accept", participant: "someone-else" } })
          )
          assert.strictEqual(stranger._tag, "NotPermitted")

          const failing = yield* Effect.flip(
            lifecycle.transition({
              reference,
              command: { _tag: "Accept", participant: holder },
              alongside: () => Effect.fail(new StorageUnavailable({ cause: "the write alongside failed" }))
            })
          )
          assert.strictEqual(failing._tag, "StorageUnavailable")
          assert.deepStrictEqual(yield* read(reference), offered, "the move was undone with the write alongside")
          assert.deepStrictEqual(yield* eventsOf(reference), [1, 2])

          const seen: Array<StoredTask> = []
          const accepted = yield* lifecycle.transition({
            reference,
            command: { _tag: "Accept", participant: holder },
            alongside: (next) => Effect.sync(() => seen.push(next))
          })
          assert.deepStrictEqual(seen, [accepted], "the write alongside is given the task after the moves")
          assert.deepStrictEqual(yield* read(reference), accepted)
          assert.deepStrictEqual(yield* eventsOf(reference), [1, 2, 3])
        })
    )
  })

  describe("concurrent commands on one task: exactly one wins each state", () => {
    /** At least one compare-and-set was lost over the rounds: the moves really ran side by side. */
    const assertRaced = (lostBefore: number) => {
      assert.isAbove(casLosses.count - lostBefore, 0, "no compare-and-set was ever lost: the moves did not race")
    }

    /**
     * Runs the moves at once on a fresh task in `from`; asserts one success, every other refused
     * with InvalidTransition from the winner's state, and one new history entry.
     */
    const race = (from: TaskState, moves: ReadonlyArray<MoveCommand>) =>
      Effect.gen(function* () {
        const lifecycle = yield* Lifecycle
        const task = yield* insert(taskIn(from))
        const results = yield* Effect.forEach(
          moves,
          (command) => Effect.result(lifecycle.transition({ reference: task.reference, command })),
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
            move("accepted", "participant"),
            move("declined", "participant", { reason: "participant_declined" })
          ])
        }
        assertRaced(lostBefore)
      })
    )

    it.effect("awaiting_participant: 10 concurrent accepts (20 rounds)", () =>
      Effect.gen(function* () {
        const lostBefore = casLosses.count
        for (let round = 0; round < 20; round++) {
          yield* race(
            "awaiting_participant",
            Array.from({ length: 10 }, () => move("accepted", "participant"))
          )
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
                ? move("cancelled", "agent", { reason: "cancelled_by_agent" })
                : move("cancelled", "operator", { reason: "cancelled_by_operator" })
            )
          )
          const winner = stored.history.at(-1)!.actor
          assert.strictEqual(
            stored.outcome?.reason,
            winner === "agent" ? "cancelled_by_agent" : "cancelled_by_operator",
            "the outcome is the winner's"
          )
        }
        assertRaced(lostBefore)
      })
    )

    it.effect("submitted: accept vs reject vs revise vs auto-accept (20 rounds)", () =>
      Effect.gen(function* () {
        const lostBefore = casLosses.count
        for (let round = 0; round < 20; round++) {
          yield* race("submitted", [
            move("settled", "agent", { reason: "accepted" }),
            move("declined", "agent", { reason: "result_rejected", note: "blurry" }),
            move("in_flight", "agent", { note: "revision requested: sharper" }),
            move("settled", "service", { reason: "auto_accepted" })
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
          const moves: ReadonlyArray<MoveCommand> = [
            move("matching", "service"),
            move("declined", "service", { reason: "deadline_passed" }),
            move("cancelled", "agent", { reason: "cancelled_by_agent" }),
            move("awaiting_participant", "service"),
            move("awaiting_participant", "service"),
            move("accepted", "participant")
          ]
          const results = yield* Effect.forEach(
            moves,
            (command) => Effect.result(lifecycle.transition({ reference: task.reference, command })),
            { concurrency: "unbounded" }
          )
          const successes = results.filter(Result.isSuccess).map((r) => r.success)
          for (const r of results) {
            if (Result.isFailure(r)) assert.strictEqual(r.failure._tag, "InvalidTransition")
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
                  lifecycle.transition({
                    reference: task.reference,
                    command: { _tag: "Accept", participant: holder }
                  })
                ),
                Effect.result(
                  lifecycle.transition({
                    reference: task.reference,
                    command: { _tag: "Cancel", actor: "agent", reason: undefined }
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
})
