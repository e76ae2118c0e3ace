/**
 * Signed webhooks across real processes: the outbox lives in the database, not in a process, so an
 * event committed by a process that is then killed with SIGKILL is delivered by the next process
 * on the database — every one, in each task's order, with the body and webhook-id of its first
 * attempt; and two processes on one database make each attempt once (no event is sent
 * twice by both, no retry is made twice).
 * Runs in both vitest projects: on SQLite the processes share one WAL file, on Postgres one database.
 */
import { randomUUID } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { typedCall } from "../support/api_client.ts"
import { backend, freshDatabase, type TestDatabase } from "../support/database.ts"
import { call, type ServiceProcess, spawnService } from "../support/process.ts"
import { digitalDraft, json } from "../support/server.ts"
import { type Received, type Receiver, startReceiver, verified } from "../support/webhooks.ts"

// biome-ignore lint/suspicious/noExplicitAny: JSON bodies are inspected member by member.
type Json = any

const participant = "akiko-tanaka"

// Everything a test started, cleaned up even when it fails half-way.
const started: Array<ServiceProcess> = []
const databases: Array<TestDatabase> = []
const receivers: Array<Receiver> = []

afterAll(async () => {
  await Promise.all(started.map((s) => s.stop("SIGKILL")))
  for (const receiver of receivers) await receiver.close()
  for (const database of databases) await database.drop()
})

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

const newDatabase = async () => {
  const database = await freshDatabase()
  databases.push(database)
  return database
}

const start = async (database: TestDatabase, env: Record<string, string>) => {
  const service = await spawnService({ databaseUrl: database.url, env })
  started.push(service)
  return service
}

/** The last lines of what the processes wrote, for a failure's message. */
const outputOf = (services: ReadonlyArray<ServiceProcess>) =>
  services.map((s) => `--- ${s.url}:\n${s.output().slice(-3000)}`).join("\n")

/** Polls `find` until it gives a value, or fails after `timeoutMs` with `what` and the processes' output. */
const until = async <A>(
  what: string,
  services: ReadonlyArray<ServiceProcess>,
  find: () => Promise<A | undefined>,
  timeoutMs: number
): Promise<A> => {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const found = await find()
    if (found !== undefined) return found
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms\n${outputOf(services)}`)
    await sleep(50)
  }
}

/** A receiver that records the status it gave each request; `policy` says what to answer and may be changed. */
interface Log {
  readonly receiver: Receiver
  readonly statuses: Array<number>
  policy: (request: Received) => number
}

const recording = async (policy: (request: Received) => number): Promise<Log> => {
  const receiver = await startReceiver()
  receivers.push(receiver)
  const log: Log = { receiver, statuses: [], policy }
  receiver.answer = (n) => {
    const status = log.policy(receiver.received[n]!)
    log.statuses[n] = status
    return status
  }
  return log
}

interface Submitted {
  readonly reference: string
  readonly secret: string
}

/** A task offered to one named participant at once (two history entries: open, awaiting_participant). */
// Raw: the receiver is on this machine (plain http), which only a service run with WEBHOOK_ALLOW_PRIVATE takes.
const submit = async (service: ServiceProcess, webhookUrl: string): Promise<Submitted> => {
  const answer = await call(
    service.api("/tasks"),
    json(digitalDraft({ webhook_url: webhookUrl, participant_slug: participant }), {
      "idempotency-key": `wh-${randomUUID()}`
    })
  )
  if (answer.status !== 201) throw new Error(`expected 201, got ${answer.status}: ${answer.text}`)
  expect(answer.body.webhook_secret).toMatch(/^whsec_/)
  return { reference: answer.body.reference, secret: answer.body.webhook_secret }
}

/** Each task's history once the service has offered it. */
const offered = async (services: ReadonlyArray<ServiceProcess>, tasks: ReadonlyArray<Submitted>) => {
  const histories = new Map<string, ReadonlyArray<Json>>()
  for (const [i, task] of tasks.entries()) {
    const on = services[i % services.length]!
    const body = await until(
      `task ${task.reference} offered`,
      services,
      async () => {
        const read = await typedCall(on, (c) =>
          c.getTask({ params: { reference: task.reference }, query: {}, headers: {} })
        )
        return read.body?.state === "awaiting_participant" ? read.body : undefined
      },
      15_000
    )
    histories.set(task.reference, body.history)
  }
  return histories
}

interface EventRow {
  readonly id: string
  readonly reference: string
  readonly historyIndex: number
  readonly state: string
  readonly claim: string | null
  readonly nextAttemptAt: string | null
  readonly body: string
  readonly attempts: ReadonlyArray<{ readonly status: number | null; readonly error: string | null }>
}

/** The outbox as the database holds it, for the tasks given (all when omitted). */
const eventRows = async (database: TestDatabase, references?: ReadonlySet<string>): Promise<Array<EventRow>> =>
  (
    await database.rows(
      "SELECT id, reference, history_index, state, claim, next_attempt_at, body, attempts FROM webhook_events ORDER BY reference, history_index"
    )
  )
    .map((row) => ({
      id: String(row.id),
      reference: String(row.reference),
      historyIndex: Number(row.history_index),
      state: String(row.state),
      claim: row.claim === null ? null : String(row.claim),
      nextAttemptAt: row.next_attempt_at === null ? null : String(row.next_attempt_at),
      body: String(row.body),
      attempts: JSON.parse(String(row.attempts))
    }))
    .filter((row) => references === undefined || references.has(row.reference))

/** Every request a receiver got, in order of arrival, verified with its task's secret. */
interface Delivery {
  readonly n: number
  readonly id: string
  readonly reference: string
  readonly body: string
  readonly status: number
  readonly event: Json
}

const deliveriesOf = (log: Log, secrets: ReadonlyMap<string, string>): Array<Delivery> =>
  log.receiver.received.map((request, n) => {
    const reference = JSON.parse(request.body)?.data?.reference
    const secret = secrets.get(reference)
    if (secret === undefined) throw new Error(`a request for a task of no test: ${request.body.slice(0, 200)}`)
    return {
      n,
      id: String(request.headers["webhook-id"]),
      reference,
      body: request.body,
      status: log.statuses[n]!,
      // Throws when the signature is not the task's.
      event: verified(secret, request)
    }
  })

const delivered = (d: Delivery) => d.status >= 200 && d.status < 300

/**
 * What every receiver of a task's events may rely on: one event per history entry, each with a
 * webhook-id of its own and the same body on every attempt, delivered (2xx) exactly once, and
 * never attempted before the event ahead of it was delivered. Returns the requests per webhook-id.
 */
const expectEveryEventInOrder = (
  deliveries: ReadonlyArray<Delivery>,
  histories: ReadonlyMap<string, ReadonlyArray<Json>>
): Map<string, Array<Delivery>> => {
  const byId = new Map<string, Array<Delivery>>()
  for (const d of deliveries) byId.set(d.id, [...(byId.get(d.id) ?? []), d])
  for (const [id, requests] of byId) {
    // The exact bytes of the first attempt, on every attempt (the body is stored, not rebuilt).
    for (const r of requests) expect(r.body, `webhook-id ${id}`).toBe(requests[0]!.body)
    expect(requests.filter(delivered), `2xx answers for webhook-id ${id}`).toHaveLength(1)
  }
  for (const [reference, history] of histories) {
    const mine = deliveries.filter((d) => d.reference === reference)
    const successes = mine.filter(delivered)
    expect(
      successes.map((d) => d.event.data.state),
      `the states delivered for ${reference}`
    ).toEqual(history.map((h) => h.to))
    expect(new Set(mine.map((d) => d.id)).size).toBe(history.length)
    successes.forEach((d, i) => {
      expect(d.event.type).toBe("task.updated")
      expect(d.event.timestamp).toBe(history[i].at)
      expect(d.event.data.reference).toBe(reference)
      expect(d.event.data.history).toEqual(history.slice(0, i + 1))
      // No attempt of the next event before this one was delivered.
      const next = mine.filter((r) => r.event.data.history.length === i + 2)
      for (const r of next) expect(r.n, `event ${i + 1} of ${reference} sent before event ${i}`).toBeGreaterThan(d.n)
    })
  }
  return byId
}

/** Answers 503 first; the test changes the policy. Retries: 3 quick ones, then 4 s apart. */
const restartEnv = {
  WEBHOOK_ALLOW_PRIVATE: "true",
  WEBHOOK_RETRY_SCHEDULE: ["300ms", "300ms", "300ms", ...Array.from({ length: 7 }, () => "4s")].join(","),
  WEBHOOK_TIMEOUT: "2s",
  TIMER_SWEEP_INTERVAL: "50ms"
}

describe("SIGKILL with events pending", () => {
  it("the next process on the database delivers every event, in each task's order, with the first attempt's body and id", async () => {
    const database = await newDatabase()
    const log = await recording(() => 503)
    const first = await start(database, restartEnv)
    const tasks = await Promise.all(Array.from({ length: 6 }, () => submit(first, log.receiver.url)))
    const secrets = new Map(tasks.map((t) => [t.reference, t.secret]))
    const historiesAtKill = await offered([first], tasks)
    for (const history of historiesAtKill.values()) {
      expect(history.map((h: Json) => h.to)).toEqual(["open", "awaiting_participant"])
    }

    // Kill only while no attempt is under way: a claimed event (an attempt in flight) is held by its
    // lease for WEBHOOK_TIMEOUT + 30 s, too long for this test. Each `open` event has failed four
    // times (3 quick retries, then a 4 s wait); each `awaiting_participant` one waits behind it.
    const rowsAtKill = await until(
      "every task's first event failed 4 times, no attempt under way",
      [first],
      async () => {
        const rows = await eventRows(database)
        if (rows.length !== 2 * tasks.length) return undefined
        const soonest = Date.now() + 1000
        for (const row of rows) {
          expect(row.state, `event ${row.historyIndex} of ${row.reference}`).toBe("pending")
          if (row.historyIndex > 0) {
            // Never attempted while the event ahead of it is pending.
            expect(row.attempts, `event ${row.historyIndex} of ${row.reference}`).toEqual([])
            continue
          }
          if (row.claim !== null || row.attempts.length < 4) return undefined
          if (row.nextAttemptAt === null || Date.parse(row.nextAttemptAt) < soonest) return undefined
        }
        return rows
      },
      20_000
    )
    const killed = await first.stop("SIGKILL")
    expect(killed.signal).toBe("SIGKILL")
    const receivedAtKill = log.receiver.received.length

    // Every request made so far was a failed attempt of a first event, recorded as such.
    const beforeKill = deliveriesOf(log, secrets)
    expect(beforeKill.filter(delivered)).toEqual([])
    expect(new Set(beforeKill.map((d) => d.event.data.state))).toEqual(new Set(["open"]))
    expect(receivedAtKill).toBe(rowsAtKill.reduce((sum, row) => sum + row.attempts.length, 0))
    for (const row of rowsAtKill.filter((r) => r.historyIndex === 0)) {
      expect(row.attempts.map((a) => a.status)).toEqual(row.attempts.map(() => 503))
      expect(beforeKill.filter((d) => d.id === row.id)).toHaveLength(row.attempts.length)
    }
    // The dead process left the outbox as it was.
    expect(await eventRows(database)).toEqual(rowsAtKill)

    log.policy = () => 200
    const second = await start(database, restartEnv)
    const restarted = Date.now()
    const rowsAfter = await until(
      "every event delivered by the second process",
      [second],
      async () => {
        const rows = await eventRows(database)
        return rows.every((row) => row.state === "delivered") ? rows : undefined
      },
      20_000
    )
    const deliveredAfterMs = Date.now() - restarted
    // A short look for anything sent after the last delivery was recorded (a duplicate).
    await sleep(300)

    // The same events, none lost and none added; the tasks have not moved since.
    expect(rowsAfter.map((r) => r.id)).toEqual(rowsAtKill.map((r) => r.id))
    const histories = new Map<string, ReadonlyArray<Json>>()
    for (const task of tasks) {
      const read = await typedCall(second, (c) =>
        c.getTask({ params: { reference: task.reference }, query: {}, headers: {} })
      )
      expect(read.body.history).toEqual(historiesAtKill.get(task.reference))
      histories.set(task.reference, read.body.history)
    }
    const deliveries = deliveriesOf(log, secrets)
    const byId = expectEveryEventInOrder(deliveries, histories)
    expect([...byId.keys()].sort()).toEqual(rowsAtKill.map((r) => r.id).sort())
    for (const row of rowsAfter) {
      const requests = byId.get(row.id) ?? []
      const before = rowsAtKill.find((r) => r.id === row.id)!
      // One more attempt than before the kill (the delivery), each one recorded and received once.
      expect(row.attempts).toHaveLength(before.attempts.length + 1)
      expect(requests.map((r) => r.status)).toEqual(row.attempts.map((a) => a.status))
      expect(row.body).toBe(requests[0]!.body)
    }
    // Every delivery after the restart came from the second process.
    for (const d of deliveries.filter(delivered)) expect(d.n).toBeGreaterThanOrEqual(receivedAtKill)
    console.info(
      `[${backend}] webhooks across SIGKILL: ${rowsAtKill.length} events pending at the kill (${receivedAtKill} failed attempts made), all delivered ${deliveredAfterMs} ms after the next process was ready`
    )
  }, 60_000)
})

/** Two processes, retries 300 ms apart. */
const sharedEnv = {
  WEBHOOK_ALLOW_PRIVATE: "true",
  WEBHOOK_RETRY_SCHEDULE: Array.from({ length: 10 }, () => "300ms").join(","),
  WEBHOOK_TIMEOUT: "5s",
  TIMER_SWEEP_INTERVAL: "50ms"
}

// On Postgres this is the claim's `FOR UPDATE SKIP LOCKED` at work; on SQLite the two processes
// share one WAL file, where one writer at a time makes a claim exclusive: both must hold.
describe("two processes on one database", () => {
  let database: TestDatabase
  let services: ReadonlyArray<ServiceProcess>

  beforeAll(async () => {
    database = await newDatabase()
    services = await Promise.all([start(database, sharedEnv), start(database, sharedEnv)])
  })

  /** 30 tasks submitted at once, alternating between the processes; every event delivered. */
  const round = async (log: Log) => {
    const tasks = await Promise.all(
      Array.from({ length: 30 }, (_, i) => submit(services[i % services.length]!, log.receiver.url))
    )
    const secrets = new Map(tasks.map((t) => [t.reference, t.secret]))
    const references = new Set(secrets.keys())
    const histories = await offered(services, tasks)
    const entries = [...histories.values()].reduce((sum, h) => sum + h.length, 0)
    const rows = await until(
      "every event delivered",
      services,
      async () => {
        const rows = await eventRows(database, references)
        return rows.length === entries && rows.every((row) => row.state === "delivered") ? rows : undefined
      },
      20_000
    )
    // A short look for a second attempt made by the other process after the delivery was recorded.
    await sleep(500)
    const deliveries = deliveriesOf(log, secrets)
    const byId = expectEveryEventInOrder(deliveries, histories)
    expect([...byId.keys()].sort()).toEqual(rows.map((r) => r.id).sort())
    // Each attempt the outbox recorded reached the receiver once, and no other did.
    for (const row of rows) {
      expect((byId.get(row.id) ?? []).map((r) => r.status)).toEqual(row.attempts.map((a) => a.status))
    }
    return { entries, deliveries, byId }
  }

  it("a receiver answering 200: each event arrives exactly once", async () => {
    const log = await recording(() => 200)
    const { entries, deliveries, byId } = await round(log)
    expect(entries).toBe(60)
    expect(deliveries).toHaveLength(entries)
    for (const [id, requests] of byId) expect(requests, `requests with webhook-id ${id}`).toHaveLength(1)
  })

  it("a receiver failing each event's first attempt: each event arrives exactly twice", async () => {
    const seen = new Set<string>()
    const log = await recording((request) => {
      const id = String(request.headers["webhook-id"])
      if (seen.has(id)) return 200
      seen.add(id)
      return 500
    })
    const { entries, deliveries, byId } = await round(log)
    expect(entries).toBe(60)
    expect(deliveries).toHaveLength(2 * entries)
    for (const [id, requests] of byId) {
      expect(
        requests.map((r) => r.status),
        `requests with webhook-id ${id}`
      ).toEqual([500, 200])
    }
  })
})
