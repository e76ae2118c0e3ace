import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { startServer, type TestServer } from "../support/server.ts"

let server: TestServer
beforeAll(async () => {
  server = await startServer()
})
afterAll(() => server.close())

describe("smoke", () => {
  it("serves the index", async () => {
    const response = await fetch(server.api(""))
    expect(response.status).toBe(200)
    expect((await response.json()).version).toBe("v1")
  })
})
