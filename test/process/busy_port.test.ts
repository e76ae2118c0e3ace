/**
 * A port already in use at start-up is one line naming PORT, and exit status 1: not a stack trace.
 */
import { spawn } from "node:child_process"
import { createServer } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { freshDatabase, type TestDatabase } from "../support/database.ts"
import { freePort, outputsOf } from "../support/process.ts"

let database: TestDatabase
beforeAll(async () => {
  database = await freshDatabase()
})
afterAll(() => database.drop())

const root = new URL("../..", import.meta.url).pathname

describe("start-up on a busy port", () => {
  it("says in one line that the port is in use and to set PORT, and exits 1", async () => {
    const port = await freePort()
    const squatter = createServer()
    await new Promise<void>((resolve) => squatter.listen(port, "127.0.0.1", resolve))
    try {
      const child = spawn(process.execPath, ["src/main.ts"], {
        cwd: root,
        env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", DATABASE_URL: database.url, LOG_LEVEL: "Warn" },
        stdio: ["ignore", "pipe", "pipe"]
      })
      const { stdout, stderr } = outputsOf(child)
      const code = await new Promise<number | null>((resolve) => child.once("exit", resolve))
      expect(code).toBe(1)
      expect(stdout()).toBe("")
      expect(stderr()).toBe(
        `Cannot listen on 127.0.0.1:${port}: the port is in use. Stop what listens there, or set PORT to a free port.\n`
      )
    } finally {
      await new Promise((resolve) => squatter.close(resolve))
    }
  }, 60_000)
})
