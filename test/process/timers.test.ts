/**
 * Timers are kept in the database, not in a process: an offer that lapses while no process is
 * running is acted on by the next one that starts, and a review window keeps counting across a
 * restart. The processes run as a sandbox, whose clock is kept in the database too: the test moves
 * it an hour on while nobody runs, instead of waiting for the offer to lapse.
 */
import { randomUUID } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { TaskDraft } from "../../src/domain/task_draft/schema.ts"
import { asPayload, exchange } from "../support/api_client.ts"
import { freshDatabase, type TestDatabase } from "../support/database.ts"
import { spawnService } from "../support/process.ts"
import { awaitTask, validDraft } from "../support/server.ts"

let database: TestDatabase
beforeAll(async () => {
  database = await freshDatabase()
})
afterAll(() => database.drop())

const env = { SANDBOX: "on", OFFER_TIMEOUT: "1h", TIMER_SWEEP_INTERVAL: "100ms" }
const hour = 3600_000

/** The task once in `state` (read through the typed client, long-polling); fails after `timeoutMs`. */
const waitForState = (url: string, state: string, timeoutMs: number) =>
  awaitTask(url, (task) => task.state === state, { timeoutMs })

describe("timers across a restart", () => {
  it("an offer that lapsed while the service was down is declined by the next process", async () => {
    const first = await spawnService({ databaseUrl: database.url, env })
    let reference: string
    try {
      const draft = validDraft({ participant_slug: "lukas-schmidt", timing: "2030-12-01T17:00:00Z" })
      const response = await exchange(first, (c) =>
        c.createTask({ payload: asPayload(TaskDraft, draft), headers: { "idempotency-key": randomUUID() } })
      )
      expect(response.status).toBe(201)
      reference = (await response.json()).reference
      const offered = await waitForState(first.api(`/tasks/${reference}`), "awaiting_participant", 5000)
      expect(offered.state).toBe("awaiting_participant")
    } finally {
      await first.stop("SIGTERM")
    }
    // Nobody runs while the offer lapses: the sandbox's clock moves an hour and a minute on.
    await database.write(`UPDATE service_mode SET clock_offset_ms = clock_offset_ms + ${hour + 60_000}`)
    const rows = await database.rows(`SELECT state, offer_expires_at FROM tasks WHERE reference = '${reference!}'`)
    expect(rows[0]?.state).toBe("awaiting_participant")
    expect(String(rows[0]?.offer_expires_at) <= new Date(Date.now() + hour + 60_000).toISOString()).toBe(true)

    const second = await spawnService({ databaseUrl: database.url, env })
    try {
      const task = await waitForState(second.api(`/tasks/${reference!}`), "declined", 5000)
      expect(task.state).toBe("declined")
      expect(task.outcome.reason).toBe("accept_timeout")
      expect(task.history.at(-1)).toMatchObject({ from: "awaiting_participant", to: "declined", actor: "service" })
    } finally {
      await second.stop("SIGTERM")
    }
  })
})
