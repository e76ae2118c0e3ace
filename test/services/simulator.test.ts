// The sandbox's simulated participants (services/simulator.ts) over the active backend: the
// production services with their loops on real time (the dispatcher and the simulator sweeping
// every 20 ms), driven as an agent drives them — a task submitted naming a simulated participant,
// a revision asked for, a result accepted — and the sandbox's clock moved forward for sim-slow.
// Outside a sandbox nobody is simulated, even when the simulated participants are in the directory.
import { assert, describe, it, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { ServerServicesLayer } from "../../src/app.ts"
import type { AppSettings } from "../../src/config/settings.ts"
import type { TaskState } from "../../src/domain/lifecycle.ts"
import type { ReviewDecision } from "../../src/domain/moves.ts"
import { resultFieldFailures } from "../../src/domain/result_schema.ts"
import { simulatedParticipants, slowWorkMs } from "../../src/domain/sandbox.ts"
import type { StoredTask } from "../../src/domain/task_record.ts"
import { ParticipantDirectory } from "../../src/services/participant_directory.ts"
import { SandboxClock } from "../../src/services/sandbox_clock.ts"
import { simulatedMove } from "../../src/services/simulator.ts"
import { TaskActions } from "../../src/services/task_actions.ts"
import { TaskStore } from "../../src/services/task_store.ts"
import { Tasks } from "../../src/services/tasks.ts"
import { freshDatabase } from "../support/database.ts"
import { captureLogs } from "../support/logs.ts"
import { testConfig } from "../support/settings.ts"
import { storedTask } from "../support/tasks.ts"

const hour = 3600_000
const T0 = Date.parse("2026-11-27T10:00:00.000Z")
const iso = (ms: number) => new Date(ms).toISOString()

describe("simulatedMove: what each simulated participant does next", () => {
  const held = (slug: string, state: TaskState, startedAt?: Array<number>) =>
    storedTask({
      participantSlug: slug,
      state,
      history: [
        { from: null, to: "open", actor: "agent", at: iso(T0) },
        ...(startedAt ?? []).map((at) => ({
          from: "accepted" as const,
          to: "in_flight" as const,
          actor: "participant" as const,
          at: iso(at)
        }))
      ]
    })

  it("sim-delivers accepts, starts and submits at once", () => {
    assert.strictEqual(simulatedMove(held("sim-delivers", "awaiting_participant"), T0), "accept")
    assert.strictEqual(simulatedMove(held("sim-delivers", "accepted"), T0), "start")
    assert.strictEqual(simulatedMove(held("sim-delivers", "in_flight", [T0]), T0), "submit")
    assert.isUndefined(simulatedMove(held("sim-delivers", "submitted"), T0))
  })

  it("sim-declines declines offers and does nothing else; sim-silent never moves", () => {
    assert.strictEqual(simulatedMove(held("sim-declines", "awaiting_participant"), T0), "decline")
    for (const state of ["awaiting_participant", "accepted", "in_flight", "submitted"] as const) {
      if (state !== "awaiting_participant") assert.isUndefined(simulatedMove(held("sim-declines", state), T0))
      assert.isUndefined(simulatedMove(held("sim-silent", state, [T0]), T0 + 100 * hour))
    }
  })

  it("sim-slow submits slowWorkMs after it last entered in_flight, not before", () => {
    assert.strictEqual(slowWorkMs, 6 * hour)
    assert.strictEqual(simulatedMove(held("sim-slow", "awaiting_participant"), T0), "accept")
    assert.strictEqual(simulatedMove(held("sim-slow", "accepted"), T0), "start")
    const working = held("sim-slow", "in_flight", [T0])
    assert.isUndefined(simulatedMove(working, T0 + slowWorkMs - 1))
    assert.strictEqual(simulatedMove(working, T0 + slowWorkMs), "submit")
    // Sent back for a revision: six hours from then.
    const revised = held("sim-slow", "in_flight", [T0, T0 + 10 * hour])
    assert.isUndefined(simulatedMove(revised, T0 + 15 * hour))
    assert.strictEqual(simulatedMove(revised, T0 + 16 * hour), "submit")
  })

  it("nobody else is simulated", () => {
    assert.isUndefined(simulatedMove(held("ada-photo", "awaiting_participant"), T0))
    assert.isUndefined(simulatedMove(storedTask({ state: "awaiting_participant" }), T0))
  })
})

const { lines, layer: capture } = captureLogs()

/** The production services (dispatcher and simulator loops included) on a fresh database. */
const servicesWith = (settings: Partial<AppSettings>) =>
  Layer.unwrap(
    Effect.map(
      Effect.acquireRelease(Effect.promise(freshDatabase), (db) => Effect.promise(db.drop)),
      (db) =>
        ServerServicesLayer.pipe(
          Layer.provide(testConfig({ database: db.config, seedSampleCatalogue: false, timerSweepMs: 20, ...settings })),
          Layer.provide(capture)
        )
    )
  )

const draft = (extra: Record<string, unknown>) => ({
  action: "Test the checkout flow of our web shop on a mobile phone and report every bug",
  execution_mode: "digital",
  timing: "Within 7 days",
  expected_result: "A list of bugs with steps to reproduce",
  acceptance_test: "Every bug listed can be reproduced from its steps",
  ...extra
})

/** Submits a task as an agent does; gives its reference and task token. */
const submit = (extra: Record<string, unknown>) =>
  Effect.gen(function* () {
    const { task } = yield* (yield* Tasks).submit({ body: draft(extra), headerKey: undefined, userAgent: "test" })
    return { reference: task.reference, token: task.task_token }
  })

const stored = (reference: string) =>
  Effect.gen(function* () {
    const task = yield* (yield* TaskStore).findByReference(reference)
    assert.isDefined(task)
    return task!
  })

const path = (task: StoredTask) => task.history.map((entry) => `${entry.actor}:${entry.to}`)

/** The task once `until` holds, read every 10 ms; fails after 10 s saying where it stayed. */
const waitFor = (reference: string, until: (task: StoredTask) => boolean) =>
  Effect.gen(function* () {
    for (let waited = 0; ; waited += 10) {
      const task = yield* stored(reference)
      if (until(task)) return task
      if (waited > 10_000) return assert.fail(`the task stayed ${task.state}: ${path(task).join(" → ")}`)
      yield* Effect.sleep("10 millis")
    }
  })
const stateIs = (state: TaskState) => (task: StoredTask) => task.state === state
const submissions = (task: StoredTask) => task.history.filter((entry) => entry.to === "submitted").length

const review = (reference: string, token: string, decision: ReviewDecision) =>
  Effect.gen(function* () {
    return yield* (yield* TaskActions).review(reference, token, decision)
  })

/** Several of the simulator's rounds (20 ms each). */
const someRounds = Effect.sleep("300 millis")

const resultSchema = {
  type: "object",
  properties: {
    bugs: {
      type: "array",
      minItems: 2,
      items: {
        type: "object",
        properties: {
          title: { type: "string", minLength: 5 },
          severity: { enum: ["low", "medium", "high"] },
          steps: { type: "array", items: { type: "string" }, minItems: 1 },
          screenshot: { type: "string", format: "uri" }
        },
        required: ["title", "severity", "steps"],
        additionalProperties: false
      }
    },
    tested_at: { type: "string", format: "date-time" },
    device: { $ref: "#/$defs/device" }
  },
  required: ["bugs", "tested_at", "device"],
  additionalProperties: false,
  $defs: {
    device: {
      type: "object",
      properties: { model: { type: "string" }, os: { anyOf: [{ const: "iOS" }, { const: "Android" }] } },
      required: ["model", "os"]
    }
  }
}

layer(servicesWith({ sandbox: true }), { excludeTestServices: true, timeout: "60 seconds" })("in a sandbox", (it) => {
  it.effect(
    "sim-delivers accepts, starts and delivers fields that satisfy the result_schema; again after a revision",
    () =>
      Effect.gen(function* () {
        const { reference, token } = yield* submit({ participant_slug: "sim-delivers", result_schema: resultSchema })
        const delivered = yield* waitFor(reference, stateIs("submitted"))
        assert.deepStrictEqual(path(delivered), [
          "agent:open",
          "service:awaiting_participant",
          "participant:accepted",
          "participant:in_flight",
          "participant:submitted"
        ])
        const result = delivered.result!
        assert.deepStrictEqual(resultFieldFailures(resultSchema, result.fields), [])
        assert.lengthOf(result.fields.bugs as Array<unknown>, 2)
        assert.strictEqual(result.summary, `Simulated result for ${reference}: ${draft({}).action}`)
        assert.lengthOf(result.artifacts, 1)
        assert.strictEqual(result.artifacts[0]!.kind, "text")
        assert.include(result.artifacts[0]!.value, "sim-delivers")

        yield* review(reference, token, { decision: "revise", reason: "Add the browser version" })
        const redelivered = yield* waitFor(reference, (task) => task.state === "submitted" && submissions(task) === 2)
        assert.deepStrictEqual(path(redelivered).slice(5), ["agent:in_flight", "participant:submitted"])
        assert.strictEqual(redelivered.revisions, 1)
        assert.deepStrictEqual(resultFieldFailures(resultSchema, redelivered.result!.fields), [])

        const settled = yield* review(reference, token, { decision: "accept" })
        assert.strictEqual(settled.state, "settled")
        assert.strictEqual(settled.outcome?.reason, "accepted")
      })
  )

  it.effect("sim-delivers delivers a summary and a text when no result_schema asks for fields", () =>
    Effect.gen(function* () {
      const { reference } = yield* submit({ participant_slug: "sim-delivers" })
      const delivered = yield* waitFor(reference, stateIs("submitted"))
      assert.deepStrictEqual(delivered.result?.fields, {})
      assert.include(delivered.result?.summary ?? "", reference)
      assert.strictEqual(delivered.result?.artifacts[0]?.kind, "text")
    })
  )

  it.effect("sim-delivers leaves a task whose result_schema it cannot satisfy in flight, said once", () =>
    Effect.gen(function* () {
      const { reference } = yield* submit({
        participant_slug: "sim-delivers",
        result_schema: {
          type: "object",
          properties: { code: { type: "string", pattern: "^[A-Z]{3}-[0-9]{4}$" } },
          required: ["code"]
        }
      })
      const working = yield* waitFor(reference, stateIs("in_flight"))
      yield* someRounds
      const after = yield* stored(reference)
      assert.strictEqual(after.state, "in_flight")
      assert.strictEqual(after.version, working.version)
      const warnings = lines.filter((line) => line.level === "Warn" && line.annotations.reference === reference)
      assert.lengthOf(warnings, 1)
      assert.include(String(warnings[0]!.message), "could not make a result")
    })
  )

  it.effect("sim-declines declines: a task naming it ends declined, participant_declined", () =>
    Effect.gen(function* () {
      const { reference } = yield* submit({ participant_slug: "sim-declines" })
      const declined = yield* waitFor(reference, stateIs("declined"))
      assert.strictEqual(declined.outcome?.reason, "participant_declined")
      assert.deepStrictEqual(path(declined), ["agent:open", "service:awaiting_participant", "participant:declined"])
    })
  )

  it.effect("sim-slow accepts and starts, and submits only once the sandbox clock is 6 hours past its start", () =>
    Effect.gen(function* () {
      const clock = yield* SandboxClock
      const { reference } = yield* submit({ participant_slug: "sim-slow", result_schema: resultSchema })
      const working = yield* waitFor(reference, stateIs("in_flight"))
      assert.deepStrictEqual(path(working).slice(2), ["participant:accepted", "participant:in_flight"])
      const startedAt = Date.parse(working.history.at(-1)!.at)

      yield* someRounds
      assert.strictEqual((yield* stored(reference)).state, "in_flight")
      yield* clock.advance(5 * hour)
      yield* someRounds
      assert.strictEqual((yield* stored(reference)).state, "in_flight", "five hours in, still working")

      yield* clock.advance(hour)
      const delivered = yield* waitFor(reference, stateIs("submitted"))
      const submittedAt = Date.parse(delivered.history.at(-1)!.at)
      assert.isAtLeast(submittedAt - startedAt, slowWorkMs)
      assert.isBelow(submittedAt - startedAt, slowWorkMs + 60_000)
      assert.deepStrictEqual(resultFieldFailures(resultSchema, delivered.result!.fields), [])
    })
  )

  // Last: moving the clock a day on would close the other tests' windows.
  it.effect("sim-silent never answers: its offer lapses at the offer timeout", () =>
    Effect.gen(function* () {
      const { reference } = yield* submit({ participant_slug: "sim-silent" })
      const offered = yield* waitFor(reference, stateIs("awaiting_participant"))
      yield* someRounds
      const still = yield* stored(reference)
      assert.strictEqual(still.state, "awaiting_participant")
      assert.strictEqual(still.version, offered.version)
      yield* (yield* SandboxClock).advance(24 * hour)
      const lapsed = yield* waitFor(reference, stateIs("declined"))
      assert.strictEqual(lapsed.outcome?.reason, "accept_timeout")
      assert.deepStrictEqual(path(lapsed), ["agent:open", "service:awaiting_participant", "service:declined"])
    })
  )
})

layer(servicesWith({ sandbox: false }), { excludeTestServices: true, timeout: "60 seconds" })(
  "outside a sandbox",
  (it) => {
    it.effect("nobody is simulated: a task naming sim-delivers stays offered", () =>
      Effect.gen(function* () {
        yield* (yield* ParticipantDirectory).upsertMany(simulatedParticipants)
        const { reference } = yield* submit({ participant_slug: "sim-delivers" })
        const offered = yield* waitFor(reference, stateIs("awaiting_participant"))
        yield* someRounds
        const still = yield* stored(reference)
        assert.strictEqual(still.state, "awaiting_participant")
        assert.strictEqual(still.version, offered.version)
      })
    )
  }
)
