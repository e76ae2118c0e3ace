// Several server processes on one database (DECISIONS §7; the cross-process guarantees of the
// issue): simultaneous start-up migrates and seeds once, idempotency holds across processes (the
// database decides, not a process-local lock), every process reads what any other wrote, and all
// of them derive the same task token from the secret kept in the database.
// Runs in both vitest projects: on SQLite the processes share one WAL file, on Postgres one database.
import { createHash, randomUUID } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { TaskDraft } from "../../src/domain/task_draft/schema.ts"
import { migrationIds } from "../../src/sql/migrations.ts"
import { asPayload, typedCall } from "../support/api_client.ts"
import { freshDatabase, type TestDatabase } from "../support/database.ts"
import { type ServiceProcess, spawnService } from "../support/process.ts"
import { validDraft } from "../support/server.ts"

// biome-ignore lint/suspicious/noExplicitAny: JSON bodies are inspected member by member.
type Json = any

// The token secret must come from the database, not from the environment, for these tests.
delete process.env.TASK_TOKEN_SECRET
const env = { RATE_LIMIT: "off" }

let database: TestDatabase
let one: ServiceProcess
let two: ServiceProcess

beforeAll(async () => {
  database = await freshDatabase()
  // Both at the same time, on a database nobody has migrated yet.
  ;[one, two] = await Promise.all([
    spawnService({ databaseUrl: database.url, env }),
    spawnService({ databaseUrl: database.url, env })
  ])
})

afterAll(async () => {
  await Promise.all([one?.stop("SIGKILL"), two?.stop("SIGKILL")])
  await database?.drop()
})

const key = () => `mp-${randomUUID()}`

const submit = (on: ServiceProcess, draft: Record<string, unknown>, idempotencyKey?: string) =>
  typedCall(on, (c) =>
    c.createTask({
      payload: asPayload(TaskDraft, draft),
      headers: idempotencyKey === undefined ? {} : { "idempotency-key": idempotencyKey }
    })
  )

/** A read, conditional when `etag` is given. */
const read = (on: ServiceProcess, reference: string, etag?: string) =>
  typedCall(on, (c) =>
    c.getTask({ params: { reference }, query: {}, headers: etag === undefined ? {} : { "if-none-match": etag } })
  )
const participants = (on: ServiceProcess, limit: number) =>
  typedCall(on, (c) => c.listParticipants({ query: { limit } }))

/** A task without its `url`, which names the process (its port) that answered. */
const withoutUrl = (task: Json) => {
  const { url: _url, ...rest } = task
  return rest
}

/** What a task was recorded with; the lifecycle members move on by themselves after the 201. */
const recorded = (task: Json) => {
  const { url: _u, state: _s, history: _h, updated_at: _ua, next_step: _n, participant_slug: _p, ...rest } = task
  return rest
}

const sha256 = (text: string) => createHash("sha256").update(text).digest("base64url")

/** Concurrent reads on both processes, so that each has its pool of database connections open. */
const warmUp = async () => {
  const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => participants(i % 2 === 0 ? one : two, 5)))
  for (const answer of answers) expect(answer.status).toBe(200)
}

const countKey = async (k: string) =>
  Number((await database.rows(`SELECT COUNT(*) AS n FROM tasks WHERE idempotency_key = '${k}'`))[0]?.n)

describe("two processes on one database", () => {
  it("both start at the same time: migrations applied once, the sample catalogue loaded once", async () => {
    for (const service of [one, two]) {
      expect(service.child.exitCode).toBeNull()
      expect(service.child.signalCode).toBeNull()
      expect((await typedCall(service, (c) => c.healthz())).status).toBe(200)
      // Nothing at error level while starting next to another process.
      expect(service.output()).not.toMatch(/"level":"(ERROR|FATAL)"/)
    }
    expect(await database.count("schema_migrations")).toBe(migrationIds.length)
    const ids = (await database.rows("SELECT migration_id FROM schema_migrations ORDER BY migration_id")).map((r) =>
      Number(r.migration_id)
    )
    expect(ids).toEqual(migrationIds)
    expect(await database.count("participants")).toBe(54)
    // One of each secret the service makes (task tokens, the authorization server's cookies, mail's unsubscribe links).
    expect(await database.count("service_secrets")).toBe(3)
    // Both processes list the same catalogue.
    const [a, b] = await Promise.all([participants(one, 500), participants(two, 500)])
    expect(a.status).toBe(200)
    expect(b.status).toBe(200)
    expect(a.body.data.map((p: Json) => p.slug)).toEqual(b.body.data.map((p: Json) => p.slug))
    expect(a.body.data).toHaveLength(54)
  })

  it("50 concurrent identical submissions with one key, alternating between the processes, create one task (3 keys)", async () => {
    // Open several database connections in each process first, so that the submissions really run
    // side by side in the database instead of queueing behind the set-up of a connection.
    await warmUp()
    for (let round = 0; round < 3; round++) {
      const before = await database.count("tasks")
      const k = key()
      const draft = validDraft({ action: `Photograph the storefront of shop ${k}` })
      const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => submit(i % 2 === 0 ? one : two, draft, k)))
      for (const answer of answers) {
        if (answer.status !== 201) throw new Error(`expected 201, got ${answer.status}: ${answer.text}`)
      }
      expect(new Set(answers.map((a) => a.body.reference)).size).toBe(1)
      expect(new Set(answers.map((a) => a.body.task_token)).size).toBe(1)
      expect(answers.filter((a) => a.headers.get("idempotent-replayed") === "true")).toHaveLength(49)
      expect(answers.filter((a) => a.headers.get("idempotent-replayed") === null)).toHaveLength(1)
      // Every replay is the original 201, whichever process answered it.
      const original = withoutUrl(answers[0]!.body)
      for (const answer of answers) expect(withoutUrl(answer.body)).toEqual(original)
      expect(await countKey(k)).toBe(1)
      expect(await database.count("tasks")).toBe(before + 1)
      const [row] = await database.rows(`SELECT reference, token_hash FROM tasks WHERE idempotency_key = '${k}'`)
      expect(row?.reference).toBe(original.reference)
      expect(row?.token_hash).toBe(sha256(original.task_token))
    }
  })

  it("one key with two different drafts sent concurrently to the two processes: one draft wins, the other is 422 (3 keys)", async () => {
    await warmUp()
    for (let round = 0; round < 3; round++) {
      const before = await database.count("tasks")
      const k = key()
      const drafts = {
        A: validDraft({ action: `Photograph the storefront of shop A ${k}` }),
        B: validDraft({ action: `Photograph the storefront of shop B ${k}` })
      }
      // 10 of each, interleaved: A always to process 1, B always to process 2.
      const sent = Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? ("A" as const) : ("B" as const)))
      const answers = await Promise.all(sent.map((which) => submit(which === "A" ? one : two, drafts[which], k)))
      for (const answer of answers) {
        if (answer.status === 201) continue
        if (answer.status !== 422 || answer.body?.error?.code !== "idempotency_key_reused") {
          throw new Error(`expected 201 or 422 idempotency_key_reused, got ${answer.status}: ${answer.text}`)
        }
      }
      const created = answers.filter((a) => a.status === 201)
      expect(created.length).toBeGreaterThan(0)
      expect(new Set(created.map((a) => a.body.reference)).size).toBe(1)
      const winner = created[0]!.body.brief.action === drafts.A.action ? "A" : "B"
      expect(created[0]!.body.brief.action).toBe(drafts[winner].action)
      // Every submission of the winning draft got the task; every one of the other draft got 422.
      for (const [i, which] of sent.entries()) expect(answers[i]!.status).toBe(which === winner ? 201 : 422)
      expect(created).toHaveLength(10)
      expect(created.filter((a) => a.headers.get("idempotent-replayed") === null)).toHaveLength(1)
      expect(new Set(created.map((a) => a.body.task_token)).size).toBe(1)
      expect(await countKey(k)).toBe(1)
      expect(await database.count("tasks")).toBe(before + 1)
      const [row] = await database.rows(`SELECT reference, brief FROM tasks WHERE idempotency_key = '${k}'`)
      expect(row?.reference).toBe(created[0]!.body.reference)
      expect(JSON.parse(String(row?.brief)).action).toBe(drafts[winner].action)
    }
  })

  it("reads after writes on the other process: created on one, read at once on the other", async () => {
    const results = await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        const [writer, reader] = i % 2 === 0 ? [one, two] : [two, one]
        const k = key()
        const created = await submit(writer, validDraft({ action: `Photograph the storefront of shop ${k}` }), k)
        if (created.status !== 201) throw new Error(`expected 201, got ${created.status}: ${created.text}`)
        const readBack = await read(reader, created.body.reference)
        return { created, readBack, reader }
      })
    )
    for (const { created, readBack, reader } of results) {
      if (readBack.status !== 200) throw new Error(`expected 200, got ${readBack.status}: ${readBack.text}`)
      const { task_token: _token, ...task } = created.body
      expect(recorded(readBack.body)).toEqual(recorded(task))
      expect(readBack.body.url).toBe(reader.api(`/tasks/${created.body.reference}`))
    }
  })

  it("a poll answered from what a process remembers still shows, at once, a change made through the other", async () => {
    // Each process remembers the versions it has read (and the bodies it served), and answers a
    // repeated poll from them while the database tells it that nothing was committed since: a
    // cancel through the other process must show at once, as 200 with the new ETag, never as 304.
    for (const [writer, poller] of [
      [one, two],
      [two, one]
    ] as const) {
      const k = key()
      const created = await submit(writer, validDraft({ action: `Photograph the storefront of shop ${k}` }), k)
      expect(created.status).toBe(201)
      const reference = created.body.reference
      // Poll until the service has stopped moving the task (an offer waits for its participant),
      // so the poller has answered 304 from what it remembers.
      let etag = "*"
      for (let attempt = 0; ; attempt++) {
        const polled = await read(poller, reference, etag)
        if (polled.status === 304 && polled.headers.get("etag") === etag) break
        if (attempt > 200) throw new Error(`the task did not come to rest: ${polled.status} ${polled.text}`)
        etag = polled.headers.get("etag") ?? "*"
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
      const cancelled = await typedCall(
        writer,
        (c) => c.cancelTask({ params: { reference }, payload: { reason: "checking the other process" } }),
        { token: created.body.task_token }
      )
      expect(cancelled.status).toBe(200)
      const seen = await read(poller, reference, etag)
      expect(seen.status).toBe(200)
      expect(seen.body.state).toBe("cancelled")
      expect(seen.headers.get("etag")).not.toBe(etag)
      const onWriter = await read(writer, reference)
      expect(seen.headers.get("etag")).toBe(onWriter.headers.get("etag"))
      expect(withoutUrl(seen.body)).toEqual(withoutUrl(onWriter.body))
      const again = await read(poller, reference, etag)
      expect(again.status).toBe(200)
      expect(again.body).toEqual(seen.body)
    }
  })

  it("a replay on the other process returns the same reference and task token", async () => {
    for (const [first, second] of [
      [one, two],
      [two, one]
    ] as const) {
      const k = key()
      const draft = validDraft({ action: `Photograph the storefront of shop ${k}` })
      const created = await submit(first, draft, k)
      expect(created.status).toBe(201)
      expect(created.headers.get("idempotent-replayed")).toBeNull()
      const replay = await submit(second, draft, k)
      expect(replay.status).toBe(201)
      expect(replay.headers.get("idempotent-replayed")).toBe("true")
      expect(replay.body.reference).toBe(created.body.reference)
      expect(replay.body.task_token).toBe(created.body.task_token)
      expect(withoutUrl(replay.body)).toEqual(withoutUrl(created.body))
      expect(await countKey(k)).toBe(1)
    }
  })

  it("both processes derive the same task token for a task (the secret is shared through the database)", async () => {
    const k = key()
    const draft = validDraft({ action: `Photograph the storefront of shop ${k}` })
    const created = await submit(one, draft, k)
    expect(created.status).toBe(201)
    const token: string = created.body.task_token
    expect(token).toMatch(/^tt_[A-Za-z0-9_-]{43}$/)
    const replays = await Promise.all([submit(two, draft, k), submit(one, draft, k), submit(two, draft, k)])
    for (const replay of replays) expect(replay.body.task_token).toBe(token)
    // The token both hand out is the one whose hash the database keeps.
    const [row] = await database.rows(`SELECT token_hash FROM tasks WHERE reference = '${created.body.reference}'`)
    expect(row?.token_hash).toBe(sha256(token))
    const secrets = await database.rows("SELECT name FROM service_secrets")
    expect(secrets.map((r) => r.name).sort()).toEqual(["mail_unsubscribe", "oauth_cookies", "task_token"])
  })
})

describe("simultaneous start-up, repeated on fresh databases", () => {
  it("two processes starting together on an empty database both come up, migrating and seeding once (2 more rounds)", async () => {
    for (let round = 0; round < 2; round++) {
      const db = await freshDatabase()
      const started = await Promise.allSettled([
        spawnService({ databaseUrl: db.url, env }),
        spawnService({ databaseUrl: db.url, env })
      ])
      const services = started.flatMap((s) => (s.status === "fulfilled" ? [s.value] : []))
      try {
        for (const s of started) if (s.status === "rejected") throw s.reason
        expect(await db.count("schema_migrations")).toBe(migrationIds.length)
        expect(await db.count("participants")).toBe(54)
        expect(await db.count("service_secrets")).toBe(3)
        // Both serve, and a task created on one is readable and replayable on the other.
        const k = key()
        const draft = validDraft()
        const created = await submit(services[0]!, draft, k)
        expect(created.status).toBe(201)
        const replay = await submit(services[1]!, draft, k)
        expect(replay.status).toBe(201)
        expect(replay.body.task_token).toBe(created.body.task_token)
        expect((await read(services[1]!, created.body.reference)).status).toBe(200)
      } finally {
        await Promise.all(services.map((s) => s.stop("SIGKILL")))
        await db.drop()
      }
    }
  }, 40_000)
})
