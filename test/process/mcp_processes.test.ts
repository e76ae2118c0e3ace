// The MCP interface behind one address served by two processes on one database (issue 22): a
// client's consecutive requests reach one process, then the other, and everything still works —
// its session (kept in the database) is re-opened by the process that had not seen it, an
// idempotency key names one task whichever process answers, and a session ended on one process has
// ended on both; the participant's endpoint likewise, its session still its subject's alone on the
// process that re-opens it. Runs in both vitest projects (SQLite: one WAL file; Postgres: one
// database).
import { randomUUID } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from "@modelcontextprotocol/client"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { mcpToolNames } from "../../src/api/mcp.ts"
import { freshDatabase, type TestDatabase } from "../support/database.ts"
import { linkAccount, startIssuer, type TestIssuer } from "../support/issuer.ts"
import { postMcp } from "../support/mcp.ts"
import { type ServiceProcess, spawnService } from "../support/process.ts"
import { validDraft } from "../support/server.ts"

// biome-ignore lint/suspicious/noExplicitAny: JSON bodies are inspected member by member.
type Json = any

let database: TestDatabase
let issuer: TestIssuer
let one: ServiceProcess
let two: ServiceProcess

/** The address both processes are behind, as a balancer would publish it. */
const publicBaseUrl = "http://marketplace.test"

beforeAll(async () => {
  database = await freshDatabase()
  issuer = await startIssuer()
  const env = { PUBLIC_BASE_URL: publicBaseUrl, OAUTH_ISSUER: issuer.url }
  one = await spawnService({ databaseUrl: database.url, env })
  two = await spawnService({ databaseUrl: database.url, env })
})
afterAll(async () => {
  await Promise.all([one?.stop("SIGKILL"), two?.stop("SIGKILL")])
  await database?.drop()
  await issuer?.close()
})

/** A fetch that sends each request to the next process in turn, as a round-robin balancer does. */
const balancer = () => {
  const seen: Array<string> = []
  let turn = 0
  const fetchInTurn: typeof fetch = (input, init) => {
    const target = new URL(String(input instanceof Request ? input.url : input))
    const process = [one, two][turn++ % 2]!
    target.port = new URL(process.url).port
    seen.push(target.port)
    return fetch(target, init)
  }
  return { fetchInTurn, seen }
}

const connect = async (fetchWith: typeof fetch) => {
  const client = new Client({ name: "balanced", version: "1.0.0" })
  const transport = new StreamableHTTPClientTransport(new URL(`${one.url}/mcp`), { fetch: fetchWith })
  await client.connect(transport)
  return { client, transport }
}

describe("MCP across two processes behind one address", () => {
  it("serves one session from both processes: listing, tools, resources, a replayed submission", async () => {
    const { fetchInTurn, seen } = balancer()
    const { client, transport } = await connect(fetchInTurn)
    try {
      const { tools } = await client.listTools()
      expect(tools.map((tool) => tool.name).sort()).toEqual([...mcpToolNames].sort())
      for (let i = 0; i < 4; i++) {
        const read = (await client.callTool({ name: "get_participant", arguments: { slug: "lukas-schmidt" } })) as Json
        expect(read.isError).toBeUndefined()
        expect(read.structuredContent.slug).toBe("lukas-schmidt")
      }
      const key = randomUUID()
      const first = (await client.callTool({
        name: "submit_task",
        arguments: { draft: validDraft(), idempotency_key: key }
      })) as Json
      const again = (await client.callTool({
        name: "submit_task",
        arguments: { draft: validDraft(), idempotency_key: key }
      })) as Json
      expect(again.structuredContent.reference).toBe(first.structuredContent.reference)
      expect(again.structuredContent.task_token).toBe(first.structuredContent.task_token)
      const { contents } = await client.readResource({
        uri: `marketplace://tasks/${first.structuredContent.reference}`
      })
      expect(JSON.parse(String((contents[0] as { text: string }).text)).reference).toBe(
        first.structuredContent.reference
      )
      // Both processes answered requests of this one session.
      expect(new Set(seen).size).toBe(2)
      expect(transport.sessionId).toMatch(/\S/)
    } finally {
      await client.close()
    }
  })

  it("serves the stateless 2026-07-28 revision from both processes, with no session to share", async () => {
    const { fetchInTurn, seen } = balancer()
    const client = new ModernClient({ name: "modern", version: "2.0.0" }, { versionNegotiation: { mode: "auto" } })
    await client.connect(new ModernTransport(new URL(`${one.url}/mcp`), { fetch: fetchInTurn }))
    try {
      expect(client.getProtocolEra()).toBe("modern")
      expect((await client.listTools()).tools.map((tool) => tool.name).sort()).toEqual([...mcpToolNames].sort())
      const key = randomUUID()
      const first = (await client.callTool({
        name: "submit_task",
        arguments: { draft: validDraft(), idempotency_key: key }
      })) as Json
      const again = (await client.callTool({
        name: "submit_task",
        arguments: { draft: validDraft(), idempotency_key: key }
      })) as Json
      expect(again.structuredContent.reference).toBe(first.structuredContent.reference)
      const read = (await client.callTool({
        name: "get_task",
        arguments: { reference: first.structuredContent.reference }
      })) as Json
      expect(read.structuredContent.reference).toBe(first.structuredContent.reference)
      expect(new Set(seen).size).toBe(2)
    } finally {
      await client.close()
    }
  })

  it("a session ended on one process has ended on the other", async () => {
    const onOne: typeof fetch = (input, init) => fetch(input, init)
    const { client, transport } = await connect(onOne)
    const id = transport.sessionId!
    // The other process serves it first (and so re-opens it), then it is ended on the first.
    const onTwo = (body: string) =>
      postMcp(`${two.url}/mcp`, body, {
        "mcp-session-id": id,
        "mcp-protocol-version": transport.protocolVersion ?? "2025-11-25"
      })
    expect((await onTwo('{"jsonrpc":"2.0","id":1,"method":"tools/list"}')).status).toBe(200)
    await transport.terminateSession()
    expect((await onTwo('{"jsonrpc":"2.0","id":2,"method":"tools/list"}')).status).toBe(404)
    await client.close()
  })

  it("serves a participant's session from both processes, to its subject only", async () => {
    // The endpoint as published (the resource its tokens are for), whichever process serves it.
    const resource = `${publicBaseUrl}/mcp/participant`
    const subject = `user-${randomUUID().slice(0, 8)}`
    await linkAccount(database, subject, "kwame-asante")
    const token = await issuer.token({ sub: subject, aud: resource })
    const { fetchInTurn, seen } = balancer()
    const client = new Client({ name: "assistant", version: "1.0.0" })
    const transport = new StreamableHTTPClientTransport(new URL(`${one.url}/mcp/participant`), {
      fetch: fetchInTurn,
      requestInit: { headers: { authorization: `Bearer ${token}` } }
    })
    await client.connect(transport)
    try {
      expect((await client.listTools()).tools.map((t) => t.name)).toContain("my_tasks")
      for (let i = 0; i < 3; i++) {
        const me = (await client.callTool({ name: "who_am_i", arguments: {} })) as Json
        expect(me.structuredContent.subject).toBe(subject)
        expect((await client.callTool({ name: "my_tasks", arguments: {} })) as Json).toMatchObject({
          structuredContent: { object: "list" }
        })
      }
      expect(new Set(seen).size).toBe(2)
      // Another subject's token, on the process that has not seen the session yet either way: refused.
      const otherSubject = `user-${randomUUID().slice(0, 8)}`
      await linkAccount(database, otherSubject, "lukas-schmidt")
      const other = await issuer.token({ sub: otherSubject, aud: resource })
      for (const process of [one, two]) {
        const refused = await postMcp(
          `${process.url}/mcp/participant`,
          '{"jsonrpc":"2.0","id":9,"method":"tools/list"}',
          {
            "mcp-session-id": transport.sessionId!,
            "mcp-protocol-version": transport.protocolVersion ?? "2025-11-25",
            authorization: `Bearer ${other}`
          }
        )
        expect(refused.status).toBe(404)
      }
    } finally {
      await client.close()
    }
  })
})
