// Races between two real server processes on one database (DECISIONS §5: "two concurrent
// transitions from one state: exactly one wins"; §6: the agent's task token). The same task is
// cancelled (and reviewed) many times at once through both processes, while their dispatchers
// move it too: exactly one request wins, every other one is 409 invalid_transition, and the
// history records the move once.
// Runs in both vitest projects: on SQLite the processes share one WAL file, on Postgres one database.
import { randomUUID } from "node:crypto"
import { DatabaseSync } from "node:sqlite"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { ReviewRequest } from "../../src/api/resources.ts"
import { findTransition, isTerminal } from "../../src/domain/lifecycle.ts"
import { TaskDraft } from "../../src/domain/task_draft/schema.ts"
import { asPayload, typedCall } from "../support/api_client.ts"
import { backend, freshDatabase, onPostgres, type TestDatabase } from "../support/database.ts"
import { type Answer, call, type ServiceProcess, spawnService } from "../support/process.ts"
import { expectEnvelope, json, validDraft } from "../support/server.ts"

// biome-ignore lint/suspicious/noExplicitAny: JSON bodies are inspected member by member.
type Json = any

// A short sweep, so that the dispatchers' own moves overlap the races.
const env = { RATE_LIMIT: "off", TIMER_SWEEP_INTERVAL: "50ms" }

let database: TestDatabase
let a: ServiceProcess
let b: ServiceProcess

beforeAll(async () => {
  database = await freshDatabase()
  // One after the other: the start-up race is multi_process.test.ts's subject, not this file's.
  a = await spawnService({ databaseUrl: database.url, env })
  b = await spawnService({ databaseUrl: database.url, env })
})

afterAll(async () => {
  await Promise.all([a?.stop("SIGKILL"), b?.stop("SIGKILL")])
  await database?.drop()
})

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** The items in random order. */
const shuffled = <A>(items: ReadonlyArray<A>): Array<A> => {
  const out = [...items]
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1))
    ;[out[i], out[j]] = [out[j]!, out[i]!]
  }
  return out
}

/** 2–5 */
const someCount = () => 2 + Math.floor(Math.random() * 4)

const draft = (participant: boolean) =>
  validDraft({
    action: `Photograph the storefront of shop ${randomUUID()}`,
    timing: "by 2030-12-01T17:00:00Z",
    ...(participant ? { participant_slug: "lukas-schmidt" } : {})
  })

const create = async (on: ServiceProcess, participant: boolean) => {
  const answer = await typedCall(on, (c) =>
    c.createTask({
      payload: asPayload(TaskDraft, draft(participant)),
      headers: { "idempotency-key": `race-${randomUUID()}` }
    })
  )
  if (answer.status !== 201) throw new Error(`expected 201, got ${answer.status}: ${answer.text}`)
  expect(answer.body.state).toBe("open")
  return { reference: answer.body.reference as string, token: answer.body.task_token as string }
}

const read = async (on: ServiceProcess, reference: string) => {
  const answer = await typedCall(on, (c) => c.getTask({ params: { reference }, query: {}, headers: {} }))
  if (answer.status !== 200) throw new Error(`GET ${reference}: ${answer.status} ${answer.text}`)
  return answer.body
}

/** Polls until the task is in one of `states` (the dispatchers move it by themselves). */
const waitFor = async (reference: string, states: ReadonlyArray<string>, timeoutMs = 10_000) => {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const task = await read(Math.random() < 0.5 ? a : b, reference)
    if (states.includes(task.state)) return task
    if (Date.now() > deadline) throw new Error(`task ${reference} stayed ${task.state}, expected ${states.join("/")}`)
    await sleep(20)
  }
}

// Raw: half the cancels are sent with no body at all, a wire form no typed call makes.
const cancel = (on: ServiceProcess, reference: string, token: string, i: number) =>
  call(
    on.api(`/tasks/${reference}/cancel`),
    i % 2 === 0
      ? { method: "POST", headers: { authorization: `Bearer ${token}` } }
      : json({ reason: `changed plans ${i}` }, { authorization: `Bearer ${token}` })
  )

const review = (on: ServiceProcess, reference: string, token: string, decision: string, reason?: string) =>
  typedCall(
    on,
    (c) =>
      c.reviewTask({
        params: { reference },
        payload: asPayload(ReviewRequest, reason === undefined ? { decision } : { decision, reason })
      }),
    { token }
  )

/** The stored history is a path through the table, starting with the submission. */
const expectValidHistory = (task: Json) => {
  const history: Array<Json> = task.history
  expect(history[0]).toMatchObject({ from: null, to: "open", actor: "agent" })
  for (let i = 1; i < history.length; i++) {
    const entry = history[i]
    expect(entry.from).toBe(history[i - 1].to)
    if (findTransition(entry.from, entry.to, entry.actor) === undefined) {
      throw new Error(`history entry ${i} is not in the table: ${JSON.stringify(entry)}`)
    }
    if (isTerminal(entry.from)) throw new Error(`a move out of terminal ${entry.from}: ${JSON.stringify(history)}`)
  }
  expect(history.at(-1).to).toBe(task.state)
}

/** Sends 2–5 cancels to each process at once; asserts one 200 and the rest 409 invalid_transition. */
const raceCancels = async (reference: string, token: string) => {
  const requests = shuffled([
    ...Array.from({ length: someCount() }, () => a),
    ...Array.from({ length: someCount() }, () => b)
  ])
  const answers = await Promise.all(requests.map((on, i) => cancel(on, reference, token, i)))
  const won = answers.filter((x) => x.status === 200)
  if (won.length !== 1) {
    throw new Error(
      `expected exactly one 200, got ${answers.map((x) => `${x.status} ${x.text.slice(0, 160)}`).join("\n")}`
    )
  }
  expect(won[0]!.body.state).toBe("cancelled")
  expect(won[0]!.body.reference).toBe(reference)
  for (const answer of answers) {
    if (answer.status === 200) continue
    const error = await expectEnvelope(answer.response, 409, "invalid_transition")
    expect(error.message).toContain("cancelled")
  }
  return { answers, winner: won[0]!.body }
}

const expectCancelledOnce = async (reference: string) => {
  // Read through both processes: they agree.
  const [fromA, fromB] = await Promise.all([read(a, reference), read(b, reference)])
  for (const task of [fromA, fromB]) {
    expect(task.state).toBe("cancelled")
    expect(task.outcome).toMatchObject({ state: "cancelled", reason: "cancelled_by_agent" })
    expect(task.history.filter((h: Json) => h.to === "cancelled")).toHaveLength(1)
    expect(task.history.at(-1)).toMatchObject({ to: "cancelled", actor: "agent" })
    expectValidHistory(task)
  }
  expect(fromB.history).toEqual(fromA.history)
  expect(fromB.outcome).toEqual(fromA.outcome)
  const [row] = await database.rows(`SELECT state, version, history FROM tasks WHERE reference = '${reference}'`)
  expect(row?.state).toBe("cancelled")
  // One version per recorded move: no move was lost or doubled.
  expect(Number(row?.version)).toBe(JSON.parse(String(row?.history)).length)
  return fromA
}

/** Writes a task row directly (e.g. into `submitted`, which otherwise needs a participant's OAuth token). */
const execute = async (statement: string): Promise<number> => {
  if (backend === "sqlite") {
    const db = new DatabaseSync((database.config as { filename: string }).filename)
    try {
      db.exec("PRAGMA busy_timeout = 5000")
      return Number(db.prepare(statement).run().changes)
    } finally {
      db.close()
    }
  }
  const rows = (await onPostgres(database.url, (sql) =>
    sql.unsafe(`${statement} RETURNING reference`)
  )) as ReadonlyArray<unknown>
  return rows.length
}

const quote = (value: string) => `'${value.replaceAll("'", "''")}'`

/**
 * Moves a task that waits for its participant on to `submitted` as the participant would
 * (accept, start, submit), with the compare-and-set the service uses, so no dispatcher move is lost.
 */
const submitDirectly = async (reference: string) => {
  for (let attempt = 0; attempt < 20; attempt++) {
    const task = await waitFor(reference, ["awaiting_participant"])
    const [row] = await database.rows(`SELECT version, history FROM tasks WHERE reference = '${reference}'`)
    const version = Number(row?.version)
    const now = Date.now()
    const at = (offset: number) => new Date(now + offset).toISOString()
    const history = [
      ...JSON.parse(String(row?.history)),
      { from: "awaiting_participant", to: "accepted", actor: "participant", at: at(0) },
      { from: "accepted", to: "in_flight", actor: "participant", at: at(1) },
      { from: "in_flight", to: "submitted", actor: "participant", at: at(2) }
    ]
    const result = { summary: "Five photos taken", fields: { photos: 5 }, artifacts: [], submitted_at: at(2) }
    const reviewDue = at(3600_000)
    const changed = await execute(
      `UPDATE tasks SET state = 'submitted', result = ${quote(JSON.stringify(result))},
        history = ${quote(JSON.stringify(history))}, version = ${version + 3}, updated_at = ${quote(at(2))},
        offer_expires_at = NULL, review_due_at = ${quote(reviewDue)}, next_timer_at = ${quote(reviewDue)}
        WHERE reference = ${quote(reference)} AND version = ${version} AND state = 'awaiting_participant'`
    )
    if (changed === 1) return { ...task, version: version + 3 }
  }
  throw new Error(`could not move ${reference} to submitted`)
}

describe("two processes race the agent's moves on one task", () => {
  it("cancel sent 2–5 times to each process right after creation (dispatchers racing too): one 200, the rest 409 (12 tasks)", async () => {
    for (let i = 0; i < 12; i++) {
      const { reference, token } = await create(i % 2 === 0 ? a : b, i % 3 === 0)
      const { winner } = await raceCancels(reference, token)
      expect(winner.outcome).toMatchObject({ state: "cancelled", reason: "cancelled_by_agent" })
      await expectCancelledOnce(reference)
    }
  })

  it("cancel races once the dispatcher offered the task (named participant or matched): one 200, the rest 409 (12 tasks)", async () => {
    const created = await Promise.all(Array.from({ length: 12 }, (_, i) => create(i % 2 === 0 ? a : b, i % 2 === 0)))
    for (const { reference } of created) {
      const task = await waitFor(reference, ["awaiting_participant"])
      expect(task.participant_slug).toEqual(expect.any(String))
    }
    // All twelve races at once, across both processes.
    await Promise.all(created.map(({ reference, token }) => raceCancels(reference, token)))
    for (const { reference } of created) {
      const task = await expectCancelledOnce(reference)
      expect(task.history.at(-1).from).toBe("awaiting_participant")
    }
  })

  it("a cancelled task stays cancelled: a later cancel and a review are 409, and the dispatchers leave it", async () => {
    const { reference, token } = await create(a, false)
    await raceCancels(reference, token)
    const before = await read(b, reference)
    await sleep(300)
    for (const answer of [
      await cancel(a, reference, token, 0),
      await cancel(b, reference, token, 1),
      await review(a, reference, token, "accept")
    ]) {
      await expectEnvelope(answer.response, 409, "invalid_transition")
    }
    const after = await read(a, reference)
    expect(after.history).toEqual(before.history)
    expect(after.updated_at).toBe(before.updated_at)
  })

  it("review decisions and cancels raced on a submitted task: exactly one review wins, cancels are 409 (8 tasks)", async () => {
    for (let i = 0; i < 8; i++) {
      const { reference, token } = await create(i % 2 === 0 ? a : b, true)
      const submitted = await submitDirectly(reference)
      const historyBefore = (await read(a, reference)).history
      expect(historyBefore.at(-1)).toMatchObject({ from: "in_flight", to: "submitted" })
      let requests: Array<{ kind: string; send: () => Promise<Answer> }> = []
      for (const on of [a, b]) {
        for (let k = 0; k < someCount(); k++) {
          requests.push({ kind: "accept", send: () => review(on, reference, token, "accept") })
          requests.push({ kind: "reject", send: () => review(on, reference, token, "reject", "The sign is illegible") })
          requests.push({ kind: "revise", send: () => review(on, reference, token, "revise", "Take it in daylight") })
          requests.push({ kind: "cancel", send: () => cancel(on, reference, token, k) })
        }
      }
      requests = shuffled(requests)
      const answers = await Promise.all(requests.map((r) => r.send()))
      const won = answers.flatMap((answer, j) => (answer.status === 200 ? [{ kind: requests[j]!.kind, answer }] : []))
      if (won.length !== 1) {
        throw new Error(`expected exactly one 200, got ${won.map((w) => `${w.kind}: ${w.answer.text.slice(0, 200)}`)}`)
      }
      const winner = won[0]!
      expect(winner.kind).not.toBe("cancel")
      for (const answer of answers) {
        if (answer.status !== 200) await expectEnvelope(answer.response, 409, "invalid_transition")
      }
      const expected = { accept: "settled", reject: "declined", revise: "in_flight" }[winner.kind]!
      expect(winner.answer.body.state).toBe(expected)
      const [fromA, fromB] = await Promise.all([read(a, reference), read(b, reference)])
      for (const task of [fromA, fromB]) {
        expect(task.state).toBe(expected)
        expect(task.history).toHaveLength(historyBefore.length + 1)
        expect(task.history.slice(0, -1)).toEqual(historyBefore)
        expect(task.history.at(-1)).toMatchObject({ from: "submitted", to: expected, actor: "agent" })
        expectValidHistory(task)
        if (winner.kind === "accept") expect(task.outcome).toMatchObject({ state: "settled", reason: "accepted" })
        if (winner.kind === "reject")
          expect(task.outcome).toMatchObject({ state: "declined", reason: "result_rejected" })
        if (winner.kind === "revise") expect(task.outcome).toBeNull()
      }
      const [row] = await database.rows(`SELECT version, revisions FROM tasks WHERE reference = '${reference}'`)
      expect(Number(row?.version)).toBe(submitted.version + 1)
      expect(Number(row?.revisions)).toBe(winner.kind === "revise" ? 1 : 0)
    }
  })
})
