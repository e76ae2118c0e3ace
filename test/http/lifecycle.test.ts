// Every path of the lifecycle table over HTTP (DECISIONS §4–§6, §10), driven by the agent's task
// token and by participants' real signed OAuth access tokens; the service's own moves (offers,
// rematches, timers) are awaited with the long poll. Runs on SQLite and on Postgres.
import { randomUUID } from "node:crypto"
import { readFileSync } from "node:fs"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { ResultSubmission, ReviewRequest } from "../../src/api/resources.ts"
import type { AppServices } from "../../src/app.ts"
import type { AppConfig } from "../../src/config/app_config.ts"
import type { AppSettings } from "../../src/config/settings.ts"
import type { ParticipantRecord } from "../../src/domain/participant.ts"
import { TaskDraft } from "../../src/domain/task_draft/schema.ts"
import { ParticipantDirectory } from "../../src/services/participant_directory.ts"
import { apiClient, asPayload, call, exchange } from "../support/api_client.ts"
import { type MovableClock, movableClock } from "../support/clock.ts"
import { linkAccount, startIssuer, type TestIssuer, testAudience } from "../support/issuer.ts"
import {
  digitalDraft,
  expectEnvelope,
  json,
  type ServerOnDatabase,
  startOnFreshDatabase,
  validDraft
} from "../support/server.ts"
import { serverServicesWith } from "../support/services.ts"
import { taskStoreReplacing } from "../support/stores.ts"

// biome-ignore lint/suspicious/noExplicitAny: JSON bodies are inspected member by member.
type Json = any

type Env = ServerOnDatabase

const isoUtc = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,3})?Z$/
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const minute = 60_000
const hour = 60 * minute

// --- what the sample catalogue makes eligible (data/sample-participants.json) -----------------

interface SampleParticipant {
  readonly slug: string
  readonly task_type: "digital" | "physical" | "hybrid"
  readonly location: string
}
const sample: ReadonlyArray<SampleParticipant> = JSON.parse(
  readFileSync(new URL("../../data/sample-participants.json", import.meta.url), "utf8")
)
/** Physical tasks are served by physical and hybrid participants whose city or country is named. */
const eligiblePhysical = (country: string) =>
  sample
    .filter((p) => p.task_type !== "digital" && p.location.endsWith(`, ${country}`))
    .map((p) => p.slug)
    .sort()
const servesDigital = new Set(sample.filter((p) => p.task_type !== "physical").map((p) => p.slug))

/**
 * Physical in Lagos or Abuja: exactly two eligible (amara-okafor, physical, in Lagos; aisha-bello,
 * hybrid, in Abuja: she interviews), the two cities named.
 */
const nigeriaDraft = () =>
  validDraft({
    action: "Visit the pharmacy at 12 Allen Avenue and check whether it is open; interview the pharmacist",
    location: "Lagos or Abuja, Nigeria",
    expected_result: "Three photos of the shop front and a JSON checklist of opening hours",
    acceptance_test: "The photos show the pharmacy sign and its opening hours legibly"
  })

// --- what the tests observed, checked against /capabilities at the end ------------------------

const observedMoves = new Set<string>()
const nextSteps = new Map<string, Set<string>>()
/**
 * Tasks nobody can take (digital ones on the stepped server): their next_step explains why rather
 * than giving the state's own sentence (issue 25), so their sentences are collected apart.
 */
const doomed = new Set<string>()
const doomedSteps = new Map<string, Set<string>>()
const record = (task: Json) => {
  if (task?.object !== "task") return
  for (const h of task.history) observedMoves.add(`${h.from ?? "(submission)"} -> ${h.to} by ${h.actor}`)
  const steps = doomed.has(task.reference) ? doomedSteps : nextSteps
  const seen = steps.get(task.state) ?? new Set<string>()
  // A sentence may name the task itself (where to review it); that part is the task's, not the state's.
  expect(task.next_step.replaceAll(task.reference, "")).not.toMatch(/tsk_[a-z2-7]{26}/)
  seen.add(task.next_step.replaceAll(task.reference, "{reference}"))
  steps.set(task.state, seen)
}

// --- servers ----------------------------------------------------------------------------------

let issuer: TestIssuer
const envs: Array<Env> = []
/** Long offer and review windows: nothing times out unless a test waits for it. */
let main: Env
/** Offers lapse after a minute (of its clock, which the timer tests move). */
let offers: Env
/** Results are accepted automatically after a minute (of its clock). */
let review: Env
/**
 * One participant only (`standby`, physical, in Reykjavík: nobody for a digital task), and a
 * dispatcher that moves only when a test lets it (see `gate`).
 */
let stepped: Env

/**
 * The stepped server's dispatcher sees due tasks only while `ticks` > 0, one sweep with work per
 * tick: tasks stay `open`, or `matching`, for as long as a test needs them there.
 */
const gate = { ticks: 0 }
const gatedStore = taskStoreReplacing((real) => ({
  due: (now, limit) =>
    gate.ticks <= 0
      ? Effect.succeed([])
      : real.due(now, limit).pipe(
          Effect.tap((due) =>
            Effect.sync(() => {
              if (due.length > 0) gate.ticks--
            })
          )
        )
}))

/** The stepped server's only participant: declining an offer puts a task back in `matching`. */
const standby: ParticipantRecord = {
  slug: "sigrun-jonsdottir",
  name: "Sigrún Jónsdóttir",
  discipline: "Field researcher",
  location: "Reykjavík, Iceland",
  task_type: "physical",
  tags: ["retail", "photography"],
  capabilities: ["Storefront and shelf photography in Reykjavík"],
  returns: "Geotagged photos and a JSON checklist.",
  boundary: "Reykjavík only."
}
const steppedDirectory = Layer.effect(
  ParticipantDirectory,
  Effect.gen(function* () {
    const real = yield* ParticipantDirectory
    yield* Effect.orDie(real.upsertMany([standby]))
    return real
  })
).pipe(Layer.provide(ParticipantDirectory.layer))

/** Physical in Reykjavík: offered to `standby` alone. */
const reykjavikDraft = (overrides: Record<string, unknown> = {}) =>
  validDraft({
    action: "Photograph the storefront of the bakery at Laugavegur 36",
    location: "Reykjavík, Iceland",
    ...overrides
  })

/**
 * A task of the stepped server taken to `matching` and left there: offered to `standby` in one
 * sweep, declined by them, with the gate closed behind it.
 */
const heldInMatching = async (overrides: Record<string, unknown> = {}) => {
  gate.ticks = 0
  const created = await create(stepped, reykjavikDraft(overrides))
  gate.ticks = 1
  await waitFor(stepped, created.reference, stateIs("awaiting_participant"))
  gate.ticks = 0
  const declined = await ok(await (await participant(stepped, standby.slug)).decline(created.reference))
  expect(declined.state).toBe("matching")
  return created
}

/**
 * Each server's clock (support/clock.ts): the timer tests move it past an offer's lapse, a review
 * window or a deadline instead of waiting for it. It moves by seconds at most in all, well inside
 * the participants' access tokens' ten minutes.
 */
const clocks = new Map<Env, MovableClock>()
const clockOf = (env: Env) => clocks.get(env)!

const boot = async (
  settings: Partial<AppSettings>,
  services?: Layer.Layer<AppServices, unknown, AppConfig>
): Promise<Env> => {
  const clock = movableClock()
  const env = await startOnFreshDatabase({
    settings: { oauthIssuer: issuer.url, oauthAudience: testAudience, timerSweepMs: 50, ...settings },
    ...(services === undefined ? {} : { services }),
    clock: clock.layer
  })
  envs.push(env)
  clocks.set(env, clock)
  return env
}

beforeAll(async () => {
  issuer = await startIssuer()
  ;[main, offers, review, stepped] = await Promise.all([
    boot({ offerTimeoutMs: hour, reviewWindowMs: hour }),
    boot({ offerTimeoutMs: minute, reviewWindowMs: hour }),
    boot({ offerTimeoutMs: hour, reviewWindowMs: minute }),
    boot({ seedSampleCatalogue: false }, serverServicesWith(Layer.merge(gatedStore, steppedDirectory)))
  ])
})
afterAll(async () => {
  for (const env of envs) await env.close()
  await issuer?.close()
})

// --- the agent ---------------------------------------------------------------------------------

const create = async (env: Env, draft: Record<string, unknown>) => {
  const response = await exchange(env.server, (c) =>
    c.createTask({ payload: asPayload(TaskDraft, draft), headers: {} })
  )
  const text = await response.text()
  if (response.status !== 201) throw new Error(`expected 201, got ${response.status}: ${text}`)
  const task: Json = JSON.parse(text)
  expect(task.state).toBe("open")
  expect(task.task_token).toMatch(/^tt_/)
  if (env === stepped && draft.execution_mode === "digital") doomed.add(task.reference)
  record(task)
  return { reference: task.reference as string, token: task.task_token as string, created: task }
}

/** The agent's cancel or review; a body is one the document accepts (bodies it refuses: `agentPostRaw`). */
const agentPost = (env: Env, reference: string, action: "cancel" | "review", token: string, body?: unknown) =>
  exchange(
    env.server,
    (c) =>
      action === "cancel"
        ? c.cancelTask({ params: { reference }, payload: (body ?? {}) as { reason?: string } })
        : c.reviewTask({ params: { reference }, payload: asPayload(ReviewRequest, body) }),
    { token }
  )

/** A review body the document refuses: no client derived from it sends one. */
const agentPostRaw = (env: Env, reference: string, token: string, body: unknown) =>
  fetch(env.server.api(`/tasks/${reference}/review`), json(body, { authorization: `Bearer ${token}` }))

const read = async (env: Env, reference: string): Promise<Json> => {
  const response = await exchange(env.server, (c) => c.getTask({ params: { reference }, query: {}, headers: {} }))
  expect(response.status).toBe(200)
  const task = await response.json()
  record(task)
  return task
}

/** 200 with a task: returns it (and records its moves). */
const ok = async (response: Response): Promise<Json> => {
  const text = await response.text()
  if (response.status !== 200) throw new Error(`expected 200, got ${response.status}: ${text}`)
  const task = JSON.parse(text)
  record(task)
  return task
}

/** Reads the task, then long-polls it until `until` holds (each poll waits for the next change, up to 5 s). */
const waitFor = async (env: Env, reference: string, until: (task: Json) => boolean, timeoutMs = 15_000) => {
  const deadline = Date.now() + timeoutMs
  let etag: string | null = null
  let last: Json = null
  for (;;) {
    const remaining = deadline - Date.now()
    if (remaining <= 0) throw new Error(`gave up waiting; the task is ${JSON.stringify(last)}`)
    // First the task as it is (it may be there already); then each poll waits for the next change.
    const wait = etag === null ? "0" : Math.max(0.1, Math.min(5, remaining / 1000)).toFixed(1)
    const response: Response = await exchange(env.server, (c) =>
      c.getTask({
        params: { reference },
        query: { wait: Number(wait) },
        headers: etag === null ? {} : { "if-none-match": etag }
      })
    )
    if (response.status === 304) continue
    expect(response.status).toBe(200)
    etag = response.headers.get("etag")
    last = await response.json()
    record(last)
    if (until(last)) return last
  }
}
const stateIs = (state: string) => (task: Json) => task.state === state

// --- participants ----------------------------------------------------------------------------

/** A participant signed in with a real access token whose subject is linked to `slug`. */
const participant = async (env: Env, slug: string) => {
  const subject = `user-${slug}-${randomUUID().slice(0, 8)}`
  await linkAccount(env.database, subject, slug)
  const token = await issuer.token({ sub: subject })
  const as = { token }
  return {
    slug,
    subject,
    accept: (reference: string) => exchange(env.server, (c) => c.acceptTask({ params: { reference } }), as),
    decline: (reference: string, reason?: string) =>
      exchange(
        env.server,
        (c) => c.declineTask({ params: { reference }, payload: reason === undefined ? {} : { reason } }),
        as
      ),
    start: (reference: string) => exchange(env.server, (c) => c.startTask({ params: { reference } }), as),
    submit: (reference: string, result: unknown) =>
      exchange(
        env.server,
        (c) => c.submitTask({ params: { reference }, payload: asPayload(ResultSubmission, result) }),
        as
      ),
    me: () => exchange(env.server, (c) => c.me(), as),
    myTasks: () => exchange(env.server, (c) => c.myTasks(), as)
  }
}

const resultOf = (n: number) => ({
  summary: `Found ${n} bugs in the checkout flow`,
  fields: { bugs_found: n, device: "Pixel 8" },
  artifacts: [
    { kind: "url", value: "https://example.com/report.pdf", description: "Full report" },
    { kind: "text", value: "Step 3 fails with an empty cart" }
  ]
})

/** A task named for a digital participant, taken to `submitted`. */
const submittedTask = async (env: Env, slug = "kwame-asante") => {
  const { reference, token } = await create(env, digitalDraft({ participant_slug: slug }))
  await waitFor(env, reference, stateIs("awaiting_participant"))
  const p = await participant(env, slug)
  await ok(await p.accept(reference))
  await ok(await p.start(reference))
  const task = await ok(await p.submit(reference, resultOf(1)))
  expect(task.state).toBe("submitted")
  return { reference, token, p, task }
}

const moves = (task: Json) => task.history.map((h: Json) => `${h.from ?? "-"}>${h.to}:${h.actor}`)

/** The members that change with every move. */
const snapshot = (task: Json) => ({
  state: task.state,
  participant_slug: task.participant_slug,
  history: task.history.length,
  updated_at: task.updated_at
})

// ==============================================================================================

describe("happy path: matched, accepted, worked, reviewed → settled", () => {
  it("an unnamed digital task is offered to the best eligible participant and settles on the agent's accept", async () => {
    const { reference, token, created } = await create(main, digitalDraft())
    expect(created.participant_slug).toBeNull()

    const offered = await waitFor(main, reference, stateIs("awaiting_participant"))
    expect(servesDigital.has(offered.participant_slug)).toBe(true)
    expect(moves(offered)).toEqual(["->open:agent", "open>matching:service", "matching>awaiting_participant:service"])
    for (const h of offered.history) expect(h.at).toMatch(isoUtc)

    const p = await participant(main, offered.participant_slug)
    const me = await p.me()
    expect(me.status).toBe(200)
    const account: Json = await me.json()
    expect(account.subject).toBe(p.subject)
    expect(account.participant.slug).toBe(p.slug)

    const listed: Json = await (await p.myTasks()).json()
    expect(listed.object).toBe("list")
    expect(listed.count).toBe(listed.data.length)
    expect(listed.data.find((t: Json) => t.reference === reference)).toMatchObject({
      state: "awaiting_participant",
      participant_slug: p.slug
    })

    const accepted = await ok(await p.accept(reference))
    expect(accepted).toMatchObject({ state: "accepted", participant_slug: p.slug, result: null, outcome: null })
    const working = await ok(await p.start(reference))
    expect(working.state).toBe("in_flight")

    const before = Date.now()
    const submitted = await ok(await p.submit(reference, resultOf(3)))
    expect(submitted.state).toBe("submitted")
    expect(submitted.result).toMatchObject({
      summary: "Found 3 bugs in the checkout flow",
      fields: { bugs_found: 3, device: "Pixel 8" },
      artifacts: [
        { kind: "url", value: "https://example.com/report.pdf", description: "Full report" },
        { kind: "text", value: "Step 3 fails with an empty cart" }
      ]
    })
    expect(submitted.result.submitted_at).toMatch(isoUtc)
    expect(Date.parse(submitted.result.submitted_at)).toBeGreaterThanOrEqual(before - 1000)
    expect(submitted.outcome).toBeNull()

    const settled = await ok(await agentPost(main, reference, "review", token, { decision: "accept" }))
    expect(settled.state).toBe("settled")
    expect(settled.outcome).toMatchObject({ state: "settled", reason: "accepted" })
    expect(typeof settled.outcome.message).toBe("string")
    expect(settled.outcome.decided_at).toMatch(isoUtc)
    expect(moves(settled)).toEqual([
      "->open:agent",
      "open>matching:service",
      "matching>awaiting_participant:service",
      "awaiting_participant>accepted:participant",
      "accepted>in_flight:participant",
      "in_flight>submitted:participant",
      "submitted>settled:agent"
    ])
    // The read agrees with the answer to the move; the result stays.
    const again = await read(main, reference)
    expect(again).toMatchObject({ state: "settled", outcome: settled.outcome, result: submitted.result })
    expect(again.history).toEqual(settled.history)

    // The participant's list now shows the settled task.
    const after: Json = await (await p.myTasks()).json()
    expect(after.data.find((t: Json) => t.reference === reference)?.state).toBe("settled")

    // settled is terminal: every further move is refused, naming that nothing is allowed.
    const cancel = await expectEnvelope(await agentPost(main, reference, "cancel", token), 409, "invalid_transition")
    expect(cancel.hint).toMatch(/terminal/)
    await expectEnvelope(
      await agentPost(main, reference, "review", token, { decision: "reject", reason: "too late" }),
      409,
      "invalid_transition"
    )
    await expectEnvelope(await p.submit(reference, resultOf(4)), 409, "invalid_transition")
    expect(snapshot(await read(main, reference))).toEqual(snapshot(settled))
  })

  it("a named participant gets the offer directly (open → awaiting_participant); /me and /me/tasks show it", async () => {
    const { reference } = await create(main, digitalDraft({ participant_slug: "emily-hart" }))
    const offered = await waitFor(main, reference, stateIs("awaiting_participant"))
    expect(offered.participant_slug).toBe("emily-hart")
    expect(moves(offered)).toEqual(["->open:agent", "open>awaiting_participant:service"])

    const p = await participant(main, "emily-hart")
    const account: Json = await (await p.me()).json()
    expect(account).toMatchObject({ object: "account", subject: p.subject, participant: { slug: "emily-hart" } })

    const listed: Json = await (await p.myTasks()).json()
    expect(listed.data.map((t: Json) => t.reference)).toContain(reference)
    // Someone else's list does not show it.
    const other = await participant(main, "kwame-asante")
    const theirs: Json = await (await other.myTasks()).json()
    expect(theirs.data.map((t: Json) => t.reference)).not.toContain(reference)

    await ok(await p.accept(reference))
    const mine: Json = await (await p.myTasks()).json()
    expect(mine.data.find((t: Json) => t.reference === reference)?.state).toBe("accepted")
  })
})

describe("review: revisions, rejection, validation", () => {
  it("allows three revisions, each back to in_flight and resubmitted; refuses the fourth with 409", async () => {
    const { reference, token, p, task } = await submittedTask(main)
    let current = task
    for (let round = 1; round <= 3; round++) {
      const revised = await ok(
        await agentPost(main, reference, "review", token, { decision: "revise", reason: `Round ${round}: add video` })
      )
      expect(revised.state).toBe("in_flight")
      expect(revised.history.at(-1)).toMatchObject({ from: "submitted", to: "in_flight", actor: "agent" })
      expect(revised.history.at(-1).reason).toContain(`Round ${round}: add video`)
      expect(revised.history).toHaveLength(current.history.length + 1)
      current = await ok(await p.submit(reference, resultOf(round + 1)))
      expect(current.state).toBe("submitted")
      expect(current.result.summary).toBe(`Found ${round + 1} bugs in the checkout flow`)
    }
    const refused = await expectEnvelope(
      await agentPost(main, reference, "review", token, { decision: "revise", reason: "one more time" }),
      409,
      "invalid_transition"
    )
    expect(refused.message).toMatch(/revision/)
    expect(refused.hint).toMatch(/submitted/)
    expect(refused.hint).toMatch(/settled/)
    expect(refused.hint).toMatch(/declined/)
    expect(snapshot(await read(main, reference))).toEqual(snapshot(current))

    const settled = await ok(await agentPost(main, reference, "review", token, { decision: "accept" }))
    expect(settled.outcome.reason).toBe("accepted")
    expect(settled.history.filter((h: Json) => h.from === "submitted" && h.to === "in_flight")).toHaveLength(3)
    expect(settled.history.filter((h: Json) => h.to === "submitted")).toHaveLength(4)
  })

  it("revise and reject need a reason (400 invalid_request naming reason); decision must be known", async () => {
    const { reference, token, task } = await submittedTask(main)
    for (const body of [
      { decision: "revise" },
      { decision: "revise", reason: "   " },
      { decision: "reject" },
      { decision: "reject", reason: "" },
      { decision: "reject", reason: null }
    ]) {
      const error = await expectEnvelope(await agentPostRaw(main, reference, token, body), 400, "invalid_request")
      expect(error.details?.[0]?.field).toBe("reason")
    }
    const unknown = await expectEnvelope(
      await agentPostRaw(main, reference, token, { decision: "maybe", reason: "x" }),
      400,
      "invalid_request"
    )
    expect(unknown.details?.[0]?.field).toBe("decision")
    await expectEnvelope(await agentPostRaw(main, reference, token, {}), 400, "invalid_request")
    expect(snapshot(await read(main, reference))).toEqual(snapshot(task))
  })

  it("reject with a reason declines the task with result_rejected", async () => {
    const { reference, token } = await submittedTask(main)
    const declined = await ok(
      await agentPost(main, reference, "review", token, { decision: "reject", reason: "The photos are blurred" })
    )
    expect(declined.state).toBe("declined")
    expect(declined.outcome).toMatchObject({ state: "declined", reason: "result_rejected" })
    expect(declined.outcome.message).toContain("The photos are blurred")
    expect(declined.outcome.decided_at).toMatch(isoUtc)
    expect(declined.history.at(-1)).toMatchObject({ from: "submitted", to: "declined", actor: "agent" })
    expect(declined.result).not.toBeNull()
  })

  it("review is refused while the task is not submitted", async () => {
    const { reference, token } = await create(main, digitalDraft({ participant_slug: "kwame-asante" }))
    const offered = await waitFor(main, reference, stateIs("awaiting_participant"))
    const error = await expectEnvelope(
      await agentPost(main, reference, "review", token, { decision: "accept" }),
      409,
      "invalid_transition"
    )
    expect(error.hint).toMatch(/awaiting_participant/)
    expect(snapshot(await read(main, reference))).toEqual(snapshot(offered))
    await ok(await agentPost(main, reference, "cancel", token))
  })
})

describe("cancellation by the agent", () => {
  it("from open (before the service moves it)", async () => {
    gate.ticks = 0
    const { reference, token } = await create(stepped, digitalDraft())
    await sleep(150) // several sweeps: the gated dispatcher leaves it open
    expect((await read(stepped, reference)).state).toBe("open")
    const cancelled = await ok(await agentPost(stepped, reference, "cancel", token, { reason: "Changed my mind" }))
    expect(cancelled.state).toBe("cancelled")
    expect(cancelled.outcome).toMatchObject({ state: "cancelled", reason: "cancelled_by_agent" })
    expect(cancelled.outcome.message).toContain("Changed my mind")
    expect(moves(cancelled)).toEqual(["->open:agent", "open>cancelled:agent"])
  })

  it("from matching", async () => {
    const { reference, token } = await heldInMatching()
    await sleep(150) // several sweeps: the gated dispatcher leaves it in matching
    const matching = await read(stepped, reference)
    expect(matching.state).toBe("matching")
    expect(matching.participant_slug).toBeNull()
    const cancelled = await ok(await agentPost(stepped, reference, "cancel", token))
    expect(cancelled.outcome.reason).toBe("cancelled_by_agent")
    expect(moves(cancelled)).toEqual([
      "->open:agent",
      "open>matching:service",
      "matching>awaiting_participant:service",
      "awaiting_participant>matching:participant",
      "matching>cancelled:agent"
    ])
    // The dispatcher, let go, finds nothing to do with a cancelled task.
    gate.ticks = 1
    await sleep(200)
    gate.ticks = 0
    expect(snapshot(await read(stepped, reference))).toEqual(snapshot(cancelled))
  })

  it("from awaiting_participant; the participant can no longer accept", async () => {
    const { reference, token } = await create(main, validDraft({ participant_slug: "lukas-schmidt" }))
    await waitFor(main, reference, stateIs("awaiting_participant"))
    const cancelled = await ok(await agentPost(main, reference, "cancel", token, { reason: "Not needed" }))
    expect(cancelled.state).toBe("cancelled")
    expect(cancelled.history.at(-1)).toMatchObject({ from: "awaiting_participant", to: "cancelled", actor: "agent" })
    const lukas = await participant(main, "lukas-schmidt")
    await expectEnvelope(await lukas.accept(reference), 409, "invalid_transition")
    expect(snapshot(await read(main, reference))).toEqual(snapshot(cancelled))
  })

  it("from accepted", async () => {
    const { reference, token } = await create(main, validDraft({ participant_slug: "lukas-schmidt" }))
    await waitFor(main, reference, stateIs("awaiting_participant"))
    const lukas = await participant(main, "lukas-schmidt")
    await ok(await lukas.accept(reference))
    const cancelled = await ok(await agentPost(main, reference, "cancel", token))
    expect(cancelled.history.at(-1)).toMatchObject({ from: "accepted", to: "cancelled", actor: "agent" })
    expect(cancelled.outcome).toMatchObject({ state: "cancelled", reason: "cancelled_by_agent" })
    await expectEnvelope(await lukas.start(reference), 409, "invalid_transition")
  })

  it("is refused from in_flight and submitted with 409 invalid_transition naming what is allowed", async () => {
    const { reference, token } = await create(main, validDraft({ participant_slug: "lukas-schmidt" }))
    await waitFor(main, reference, stateIs("awaiting_participant"))
    const lukas = await participant(main, "lukas-schmidt")
    await ok(await lukas.accept(reference))
    const working = await ok(await lukas.start(reference))
    const error = await expectEnvelope(await agentPost(main, reference, "cancel", token), 409, "invalid_transition")
    expect(error.message).toMatch(/in_flight/)
    expect(error.hint).toMatch(/in_flight/)
    expect(error.hint).toMatch(/submitted \(participant\)/)
    expect(snapshot(await read(main, reference))).toEqual(snapshot(working))

    const submitted = await ok(await lukas.submit(reference, resultOf(0)))
    const again = await expectEnvelope(await agentPost(main, reference, "cancel", token), 409, "invalid_transition")
    expect(again.hint).toMatch(/settled/)
    expect(snapshot(await read(main, reference))).toEqual(snapshot(submitted))
  })
})

describe("race safety", () => {
  it("accept and decline of one offer at the same moment: exactly one wins, the other is 409", async () => {
    const lukas = await participant(main, "lukas-schmidt")
    for (let round = 0; round < 3; round++) {
      const { reference } = await create(main, validDraft({ participant_slug: "lukas-schmidt" }))
      await waitFor(main, reference, stateIs("awaiting_participant"))
      const [accepted, declined] = await Promise.all([lukas.accept(reference), lukas.decline(reference)])
      expect([accepted.status, declined.status].sort()).toEqual([200, 409])
      const loser = accepted.status === 409 ? accepted : declined
      await expectEnvelope(loser, 409, "invalid_transition")
      const task = await read(main, reference)
      expect(task.state).toBe(accepted.status === 200 ? "accepted" : "declined")
      expect(task.history.filter((h: Json) => h.from === "awaiting_participant")).toHaveLength(1)
    }
  })

  it("the agent's accept and reject of one result at the same moment: exactly one wins", async () => {
    const { reference, token } = await submittedTask(main)
    const [accepted, rejected] = await Promise.all([
      agentPost(main, reference, "review", token, { decision: "accept" }),
      agentPost(main, reference, "review", token, { decision: "reject", reason: "Not good enough" })
    ])
    expect([accepted.status, rejected.status].sort()).toEqual([200, 409])
    const task = await read(main, reference)
    expect(task.state).toBe(accepted.status === 200 ? "settled" : "declined")
    expect(task.history.filter((h: Json) => h.from === "submitted")).toHaveLength(1)
  })
})

describe("declines and rematching", () => {
  it("an unnamed task declined by the best is offered to another, never the same one; when nobody is left: no_match", async () => {
    const eligible = eligiblePhysical("Nigeria")
    expect(eligible).toEqual(["aisha-bello", "amara-okafor"])
    const { reference } = await create(main, nigeriaDraft())

    const first = await waitFor(main, reference, stateIs("awaiting_participant"))
    expect(eligible).toContain(first.participant_slug)
    const p1 = await participant(main, first.participant_slug)
    const declined = await ok(await p1.decline(reference, "I am travelling that week"))
    expect(declined.state).toBe("matching")
    expect(declined.participant_slug).toBeNull()
    expect(declined.history.at(-1)).toMatchObject({
      from: "awaiting_participant",
      to: "matching",
      actor: "participant"
    })
    expect(declined.history.at(-1).reason).toContain("I am travelling that week")

    const second = await waitFor(
      main,
      reference,
      (t) => t.state === "awaiting_participant" || (t.state !== "matching" && t.state !== "open")
    )
    expect(second.state).toBe("awaiting_participant")
    expect(second.participant_slug).not.toBe(p1.slug)
    expect(eligible).toContain(second.participant_slug)
    expect(second.history.at(-1)).toMatchObject({ from: "matching", to: "awaiting_participant", actor: "service" })

    // The first participant has no say any more.
    await expectEnvelope(await p1.accept(reference), 403, "forbidden")
    const p1List: Json = await (await p1.myTasks()).json()
    expect(p1List.data.map((t: Json) => t.reference)).not.toContain(reference)

    const p2 = await participant(main, second.participant_slug)
    expect((await ok(await p2.decline(reference))).state).toBe("matching")
    const ended = await waitFor(main, reference, (t) => t.state !== "matching" && t.state !== "open")
    expect(ended.state).toBe("declined")
    expect(ended.outcome).toMatchObject({ state: "declined", reason: "no_match" })
    expect(ended.history.at(-1)).toMatchObject({ from: "matching", to: "declined", actor: "service" })
    // Offered to each eligible participant exactly once.
    const offeredTo = ended.history.filter((h: Json) => h.to === "awaiting_participant").length
    expect(offeredTo).toBe(2)
    expect(ended.next_step).toMatch(/declined/)
  })

  it("a named participant who declines ends the task: participant_declined", async () => {
    const { reference } = await create(main, validDraft({ participant_slug: "lukas-schmidt" }))
    await waitFor(main, reference, stateIs("awaiting_participant"))
    const lukas = await participant(main, "lukas-schmidt")
    const declined = await ok(await lukas.decline(reference, "Not my field"))
    expect(declined.state).toBe("declined")
    expect(declined.outcome).toMatchObject({ state: "declined", reason: "participant_declined" })
    expect(moves(declined)).toEqual([
      "->open:agent",
      "open>awaiting_participant:service",
      "awaiting_participant>declined:participant"
    ])
    // Nothing more happens to it.
    await sleep(200)
    expect(snapshot(await read(main, reference))).toEqual(snapshot(declined))
  })

  it("the only eligible participant (physical, Berlin) declines an unnamed task: no_match", async () => {
    expect(eligiblePhysical("Germany")).toEqual(["lukas-schmidt"])
    const { reference } = await create(main, validDraft())
    const offered = await waitFor(main, reference, stateIs("awaiting_participant"))
    expect(offered.participant_slug).toBe("lukas-schmidt")
    const lukas = await participant(main, "lukas-schmidt")
    await ok(await lukas.decline(reference))
    const ended = await waitFor(main, reference, (t) => t.state !== "matching" && t.state !== "open")
    expect(ended.outcome.reason).toBe("no_match")
  })

  it("a digital task with nobody eligible (empty directory) is declined no_match", async () => {
    gate.ticks = Number.POSITIVE_INFINITY
    try {
      const { reference } = await create(stepped, digitalDraft())
      const ended = await waitFor(stepped, reference, (t) => t.state !== "matching" && t.state !== "open")
      expect(ended.state).toBe("declined")
      expect(ended.outcome).toMatchObject({ state: "declined", reason: "no_match" })
      expect(moves(ended)).toEqual(["->open:agent", "open>matching:service", "matching>declined:service"])
    } finally {
      gate.ticks = 0
    }
  })
})

describe("timers (each server's clock moved past them)", () => {
  it("an unnamed offer that lapses is re-offered to another participant; when all lapse: no_match", async () => {
    const { reference } = await create(offers, nigeriaDraft())
    const first = await waitFor(offers, reference, stateIs("awaiting_participant"))
    clockOf(offers).advance(minute)
    const second = await waitFor(
      offers,
      reference,
      (t) =>
        (t.state === "awaiting_participant" && t.participant_slug !== first.participant_slug) || t.state === "declined"
    )
    expect(second.state).toBe("awaiting_participant")
    const lapse = second.history.find((h: Json) => h.from === "awaiting_participant" && h.to === "matching")
    expect(lapse).toMatchObject({ actor: "service" })
    expect(lapse.reason).toContain("accept_timeout")
    // The offer lasted the configured minute.
    const offeredAt = Date.parse(second.history.find((h: Json) => h.to === "awaiting_participant").at)
    expect(Date.parse(lapse.at) - offeredAt).toBeGreaterThanOrEqual(minute)

    clockOf(offers).advance(minute)
    const ended = await waitFor(offers, reference, (t) => t.state === "declined")
    expect(ended.outcome.reason).toBe("no_match")
    const offered = ended.history.filter((h: Json) => h.to === "awaiting_participant").map((h: Json) => h.at)
    expect(offered).toHaveLength(2)
  })

  it("a named participant's offer that lapses declines the task: accept_timeout; a late accept is refused", async () => {
    const { reference } = await create(offers, validDraft({ participant_slug: "lukas-schmidt" }))
    await waitFor(offers, reference, stateIs("awaiting_participant"))
    clockOf(offers).advance(minute)
    const ended = await waitFor(offers, reference, (t) => t.state !== "awaiting_participant")
    expect(ended.state).toBe("declined")
    expect(ended.outcome).toMatchObject({ state: "declined", reason: "accept_timeout" })
    expect(ended.history.at(-1)).toMatchObject({ from: "awaiting_participant", to: "declined", actor: "service" })
    const lukas = await participant(offers, "lukas-schmidt")
    await expectEnvelope(await lukas.accept(reference), 409, "invalid_transition")
  })

  it("a result nobody reviews is accepted automatically after the review window: auto_accepted", async () => {
    const { reference, task } = await submittedTask(review, "emily-hart")
    const submittedAt = Date.parse(task.updated_at)
    clockOf(review).advance(minute)
    const settled = await waitFor(review, reference, (t) => t.state !== "submitted")
    expect(settled.state).toBe("settled")
    expect(settled.outcome).toMatchObject({ state: "settled", reason: "auto_accepted" })
    expect(settled.history.at(-1)).toMatchObject({ from: "submitted", to: "settled", actor: "service" })
    expect(Date.parse(settled.outcome.decided_at) - submittedAt).toBeGreaterThanOrEqual(minute)
    expect(settled.result).toEqual(task.result)
  })

  it("a revision restarts the review window", async () => {
    const { reference, token, p } = await submittedTask(review, "emily-hart")
    clockOf(review).advance(40_000)
    await ok(await agentPost(review, reference, "review", token, { decision: "revise", reason: "Add the device" }))
    const resubmitted = await ok(await p.submit(reference, resultOf(2)))
    const resubmittedAt = Date.parse(resubmitted.updated_at)
    // Past the first submission's window, inside the second's: several sweeps leave it submitted.
    clockOf(review).advance(40_000)
    await sleep(200)
    expect(snapshot(await read(review, reference))).toEqual(snapshot(resubmitted))
    clockOf(review).advance(20_000)
    const settled = await waitFor(review, reference, (t) => t.state !== "submitted")
    expect(settled.outcome.reason).toBe("auto_accepted")
    expect(Date.parse(settled.outcome.decided_at) - resubmittedAt).toBeGreaterThanOrEqual(minute)
  })

  it("a deadline that passes while awaiting the participant declines the task; once accepted it changes nothing", async () => {
    const deadline = new Date(clockOf(main).now() + minute).toISOString()
    const waiting = await create(main, validDraft({ participant_slug: "lukas-schmidt", timing: `by ${deadline}` }))
    const taken = await create(main, digitalDraft({ participant_slug: "kwame-asante", timing: `by ${deadline}` }))
    expect(waiting.created.brief.deadline).toBe(deadline)
    await waitFor(main, taken.reference, stateIs("awaiting_participant"))
    const kwame = await participant(main, "kwame-asante")
    const accepted = await ok(await kwame.accept(taken.reference))

    clockOf(main).advance(minute)
    const ended = await waitFor(
      main,
      waiting.reference,
      (t) => t.state !== "awaiting_participant" && t.state !== "open"
    )
    expect(ended.state).toBe("declined")
    expect(ended.outcome).toMatchObject({ state: "declined", reason: "deadline_passed" })
    expect(ended.history.at(-1)).toMatchObject({ from: "awaiting_participant", to: "declined", actor: "service" })
    expect(Date.parse(ended.outcome.decided_at)).toBeGreaterThanOrEqual(Date.parse(deadline))

    await sleep(300) // several sweeps after the deadline
    expect(snapshot(await read(main, taken.reference))).toEqual(snapshot(accepted))
  })

  it("a deadline that passes while the task is open declines it: open → declined", async () => {
    gate.ticks = 0
    const deadline = new Date(clockOf(stepped).now() + minute).toISOString()
    const { reference } = await create(stepped, digitalDraft({ timing: `by ${deadline}` }))
    clockOf(stepped).advance(minute + 100)
    expect((await read(stepped, reference)).state).toBe("open")
    gate.ticks = 1
    const ended = await waitFor(stepped, reference, stateIs("declined"))
    gate.ticks = 0
    expect(ended.outcome.reason).toBe("deadline_passed")
    expect(moves(ended)).toEqual(["->open:agent", "open>declined:service"])
  })

  it("a deadline that passes while the task is matching declines it: matching → declined", async () => {
    const deadline = new Date(clockOf(stepped).now() + minute).toISOString()
    const { reference } = await heldInMatching({ timing: `by ${deadline}` })
    clockOf(stepped).advance(minute + 100)
    expect((await read(stepped, reference)).state).toBe("matching")
    gate.ticks = 1
    const ended = await waitFor(stepped, reference, stateIs("declined"))
    gate.ticks = 0
    expect(ended.outcome.reason).toBe("deadline_passed")
    expect(moves(ended)).toEqual([
      "->open:agent",
      "open>matching:service",
      "matching>awaiting_participant:service",
      "awaiting_participant>matching:participant",
      "matching>declined:service"
    ])
  })
})

describe("what the service publishes about the lifecycle", () => {
  it("next_step is a sentence per state, different from state to state", () => {
    for (const state of ["open", "awaiting_participant", "accepted", "in_flight", "submitted", "settled", "declined"]) {
      expect(nextSteps.has(state), state).toBe(true)
    }
    for (const [state, sentences] of nextSteps) {
      expect(sentences.size, `${state}: ${[...sentences].join(" | ")}`).toBe(1)
      expect([...sentences][0]).toMatch(/^[A-Z].*[.!?]$/s)
    }
    const all = [...nextSteps.values()].map((s) => [...s][0])
    expect(new Set(all).size).toBe(all.length)
    expect([...nextSteps.get("submitted")!][0]).toMatch(/review/)
    expect([...nextSteps.get("awaiting_participant")!][0]).toMatch(/wait/)
  })

  it("a task nobody can take says so in next_step while it waits to be declined, and once declined with no_match", () => {
    const explains = (sentence: string) =>
      sentence.includes("no participant takes digital tasks") &&
      sentence.includes("set execution_mode to physical or hybrid")
    expect([...(doomedSteps.get("open") ?? [])].every(explains)).toBe(true)
    expect([...(doomedSteps.get("matching") ?? [])].every(explains)).toBe(true)
    const declined = [...(doomedSteps.get("declined") ?? [])]
    expect(declined.filter(explains)).toEqual([expect.stringMatching(/^The task was declined with no_match: /)])
    expect(doomedSteps.get("open")?.size).toBe(1)
    // Cancelled, or declined for another reason (its deadline): the state's own sentence, as for any task.
    for (const [state, sentences] of doomedSteps) {
      for (const sentence of sentences) if (!explains(sentence)) expect(nextSteps.get(state), state).toContain(sentence)
    }
  })

  it("/capabilities transitions contain every move observed", async () => {
    const caps = await call(apiClient(main.server).capabilities())
    const table = caps.transitions
    expect(observedMoves.size).toBeGreaterThanOrEqual(20)
    for (const move of observedMoves) {
      const [, from, to, actor] = /^(.+) -> (.+) by (.+)$/.exec(move)!
      const row = table.find((t) => (t.from ?? "(submission)") === from && t.to === to && t.actors.includes(actor!))
      expect(row, `${move} is not in /capabilities transitions`).toBeDefined()
    }
    // Every row of the table was exercised except the operator's cancellations.
    for (const row of table) {
      for (const actor of row.actors) {
        if (actor === "operator") continue
        const move = `${row.from ?? "(submission)"} -> ${row.to} by ${actor}`
        expect(observedMoves.has(move), `${move} never observed`).toBe(true)
      }
    }
  })
})
