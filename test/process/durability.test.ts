// Durability and shutdown of the real process (the issue's guarantees): no task acknowledged with
// 201 is ever lost, even when the process is killed with SIGKILL under a write load; SIGTERM drains
// the requests in flight before the process exits; a restart keeps every task and every key.
// Runs in both vitest projects: a SQLite file (WAL) or a Postgres database per test.
import { randomUUID } from "node:crypto"
import { request as httpRequest } from "node:http"
import { DatabaseSync } from "node:sqlite"
import { afterAll, describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { TaskDraft } from "../../src/domain/task_draft/schema.ts"
import { migrationIds } from "../../src/sql/migrations.ts"
import { asPayload, exchange } from "../support/api_client.ts"
import { backend, freshDatabase, onPostgres, type TestDatabase } from "../support/database.ts"
import { freePort, type ServiceProcess, spawnService } from "../support/process.ts"
import { json, validDraft } from "../support/server.ts"

// biome-ignore lint/suspicious/noExplicitAny: JSON bodies are inspected member by member.
type Json = any

const env = { RATE_LIMIT: "off" }

// Everything a test started, cleaned up even when it fails half-way.
const started: Array<ServiceProcess> = []
const databases: Array<TestDatabase> = []

const start = async (database: TestDatabase) => {
  const service = await spawnService({ databaseUrl: database.url, env })
  started.push(service)
  return service
}

const newDatabase = async () => {
  const database = await freshDatabase()
  databases.push(database)
  return database
}

afterAll(async () => {
  await Promise.all(started.map((s) => s.stop("SIGKILL")))
  for (const database of databases) await database.drop()
})

const key = () => `dur-${randomUUID()}`
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

const draftFor = (k: string) => validDraft({ action: `Photograph the storefront of shop ${k}` })

/** A submission with its key, and a read, through the typed client (once the process is up). */
const create = (on: { readonly url: string }, draft: Record<string, unknown>, k: string) =>
  exchange(on, (c) => c.createTask({ payload: asPayload(TaskDraft, draft), headers: { "idempotency-key": k } }))
const read = (on: { readonly url: string }, reference: string) =>
  exchange(on, (c) => c.getTask({ params: { reference }, query: {}, headers: {} }))

/** A task without `url` (it names the answering process's port) and without `task_token`. */
/** What a task was recorded with; the lifecycle members move on by themselves after the 201. */
const comparable = (task: Json) => {
  const {
    url: _url,
    task_token: _token,
    state: _state,
    history: _history,
    updated_at: _updated,
    next_step: _next,
    participant_slug: _participant,
    ...rest
  } = task
  return rest
}

/** Runs `f` over `items`, `concurrency` at a time. */
const eachLimited = async <A>(items: ReadonlyArray<A>, concurrency: number, f: (item: A) => Promise<void>) => {
  let next = 0
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) await f(items[next++]!)
    })
  )
}

interface Acknowledged {
  readonly key: string
  readonly draft: Record<string, unknown>
  readonly body: Json
}

/**
 * `writers` loops POSTing valid drafts with fresh keys as fast as they can. A task counts as
 * acknowledged only when the whole 201 body arrived. A key whose request was sent before the
 * process exited but got no 201 (a connection error, a cut body, another status) is "uncertain":
 * the task may or may not have been recorded.
 */
const writeLoad = (service: ServiceProcess, writers: number) => {
  const acknowledged = new Map<string, Acknowledged>()
  const uncertain = new Map<string, Record<string, unknown>>()
  const errors = new Map<string, number>()
  let exited = false
  void service.exited.then(() => {
    exited = true
  })
  let stopped = false
  const loops = Array.from({ length: writers }, async () => {
    while (!stopped) {
      const k = key()
      const draft = draftFor(k)
      const sentBeforeExit = !exited
      try {
        // Raw: how the request fails when the process is killed under it (the cause's code) is the subject.
        const response = await fetch(service.api("/tasks"), json(draft, { "idempotency-key": k }))
        const text = await response.text()
        if (response.status !== 201) throw new Error(`status ${response.status}: ${text.slice(0, 200)}`)
        const body = JSON.parse(text)
        acknowledged.set(body.reference, { key: k, draft, body })
      } catch (error) {
        if (sentBeforeExit) uncertain.set(k, draft)
        const cause = (error as { cause?: { code?: string } }).cause?.code ?? String(error).slice(0, 60)
        errors.set(cause, (errors.get(cause) ?? 0) + 1)
        // After the kill the connection is refused at once; do not spin.
        if (exited) await sleep(5)
      }
    }
  })
  return {
    acknowledged,
    uncertain,
    errors,
    stop: async () => {
      stopped = true
      await Promise.all(loops)
    }
  }
}

describe("SIGKILL under a write load", () => {
  it("every task acknowledged with 201 is readable after a restart (killed at 2 different moments)", async () => {
    const database = await newDatabase()
    /** reference → what the 201 said, over both rounds. */
    const acknowledged = new Map<string, Acknowledged>()
    /** Every reference the database may hold: acknowledged ones and those of retried uncertain keys. */
    const known = new Set<string>()
    let service = await start(database)
    const rounds = [
      { loadMs: 1500, minimum: 20 },
      { loadMs: 700 + Math.floor(Math.random() * 400), minimum: 5 }
    ]
    const report: Array<Record<string, unknown>> = []
    for (const [round, { loadMs, minimum }] of rounds.entries()) {
      const load = writeLoad(service, 8)
      const began = Date.now()
      while (Date.now() - began < loadMs || load.acknowledged.size < minimum) {
        if (Date.now() - began > 10_000) throw new Error(`only ${load.acknowledged.size} tasks acknowledged in 10 s`)
        await sleep(10)
      }
      const ackedAtKill = load.acknowledged.size
      const killedAfterMs = Date.now() - began
      const exit = await service.stop("SIGKILL")
      expect(exit.signal).toBe("SIGKILL")
      // The writers keep going for a moment and only get connection errors.
      await sleep(100)
      await load.stop()
      for (const [reference, ack] of load.acknowledged) {
        acknowledged.set(reference, ack)
        known.add(reference)
      }

      service = await start(database)

      // Every acknowledged task, from this round and the ones before, reads back as it was created.
      const entries = [...acknowledged.values()]
      const missing: Array<string> = []
      await eachLimited(entries, 8, async ({ body }) => {
        const response = await read(service, body.reference)
        const text = await response.text()
        if (response.status !== 200) {
          missing.push(`${body.reference}: ${response.status} ${text.slice(0, 120)}`)
          return
        }
        const task = JSON.parse(text)
        expect(comparable(task)).toEqual(comparable(body))
        expect(task.url).toBe(service.api(`/tasks/${body.reference}`))
      })
      expect(missing).toEqual([])
      expect(await database.count("tasks")).toBeGreaterThanOrEqual(acknowledged.size)

      // Keys survive the kill too: a replay (on the new process) returns the acknowledged task.
      const sample = [...load.acknowledged.values()].filter((_, i) => i % 10 === 0)
      await eachLimited(sample, 8, async ({ key: k, draft, body }) => {
        const response = await create(service, draft, k)
        const replay = await response.json()
        expect(response.status).toBe(201)
        expect(response.headers.get("idempotent-replayed")).toBe("true")
        expect(replay.reference).toBe(body.reference)
        expect(replay.task_token).toBe(body.task_token)
      })

      // A submission cut off by the kill, retried with its key, gets its task: one, never two.
      await eachLimited([...load.uncertain], 8, async ([k, draft]) => {
        const response = await create(service, draft, k)
        const text = await response.text()
        if (response.status !== 201) throw new Error(`retry of ${k}: ${response.status} ${text}`)
        known.add(JSON.parse(text).reference)
      })
      // Every row in the table is a task some writer was told about or retried: nothing twice.
      expect(await database.count("tasks")).toBe(known.size)

      report.push({
        round,
        killedAfterMs,
        ackedAtKill,
        acknowledged: load.acknowledged.size,
        uncertain: load.uncertain.size,
        errors: Object.fromEntries(load.errors)
      })
    }
    expect(acknowledged.size).toBeGreaterThanOrEqual(25)
    console.info(`[${backend}] SIGKILL rounds: ${JSON.stringify(report)}`)
  }, 40_000)
})

interface Outcome {
  readonly label: string
  /** A complete response, or the error code of a request that got none. */
  readonly status?: number
  readonly body?: Json
  readonly error?: string
  /** Whether the TCP connection was established before the failure. */
  readonly connected: boolean
  /** performance.now() when the outcome was known. */
  readonly at: number
}

/**
 * One request on its own connection (no keep-alive pool: each outcome belongs to one request).
 * `hold`, for a body, sends its first half at once and the rest when the promise resolves.
 */
const send = (
  url: string,
  label: string,
  options: {
    method?: string
    body?: unknown
    headers?: Record<string, string>
    hold?: Promise<void>
    onConnect?: () => void
  } = {}
) =>
  new Promise<Outcome>((resolve) => {
    let connected = false
    const payload = options.body === undefined ? undefined : Buffer.from(JSON.stringify(options.body))
    const fail = (error: NodeJS.ErrnoException) =>
      resolve({ label, error: error.code ?? error.message, connected, at: performance.now() })
    const req = httpRequest(
      url,
      {
        method: options.method ?? "GET",
        agent: false,
        headers: {
          ...(payload === undefined
            ? {}
            : { "content-type": "application/json", "content-length": String(payload.length) }),
          ...options.headers
        }
      },
      (res) => {
        let text = ""
        res.setEncoding("utf8")
        res.on("data", (chunk) => {
          text += chunk
        })
        res.on("error", fail)
        res.on("end", () => {
          if (!res.complete) return fail(Object.assign(new Error("response cut short"), { code: "INCOMPLETE" }))
          let body: Json
          try {
            body = JSON.parse(text)
          } catch {
            return fail(Object.assign(new Error(`not JSON: ${text.slice(0, 80)}`), { code: "NOT_JSON" }))
          }
          resolve({ label, status: res.statusCode ?? 0, body, connected, at: performance.now() })
        })
      }
    )
    req.on("socket", (socket) =>
      socket.once("connect", () => {
        connected = true
        options.onConnect?.()
      })
    )
    req.on("error", fail)
    if (payload === undefined) req.end()
    else if (options.hold === undefined) req.end(payload)
    else {
      const half = Math.floor(payload.length / 2)
      req.write(payload.subarray(0, half))
      void options.hold.then(() => req.end(payload.subarray(half)))
    }
  })

const exitWithin = (service: ServiceProcess, ms: number) =>
  Promise.race([
    service.exited,
    sleep(ms).then(() => {
      throw new Error(`the process had not exited ${ms} ms after the signal:\n${service.output().slice(-2000)}`)
    })
  ])

describe("SIGTERM", () => {
  let drainExit: { exit: { code: number | null; signal: NodeJS.Signals | null }; output: string } | undefined

  it("drains the requests in flight: every accepted request gets its whole response, every 201 is stored", async () => {
    const database = await newDatabase()
    const service = await start(database)
    let signalled = 0
    let releaseHeld!: () => void
    const held = new Promise<void>((resolve) => {
      releaseHeld = resolve
    })
    // 10 submissions whose body is only half sent when the signal arrives: in flight for sure.
    const halfSent = Array.from({ length: 10 }, () => {
      const k = key()
      return send(service.api("/tasks"), `POST (held) ${k}`, {
        method: "POST",
        body: draftFor(k),
        headers: { "idempotency-key": k },
        hold: held
      })
    })
    // Let the server take their headers in while it is otherwise idle.
    await sleep(200)
    // 100 concurrent requests: 50 submissions with distinct keys, 50 participant listings.
    let connections = 0
    let allConnected!: () => void
    const connected = new Promise<void>((resolve) => {
      allConnected = resolve
    })
    const onConnect = () => {
      if (++connections === 100) allConnected()
    }
    const requests = Array.from({ length: 100 }, (_, i) => {
      if (i % 2 === 1) return send(service.api("/participants?limit=100"), `GET participants #${i}`, { onConnect })
      const k = key()
      return send(service.api("/tasks"), `POST ${k}`, {
        method: "POST",
        body: draftFor(k),
        headers: { "idempotency-key": k },
        onConnect
      })
    })
    // Signal only once the server has taken every one of them in: a connection still waiting in
    // the kernel's accept queue when the listening socket closes is reset, and was never accepted by
    // the service. Connections are accepted in order, so once a later connection (the marker) has
    // been answered, all 100 were accepted.
    await Promise.race([connected, sleep(5000)])
    expect(connections).toBe(100)
    const marker = await send(`${service.url}/healthz`, "marker")
    expect(marker.status).toBe(200)
    signalled = performance.now()
    service.child.kill("SIGTERM")
    // The rest of the held bodies arrives after the shutdown has begun.
    await sleep(300)
    releaseHeld()

    const outcomes = await Promise.all([...requests, ...halfSent])
    const exit = await exitWithin(service, 15_000)
    const exitedAfterMs = Math.round(performance.now() - signalled)
    drainExit = { exit, output: service.output() }

    const complete = outcomes.filter((o) => o.status === 201 || o.status === 200)
    // A refused connection after the shutdown began is acceptable (it was never accepted).
    const refused = outcomes.filter((o) => o.error === "ECONNREFUSED" && o.at >= signalled)
    const broken = outcomes.filter((o) => !complete.includes(o) && !refused.includes(o))
    expect(
      broken.map((o) => `${o.label}: ${o.error ?? `${o.status} ${JSON.stringify(o.body).slice(0, 200)}`}`)
    ).toEqual([])
    // The test means something only if requests were still in flight when the signal arrived.
    const answeredAfterSignal = complete.filter((o) => o.at > signalled).length
    expect(answeredAfterSignal).toBeGreaterThan(0)
    const burstAfterSignal = complete.filter((o) => o.at > signalled && !o.label.includes("(held)")).length
    // The held submissions were accepted before the signal: all of them must complete.
    for (const o of await Promise.all(halfSent)) expect(o.status, `${o.label}: ${o.error}`).toBe(201)

    for (const o of complete) {
      if (o.label.startsWith("GET")) {
        expect(o.status).toBe(200)
        expect(o.body.data).toHaveLength(54)
      } else expect(o.status).toBe(201)
    }
    const references = complete.filter((o) => o.status === 201).map((o) => o.body.reference as string)
    const stored = new Set((await database.rows("SELECT reference FROM tasks")).map((row) => String(row.reference)))
    expect(references.filter((r) => !stored.has(r))).toEqual([])
    expect(stored.size).toBe(references.length)

    expect(exit.signal).not.toBe("SIGKILL")
    expect(exitedAfterMs).toBeLessThan(15_000)
    console.info(
      `[${backend}] SIGTERM drain: ${complete.length} complete (${answeredAfterSignal} after the signal, ${burstAfterSignal} of them from the burst), ${refused.length} refused; exit ${JSON.stringify(exit)} after ${exitedAfterMs} ms`
    )
  })

  it("exits with code 0 after the drain", () => {
    // The exit of the drain test above (no second process needed for this).
    if (drainExit === undefined) throw new Error("the drain test did not get as far as the exit")
    const { exit, output } = drainExit
    if (!(exit.code === 0 || (exit.code === null && exit.signal === "SIGTERM"))) {
      throw new Error(
        `expected exit code 0 (or death by SIGTERM) after a drained SIGTERM, got ${JSON.stringify(exit)}\n${output.slice(-1000)}`
      )
    }
  })

  it("a restart keeps everything: the tasks read back the same and their keys replay", async () => {
    const database = await newDatabase()
    const first = await start(database)
    const keys = Array.from({ length: 10 }, key)
    const created: Array<Json> = []
    for (const k of keys) {
      const response = await create(first, draftFor(k), k)
      expect(response.status).toBe(201)
      created.push(await response.json())
    }
    const firstReads: Array<Json> = []
    for (const task of created) firstReads.push(await (await read(first, task.reference)).json())
    first.child.kill("SIGTERM")
    await exitWithin(first, 15_000)

    const second = await start(database)
    expect(second.url).not.toBe(first.url)
    for (const [i, task] of created.entries()) {
      const response = await read(second, task.reference)
      expect(response.status).toBe(200)
      const body = await response.json()
      expect(comparable(body)).toEqual(comparable(firstReads[i]))
      expect(comparable(body)).toEqual(comparable(task))
      expect(body.url).toBe(second.api(`/tasks/${task.reference}`))
    }
    for (const [i, k] of keys.entries()) {
      const response = await create(second, draftFor(k), k)
      expect(response.status).toBe(201)
      expect(response.headers.get("idempotent-replayed")).toBe("true")
      const replay = await response.json()
      expect(replay.reference).toBe(created[i].reference)
      expect(replay.task_token).toBe(created[i].task_token)
      expect(comparable(replay)).toEqual(comparable(created[i]))
    }
    expect(await database.count("tasks")).toBe(10)
    expect(await database.count("participants")).toBe(54)
    expect(await database.count("schema_migrations")).toBe(migrationIds.length)
  })
})

/**
 * Keeps the database busy so that a starting process waits on its migrations: on Postgres a lock on
 * the migrations table, on SQLite a write transaction on the file. Returns the release function.
 */
const blockMigrations = async (database: TestDatabase): Promise<() => Promise<void>> => {
  if (backend === "sqlite") {
    const filename = database.url.slice("sqlite:".length)
    const db = new DatabaseSync(filename)
    db.exec("PRAGMA journal_mode = WAL")
    db.exec("BEGIN IMMEDIATE")
    return async () => {
      db.exec("COMMIT")
      db.close()
    }
  }
  await database.rows(
    "CREATE TABLE schema_migrations (migration_id integer primary key, created_at timestamp with time zone not null default now(), name text not null)"
  )
  let release!: () => void
  const released = new Promise<void>((resolve) => {
    release = resolve
  })
  let locked!: () => void
  const isLocked = new Promise<void>((resolve) => {
    locked = resolve
  })
  const holder = onPostgres(database.url, (sql) =>
    sql.withTransaction(
      Effect.gen(function* () {
        yield* sql`LOCK TABLE schema_migrations IN ACCESS EXCLUSIVE MODE`
        locked()
        yield* Effect.promise(() => released)
      })
    )
  )
  await isLocked
  return async () => {
    release()
    await holder
  }
}

/** On Postgres: whether some session of the database waits for a lock (the starting process, behind ours). */
const someoneWaitsOnALock = async (database: TestDatabase) =>
  Number(
    (
      await database.rows(
        "SELECT COUNT(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'"
      )
    )[0]?.n
  ) > 0

describe("start-up", () => {
  it("a request that reaches a process while it is still starting is answered (or refused), never left hanging", async () => {
    const database = await newDatabase()
    const release = await blockMigrations(database)
    const port = await freePort()
    const url = `http://127.0.0.1:${port}`
    const spawnedAt = Date.now()
    const ready = spawnService({ databaseUrl: database.url, port, env }).then((service) => {
      started.push(service)
      return service
    })
    ready.catch(() => {})
    let knockUntil: number
    if (backend === "postgres") {
      // Wait until the new process is queued behind our lock: it is in the middle of starting.
      const until = Date.now() + 15_000
      while (!(await someoneWaitsOnALock(database))) {
        if (Date.now() > until) throw new Error("the starting process never reached its migrations")
        await sleep(50)
      }
      knockUntil = Date.now() + 3000
    } else {
      // A SQLite process waits out a locked database for 5 s (its busy timeout) and then gives up:
      // knock for 3.5 s after the spawn at most.
      knockUntil = spawnedAt + 3500
    }
    // Knock while the migrations are still blocked: a refused connection is fine (not listening
    // yet), an answer is fine (e.g. 503 while starting); a connection accepted and left unanswered
    // is not. The first one not refused at once is kept to see whether it is ever answered.
    let probe: Promise<Outcome> | undefined
    const refusals: Array<string> = []
    while (probe === undefined && Date.now() < knockUntil) {
      const attempt = send(`${url}/healthz`, "GET /healthz during start-up")
      const first = await Promise.race([attempt, sleep(300).then(() => "pending" as const)])
      if (first === "pending" || first.status !== undefined) probe = attempt
      else {
        refusals.push(first.error ?? "")
        await sleep(50)
      }
    }
    expect(refusals.filter((code) => code !== "ECONNREFUSED")).toEqual([])
    await sleep(300)
    await release()
    const service = await ready
    const outcome = await Promise.race([
      probe ?? Promise.resolve(undefined),
      sleep(2000).then(() => "hanging" as const)
    ])
    console.info(
      `[${backend}] start-up: ${refusals.length} knocks refused while blocked; ${probe === undefined ? "none accepted before the service was ready" : `one accepted: ${JSON.stringify(outcome === "hanging" ? "no answer" : { status: outcome?.status, error: outcome?.error })}`}`
    )
    if (outcome === "hanging") {
      throw new Error(
        "a request accepted while the process was starting (port open, migrations still running) was never answered: still no response 2 s after the service became ready"
      )
    }
    if (outcome !== undefined && outcome.error !== undefined) expect(outcome.error).toBe("ECONNREFUSED")
    expect((await exchange(service, (c) => c.healthz())).status).toBe(200)
  }, 30_000)
})
