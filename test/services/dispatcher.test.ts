// The dispatcher's decisions and the service's timers on the test clock (`it.effect` runs on
// `TestClock`): a due task's move as a pure function of the task and the instant (`decide`), then
// the real services over the active backend, moved through offers, lapses, deadlines and review
// windows by adjusting the clock and sweeping once — no real waits. A long poll ends at its deadline
// on the same clock.
import { assert, describe, it } from "@effect/vitest"
import { Context, Deferred, Effect, Fiber, Layer, Ref } from "effect"
import { TestClock } from "effect/testing"
import { CommandServicesLayer } from "../../src/app.ts"
import { type DueMove as Decision, dueMove as decide } from "../../src/domain/dispatch.ts"
import type { StoredTask } from "../../src/domain/task_record.ts"
import { Dispatcher } from "../../src/services/dispatcher.ts"
import { ParticipantDirectory } from "../../src/services/participant_directory.ts"
import { Profiles } from "../../src/services/profiles.ts"
import { TaskEvents } from "../../src/services/task_events.ts"
import { TaskStore } from "../../src/services/task_store.ts"
import { Tasks } from "../../src/services/tasks.ts"
import { freshDatabase } from "../support/database.ts"
import { photographer } from "../support/directory.ts"
import { testConfig } from "../support/settings.ts"
import { storedTask } from "../support/tasks.ts"

const T0 = Date.parse("2026-11-27T10:00:00.000Z")
const iso = (ms: number) => new Date(ms).toISOString()
const offerTimeoutMs = 30 * 60_000
const reviewWindowMs = 6 * 3600_000

const everyone = [photographer("ada-photo"), photographer("bea-photo")]

/** The participant a decision offers the task to, if it offers it. */
const offeredTo = (decision: Decision | undefined, task: StoredTask) => {
  const offer = decision?.followedBy ?? decision
  return offer?.to === "awaiting_participant" ? offer.change?.(task).participantSlug : undefined
}

describe("decide: the move a due task needs at an instant", () => {
  const now = iso(T0)
  const open = storedTask({ nextTimerAt: now })

  it("offers an open task to the best eligible participant, through matching in the same write", () => {
    const decision = decide(open, now, everyone)
    assert.strictEqual(decision?.to, "matching")
    assert.strictEqual(decision?.followedBy?.to, "awaiting_participant")
    assert.include(["ada-photo", "bea-photo"], offeredTo(decision, open))
  })

  it("offers a task naming a participant to that participant alone", () => {
    const named = { ...open, requestedParticipant: "bea-photo" }
    const decision = decide(named, now, [])
    assert.strictEqual(decision?.to, "awaiting_participant")
    assert.strictEqual(offeredTo(decision, named), "bea-photo")
  })

  it("declines with no_match when nobody eligible is left", () => {
    assert.deepStrictEqual(decide(open, now, []), {
      to: "matching",
      followedBy: { to: "declined", reason: "no_match" }
    })
    const allPassed = { ...open, passedOver: ["ada-photo", "bea-photo"] }
    assert.strictEqual(decide(allPassed, now, everyone)?.followedBy?.to, "declined")
  })

  it("declines with deadline_passed from the instant of the deadline on, before an acceptance", () => {
    for (const state of ["open", "matching", "awaiting_participant"] as const) {
      const task = { ...open, state, deadlineAt: now }
      assert.deepStrictEqual(decide(task, now, everyone), { to: "declined", reason: "deadline_passed" })
      assert.notDeepEqual(decide(task, iso(T0 - 1), everyone), { to: "declined", reason: "deadline_passed" })
    }
  })

  it("leaves an offer alone until it lapses, then re-matches past the participant who let it lapse", () => {
    const offered = {
      ...open,
      state: "awaiting_participant" as const,
      participantSlug: "ada-photo",
      offerExpiresAt: iso(T0 + offerTimeoutMs)
    }
    assert.isUndefined(decide(offered, iso(T0 + offerTimeoutMs - 1), everyone))
    const decision = decide(offered, iso(T0 + offerTimeoutMs), everyone)
    assert.strictEqual(decision?.to, "matching")
    assert.include(decision?.note ?? "", "accept_timeout")
    assert.deepStrictEqual(decision?.change?.(offered), { participantSlug: null, passedOver: ["ada-photo"] })
    assert.strictEqual(offeredTo(decision, offered), "bea-photo")
  })

  it("declines with accept_timeout when the one named participant lets the offer lapse", () => {
    const offered = {
      ...open,
      state: "awaiting_participant" as const,
      participantSlug: "ada-photo",
      requestedParticipant: "ada-photo",
      offerExpiresAt: iso(T0)
    }
    assert.deepStrictEqual(decide(offered, now, everyone), { to: "declined", reason: "accept_timeout" })
  })

  it("settles a result with auto_accepted once the review window has passed, not before", () => {
    const submitted = { ...open, state: "submitted" as const, reviewDueAt: iso(T0 + reviewWindowMs) }
    assert.isUndefined(decide(submitted, iso(T0 + reviewWindowMs - 1), everyone))
    assert.deepStrictEqual(decide(submitted, iso(T0 + reviewWindowMs), everyone), {
      to: "settled",
      reason: "auto_accepted"
    })
  })

  it("offers nobody who is not taking offers; a task naming one is declined at once, through matching", () => {
    const off = new Set(["ada-photo"])
    assert.strictEqual(offeredTo(decide(open, now, everyone, off), open), "bea-photo")
    assert.deepStrictEqual(decide(open, now, everyone, new Set(["ada-photo", "bea-photo"])), {
      to: "matching",
      followedBy: { to: "declined", reason: "no_match" }
    })
    const named = { ...open, requestedParticipant: "ada-photo" }
    assert.deepStrictEqual(decide(named, now, everyone, off), {
      to: "matching",
      followedBy: {
        to: "declined",
        reason: "no_match",
        note: "the named participant ada-photo is not taking offers right now"
      }
    })
    assert.strictEqual(offeredTo(decide(named, now, everyone, new Set(["bea-photo"])), named), "ada-photo")
    // A lapsed offer is re-matched past the one who let it lapse and past who is off: nobody left.
    const offered = {
      ...open,
      state: "awaiting_participant" as const,
      participantSlug: "bea-photo",
      offerExpiresAt: now
    }
    assert.strictEqual(decide(offered, now, everyone, off)?.followedBy?.to, "declined")
    // An offer still running is left alone, whoever switched off meanwhile.
    assert.isUndefined(decide({ ...offered, offerExpiresAt: iso(T0 + 1) }, now, everyone, new Set(["bea-photo"])))
  })

  it("makes no move for a task in any other state", () => {
    for (const state of ["accepted", "in_flight", "settled", "declined", "cancelled"] as const) {
      assert.isUndefined(decide({ ...open, state, deadlineAt: now }, now, everyone))
    }
  })
})

/**
 * The services over a fresh database of the active backend, on the test's clock: no dispatcher
 * loop runs, a test sweeps when it means to (`Dispatcher.sweep`).
 */
const services = Layer.unwrap(
  Effect.map(
    Effect.acquireRelease(Effect.promise(freshDatabase), (db) => Effect.promise(db.drop)),
    (db) =>
      Dispatcher.layer.pipe(
        Layer.provideMerge(CommandServicesLayer),
        Layer.provide(testConfig({ database: db.config, seedSampleCatalogue: false, offerTimeoutMs, reviewWindowMs }))
      )
  )
)

const draft = (extra: Record<string, unknown> = {}) => ({
  action: "Photograph the storefront at Torstraße 12",
  execution_mode: "physical",
  location: "Berlin, Germany",
  timing: "Within 7 days",
  expected_result: "Five photos of the storefront",
  acceptance_test: "The shop sign is legible",
  ...extra
})

/** Runs `body` with the services built on the test clock, set to T0 first. */
const onTestClock = <A, E>(body: Effect.Effect<A, E, Layer.Success<typeof services>>) =>
  Effect.scoped(
    Effect.gen(function* () {
      yield* TestClock.setTime(T0)
      const context = yield* Layer.build(services)
      const directory = Context.get(context, ParticipantDirectory)
      yield* directory.upsertMany(everyone)
      return yield* Effect.provide(body, context)
    })
  )

const submit = (extra: Record<string, unknown> = {}) =>
  Effect.gen(function* () {
    const tasks = yield* Tasks
    return (yield* tasks.submit({ body: draft(extra), headerKey: undefined, userAgent: "test" })).task.reference
  })
const sweep = Effect.gen(function* () {
  return yield* (yield* Dispatcher).sweep
})
const stored = (reference: string) =>
  Effect.gen(function* () {
    const task = yield* (yield* TaskStore).findByReference(reference)
    assert.isDefined(task)
    return task!
  })

describe("the dispatcher on the test clock", () => {
  it.effect("offers at once, re-offers when the offer lapses, and declines no_match when nobody is left", () =>
    onTestClock(
      Effect.gen(function* () {
        const reference = yield* submit()
        yield* sweep
        const first = yield* stored(reference)
        assert.strictEqual(first.state, "awaiting_participant")
        assert.strictEqual(first.offerExpiresAt, iso(T0 + offerTimeoutMs))

        // A millisecond before it lapses, nothing is due.
        yield* TestClock.adjust(offerTimeoutMs - 1)
        assert.strictEqual(yield* sweep, 0)
        assert.strictEqual((yield* stored(reference)).participantSlug, first.participantSlug)

        yield* TestClock.adjust(1)
        assert.strictEqual(yield* sweep, 1)
        const second = yield* stored(reference)
        assert.strictEqual(second.state, "awaiting_participant")
        assert.notStrictEqual(second.participantSlug, first.participantSlug)
        assert.deepStrictEqual(second.passedOver, [first.participantSlug ?? "(none)"])
        assert.strictEqual(second.offerExpiresAt, iso(T0 + 2 * offerTimeoutMs))

        yield* TestClock.adjust(offerTimeoutMs)
        yield* sweep
        const last = yield* stored(reference)
        assert.strictEqual(last.state, "declined")
        assert.strictEqual(last.outcome?.reason, "no_match")
        assert.strictEqual(last.outcome?.decided_at, iso(T0 + 2 * offerTimeoutMs))
        assert.strictEqual(last.nextTimerAt, null)
      })
    )
  )

  it.effect("skips participants not taking offers, named or not, until they switch back on; an offer made stays", () =>
    onTestClock(
      Effect.gen(function* () {
        const profiles = yield* Profiles
        yield* profiles.setAvailable("ada-photo", false)
        // Unnamed: offered to the other one.
        const unnamed = yield* submit()
        yield* sweep
        assert.strictEqual((yield* stored(unnamed)).participantSlug, "bea-photo")
        // Named, and off: declined at once, the outcome saying why.
        const named = yield* submit({ participant_slug: "ada-photo" })
        yield* sweep
        const declined = yield* stored(named)
        assert.strictEqual(declined.state, "declined")
        assert.deepStrictEqual(
          declined.history.map((h) => h.to),
          ["open", "matching", "declined"]
        )
        assert.strictEqual(declined.outcome?.reason, "no_match")
        assert.include(declined.outcome?.message ?? "", "ada-photo is not taking offers right now")
        assert.strictEqual(declined.infeasibility?.code, "participant_unavailable")
        // Both off: nobody.
        yield* profiles.setAvailable("bea-photo", false)
        const nobody = yield* submit()
        yield* sweep
        assert.strictEqual((yield* stored(nobody)).outcome?.reason, "no_match")
        // The offer made to bea before she switched off stays hers.
        assert.strictEqual((yield* stored(unnamed)).state, "awaiting_participant")
        assert.strictEqual((yield* stored(unnamed)).participantSlug, "bea-photo")
        // Back on: offered again, named or not.
        yield* profiles.setAvailable("ada-photo", true)
        const again = yield* submit({ participant_slug: "ada-photo" })
        const unnamedAgain = yield* submit()
        yield* sweep
        assert.strictEqual((yield* stored(again)).state, "awaiting_participant")
        assert.strictEqual((yield* stored(again)).participantSlug, "ada-photo")
        assert.strictEqual((yield* stored(unnamedAgain)).participantSlug, "ada-photo")
      })
    )
  )

  it.effect("declines accept_timeout when the named participant's offer lapses", () =>
    onTestClock(
      Effect.gen(function* () {
        const reference = yield* submit({ participant_slug: "bea-photo" })
        yield* sweep
        assert.strictEqual((yield* stored(reference)).participantSlug, "bea-photo")
        yield* TestClock.adjust(offerTimeoutMs)
        yield* sweep
        const task = yield* stored(reference)
        assert.strictEqual(task.state, "declined")
        assert.strictEqual(task.outcome?.reason, "accept_timeout")
      })
    )
  )

  it.effect("declines deadline_passed at the deadline while the task waits for an acceptance", () =>
    onTestClock(
      Effect.gen(function* () {
        const reference = yield* submit({ timing: `by ${iso(T0 + 60_000)}` })
        yield* sweep
        assert.strictEqual((yield* stored(reference)).nextTimerAt, iso(T0 + 60_000))
        yield* TestClock.adjust(59_999)
        assert.strictEqual(yield* sweep, 0)
        yield* TestClock.adjust(1)
        yield* sweep
        const task = yield* stored(reference)
        assert.strictEqual(task.state, "declined")
        assert.strictEqual(task.outcome?.reason, "deadline_passed")
      })
    )
  )

  it.effect("settles a submitted result auto_accepted when its review window passes", () =>
    onTestClock(
      Effect.gen(function* () {
        const store = yield* TaskStore
        const reviewDueAt = iso(T0 + reviewWindowMs)
        const task = storedTask({
          state: "submitted",
          participantSlug: "ada-photo",
          version: 5,
          reviewDueAt,
          nextTimerAt: reviewDueAt,
          result: { summary: "Five photos", fields: {}, artifacts: [], submitted_at: iso(T0) }
        })
        yield* store.insert(task)
        yield* TestClock.adjust(reviewWindowMs - 1)
        assert.strictEqual(yield* sweep, 0)
        yield* TestClock.adjust(1)
        yield* sweep
        const settled = yield* stored(task.reference)
        assert.strictEqual(settled.state, "settled")
        assert.strictEqual(settled.outcome?.reason, "auto_accepted")
        assert.strictEqual(settled.outcome?.decided_at, reviewDueAt)
      })
    )
  )
})

describe("a long poll on the test clock", () => {
  it.effect("ends at its deadline, not before, when nothing changes", () =>
    onTestClock(
      Effect.gen(function* () {
        const events = yield* TaskEvents
        const checks = yield* Ref.make(0)
        const unchanged = Ref.updateAndGet(checks, (n) => n + 1).pipe(Effect.as(false))
        const poll = yield* Effect.forkChild(events.waitForChange("tsk_any", unchanged, 10_000))
        yield* TestClock.adjust(9_999)
        assert.isUndefined(poll.pollUnsafe(), "still waiting a millisecond before its deadline")
        yield* TestClock.adjust(1)
        assert.isFalse(yield* Fiber.join(poll))
        // Checked at the start, then once a second (the re-check interval) until the deadline.
        assert.strictEqual(yield* Ref.get(checks), 11)
      })
    )
  )

  it.effect("ends at once when its task changes, with no time passing", () =>
    onTestClock(
      Effect.gen(function* () {
        const events = yield* TaskEvents
        const changed = yield* Deferred.make<void>()
        const isChanged = Effect.map(Deferred.isDone(changed), (done) => done)
        const poll = yield* Effect.forkChild(events.waitForChange("tsk_some", isChanged, 10_000))
        yield* Effect.yieldNow
        yield* Deferred.succeed(changed, undefined)
        yield* events.changed("tsk_some")
        assert.isTrue(yield* Fiber.join(poll))
      })
    )
  )
})
