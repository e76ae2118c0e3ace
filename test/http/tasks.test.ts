// Task submission and reading over HTTP (published contract: task submission, reading by reference,
// idempotency; DECISIONS §2, §3, §4, §7, §10).
import { randomUUID } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { NotFound } from "../../src/api/envelope.ts"
import { TaskDraft } from "../../src/domain/task_draft/schema.ts"
import { apiClient, asPayload, call, exchange, refusal } from "../support/api_client.ts"
import { movableClock } from "../support/clock.ts"
import { publishedTaskStates } from "../support/contract.ts"
import { freshDatabase, type TestDatabase } from "../support/database.ts"
import { expectEnvelope, json, startServer, type TestServer, validDraft } from "../support/server.ts"

// biome-ignore lint/suspicious/noExplicitAny: JSON bodies are inspected member by member.
type Json = any

const taskStates: ReadonlyArray<string> = publishedTaskStates

let server: TestServer
/** The server's clock (support/clock.ts), moved past a deadline by the test of replays after it. */
const clock = movableClock()
beforeAll(async () => {
  server = await startServer({ clock: clock.layer })
})
afterAll(() => server.close())

/** POST /tasks through the typed client: a draft and key the document accepts. */
const submit = (draft: unknown, headers: Record<string, string> = {}, on: TestServer = server) => {
  const { "idempotency-key": idempotencyKey, ...others } = headers
  return exchange(
    on,
    (c) =>
      c.createTask({
        payload: asPayload(TaskDraft, draft),
        headers: idempotencyKey === undefined ? {} : { "idempotency-key": idempotencyKey }
      }),
    { headers: others }
  )
}

/** POST /tasks as sent: a draft or key the document refuses, which no client derived from it sends. */
const submitRaw = (draft: unknown, headers: Record<string, string> = {}, on: TestServer = server) =>
  fetch(on.api("/tasks"), json(draft, headers))

/** A 201 from `send` (raw for a draft whose blanks or letter case are what is tested). */
const submitOk = async (
  draft: unknown,
  headers: Record<string, string> = {},
  on: TestServer = server,
  send: typeof submit = submit
) => {
  const response = await send(draft, headers, on)
  const text = await response.text()
  if (response.status !== 201) throw new Error(`expected 201, got ${response.status}: ${text}`)
  return { response, text, body: JSON.parse(text) as Json }
}

const read = (reference: string, headers: { "if-none-match"?: string } = {}, on: TestServer = server) =>
  exchange(on, (c) => c.getTask({ params: { reference }, query: {}, headers }))

/**
 * A read through the typed client: the decoded answer (the task, or no body for a 304, with its
 * ETag header) and the response's status.
 */
const readTyped = async (reference: string, ifNoneMatch?: string) => {
  const [answer, response] = await call(
    apiClient(server).getTask({
      params: { reference },
      query: {},
      headers: ifNoneMatch === undefined ? {} : { "if-none-match": ifNoneMatch },
      responseMode: "decoded-and-response"
    })
  )
  return { status: response.status, task: answer.body, etag: answer.headers.etag }
}

const key = () => `test-${randomUUID()}`

/** Runs a test body against a database of the active backend, dropped afterwards. */
const withDatabase = async (body: (database: TestDatabase) => Promise<void>) => {
  const database = await freshDatabase()
  try {
    await body(database)
  } finally {
    await database.drop()
  }
}

const isoUtc = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,3})?Z$/

/** Members a read shares with the creation response whatever the task has gone through since. */
const stableMembers = (task: Json) => ({
  object: task.object,
  reference: task.reference,
  execution_mode: task.execution_mode,
  participant_slug: task.participant_slug,
  agent: task.agent,
  principal: task.principal,
  brief: task.brief,
  created_at: task.created_at,
  url: task.url,
  first_transition: task.history[0]
})

describe("POST /tasks: creation", () => {
  it("records a valid draft in state open and answers 201 with the whole task", async () => {
    const before = Date.now()
    const { response, body } = await submitOk(
      validDraft({
        action: "  Photograph the storefront of Bäckerei Sonne, Torstraße 12  ",
        execution_mode: " Physical ",
        timing: "by 2030-12-01T17:00:00Z",
        budget: " EUR 40 ",
        constraints: "\tDaylight only\n",
        contact_email: " ops@example.com "
      }),
      {},
      server,
      submitRaw
    )
    const after = Date.now()
    expect(response.headers.get("content-type")).toContain("application/json")

    expect(body.object).toBe("task")
    expect(body.state).toBe("open")
    expect(body.reference).toMatch(/^tsk_[a-z2-7]{26}$/) // 26 base32 characters = 130 bits
    expect(body.url).toBe(`${server.url}/api/public/v1/tasks/${body.reference}`)
    expect(new URL(body.url).protocol).toBe("http:")
    expect(response.headers.get("location")).toBe(body.url)

    expect(typeof body.next_step).toBe("string")
    expect(body.next_step.trim().length).toBeGreaterThan(10)
    expect(body.next_step).toMatch(/^[A-Z].*[.!?]$/s)

    expect(body.task_token).toMatch(/^tt_[A-Za-z0-9_-]{43,}$/)

    expect(body.created_at).toMatch(isoUtc)
    const created = Date.parse(body.created_at)
    expect(created).toBeGreaterThanOrEqual(before - 1000)
    expect(created).toBeLessThanOrEqual(after + 1000)

    expect(body.execution_mode).toBe("physical")
    expect(body.participant_slug).toBeNull()
    expect(body.agent).toBe("acme-research-bot/2.1")
    expect(body.principal).toBe("ACME Retail Research GmbH")
    expect(body.brief).toEqual({
      action: "Photograph the storefront of Bäckerei Sonne, Torstraße 12",
      location: "Berlin, Germany",
      timing: "by 2030-12-01T17:00:00Z",
      deadline: "2030-12-01T17:00:00.000Z",
      expected_result: "Five geotagged photos of the storefront and opening-hours sign, plus a JSON checklist",
      acceptance_test: "The photos show the shop sign and the opening hours legibly",
      constraints: "Daylight only",
      budget: "EUR 40",
      contact_email: "ops@example.com"
    })
    expect(body.result).toBeNull()
    expect(body.outcome).toBeNull()
    expect(body.history).toHaveLength(1)
    expect(body.history[0]).toMatchObject({ from: null, to: "open", actor: "agent" })
    expect(body.history[0].at).toMatch(isoUtc)
    expect(body.updated_at).toMatch(isoUtc)
    // The draft's own bookkeeping never leaks into the task.
    expect(body).not.toHaveProperty("idempotency_key")
  })

  it("records the named participant's slug", async () => {
    const { body } = await submitOk(validDraft({ participant_slug: "lukas-schmidt" }))
    expect(body.participant_slug).toBe("lukas-schmidt")
    expect(body.state).toBe("open")
  })

  it("optional brief members the draft leaves out are null", async () => {
    const { body } = await submitOk(
      validDraft({ execution_mode: "digital", location: undefined, timing: undefined, principal: undefined })
    )
    expect(body.execution_mode).toBe("digital")
    expect(body.principal).toBeNull()
    expect(body.brief.location).toBeNull()
    expect(body.brief.timing).toBeNull()
    expect(body.brief.deadline).toBeNull()
    expect(body.brief.constraints).toBeNull()
    expect(body.brief.budget).toBeNull()
    expect(body.brief.contact_email).toBeNull()
  })

  it("gives 200 tasks 200 distinct references and tokens", async () => {
    const references = new Set<string>()
    const tokens = new Set<string>()
    for (let batch = 0; batch < 4; batch++) {
      const bodies = await Promise.all(Array.from({ length: 50 }, () => submitOk(validDraft()).then((r) => r.body)))
      for (const b of bodies) {
        expect(b.reference).toMatch(/^tsk_[a-z2-7]{26}$/)
        references.add(b.reference)
        tokens.add(b.task_token)
      }
    }
    expect(references.size).toBe(200)
    expect(tokens.size).toBe(200)
  })

  it("records the request's User-Agent as the agent when the draft names none", async () => {
    const { body } = await submitOk(validDraft({ agent: undefined }), {
      "user-agent": "planner-agent/0.9 (+https://x.test)"
    })
    expect(body.agent).toBe("planner-agent/0.9 (+https://x.test)")
    const again = await (await read(body.reference)).json()
    expect(again.agent).toBe("planner-agent/0.9 (+https://x.test)")
  })

  it("prefers the draft's agent over the User-Agent", async () => {
    const { body } = await submitOk(
      validDraft({ agent: "  named-agent/1.0  " }),
      { "user-agent": "other/2.0" },
      server,
      submitRaw
    )
    expect(body.agent).toBe("named-agent/1.0")
  })

  it("treats a blank agent as absent and falls back to the User-Agent", async () => {
    const { body } = await submitOk(
      validDraft({ agent: "   " }),
      { "user-agent": "fallback-agent/3" },
      server,
      submitRaw
    )
    expect(body.agent).toBe("fallback-agent/3")
  })
})

describe("GET /tasks/{reference}", () => {
  let created: Json
  let etag: string
  beforeAll(async () => {
    created = (await submitOk(validDraft({ participant_slug: "lukas-schmidt" }), { "idempotency-key": key() })).body
    const response = await read(created.reference)
    etag = response.headers.get("etag")!
  })

  it("returns the same task, without its task_token, with next_step and an ETag", async () => {
    const response = await read(created.reference)
    const text = await response.text()
    expect(response.status).toBe(200)
    expect(response.headers.get("content-type")).toContain("application/json")
    const task = JSON.parse(text)
    expect(stableMembers(task)).toEqual(stableMembers(created))
    expect(taskStates).toContain(task.state)
    expect(task).not.toHaveProperty("task_token")
    expect(text).not.toContain(created.task_token)
    expect(typeof task.next_step).toBe("string")
    expect(task.next_step.trim()).not.toBe("")
    expect(task.updated_at).toMatch(isoUtc)
    expect(task.history[0]).toEqual(created.history[0])
    expect(etag).toMatch(/^(W\/)?"[^"]+"$/)
  })

  it("answers 304 without a body when If-None-Match carries the current ETag", async () => {
    const response = await read(created.reference, { "if-none-match": etag })
    expect(response.status).toBe(304)
    expect(await response.text()).toBe("")
    expect(response.headers.get("etag")).toBe(etag)
    expect(await readTyped(created.reference, etag)).toEqual({ status: 304, task: undefined, etag })
  })

  it("answers 200 when If-None-Match carries another ETag", async () => {
    const answer = await readTyped(created.reference, '"not-the-etag"')
    expect(answer.status).toBe(200)
    expect(answer.task?.reference).toBe(created.reference)
    expect(answer.etag).toBe(etag)
  })

  it("compares ETags weakly and reads lists", async () => {
    for (const ifNoneMatch of [`W/${etag}`, `"a", ${etag}`, `"a",W/${etag}`, "*"]) {
      expect((await readTyped(created.reference, ifNoneMatch)).status, ifNoneMatch).toBe(304)
    }
    const other = await readTyped(created.reference, '"a", "b"')
    expect(other.status).toBe(200)
    expect(other.task?.reference).toBe(created.reference)
  })

  it("gives different tasks different ETags", async () => {
    const another = (await submitOk(validDraft())).body
    const answer = await readTyped(another.reference, etag)
    expect(answer.status).toBe(200)
    expect(answer.etag).not.toBe(etag)
  })

  it("never serves a body older than the stored task, whichever server changed it", () =>
    withDatabase(async (database) => {
      const a = await startServer({ database })
      const b = await startServer({ database })
      try {
        const task = (await submitOk(validDraft(), { "idempotency-key": key() }, a)).body
        // Read on `a` until two reads agree (the service places a new task at once): `a` now has
        // this version's body at hand.
        let before = await read(task.reference, {}, a)
        let text = await before.text()
        for (;;) {
          const again = await read(task.reference, {}, a)
          const againText = await again.text()
          if (againText === text) break
          before = again
          text = againText
        }
        const cancelled = await call(
          apiClient(b, { token: task.task_token }).cancelTask({
            params: { reference: task.reference },
            payload: { reason: "changed on the other server" }
          })
        )
        expect(cancelled.state).toBe("cancelled")
        const after = await read(task.reference, {}, a)
        expect((await after.json()).state).toBe("cancelled")
        expect(JSON.parse(text).state).not.toBe("cancelled")
        expect(after.headers.get("etag")).not.toBe(before.headers.get("etag"))
        expect(after.headers.get("etag")).toBe((await read(task.reference, {}, b)).headers.get("etag"))
      } finally {
        await a.close()
        await b.close()
      }
    }))

  it("answers 404 task_not_found for an unknown reference", async () => {
    const error = await expectEnvelope(await read(`tsk_${"a".repeat(26)}`), 404, "task_not_found")
    expect(error.hint).toBeTypeOf("string")
    const refused = await refusal(
      apiClient(server).getTask({ params: { reference: `tsk_${"b".repeat(26)}` }, query: {}, headers: {} })
    )
    expect(refused).toBeInstanceOf(NotFound)
    expect(refused instanceof NotFound && refused.error.code).toBe("task_not_found")
    await expectEnvelope(await read("not-a-reference"), 404, "task_not_found")
    await expectEnvelope(await read(created.reference.toUpperCase()), 404, "task_not_found")
  })
})

describe("POST /tasks: validation", () => {
  it("answers 422 preflight_failed naming each missing field with code required", async () => {
    const error = await expectEnvelope(
      await submitRaw({ execution_mode: "physical", timing: "tomorrow" }),
      422,
      "preflight_failed"
    )
    const details = error.details!
    expect(
      details
        .filter((d) => d.code === "required")
        .map((d) => d.field)
        .sort()
    ).toEqual(["acceptance_test", "action", "expected_result", "location"].sort())
    for (const d of details) expect(d.message).toBeTypeOf("string")
    expect(error.hint).toBeTypeOf("string")
    expect(error.hint!.toLowerCase()).toContain("fix")
    expect(error.hint).toContain("/api/public/v1/preflight")
  })

  it("names every required field for an empty draft", async () => {
    const error = await expectEnvelope(await submitRaw({}), 422, "preflight_failed")
    expect(error.details!.map((d) => `${d.field}:${d.code}`).sort()).toEqual(
      ["acceptance_test:required", "action:required", "execution_mode:required", "expected_result:required"].sort()
    )
  })

  it("answers 422 with a not_found detail for an unknown participant_slug", async () => {
    const error = await expectEnvelope(
      await submit(validDraft({ participant_slug: "nobody-by-this-name" })),
      422,
      "preflight_failed"
    )
    expect(error.details).toEqual([expect.objectContaining({ field: "participant_slug", code: "not_found" })])
  })

  it("stores nothing under the key of a failed submission", async () => {
    const k = key()
    await expectEnvelope(
      await submitRaw(validDraft({ action: "  " }), { "idempotency-key": k }),
      422,
      "preflight_failed"
    )
    await expectEnvelope(
      await submit(validDraft({ participant_slug: "nobody-by-this-name" }), { "idempotency-key": k }),
      422,
      "preflight_failed"
    )
    const { response, body } = await submitOk(validDraft(), { "idempotency-key": k })
    expect(response.headers.get("idempotent-replayed")).toBeNull()
    expect(body.state).toBe("open")
    // And only now is the key taken.
    const replay = await submitOk(validDraft(), { "idempotency-key": k })
    expect(replay.response.headers.get("idempotent-replayed")).toBe("true")
    expect(replay.body.reference).toBe(body.reference)
  })

  it("stores nothing under a body idempotency_key of a failed submission", async () => {
    const k = key()
    await expectEnvelope(await submitRaw({ idempotency_key: k, execution_mode: "digital" }), 422, "preflight_failed")
    const { response } = await submitOk(validDraft({ idempotency_key: k }))
    expect(response.headers.get("idempotent-replayed")).toBeNull()
  })
})

describe("POST /tasks: doomed drafts (issue 25)", () => {
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

  /** Reads the task until `until` holds (the dispatcher moves it right after the 201). */
  const readUntil = async (reference: string, until: (task: Json) => boolean) => {
    for (let i = 0; i < 100; i++) {
      const task: Json = await (await read(reference)).json()
      if (until(task)) return task
      await sleep(50)
    }
    throw new Error(`task ${reference} never reached the awaited state`)
  }

  const preflightWarning = async (draft: Record<string, unknown>, code: string) => {
    const result = await call(apiClient(server).preflight({ payload: draft }))
    const found = result.warnings.filter((w) => w.code === code)
    expect(found.length, JSON.stringify(result.warnings)).toBe(1)
    return found[0]!.message
  }

  it("a deadline already passed: 422 preflight_failed with a deadline_passed detail, nothing stored under the key", async () => {
    const k = key()
    const error = await expectEnvelope(
      await submit(validDraft({ timing: "by 2020-01-01" }), { "idempotency-key": k }),
      422,
      "preflight_failed"
    )
    expect(error.details).toEqual([expect.objectContaining({ field: "timing", code: "deadline_passed" })])
    expect(error.message).toContain("timing")
    const { response } = await submitOk(validDraft(), { "idempotency-key": k })
    expect(response.headers.get("idempotent-replayed")).toBeNull()
  })

  it("a retry whose deadline passed since the task was recorded replays it; another draft with its key is still refused", async () => {
    const k = key()
    const draft = validDraft({ timing: `by ${new Date(clock.now() + 60_000).toISOString()}` })
    const first = await submitOk(draft, { "idempotency-key": k })
    clock.advance(61_000)
    const retry = await submitOk(draft, { "idempotency-key": k })
    expect(retry.response.headers.get("idempotent-replayed")).toBe("true")
    expect(retry.text).toBe(first.text)
    await expectEnvelope(
      await submit({ ...draft, action: "Something else" }, { "idempotency-key": k }),
      422,
      "idempotency_key_reused"
    )
    // Without the key, the same draft is a new submission, and its deadline has passed.
    await expectEnvelope(await submit(draft), 422, "preflight_failed")
  })

  it("nobody eligible: 201, whose next_step says what preflight warned; the task's next_step says it too; declined with no_match", async () => {
    const draft = validDraft({ location: "Reykjavik, Iceland" })
    const cause = 'no participant is in "Reykjavik, Iceland"'
    expect(await preflightWarning(draft, "no_eligible_participant")).toContain(cause)
    const k = key()
    const { body } = await submitOk(draft, { "idempotency-key": k })
    expect(body.state).toBe("open")
    expect(body.next_step).toMatch(/^Nobody can take this task: .+ no_match\. To fix it, .+, and submit a new task\.$/)
    expect(body.next_step).toContain(cause)
    expect(body.next_step).toContain("change location")
    // The dispatcher declines it as before; the read explains why and what to change.
    const ended = await readUntil(body.reference, (t) => t.state === "declined")
    expect(ended.outcome.reason).toBe("no_match")
    expect(ended.next_step).toMatch(/^The task was declined with no_match: /)
    expect(ended.next_step).toContain(cause)
    expect(ended.next_step).toContain("change location")
    // The replay is the 201 as recorded, explanation included.
    const replay = await submitOk(draft, { "idempotency-key": k })
    expect(replay.body.next_step).toBe(body.next_step)
  })

  it("a named participant who cannot serve the task: 201 and the task's next_step name them, the cause and the fix", async () => {
    const draft = validDraft({ participant_slug: "jonas-weber" })
    const cause = "jonas-weber does not take physical tasks (they take digital tasks)"
    expect(await preflightWarning(draft, "participant_ineligible")).toContain(cause)
    const { body } = await submitOk(draft)
    expect(body.next_step).toContain(`The task goes to jonas-weber alone, but ${cause}`)
    expect(body.next_step).toContain("set execution_mode to digital")
    // Still offered to them, as before: the warning does not change what the service does.
    const offered = await readUntil(body.reference, (t) => t.state === "awaiting_participant")
    expect(offered.participant_slug).toBe("jonas-weber")
    expect(offered.next_step).toBe(body.next_step)
  })

  it("a feasible task's next_step is the state's own sentence", async () => {
    const { body } = await submitOk(validDraft())
    expect(body.next_step).not.toMatch(/Nobody can take|goes to .* alone/)
    const offered = await readUntil(body.reference, (t) => t.state === "awaiting_participant")
    expect(offered.next_step).toMatch(/^Waiting for the participant to accept/)
  })
})

describe("POST /tasks: idempotency", () => {
  it("replays a header key: 201, the same body byte for byte, idempotent-replayed: true", async () => {
    const k = key()
    const first = await submitOk(validDraft(), { "idempotency-key": k })
    expect(first.response.headers.get("idempotent-replayed")).toBeNull()
    const second = await submitOk(validDraft(), { "idempotency-key": k })
    expect(second.response.headers.get("idempotent-replayed")).toBe("true")
    expect(second.text).toBe(first.text)
    expect(second.body.task_token).toBe(first.body.task_token)
    expect(second.response.headers.get("location")).toBe(first.response.headers.get("location"))
    const third = await submitOk(validDraft(), { "idempotency-key": k })
    expect(third.text).toBe(first.text)
  })

  it("replays a body idempotency_key likewise", async () => {
    const k = key()
    const first = await submitOk(validDraft({ idempotency_key: k }))
    expect(first.response.headers.get("idempotent-replayed")).toBeNull()
    const second = await submitOk(validDraft({ idempotency_key: k }))
    expect(second.response.headers.get("idempotent-replayed")).toBe("true")
    expect(second.text).toBe(first.text)
  })

  it("treats equal header and body keys as one key", async () => {
    const k = key()
    const first = await submitOk(validDraft({ idempotency_key: k }), { "idempotency-key": k })
    const headerOnly = await submitOk(validDraft(), { "idempotency-key": k })
    expect(headerOnly.response.headers.get("idempotent-replayed")).toBe("true")
    expect(headerOnly.text).toBe(first.text)
    const bodyOnly = await submitOk(validDraft({ idempotency_key: k }))
    expect(bodyOnly.response.headers.get("idempotent-replayed")).toBe("true")
    expect(bodyOnly.text).toBe(first.text)
  })

  it("answers 400 idempotency_key_mismatch when header and body keys differ, storing nothing", async () => {
    const a = key()
    const b = key()
    const error = await expectEnvelope(
      await submit(validDraft({ idempotency_key: b }), { "idempotency-key": a }),
      400,
      "idempotency_key_mismatch"
    )
    expect(error.hint).toBeTypeOf("string")
    for (const k of [a, b]) {
      const { response } = await submitOk(validDraft(), { "idempotency-key": k })
      expect(response.headers.get("idempotent-replayed")).toBeNull()
    }
  })

  it("answers 422 idempotency_key_reused for the same key with a different draft", async () => {
    const k = key()
    const first = await submitOk(validDraft(), { "idempotency-key": k })
    const error = await expectEnvelope(
      await submit(validDraft({ action: "Photograph a different storefront" }), { "idempotency-key": k }),
      422,
      "idempotency_key_reused"
    )
    expect(error.hint).toBeTypeOf("string")
    await expectEnvelope(
      await submit(validDraft({ budget: "EUR 10" }), { "idempotency-key": k }),
      422,
      "idempotency_key_reused"
    )
    await expectEnvelope(
      await submit(validDraft({ idempotency_key: k, principal: "Someone else" })),
      422,
      "idempotency_key_reused"
    )
    // The original is untouched and still replays.
    const replay = await submitOk(validDraft(), { "idempotency-key": k })
    expect(replay.text).toBe(first.text)
  })

  it("compares keys exactly: keys differing in case are different keys", async () => {
    const k = `Key-${randomUUID()}-ABC`
    const upper = await submitOk(validDraft(), { "idempotency-key": k })
    const lower = await submitOk(validDraft(), { "idempotency-key": k.toLowerCase() })
    expect(lower.response.headers.get("idempotent-replayed")).toBeNull()
    expect(lower.body.reference).not.toBe(upper.body.reference)
    const bodyLower = await submitOk(validDraft({ idempotency_key: k.toLowerCase() }))
    expect(bodyLower.body.reference).toBe(lower.body.reference)
    await expectEnvelope(
      await submit(validDraft({ idempotency_key: k.toLowerCase() }), { "idempotency-key": k }),
      400,
      "idempotency_key_mismatch"
    )
  })

  it("replays a draft that differs only in surrounding whitespace or execution_mode case", async () => {
    const k = key()
    const first = await submitOk(validDraft(), { "idempotency-key": k })
    const padded = Object.fromEntries(
      Object.entries(validDraft()).map(([name, value]) => [name, typeof value === "string" ? ` \t${value}\n ` : value])
    )
    const second = await submitOk(
      { ...padded, execution_mode: "PHYSICAL" },
      { "idempotency-key": k },
      server,
      submitRaw
    )
    expect(second.response.headers.get("idempotent-replayed")).toBe("true")
    expect(second.text).toBe(first.text)
  })

  it("does not replay a task for a request without a key", async () => {
    const first = await submitOk(validDraft())
    const second = await submitOk(validDraft())
    expect(second.body.reference).not.toBe(first.body.reference)
    expect(second.response.headers.get("idempotent-replayed")).toBeNull()
  })
})

// A replay hands back the task token, and a task's draft can be rebuilt from GET /tasks/{reference}:
// a key short enough to guess would make the draft enough to act as the task's agent.
describe("POST /tasks: an idempotency key is a secret of at least 16 characters (issue 33)", () => {
  /** Runs `body` against a server on a fresh database, with the number of tasks stored at the end. */
  const onFreshServer = (body: (on: TestServer, database: TestDatabase) => Promise<void>) =>
    withDatabase(async (database) => {
      const on = await startServer({ database })
      try {
        await body(on, database)
      } finally {
        await on.close()
      }
    })
  const shortKeys = ["k", "k".repeat(15), "0123456789abcde"]

  it("refuses a header key of 1 to 15 characters: 400 invalid_request naming the header; nothing created", () =>
    onFreshServer(async (on, database) => {
      for (const k of shortKeys) {
        const error = await expectEnvelope(
          await submitRaw(validDraft(), { "idempotency-key": k }, on),
          400,
          "invalid_request"
        )
        expect(error.message).toContain("Idempotency-Key header")
        expect(error.message).toContain("at least 16 characters; a UUID is recommended")
        expect(error.hint).toMatch(/UUID/)
        expect(error.details).toEqual([expect.objectContaining({ field: "idempotency-key", code: "invalid" })])
        expect(JSON.stringify(error)).not.toContain("tt_")
      }
      // Refused before the draft is judged: an invalid draft with a short key gets the same answer.
      await expectEnvelope(await submitRaw({ action: "  " }, { "idempotency-key": "k1" }, on), 400, "invalid_request")
      expect(await database.count("tasks")).toBe(0)
    }))

  it("refuses a body idempotency_key of 1 to 15 characters (after trimming) likewise, naming the member", () =>
    onFreshServer(async (on, database) => {
      for (const k of [...shortKeys, `  ${"k".repeat(15)}  `]) {
        const error = await expectEnvelope(
          await submitRaw(validDraft({ idempotency_key: k }), {}, on),
          400,
          "invalid_request"
        )
        expect(error.message).toContain("idempotency_key member")
        expect(error.message).toContain("at least 16 characters; a UUID is recommended")
        expect(error.hint).toMatch(/UUID/)
        expect(error.details).toEqual([expect.objectContaining({ field: "idempotency_key", code: "invalid" })])
      }
      // Also when a proper header key comes with it: each key sent must be a proper one.
      await expectEnvelope(
        await submit(validDraft({ idempotency_key: "k1" }), { "idempotency-key": key() }, on),
        400,
        "invalid_request"
      )
      expect(await database.count("tasks")).toBe(0)
    }))

  it("accepts a key of exactly 16 characters, in the header or the body, and replays it", () =>
    onFreshServer(async (on, database) => {
      const k = randomUUID().replaceAll("-", "").slice(0, 16)
      const first = await submitOk(validDraft(), { "idempotency-key": k }, on)
      expect(first.response.headers.get("idempotent-replayed")).toBeNull()
      const replay = await submitOk(validDraft(), { "idempotency-key": k }, on)
      expect(replay.response.headers.get("idempotent-replayed")).toBe("true")
      expect(replay.body.reference).toBe(first.body.reference)
      const body = await submitOk(validDraft({ idempotency_key: k }), {}, on)
      expect(body.response.headers.get("idempotent-replayed")).toBe("true")
      expect(body.text).toBe(first.text)
      expect(await database.count("tasks")).toBe(1)
    }))

  it("a task recorded under a short key before the rule is not replayed: the key is refused first", () =>
    onFreshServer(async (on, database) => {
      const { body: task } = await submitOk(validDraft(), { "idempotency-key": key() }, on)
      await database.write(`UPDATE tasks SET idempotency_key = 'k1' WHERE reference = '${task.reference}'`)
      for (const answer of [
        await submit(validDraft(), { "idempotency-key": "k1" }, on),
        await submit(validDraft({ idempotency_key: "k1" }), {}, on)
      ]) {
        const text = await answer.clone().text()
        expect(text).not.toContain(task.task_token)
        expect(text).not.toContain(task.reference)
        await expectEnvelope(answer, 400, "invalid_request")
      }
      expect(await database.count("tasks")).toBe(1)
    }))
})

describe("POST /tasks: concurrency", () => {
  it("50 concurrent identical submissions create one task; 49 are replays", async () => {
    const k = key()
    const responses = await Promise.all(
      Array.from({ length: 50 }, () => submit(validDraft(), { "idempotency-key": k }))
    )
    const bodies = await Promise.all(responses.map((r) => r.text()))
    expect(responses.map((r) => r.status)).toEqual(Array(50).fill(201))
    expect(new Set(bodies.map((t) => JSON.parse(t).reference)).size).toBe(1)
    expect(new Set(bodies).size).toBe(1)
    expect(responses.filter((r) => r.headers.get("idempotent-replayed") === "true")).toHaveLength(49)
  })

  it("50 concurrent submissions with distinct keys create 50 tasks", async () => {
    const responses = await Promise.all(
      Array.from({ length: 50 }, () => submit(validDraft(), { "idempotency-key": key() }))
    )
    expect(responses.map((r) => r.status)).toEqual(Array(50).fill(201))
    const bodies = await Promise.all(responses.map((r) => r.json()))
    expect(new Set(bodies.map((b: Json) => b.reference)).size).toBe(50)
    expect(responses.filter((r) => r.headers.get("idempotent-replayed") !== null)).toHaveLength(0)
  })

  it("on a durable database: 50 concurrent identical submissions leave exactly one row", () =>
    withDatabase(async (database) => {
      const fileServer = await startServer({ database })
      const k = key()
      try {
        const responses = await Promise.all(
          Array.from({ length: 50 }, () => submit(validDraft(), { "idempotency-key": k }, fileServer))
        )
        const bodies = await Promise.all(responses.map((r) => r.json()))
        expect(responses.map((r) => r.status)).toEqual(Array(50).fill(201))
        expect(new Set(bodies.map((b: Json) => b.reference)).size).toBe(1)
        expect(responses.filter((r) => r.headers.get("idempotent-replayed") === "true")).toHaveLength(49)
      } finally {
        await fileServer.close()
      }
      expect(await database.count("tasks")).toBe(1)
      expect(await database.rows("SELECT idempotency_key FROM tasks")).toEqual([{ idempotency_key: k }])
    }))

  it("two servers sharing one database create one task for one key", () =>
    withDatabase(async (database) => {
      const a = await startServer({ database })
      const b = await startServer({ database })
      const k = key()
      try {
        const responses = await Promise.all(
          Array.from({ length: 40 }, (_, i) => submit(validDraft(), { "idempotency-key": k }, i % 2 === 0 ? a : b))
        )
        const texts = await Promise.all(responses.map((r) => r.text()))
        expect(responses.map((r) => r.status)).toEqual(Array(40).fill(201))
        const references = new Set(texts.map((t) => JSON.parse(t).reference))
        expect(references.size).toBe(1)
        expect(new Set(texts.map((t) => JSON.parse(t).task_token)).size).toBe(1)
        expect(responses.filter((r) => r.headers.get("idempotent-replayed") === "true")).toHaveLength(39)
      } finally {
        await a.close()
        await b.close()
      }
      expect(await database.count("tasks")).toBe(1)
    }))
})

describe("persistence", () => {
  it("a task survives a restart; its key still replays the same task and token", () =>
    withDatabase(async (database) => {
      const k = key()
      const first = await startServer({ database })
      let created: { text: string; body: Json }
      let readBefore: Json
      try {
        created = await submitOk(validDraft(), { "idempotency-key": k }, first)
        // Read once the service has offered the task (the dispatcher runs right after the 201):
        // an offer lasts far longer than this test, so nothing changes it across the restart.
        const deadline = Date.now() + 10_000
        do {
          readBefore = await (await read(created.body.reference, {}, first)).json()
          if (Date.now() > deadline) throw new Error(`not offered in time: ${readBefore.state}`)
        } while (readBefore.state !== "awaiting_participant")
      } finally {
        await first.close()
      }

      const second = await startServer({ database })
      try {
        const response = await read(created.body.reference, {}, second)
        expect(response.status).toBe(200)
        const task = await response.json()
        // Same record; only the base URL differs, as the new server listens on another port.
        const relocate = (t: Json) => ({ ...stableMembers(t), url: new URL(t.url).pathname })
        expect(relocate(task)).toEqual(relocate(readBefore))
        expect(task.url).toBe(`${second.url}/api/public/v1/tasks/${created.body.reference}`)

        const replay = await submitOk(validDraft(), { "idempotency-key": k }, second)
        expect(replay.response.headers.get("idempotent-replayed")).toBe("true")
        expect(replay.body.reference).toBe(created.body.reference)
        expect(replay.body.task_token).toBe(created.body.task_token)
        expect(replay.body.created_at).toBe(created.body.created_at)
      } finally {
        await second.close()
      }
      expect(await database.count("tasks")).toBe(1)
    }))
})
