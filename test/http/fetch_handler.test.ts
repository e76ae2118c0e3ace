/**
 * The app as a web-standard fetch handler (Request → Response), with no server.
 */
import { afterAll, describe, expect, it } from "@effect/vitest"
import { makeFetchHandler } from "../../src/app.ts"
import { validDraft } from "../support/server.ts"

// The settings come from the environment; these override them (an in-memory database, not ./data).
const app = makeFetchHandler({
  database: { _tag: "Sqlite", filename: ":memory:" },
  publicBaseUrl: "https://tasks.example.com",
  docsUrl: "https://tasks.example.com/docs",
  logLevel: "None",
  rateLimit: undefined
})
afterAll(() => app.dispose())

describe("fetch handler", () => {
  it("answers the whole flow: index, participants, preflight, submit, read", async () => {
    const index = await app.handler(new Request("https://tasks.example.com/api/public/v1"))
    expect(index.status).toBe(200)
    expect((await index.json()).base_url).toBe("https://tasks.example.com/api/public/v1")

    const list = await (
      await app.handler(new Request("https://tasks.example.com/api/public/v1/participants?limit=3"))
    ).json()
    expect(list.count).toBe(3)

    const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
      app.handler(
        new Request(`https://tasks.example.com/api/public/v1${path}`, {
          method: "POST",
          headers: { "content-type": "application/json", ...headers },
          body: JSON.stringify(body)
        })
      )
    const preflight = await (await post("/preflight", validDraft())).json()
    expect(preflight.valid).toBe(true)

    const created = await post("/tasks", validDraft(), { "idempotency-key": "fetch-handler-key-0001" })
    expect(created.status).toBe(201)
    const task = await created.json()
    expect(task.url).toBe(`https://tasks.example.com/api/public/v1/tasks/${task.reference}`)

    const read = await app.handler(new Request(task.url))
    expect(read.status).toBe(200)
    // The dispatcher may already have offered it: open, or awaiting the participant offered it.
    const readBack = await read.json()
    expect(readBack.reference).toBe(task.reference)
    expect(["open", "awaiting_participant"]).toContain(readBack.state)
  })

  it("answers errors in the envelope", async () => {
    const response = await app.handler(new Request("https://tasks.example.com/nowhere"))
    expect(response.status).toBe(404)
    expect((await response.json()).error.code).toBe("not_found")
  })
})
