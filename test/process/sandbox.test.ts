/**
 * The sandbox as real processes (issue 27): a sandbox never runs on a live database, nor a live
 * service on a sandbox's (start-up is refused, naming SANDBOX, and the process exits 1); the
 * sandbox's clock survives a restart; and a move of the clock in one process is the time of every
 * other. Runs in both vitest projects: on SQLite the processes share one WAL file.
 */
import { randomUUID } from "node:crypto"
import { afterAll, describe, expect, it } from "vitest"
import { TaskDraft } from "../../src/domain/task_draft/schema.ts"
import { asPayload, typedCall } from "../support/api_client.ts"
import { freshDatabase, type TestDatabase } from "../support/database.ts"
import { call, type ServiceProcess, spawnService } from "../support/process.ts"
import { digitalDraft, json } from "../support/server.ts"

const started: Array<ServiceProcess> = []
const databases: Array<TestDatabase> = []

afterAll(async () => {
  await Promise.all(started.map((s) => s.stop("SIGKILL")))
  for (const database of databases) await database.drop()
})

const newDatabase = async () => {
  const database = await freshDatabase()
  databases.push(database)
  return database
}

const start = async (database: TestDatabase, env: Record<string, string> = {}) => {
  const service = await spawnService({ databaseUrl: database.url, env: { TIMER_SWEEP_INTERVAL: "50ms", ...env } })
  started.push(service)
  return service
}

/** A start that must be refused: the process exits 1 without answering, saying why. */
const refusedStart = async (database: TestDatabase, env: Record<string, string>) => {
  const failure = await start(database, env).then(
    () => undefined,
    (error: Error) => error.message
  )
  expect(failure).toBeDefined()
  expect(failure).toMatch(/service exited before answering \(1\)/)
  expect(failure).toMatch(/Invalid configuration: SANDBOX: /)
  return failure!
}

const sandboxEnv = { SANDBOX: "on" }

describe("the sandbox's database", () => {
  it("a live database refuses a sandbox, and a sandbox's database refuses a live start", {
    timeout: 90_000
  }, async () => {
    const liveDatabase = await newDatabase()
    const liveService = await start(liveDatabase)
    const created = await typedCall(liveService, (c) =>
      c.createTask({ payload: asPayload(TaskDraft, digitalDraft()), headers: { "idempotency-key": randomUUID() } })
    )
    expect(created.status).toBe(201)
    await liveService.stop()
    expect(await refusedStart(liveDatabase, sandboxEnv)).toMatch(/a live service's/)
    // Refused before anything was written: no simulated participant reached the live directory.
    const again = await start(liveDatabase)
    expect((await typedCall(again, (c) => c.getParticipant({ params: { slug: "sim-delivers" } }))).status).toBe(404)
    await again.stop()

    const sandboxDatabase = await newDatabase()
    const sandbox = await start(sandboxDatabase, sandboxEnv)
    expect((await typedCall(sandbox, (c) => c.index())).body.sandbox).toBe(true)
    await sandbox.stop()
    expect(await refusedStart(sandboxDatabase, {})).toMatch(/a sandbox's/)
  })

  it("keeps the clock's moves across a restart", { timeout: 90_000 }, async () => {
    const database = await newDatabase()
    const first = await start(database, sandboxEnv)
    const moved = await call(first.api("/sandbox/clock"), json({ advance: "P2DT3H" }))
    expect(moved.status).toBe(200)
    expect(moved.body.advanced_by).toBe("P2DT3H")
    await first.stop()
    const second = await start(database, sandboxEnv)
    const read = await call(second.api("/sandbox/clock"))
    expect(read.body.advanced_by).toBe("P2DT3H")
    expect(Date.parse(read.body.now) - Date.now()).toBeGreaterThan(51 * 3600_000 - 60_000)
  })
})

const read = (on: ServiceProcess, reference: string) =>
  typedCall(on, (c) => c.getTask({ params: { reference }, query: {}, headers: {} }))

// The sandbox clock is not in the API's description (only a sandbox serves it): its calls are raw.
describe("two processes on one database", () => {
  it("share the sandbox's clock: a move in one is the other's time within seconds", { timeout: 90_000 }, async () => {
    const database = await newDatabase()
    const [a, b] = await Promise.all([start(database, sandboxEnv), start(database, sandboxEnv)])
    // A task named for sim-silent, offered; the move of the clock in one process lapses it for both.
    const created = await typedCall(a!, (c) =>
      c.createTask({
        payload: asPayload(TaskDraft, digitalDraft({ participant_slug: "sim-silent" })),
        headers: { "idempotency-key": randomUUID() }
      })
    )
    expect(created.status).toBe(201)
    // Offered before the clock moves: an offer made after the move (the dispatcher's, when the
    // submission's own could not be made at once on a loaded machine) would lapse a day later.
    const offeredBy = Date.now() + 30_000
    for (;;) {
      const task = (await read(a!, created.body.reference)).body
      if (task.state === "awaiting_participant") break
      if (Date.now() > offeredBy) throw new Error(`the task was never offered: ${task.state}`)
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    expect((await call(a!.api("/sandbox/clock"), json({ advance: "PT25H" }))).status).toBe(200)
    // The other process reads the clock again every second and sweeps every 50 ms (alone, the
    // whole test takes ~2 s); the margin is for a machine loaded by the rest of the suite.
    const deadline = Date.now() + 30_000
    for (;;) {
      const clock = (await call(b!.api("/sandbox/clock"))).body
      if (clock.advanced_by === "P1DT1H") break
      if (Date.now() > deadline) throw new Error(`the other process still says ${JSON.stringify(clock)}`)
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    for (;;) {
      const task = (await read(b!, created.body.reference)).body
      if (task.state === "declined") {
        expect(task.outcome.reason).toBe("accept_timeout")
        break
      }
      if (Date.now() > deadline) {
        throw new Error(
          `the task stayed ${task.state}; process a wrote:\n${a!.output()}\nprocess b wrote:\n${b!.output()}`
        )
      }
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  })
})
