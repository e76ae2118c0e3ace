/**
 * A stop signal that comes twice still ends in a clean exit. Ctrl-C in a terminal reaches every
 * process of the group, and npm and scripts/node.mjs forward it as well, so the server often gets
 * SIGINT once from the terminal and again, milliseconds later, from its parent. The second one may
 * land when the shutdown the first began has already finished; it must not kill the process by
 * the signal (exit status 130 in a shell, a failed `npm start`) instead of exit 0.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { freshDatabase, type TestDatabase } from "../support/database.ts"
import { spawnService } from "../support/process.ts"

let database: TestDatabase
beforeAll(async () => {
  database = await freshDatabase()
})
afterAll(() => database.drop())

// A shutdown of an idle server takes a few milliseconds: these gaps put the second signal before,
// during and after its end (before the listeners were kept, 5 and 10 ms killed it by SIGINT).
const gapsMs = [0, 2, 5, 8, 12, 20]

describe("a stop signal sent twice", () => {
  it.each(["SIGINT", "SIGTERM"] as const)(
    "%s, then the same again a few milliseconds later: exit 0 every time",
    async (signal) => {
      const exits: Array<{ gapMs: number; code: number | null; signal: NodeJS.Signals | null }> = []
      for (const gapMs of gapsMs) {
        const service = await spawnService({ databaseUrl: database.url })
        service.child.kill(signal)
        await new Promise((resolve) => setTimeout(resolve, gapMs))
        if (service.child.exitCode === null && service.child.signalCode === null) service.child.kill(signal)
        exits.push({ gapMs, ...(await service.exited) })
      }
      expect(exits).toEqual(gapsMs.map((gapMs) => ({ gapMs, code: 0, signal: null })))
    },
    60_000
  )
})
