// MCP requests are counted by the rate limiter as REST counts the same operation (issue 22): a
// tool that is a write over REST (search, preflight, submit, cancel, review) spends the writes, a
// read spends the reads, and the rest of MCP (initialize, listings) counts as reads. Past the limit
// the HTTP answer is REST's 429 rate_limited with Retry-After, before MCP reads the request.
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { initializeMessage, postMcp } from "../support/mcp.ts"
import { startServer, type TestServer } from "../support/server.ts"

let server: TestServer
beforeAll(async () => {
  server = await startServer({ settings: { rateLimit: { readsPerWindow: 50, writesPerWindow: 2, windowMs: 60_000 } } })
})
afterAll(() => server.close())

const post = (body: unknown, session?: string) =>
  postMcp(
    `${server.url}/mcp`,
    body,
    session === undefined ? {} : { "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" }
  )

const toolCall = (id: number, name: string, args: Record<string, unknown>) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name, arguments: args }
})

describe("MCP and the rate limits", () => {
  it("counts tool calls as reads or writes, and refuses past the limit with REST's 429", async () => {
    const opened = await post(initializeMessage("2025-11-25", 0))
    expect(opened.headers.get("ratelimit-limit")).toBe("50")
    const session = opened.headers.get("mcp-session-id")!
    await post({ jsonrpc: "2.0", method: "notifications/initialized" }, session)

    // Reads: many, and none of them spends a write.
    for (let i = 1; i <= 5; i++) {
      const read = await post(toolCall(i, "get_participant", { slug: "lukas-schmidt" }), session)
      expect(read.status).toBe(200)
      expect(read.headers.get("ratelimit-limit")).toBe("50")
    }
    // Writes: two, then the third search is refused before MCP reads it.
    const writes: Array<Response> = []
    for (let i = 10; i < 13; i++)
      writes.push(await post(toolCall(i, "search", { query: "fix a tap in Berlin" }), session))
    expect(writes.map((r) => r.status)).toEqual([200, 200, 429])
    expect(writes[0]!.headers.get("ratelimit-limit")).toBe("2")
    const refused = writes[2]!
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1)
    expect((await refused.json()).error.code).toBe("rate_limited")
    // Reads still go through.
    expect((await post(toolCall(20, "get_task", { reference: "tsk_none" }), session)).status).toBe(200)
  })
})
