/**
 * With REDIS_URL, the limit holds across processes: two server processes behind one client
 * address share one bucket.
 */
import { randomUUID } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { freshDatabase, type TestDatabase } from "../support/database.ts"
import { type ServiceProcess, spawnService } from "../support/process.ts"

const redisUrl = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379"

let database: TestDatabase
let one: ServiceProcess
let two: ServiceProcess
beforeAll(async () => {
  database = await freshDatabase()
  const env = {
    REDIS_URL: redisUrl,
    REDIS_KEY_PREFIX: `tm-test-${randomUUID()}:`,
    RATE_LIMIT: "on",
    RATE_LIMIT_READS_PER_MINUTE: "6",
    RATE_LIMIT_WINDOW: "60s"
  }
  ;[one, two] = await Promise.all([
    spawnService({ databaseUrl: database.url, env }),
    spawnService({ databaseUrl: database.url, env })
  ])
})
afterAll(async () => {
  await Promise.all([one?.stop(), two?.stop()])
  await database.drop()
})

describe("a rate limit shared through Redis", () => {
  it("counts the requests of one client on every process against one limit", async () => {
    const statuses: Array<number> = []
    for (let i = 0; i < 8; i++) {
      const target = i % 2 === 0 ? one : two
      const response = await fetch(target.api("/participants?limit=1"))
      statuses.push(response.status)
    }
    // Six reads per window in all, whichever process answers them.
    expect(statuses.filter((s) => s === 200)).toHaveLength(6)
    expect(statuses.slice(6)).toEqual([429, 429])
  })
})
