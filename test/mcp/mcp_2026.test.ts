// MCP's stateless revision, 2026-07-28 (issue 37), driven by the official v2 client
// (`@modelcontextprotocol/client` 2.4.0, probing 2026-07-28 first as current hosts do) against the
// real server, on SQLite and on Postgres: `server/discover` with no `initialize` and no session;
// every tool listed and called, its result equal to the REST body; resources, the prompt,
// refusals; the participant's endpoint with its access token on every request. The older
// revisions are served beside it from the same endpoint (mcp.test.ts).
import { randomUUID } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client"
import {
  mcpPromptNames,
  mcpProtocolVersions,
  mcpResources,
  mcpToolNames,
  sandboxMcpToolNames
} from "../../src/api/mcp.ts"
import { linkAccount, startIssuer, type TestIssuer, testAudience } from "../support/issuer.ts"
import { discoverMessage, postMcp, restJsonOn, toolCaller } from "../support/mcp.ts"
import { digitalDraft, json, type ServerOnDatabase, startOnFreshDatabase, validDraft } from "../support/server.ts"

// biome-ignore lint/suspicious/noExplicitAny: JSON bodies are inspected member by member.
type Json = any

let issuer: TestIssuer
let env: ServerOnDatabase
let client: Client
/** Every request the client sent: its method, and the session header if it sent one. */
const sent: Array<{ method: string | null; session: string | null }> = []

const connect = async (url: string, headers: Record<string, string> = {}) => {
  const c = new Client({ name: "modern-host", version: "2.0.0" }, { versionNegotiation: { mode: "auto" } })
  const t = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers },
    fetch: (input, init) => {
      const h = new Headers(init?.headers)
      sent.push({ method: h.get("mcp-method"), session: h.get("mcp-session-id") })
      return fetch(input, init)
    }
  })
  await c.connect(t)
  return c
}

beforeAll(async () => {
  issuer = await startIssuer()
  env = await startOnFreshDatabase({
    settings: { oauthIssuer: issuer.url, oauthAudience: testAudience, timerSweepMs: 50, sandbox: true }
  })
  client = await connect(`${env.server.url}/mcp`)
})
afterAll(async () => {
  await client?.close()
  await env?.close()
  await issuer?.close()
})

const call = toolCaller(() => client)
const restJson = restJsonOn(() => env.server)

describe("2026-07-28", () => {
  it("is what a probing client gets: server/discover, no initialize, no session", async () => {
    expect(client.getProtocolEra()).toBe("modern")
    expect(client.getServerVersion()?.name).toBe("task-marketplace")
    expect(client.getInstructions()).toContain("submit_task")
    expect(sent[0]?.method).toBe("server/discover")
    expect(sent.every((request) => request.method !== "initialize" && request.session === null)).toBe(true)
    // Discovery by hand: every revision served, newest first; nothing subscribes (no list ever changes).
    const response = await postMcp(`${env.server.url}/mcp`, discoverMessage(), {
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": "server/discover"
    })
    expect(response.status).toBe(200)
    expect(response.headers.get("mcp-session-id")).toBeNull()
    const { result } = (await response.json()) as Json
    expect(result.supportedVersions).toEqual([...mcpProtocolVersions])
    expect(result.capabilities.tools).toEqual({ listChanged: false })
    expect(result.capabilities.resources.subscribe).toBe(false)
    // A browser client may send 2026-07-28's own headers.
    const preflight = await fetch(`${env.server.url}/mcp`, { method: "OPTIONS" })
    expect(preflight.headers.get("access-control-allow-headers")).toContain("mcp-method, mcp-name")
  })

  it("lists every tool and answers each with exactly the REST body", async () => {
    const { tools } = await client.listTools()
    expect(tools.map((t) => t.name)).toEqual([...mcpToolNames, ...sandboxMcpToolNames])

    const list = await call("list_participants", { q: "Berlin", limit: 5 })
    expect(list.structuredContent).toEqual((await restJson("/participants?q=Berlin&limit=5")).body)
    const one = await call("get_participant", { slug: "lukas-schmidt" })
    expect(one.structuredContent).toEqual((await restJson("/participants/lukas-schmidt")).body)
    const query = { query: "Inspect the electrical installation of a flat in Berlin", limit: 3 }
    expect((await call("search", query)).structuredContent).toEqual((await restJson("/search", json(query))).body)
    const draft = validDraft()
    expect((await call("preflight", { draft })).structuredContent).toEqual(
      (await restJson("/preflight", json(draft))).body
    )

    const key = randomUUID()
    const created = await call("submit_task", {
      draft: digitalDraft({ participant_slug: "sim-silent", webhook_url: "https://hooks.example.invalid/x" }),
      idempotency_key: key
    })
    expect(created.isError).toBeUndefined()
    const { reference, task_token } = created.structuredContent
    // The same key over REST: the same task, the same body.
    const replay = await restJson(
      "/tasks",
      json(digitalDraft({ participant_slug: "sim-silent", webhook_url: "https://hooks.example.invalid/x" }), {
        "idempotency-key": key
      })
    )
    expect(replay.body).toEqual(created.structuredContent)
    const waited = await call("wait_for_task", {
      reference,
      since: created.structuredContent.updated_at,
      wait_seconds: 5
    })
    expect(waited.structuredContent).toEqual((await restJson(`/tasks/${reference}`)).body)
    expect((await call("get_task", { reference })).structuredContent).toEqual(
      (await restJson(`/tasks/${reference}`)).body
    )
    // The conversation with the participant it is offered to, as REST has it.
    const sent = await call("send_message", { reference, task_token, body: "Any questions?" })
    expect(sent.isError).toBeUndefined()
    expect(sent.structuredContent).toMatchObject({ object: "message", from: "agent", body: "Any questions?" })
    const messages = await call("get_messages", { reference, task_token })
    expect(messages.structuredContent).toEqual(
      (await restJson(`/tasks/${reference}/messages`, { headers: { authorization: `Bearer ${task_token}` } })).body
    )
    expect(messages.structuredContent.count).toBe(1)
    const deliveries = await call("get_deliveries", { reference, task_token })
    expect(deliveries.structuredContent.webhook_url).toBe("https://hooks.example.invalid/x")
    const review = await call("review_task", { reference, task_token, decision: "accept" })
    expect(review.structuredContent.error.code).toBe("invalid_transition")
    const cancelled = await call("cancel_task", { reference, task_token, reason: "Not needed" })
    expect(cancelled.structuredContent.state).toBe("cancelled")
    expect(cancelled.structuredContent).toEqual((await restJson(`/tasks/${reference}`)).body)
    const clock = await call("advance_clock", { advance: "PT1S" })
    expect(clock.structuredContent.object).toBe("sandbox_clock")
  })

  it("refuses as the other revisions do: the REST envelope as an error result", async () => {
    const missing = await call("get_participant", { slug: "nobody-here" })
    expect(missing.isError).toBe(true)
    expect(missing.structuredContent).toEqual((await restJson("/participants/nobody-here")).body)
    const bad = await call("list_participants", { limit: 0 })
    expect(bad.structuredContent.error.details.map((d: Json) => d.field)).toEqual(["limit"])
  })

  it("serves the resources and the prompt", async () => {
    const { resources } = await client.listResources()
    expect(resources.map((r) => r.uri)).toEqual([mcpResources.capabilities])
    const { contents } = await client.readResource({ uri: "marketplace://participants/lukas-schmidt" })
    expect(JSON.parse(String((contents[0] as { text: string }).text))).toEqual(
      (await restJson("/participants/lukas-schmidt")).body
    )
    const { prompts } = await client.listPrompts()
    expect(prompts.map((p) => p.name)).toEqual([...mcpPromptNames])
  })

  it("serves the participant's endpoint with the access token on every request", async () => {
    const endpoint = `${env.server.url}/mcp/participant`
    const subject = `user-${randomUUID().slice(0, 8)}`
    await linkAccount(env.database, subject, "kwame-asante")
    const token = await issuer.token({ sub: subject, aud: endpoint })
    const assistant = await connect(endpoint, { authorization: `Bearer ${token}` })
    try {
      expect(assistant.getProtocolEra()).toBe("modern")
      const me = (await assistant.callTool({ name: "who_am_i", arguments: {} })) as Json
      expect(me.structuredContent.subject).toBe(subject)
    } finally {
      await assistant.close()
    }
    // Without a token: 401, as on every revision.
    const refused = await postMcp(endpoint, discoverMessage(), { "mcp-protocol-version": "2026-07-28" })
    expect(refused.status).toBe(401)
  })
})
