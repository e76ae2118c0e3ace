// The embedded authorization server's sweeper, as a running server does it (at start, then every
// minute): expired OAuth records, retired signing keys past their retention and attempt counters
// whose window ended long ago are deleted; what is still in use is kept.
import { afterAll, beforeAll, describe, it } from "@effect/vitest"
import { freshDatabase, type TestDatabase } from "../support/database.ts"
import { startServer } from "../support/server.ts"

let database: TestDatabase

beforeAll(async () => {
  database = await freshDatabase()
  // Started once to migrate the database.
  await (await startServer({ database })).close()
})
afterAll(async () => {
  await database?.drop()
})

const write = (statement: string) => database.write(statement)

const keysOf = async (query: string) => (await database.rows(query)).map((row) => Object.values(row)[0])

describe("the OAuth sweeper", () => {
  it("deletes what has expired when the server starts, and keeps what is in use", async ({ expect }) => {
    const longAgo = "2020-01-01T00:00:00.000Z"
    const now = new Date().toISOString()
    const later = new Date(Date.now() + 3600_000).toISOString()
    await write(
      `INSERT INTO sign_in_attempts (key, failures, window_started_at) VALUES ('address:old', 3, '${longAgo}'), ('address:now', 1, '${now}')`
    )
    await write(`
      INSERT INTO oauth_records (model, id, payload, expires_at, created_at) VALUES
        ('Session', 'expired', '{}', '${longAgo}', '${longAgo}'), ('Session', 'live', '{}', '${later}', '${now}')
    `)
    await write(
      `INSERT INTO oauth_signing_keys (kid, private_jwk, created_at, retired_at) VALUES ('retired-long-ago', '{}', '${longAgo}', '${longAgo}')`
    )
    const server = await startServer({ database })
    try {
      const deadline = Date.now() + 20_000
      while (
        Date.now() < deadline &&
        ((await database.count("sign_in_attempts")) > 1 ||
          (await keysOf("SELECT kid FROM oauth_signing_keys WHERE kid = 'retired-long-ago'")).length > 0 ||
          (await keysOf("SELECT id FROM oauth_records WHERE id = 'expired'")).length > 0 ||
          // The first key is made in the background at start-up.
          (await keysOf("SELECT kid FROM oauth_signing_keys WHERE retired_at IS NULL")).length === 0)
      ) {
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
      expect(await keysOf("SELECT key FROM sign_in_attempts")).toEqual(["address:now"])
      expect(await keysOf("SELECT id FROM oauth_records")).toEqual(["live"])
      const keys = await keysOf("SELECT kid FROM oauth_signing_keys")
      expect(keys).toHaveLength(1)
      expect(keys).not.toContain("retired-long-ago")
    } finally {
      await server.close()
    }
  })
})
