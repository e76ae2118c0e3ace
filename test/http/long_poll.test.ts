// Observing changes without hammering (DECISIONS §10): GET /tasks/{reference}?wait=N holds until
// the task changes or N seconds pass, honours If-None-Match, validates `wait`, and — with two
// servers sharing one database — wakes on a change made by the other process. SQLite and Postgres.
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { TaskDraft } from "../../src/domain/task_draft/schema.ts"
import { asPayload, exchange } from "../support/api_client.ts"
import { backend, freshDatabase, type TestDatabase } from "../support/database.ts"
import { linkAccount, startIssuer, type TestIssuer, testAudience } from "../support/issuer.ts"
import { expectEnvelope, startServer, type TestServer, validDraft } from "../support/server.ts"

// biome-ignore lint/suspicious/noExplicitAny: JSON bodies are inspected member by member.
type Json = any

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const lukasSubject = "user-lukas"

let issuer: TestIssuer
let database: TestDatabase
let server: TestServer
/** lukas-schmidt's access token. */
let lukas: string

const settings = () => ({
  oauthIssuer: issuer.url,
  oauthAudience: testAudience,
  offerTimeoutMs: 60_000,
  timerSweepMs: 50
})

beforeAll(async () => {
  issuer = await startIssuer()
  database = await freshDatabase()
  server = await startServer({ database, settings: settings() })
  await linkAccount(database, lukasSubject, "lukas-schmidt")
  lukas = await issuer.token({ sub: lukasSubject })
})
afterAll(async () => {
  await server?.close()
  await database?.drop()
  await issuer?.close()
})

const createTask = (on: TestServer = server) =>
  exchange(on, (c) =>
    c.createTask({ payload: asPayload(TaskDraft, validDraft({ participant_slug: "lukas-schmidt" })), headers: {} })
  )

const create = async (on: TestServer = server) => {
  const response = await createTask(on)
  expect(response.status).toBe(201)
  const task: Json = await response.json()
  return task.reference as string
}

/** A GET with `wait` seconds (none: a plain read), timed. */
const poll = (reference: string, wait: number | undefined, headers: { "if-none-match"?: string } = {}, on = server) =>
  timed(() =>
    exchange(on, (c) => c.getTask({ params: { reference }, query: wait === undefined ? {} : { wait }, headers }))
  )

/** A GET with `wait` spelled as given: a spelling of the number no client derived from the document sends. */
const pollSpelled = (reference: string, wait: string, headers: Record<string, string> = {}) =>
  timed(() => fetch(server.api(`/tasks/${reference}?wait=${wait}`), { headers }))

const timed = async (send: () => Promise<Response>) => {
  const started = performance.now()
  const response = await send()
  const text = await response.text()
  return {
    response,
    status: response.status,
    etag: response.headers.get("etag"),
    text,
    body: text === "" ? undefined : (JSON.parse(text) as Json),
    ms: performance.now() - started
  }
}

/** A task offered to lukas-schmidt, and its current ETag. */
const offered = async (on: TestServer = server) => {
  const reference = await create(on)
  const deadline = Date.now() + 10_000
  for (;;) {
    const current = await poll(reference, undefined, {}, on)
    if (current.body.state === "awaiting_participant") return { reference, etag: current.etag!, task: current.body }
    if (Date.now() > deadline) throw new Error(`never offered: ${current.text}`)
    await sleep(20)
  }
}

const accept = (reference: string, on: TestServer = server) =>
  exchange(on, (c) => c.acceptTask({ params: { reference } }), { token: lukas })

describe("?wait=N answers when the task changes", () => {
  it("a wait without If-None-Match answers as soon as another request moves the task", async () => {
    const { reference, etag } = await offered()
    const waiting = poll(reference, 10)
    await sleep(300)
    const moved = performance.now()
    expect((await accept(reference)).status).toBe(200)
    const answer = await waiting
    expect(answer.status).toBe(200)
    expect(answer.body.state).toBe("accepted")
    expect(answer.etag).not.toBe(etag)
    expect(answer.ms).toBeGreaterThanOrEqual(250)
    expect(answer.ms).toBeLessThan(2500)
    expect(performance.now() - moved).toBeLessThan(1500)
  })

  it("a wait with the current ETag answers with the new version as soon as it changes", async () => {
    const { reference, etag } = await offered()
    const waiting = poll(reference, 10, { "if-none-match": etag })
    await sleep(300)
    expect((await accept(reference)).status).toBe(200)
    const answer = await waiting
    expect(answer.status).toBe(200)
    expect(answer.body.state).toBe("accepted")
    expect(answer.ms).toBeLessThan(2500)
    // The answer's ETag is the one a plain read now gives.
    expect((await poll(reference, undefined)).etag).toBe(answer.etag)
  })

  it("every waiter on the task is answered by one change", async () => {
    const { reference, etag } = await offered()
    const waiters = [
      poll(reference, 10),
      poll(reference, 10, { "if-none-match": etag }),
      poll(reference, 20, { "if-none-match": `W/${etag}` })
    ]
    await sleep(300)
    expect((await accept(reference)).status).toBe(200)
    for (const answer of await Promise.all(waiters)) {
      expect(answer.status).toBe(200)
      expect(answer.body.state).toBe("accepted")
      expect(answer.ms).toBeLessThan(2500)
    }
  })

  it("a move made by the service itself (the offer) also answers a wait", async () => {
    const response = await createTask()
    const created: Json = await response.json()
    // The client holds the version of the 201: the wait answers as soon as the service has made
    // the offer — at once if it already has (the dispatcher may be quicker than this request).
    const answer = await poll(created.reference, 10, { "if-none-match": response.headers.get("etag")! })
    expect(answer.status).toBe(200)
    expect(answer.body.state).toBe("awaiting_participant")
    expect(answer.ms).toBeLessThan(2500)
  })
})

describe("?wait=N when nothing changes", () => {
  it("answers 200 with the same task after about N seconds", async () => {
    const { reference, etag, task } = await offered()
    const answer = await poll(reference, 1)
    expect(answer.status).toBe(200)
    expect(answer.ms).toBeGreaterThanOrEqual(950)
    expect(answer.ms).toBeLessThan(2500)
    expect(answer.etag).toBe(etag)
    expect(answer.body.updated_at).toBe(task.updated_at)
    expect(answer.body.history).toEqual(task.history)
  })

  it("answers 304 after about N seconds when If-None-Match names the current ETag", async () => {
    const { reference, etag } = await offered()
    const answer = await poll(reference, 1.5, { "if-none-match": etag })
    expect(answer.status).toBe(304)
    expect(answer.text).toBe("")
    expect(answer.etag).toBe(etag)
    expect(answer.ms).toBeGreaterThanOrEqual(1400)
    expect(answer.ms).toBeLessThan(3000)
  })

  it("a stale If-None-Match is answered at once with the current task", async () => {
    const { reference, etag } = await offered()
    expect((await accept(reference)).status).toBe(200)
    for (const stale of [etag, `W/${etag}`, '"not-an-etag"']) {
      const answer = await poll(reference, 60, { "if-none-match": stale })
      expect(answer.status).toBe(200)
      expect(answer.body.state).toBe("accepted")
      expect(answer.etag).not.toBe(etag)
      expect(answer.ms).toBeLessThan(500)
    }
  })

  it("wait=0 (and no wait) answers at once: 200, or 304 when If-None-Match matches", async () => {
    const { reference, etag } = await offered()
    for (const [query, read] of [
      ["?wait=0", (h: Record<string, string>) => poll(reference, 0, h)],
      ["", (h: Record<string, string>) => poll(reference, undefined, h)],
      ["?wait=0.0", (h: Record<string, string>) => pollSpelled(reference, "0.0", h)]
    ] as const) {
      const plain = await read({})
      expect(plain.status, query).toBe(200)
      expect(plain.ms, query).toBeLessThan(500)
      const notModified = await read({ "if-none-match": etag })
      expect(notModified.status, query).toBe(304)
      expect(notModified.ms, query).toBeLessThan(500)
    }
  })
})

describe("?wait validation", () => {
  it("wait outside 0–60 seconds or not a number → 400 invalid_request naming wait, at once", async () => {
    const { reference } = await offered()
    for (const value of ["61", "-1", "abc", "60.5", "1e1", "", " ", "0x10", "100", "Infinity", "NaN", "5s"]) {
      const started = performance.now()
      // Raw: values the document refuses, which no client derived from it sends.
      const response = await fetch(server.api(`/tasks/${reference}?wait=${encodeURIComponent(value)}`))
      const error = await expectEnvelope(response, 400, "invalid_request")
      expect(error.details?.[0]?.field, value).toBe("wait")
      expect(performance.now() - started).toBeLessThan(500)
    }
  })

  it("wait on an unknown reference → 404 task_not_found at once", async () => {
    const started = performance.now()
    const response = await exchange(server, (c) =>
      c.getTask({ params: { reference: `tsk_${"a".repeat(26)}` }, query: { wait: 10 }, headers: {} })
    )
    await expectEnvelope(response, 404, "task_not_found")
    expect(performance.now() - started).toBeLessThan(500)
  })
})

describe("across servers sharing one database", () => {
  it("a wait on server A answers promptly when server B moves the task", async () => {
    const shared = await freshDatabase()
    const a = await startServer({ database: shared, settings: settings() })
    const b = await startServer({ database: shared, settings: settings() })
    try {
      await linkAccount(shared, lukasSubject, "lukas-schmidt")
      const { reference, etag } = await offered(b)
      const waiting = poll(reference, 20, { "if-none-match": etag }, a)
      // Let A settle into its wait (past its first check) before B changes the task.
      await sleep(300)
      const accepted = await accept(reference, b)
      expect(accepted.status).toBe(200)
      const moved = performance.now()
      const answer = await waiting
      const latency = performance.now() - moved
      expect(answer.status).toBe(200)
      expect(answer.body.state).toBe("accepted")
      if (backend === "postgres") {
        // LISTEN/NOTIFY: far sooner than the 1 s recheck.
        expect(latency).toBeLessThan(500)
      } else {
        // SQLite has no notifications: the 1 s recheck finds the change.
        expect(answer.ms).toBeLessThan(3000)
      }
    } finally {
      await a.close()
      await b.close()
      await shared.drop()
    }
  })
})
