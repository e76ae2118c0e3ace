/**
 * Per-client rate limits (DECISIONS §11): the headers, 429 after the burst, reads and writes
 * counted apart, recovery after the window, and the 413 body limit beside them.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { movableClock } from "../support/clock.ts"
import { expectEnvelope, json, startServer, type TestServer, validDraft } from "../support/server.ts"

let server: TestServer
/** The server's clock (support/clock.ts): recovery is shown by moving it past Retry-After. */
const clock = movableClock()
beforeAll(async () => {
  server = await startServer({
    settings: { rateLimit: { readsPerWindow: 3, writesPerWindow: 2, windowMs: 1500 } },
    clock: clock.layer
  })
})
afterAll(() => server.close())

const headersOf = (response: Response) => ({
  limit: response.headers.get("ratelimit-limit"),
  remaining: response.headers.get("ratelimit-remaining"),
  reset: response.headers.get("ratelimit-reset")
})

describe("rate limits", () => {
  it("answers ratelimit-* headers, then 429 rate_limited with Retry-After after the burst, then recovers", async () => {
    const answers: Array<Response> = []
    for (let i = 0; i < 4; i++) answers.push(await fetch(server.api("/participants?limit=1")))
    expect(answers.slice(0, 3).map((r) => r.status)).toEqual([200, 200, 200])
    expect(answers.slice(0, 3).map((r) => headersOf(r).remaining)).toEqual(["2", "1", "0"])
    for (const r of answers) {
      expect(headersOf(r).limit).toBe("3")
      expect(Number(headersOf(r).reset)).toBeGreaterThanOrEqual(0)
    }
    const refused = answers[3]!
    const retryAfter = Number(refused.headers.get("retry-after"))
    expect(retryAfter).toBeGreaterThanOrEqual(1)
    const error = await expectEnvelope(refused, 429, "rate_limited")
    expect(error.hint).toContain("Retry after")

    // Writes are counted apart: the exhausted reads do not stop a preflight.
    expect((await fetch(server.api("/preflight"), json(validDraft()))).status).toBe(200)

    clock.advance(retryAfter * 1000 + 100)
    const again = await fetch(server.api("/participants?limit=1"))
    expect(again.status).toBe(200)
  })

  it("limits writes at their own limit", async () => {
    const statuses: Array<number> = []
    for (let i = 0; i < 4; i++) statuses.push((await fetch(server.api("/preflight"), json(validDraft()))).status)
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(1)
    expect(statuses.every((s) => s === 200 || s === 429)).toBe(true)
  })

  it("never limits the health endpoints", async () => {
    const statuses = await Promise.all(
      Array.from({ length: 10 }, () => fetch(`${server.url}/healthz`).then((r) => r.status))
    )
    expect(statuses).toEqual(Array(10).fill(200))
  })

  it("refuses a body over 64 KiB with 413 payload_too_large", async () => {
    const fresh = await startServer()
    try {
      const response = await fetch(fresh.api("/tasks"), json({ ...validDraft(), constraints: "x".repeat(70_000) }))
      await expectEnvelope(response, 413, "payload_too_large")
    } finally {
      await fresh.close()
    }
  })
})
