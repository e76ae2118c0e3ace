// The MCP interface (issue 22), driven by the official TypeScript SDK's client against the real
// server, on SQLite and on Postgres: every tool, resource and prompt; each tool's result equal to
// the REST response body of the same operation; refusals as tool results carrying the REST
// envelope; an idempotency key shared by REST and MCP; a long wait with progress.
import { randomUUID } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { mcpPromptNames, mcpProtocolVersions, mcpResources, mcpToolNames } from "../../src/api/mcp.ts"
import { fastClock } from "../support/clock.ts"
import { linkAccount, startIssuer, type TestIssuer, testAudience } from "../support/issuer.ts"
import { initializeMessage, postMcp, restJsonOn, toolCaller } from "../support/mcp.ts"
import { digitalDraft, json, type ServerOnDatabase, startOnFreshDatabase, validDraft } from "../support/server.ts"

// biome-ignore lint/suspicious/noExplicitAny: JSON bodies are inspected member by member.
type Json = any

let issuer: TestIssuer
let env: ServerOnDatabase
let client: Client
let transport: StreamableHTTPClientTransport

const connect = async (name = "mcp-test", on: ServerOnDatabase = env) => {
  const c = new Client({ name, version: "1.0.0" })
  const t = new StreamableHTTPClientTransport(new URL(`${on.server.url}/mcp`))
  await c.connect(t)
  return { client: c, transport: t }
}

beforeAll(async () => {
  issuer = await startIssuer()
  env = await startOnFreshDatabase({
    settings: { oauthIssuer: issuer.url, oauthAudience: testAudience, timerSweepMs: 50 }
  })
  ;({ client, transport } = await connect())
})
afterAll(async () => {
  await client?.close()
  await env?.close()
  await issuer?.close()
})

const call = toolCaller(() => client)
const restJson = restJsonOn(() => env.server)

/** A participant signed in with a real access token, acting over REST. */
const participant = async (slug: string) => {
  const subject = `user-${slug}-${randomUUID().slice(0, 8)}`
  await linkAccount(env.database, subject, slug)
  const headers = { authorization: `Bearer ${await issuer.token({ sub: subject })}` }
  return (reference: string, action: string, body?: unknown) =>
    fetch(
      env.server.api(`/tasks/${reference}/${action}`),
      body === undefined ? { method: "POST", headers } : json(body, headers)
    )
}

describe("connecting", () => {
  it("negotiates the newest revision, and names itself with its instructions", () => {
    expect(transport.protocolVersion).toBe("2025-11-25")
    expect(client.getServerVersion()?.name).toBe("task-marketplace")
    expect(client.getInstructions()).toContain("submit_task")
  })

  it("serves every protocol revision it announces, to a client that asks for it", async () => {
    for (const version of mcpProtocolVersions.filter((v) => v !== "2026-07-28")) {
      const response = await postMcp(`${env.server.url}/mcp`, initializeMessage(version))
      expect(response.status, version).toBe(200)
      expect(response.headers.get("mcp-session-id")).toMatch(/\S/)
      const text = await response.text()
      const message = JSON.parse(text.startsWith("{") ? text : text.slice(text.indexOf("{")))
      expect(message.result.protocolVersion).toBe(version)
    }
  })
})

describe("tools", () => {
  it("are exactly the published ones, annotated truthfully, with object schemas", async () => {
    const { tools } = await client.listTools()
    expect(tools.map((t) => t.name)).toEqual([...mcpToolNames])
    const byName = new Map(tools.map((t) => [t.name, t]))
    for (const name of ["search", "list_participants", "get_participant", "preflight", "get_task", "wait_for_task"]) {
      expect(byName.get(name)?.annotations, name).toMatchObject({
        readOnlyHint: true,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false
      })
    }
    expect(byName.get("submit_task")?.annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: true
    })
    expect(byName.get("cancel_task")?.annotations).toMatchObject({ destructiveHint: true, openWorldHint: true })
    expect(byName.get("review_task")?.annotations).toMatchObject({ destructiveHint: false, readOnlyHint: false })
    for (const tool of tools) {
      expect(tool.inputSchema.type, tool.name).toBe("object")
      expect(tool.outputSchema?.type, tool.name).toBe("object")
      expect(tool.description?.length, tool.name).toBeGreaterThan(60)
    }
    expect(byName.get("submit_task")?.inputSchema.required).toEqual(["draft", "idempotency_key"])
    // A key is a secret (issue 33): the schema and the description say how long it must be.
    const keySchema = byName.get("submit_task")?.inputSchema.properties?.idempotency_key as Json
    expect(keySchema.minLength).toBe(16)
    expect(keySchema.maxLength).toBe(255)
    expect(keySchema.description).toContain("at least 16 characters; a UUID is recommended")
  })

  it("answer with exactly the REST bodies: participants, search, preflight", async () => {
    const list = await call("list_participants", { q: "Berlin", limit: 5 })
    expect(list.isError).toBeUndefined()
    expect(list.structuredContent).toEqual((await restJson("/participants?q=Berlin&limit=5")).body)
    expect(JSON.parse(list.content[0]!.text)).toEqual(list.structuredContent)

    const next = await call("list_participants", {
      limit: 2,
      cursor: (await call("list_participants", { limit: 2 })).structuredContent.next_cursor
    })
    expect(next.structuredContent).toEqual(
      (await restJson(`/participants?limit=2&cursor=${(await restJson("/participants?limit=2")).body.next_cursor}`))
        .body
    )

    const one = await call("get_participant", { slug: "lukas-schmidt" })
    expect(one.structuredContent).toEqual((await restJson("/participants/lukas-schmidt")).body)

    const query = { query: "Inspect the electrical installation of a flat in Berlin", limit: 3 }
    const search = await call("search", query)
    expect(search.structuredContent).toEqual((await restJson("/search", json(query))).body)
    expect(search.structuredContent.data.length).toBeGreaterThan(0)

    const draft = validDraft()
    const preflight = await call("preflight", { draft })
    expect(preflight.structuredContent).toEqual((await restJson("/preflight", json(draft))).body)
    // An incomplete draft is a preflight result (valid false), as REST answers it: not a refusal.
    const partial = await call("preflight", { draft: { action: "Fix my tap", surprise: 1 } })
    expect(partial.isError).toBeUndefined()
    expect(partial.structuredContent).toEqual(
      (await restJson("/preflight", json({ action: "Fix my tap", surprise: 1 }))).body
    )
    expect(partial.structuredContent.valid).toBe(false)
  })

  it("submit, replay across REST and MCP, read, wait with progress, cancel", async () => {
    const key = randomUUID()
    const draft = validDraft()
    // First over REST…
    const rest = await restJson("/tasks", json(draft, { "idempotency-key": key }))
    expect(rest.status).toBe(201)
    // …then the same key and draft over MCP: the same task, the same body.
    const replay = await call("submit_task", { draft, idempotency_key: key })
    expect(replay.isError).toBeUndefined()
    expect(replay.structuredContent).toEqual(rest.body)
    // And the other way round: a key first used over MCP, replayed over REST.
    const otherKey = randomUUID()
    const created = await call("submit_task", { draft: digitalDraft(), idempotency_key: otherKey })
    expect(created.structuredContent.state).toBe("open")
    expect(created.structuredContent.task_token).toMatch(/^tt_/)
    expect(created.structuredContent.agent).toBe(digitalDraft().agent)
    const back = await restJson("/tasks", json(digitalDraft(), { "idempotency-key": otherKey }))
    expect(back.status).toBe(201)
    expect(back.body).toEqual(created.structuredContent)
    // The same key with another draft is refused as REST refuses it.
    const reused = await call("submit_task", {
      draft: validDraft({ action: "Something else entirely" }),
      idempotency_key: key
    })
    expect(reused.isError).toBe(true)
    expect(reused.structuredContent.error.code).toBe("idempotency_key_reused")

    const reference = rest.body.reference
    // The service may offer the task between two reads: the tool's answer is one of REST's around it.
    const before = (await restJson(`/tasks/${reference}`)).body
    const read = await call("get_task", { reference })
    const after = (await restJson(`/tasks/${reference}`)).body
    expect([before, after]).toContainEqual(read.structuredContent)

    // Waiting from the task as first read: it changes (the service offers it) and comes back at once.
    const progress: Array<{ progress: number; total?: number | undefined; message?: string | undefined }> = []
    const waited = (await client.callTool(
      { name: "wait_for_task", arguments: { reference, since: rest.body.updated_at, wait_seconds: 10 } },
      undefined,
      { onprogress: (p) => progress.push(p), timeout: 20_000 }
    )) as Json
    expect(waited.structuredContent.state).not.toBe("open")
    expect(waited.structuredContent).toEqual((await restJson(`/tasks/${reference}`)).body)
    expect(progress.length).toBeGreaterThanOrEqual(2)
    expect(progress.at(-1)?.message).toContain(waited.structuredContent.state)

    // Nothing changes now: the wait ends when its time does, with the task as it is.
    const started = Date.now()
    const quiet = await call("wait_for_task", { reference, wait_seconds: 1 })
    expect(Date.now() - started).toBeGreaterThanOrEqual(900)
    expect(quiet.structuredContent.updated_at).toBe(waited.structuredContent.updated_at)

    const wrong = await call("cancel_task", { reference, task_token: "tt_wrong" })
    expect(wrong.isError).toBe(true)
    expect(wrong.structuredContent.error.code).toBe("unauthorized")
    expect((await restJson(`/tasks/${reference}`)).body.state).toBe(waited.structuredContent.state)

    // The reason by REST's rule: at most 4,000 characters (refused, and nothing changes).
    const tooLong = await call("cancel_task", { reference, task_token: rest.body.task_token, reason: "x".repeat(4001) })
    expect(tooLong.structuredContent.error.details.map((d: Json) => d.field)).toEqual(["reason"])
    expect((await restJson(`/tasks/${reference}`)).body.state).toBe(waited.structuredContent.state)

    const cancelled = await call("cancel_task", {
      reference,
      task_token: rest.body.task_token,
      reason: "No longer needed"
    })
    expect(cancelled.isError).toBeUndefined()
    expect(cancelled.structuredContent.state).toBe("cancelled")
    expect(cancelled.structuredContent).toEqual((await restJson(`/tasks/${reference}`)).body)
  })

  it("review_task: revise needs a reason, accept settles the task", async () => {
    const submitted = await call("submit_task", {
      draft: digitalDraft({ participant_slug: "kwame-asante" }),
      idempotency_key: randomUUID()
    })
    const { reference, task_token } = submitted.structuredContent
    await call("wait_for_task", { reference, since: submitted.structuredContent.updated_at, wait_seconds: 10 })
    const act = await participant("kwame-asante")
    expect((await act(reference, "accept")).status).toBe(200)
    expect((await act(reference, "start")).status).toBe(200)
    const result = { summary: "Found 2 bugs", fields: { bugs_found: 2 }, artifacts: [] }
    expect((await act(reference, "submit", result)).status).toBe(200)

    const noReason = await call("review_task", { reference, task_token, decision: "revise" })
    expect(noReason.isError).toBe(true)
    expect(noReason.structuredContent.error.code).toBe("invalid_request")
    expect(noReason.structuredContent.error.details.map((d: Json) => d.field)).toContain("reason")
    expect((await restJson(`/tasks/${reference}`)).body.state).toBe("submitted")

    const accepted = await call("review_task", { reference, task_token, decision: "accept" })
    expect(accepted.isError).toBeUndefined()
    expect(accepted.structuredContent.state).toBe("settled")
    expect(accepted.structuredContent).toEqual((await restJson(`/tasks/${reference}`)).body)
  })

  it("submit_task with a webhook_url gives its webhook_secret; get_deliveries lists its events as REST does", async () => {
    // A name that never resolves (RFC 6761): the events stay pending, their attempts failing.
    const webhook_url = "https://hooks.example.invalid/tasks"
    const submitted = await call("submit_task", {
      draft: digitalDraft({ participant_slug: "kwame-asante", webhook_url }),
      idempotency_key: randomUUID()
    })
    const { reference, task_token, webhook_secret } = submitted.structuredContent
    expect(webhook_secret).toMatch(/^whsec_/)
    const deliveries = await call("get_deliveries", { reference, task_token })
    expect(deliveries.isError).toBeUndefined()
    const rest = await restJson(`/tasks/${reference}/deliveries`, {
      headers: { authorization: `Bearer ${task_token}` }
    })
    expect(rest.status).toBe(200)
    expect(deliveries.structuredContent.webhook_url).toBe(webhook_url)
    expect(deliveries.structuredContent.data[0]).toMatchObject({ history_index: 0, id: rest.body.data[0].id })

    const refused = await call("get_deliveries", { reference, task_token: "tt_someone-else" })
    expect(refused.isError).toBe(true)
    expect(refused.structuredContent.error.code).toBe("unauthorized")

    const preflight = await call("preflight", { draft: digitalDraft({ webhook_url: "http://10.0.0.1/hooks" }) })
    expect(preflight.structuredContent.valid).toBe(false)
    expect(preflight.structuredContent.issues.map((i: Json) => i.field)).toEqual(["webhook_url"])
  })

  it("refuse with the REST envelope: unknown things, and arguments that fail their schema, field by field", async () => {
    const missing = await call("get_participant", { slug: "nobody-here" })
    expect(missing.isError).toBe(true)
    expect(missing.structuredContent).toEqual((await restJson("/participants/nobody-here")).body)
    expect(missing.content[0]!.text).toContain(missing.structuredContent.error.hint)

    const task = await call("get_task", { reference: "tsk_nothing" })
    expect(task.structuredContent).toEqual((await restJson("/tasks/tsk_nothing")).body)

    const bad = await call("list_participants", { limit: 9999, cursor: 5 })
    expect(bad.isError).toBe(true)
    expect(bad.structuredContent.error).toMatchObject({ code: "invalid_request", status: 400 })
    expect(bad.structuredContent.error.details.map((d: Json) => d.field).sort()).toEqual(["cursor", "limit"])

    const noKey = await call("submit_task", { draft: validDraft() })
    expect(noKey.structuredContent.error.details).toEqual([
      { field: "idempotency_key", code: "required", message: "idempotency_key is required" }
    ])
    // Every failing member named, once each, with the same details over REST and MCP (the message
    // and hint name the part that failed: the request body, or the tool's arguments).
    const twoBad = { query: "", limit: 0 }
    const restTwoBad = (await restJson("/search", json(twoBad))).body.error
    expect(restTwoBad.details.map((d: Json) => d.field)).toEqual(["query", "limit"])
    const mcpTwoBad = (await call("search", twoBad)).structuredContent.error
    expect({ ...mcpTwoBad, message: undefined, hint: undefined }).toEqual({
      ...restTwoBad,
      message: undefined,
      hint: undefined
    })
    // The same words as REST's for a member it lacks.
    const restMissing = await restJson("/search", json({}))
    expect(restMissing.body.error.details).toEqual([{ field: "query", code: "required", message: "query is required" }])
    const notObject = await call("preflight", { draft: "fix my tap" })
    expect(notObject.structuredContent.error.details.map((d: Json) => d.field)).toEqual(["draft"])

    const invalid = await call("submit_task", { draft: { action: "?" }, idempotency_key: randomUUID() })
    expect(invalid.structuredContent.error.code).toBe("preflight_failed")
    expect(invalid.structuredContent.error.details.length).toBeGreaterThan(0)
  })

  it("submit_task refuses an idempotency_key shorter than 16 characters, as REST does, creating nothing (issue 33)", async () => {
    const before = await env.database.count("tasks")
    for (const key of ["k", "k".repeat(15)]) {
      const refused = await call("submit_task", { draft: validDraft(), idempotency_key: key })
      expect(refused.isError).toBe(true)
      const error = refused.structuredContent.error
      expect(error).toMatchObject({ code: "invalid_request", status: 400 })
      expect(error.message).toContain("idempotency_key")
      expect(error.message).toContain("at least 16 characters; a UUID is recommended")
      expect(error.hint).toMatch(/UUID/)
      expect(error.details).toEqual([expect.objectContaining({ field: "idempotency_key", code: "invalid" })])
      expect(refused.content[0]!.text).toContain(error.message)
      // REST's body member gets the same rule and details.
      const rest = (await restJson("/tasks", json(validDraft({ idempotency_key: key })))).body.error
      expect({ ...error, message: undefined }).toEqual({ ...rest, message: undefined })
    }
    expect(await env.database.count("tasks")).toBe(before)
    // Sixteen characters are enough.
    const sixteen = randomUUID().replaceAll("-", "").slice(0, 16)
    const created = await call("submit_task", { draft: digitalDraft(), idempotency_key: sixteen })
    expect(created.isError).toBeUndefined()
    const replay = await call("submit_task", { draft: digitalDraft(), idempotency_key: sixteen })
    expect(replay.structuredContent).toEqual(created.structuredContent)
    expect(await env.database.count("tasks")).toBe(before + 1)
  })
})

describe("resources and the prompt", () => {
  it("capabilities, a participant and a task, as REST reads them", async () => {
    const { resources } = await client.listResources()
    expect(resources.map((r) => r.uri)).toEqual([mcpResources.capabilities])
    const { resourceTemplates } = await client.listResourceTemplates()
    expect(resourceTemplates.map((r) => r.uriTemplate)).toEqual([mcpResources.participant, mcpResources.task])

    const text = async (uri: string) => {
      const { contents } = await client.readResource({ uri })
      expect(contents[0]).toMatchObject({ uri, mimeType: "application/json" })
      return JSON.parse(String((contents[0] as { text: string }).text))
    }
    const caps = await text("marketplace://capabilities")
    expect(caps).toEqual((await restJson("/capabilities")).body)
    expect(caps.interfaces.mcp.tools).toEqual([...mcpToolNames])
    expect(await text("marketplace://participants/lukas-schmidt")).toEqual(
      (await restJson("/participants/lukas-schmidt")).body
    )
    const created = await restJson("/tasks", json(validDraft(), { "idempotency-key": randomUUID() }))
    const reference = created.body.reference
    // Cancelled, so that nothing (the service's offer) moves it between the two reads.
    const cancel = { method: "POST", headers: { authorization: `Bearer ${created.body.task_token}` } }
    expect((await fetch(env.server.api(`/tasks/${reference}/cancel`), cancel)).status).toBe(200)
    expect(await text(`marketplace://tasks/${reference}`)).toEqual((await restJson(`/tasks/${reference}`)).body)
    await expect(client.readResource({ uri: "marketplace://participants/nobody-here" })).rejects.toThrow(
      /No participant has the slug/
    )
  })

  it("hire_a_human walks the tools in order, with the goal", async () => {
    const { prompts } = await client.listPrompts()
    expect(prompts.map((p) => p.name)).toEqual([...mcpPromptNames])
    expect(prompts[0]?.arguments).toEqual([expect.objectContaining({ name: "goal", required: true })])
    const prompt = await client.getPrompt({ name: "hire_a_human", arguments: { goal: "photograph a shop in Lisbon" } })
    const text = (prompt.messages[0]!.content as { text: string }).text
    expect(text).toContain("photograph a shop in Lisbon")
    const order = ["search", "preflight", "submit_task", "wait_for_task", "review_task"].map((tool) =>
      text.indexOf(tool)
    )
    expect(order.every((at) => at >= 0)).toBe(true)
    expect([...order].sort((a, b) => a - b)).toEqual(order)
  })
})

describe("the transport", () => {
  it("refuses a browser origin not allowed (403) and lets an allowed one through; answers CORS preflight", async () => {
    const endpoint = `${env.server.url}/mcp`
    const refused = await postMcp(endpoint, initializeMessage(), { origin: "https://evil.example" })
    expect(refused.status).toBe(403)
    expect((await refused.json()).error.message).toMatch(/Origin/)
    expect((await postMcp(endpoint, initializeMessage(), { origin: env.server.url })).status).toBe(200)
    const preflight = await fetch(`${env.server.url}/mcp`, { method: "OPTIONS" })
    expect(preflight.status).toBe(204)
    expect(preflight.headers.get("access-control-allow-headers")).toContain("mcp-session-id")
    expect(preflight.headers.get("access-control-allow-methods")).toContain("DELETE")
    // No server-initiated stream is offered, so GET is not among the methods announced.
    expect(preflight.headers.get("access-control-allow-methods")).not.toContain("GET")
    expect(preflight.headers.get("allow")).not.toContain("GET")
    expect((await fetch(`${env.server.url}/mcp`, { method: "PUT" })).status).toBe(405)
  })

  it("an unknown session is 404 (start again, as MCP says); a body over 64 KiB is 413 in the envelope", async () => {
    const post = (headers: Record<string, string>, body: string) => postMcp(`${env.server.url}/mcp`, body, headers)
    const unknown = await post({ "mcp-session-id": randomUUID() }, '{"jsonrpc":"2.0","id":1,"method":"tools/list"}')
    expect(unknown.status).toBe(404)
    // MCP's status, with a JSON-RPC error saying what to do (the body was empty).
    expect(await unknown.json()).toEqual({
      jsonrpc: "2.0",
      id: null,
      error: { code: -32001, message: expect.stringMatching(/Send initialize/) }
    })
    const noAccept = await fetch(`${env.server.url}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(initializeMessage())
    })
    expect(noAccept.status).toBe(406)
    expect((await noAccept.json()).error.message).toContain("Accept: application/json, text/event-stream")
    const get = await fetch(`${env.server.url}/mcp`, { headers: { accept: "text/event-stream" } })
    expect(get.status).toBe(405)
    expect((await get.json()).error.message).toMatch(/^Method not allowed/)
    const large = await post({}, JSON.stringify({ pad: "x".repeat(70_000) }))
    expect(large.status).toBe(413)
    expect((await large.json()).error.code).toBe("payload_too_large")
  })

  it("a session ended with DELETE is gone", async () => {
    const other = await connect("ending")
    const id = other.transport.sessionId!
    await other.transport.terminateSession()
    const after = await postMcp(`${env.server.url}/mcp`, '{"jsonrpc":"2.0","id":1,"method":"tools/list"}', {
      "mcp-session-id": id,
      "mcp-protocol-version": "2025-11-25"
    })
    expect(after.status).toBe(404)
    await other.client.close()
  })
})

describe("a long wait with its defaults", () => {
  it("ends as a result before the SDK's default request timeout, reporting progress while it waits", async () => {
    // The wait is the subject: a server of its own whose time, waits included, runs ten times faster.
    const clock = fastClock(10)
    const fast = await startOnFreshDatabase({
      settings: { oauthIssuer: issuer.url, oauthAudience: testAudience, timerSweepMs: 500 },
      clock: clock.layer
    })
    const { client: fastClient } = await connect("fast-clock", fast)
    try {
      const call = toolCaller(() => fastClient)
      const created = await call("submit_task", { draft: validDraft(), idempotency_key: randomUUID() })
      const { reference, task_token } = created.structuredContent
      // Cancelled: nothing will change it, so the wait runs its whole default length.
      await call("cancel_task", { reference, task_token })
      const progress: Array<{ progress: number; message?: string | undefined }> = []
      const started = clock.now()
      const waited = (await fastClient.callTool({ name: "wait_for_task", arguments: { reference } }, undefined, {
        onprogress: (p) => progress.push(p)
      })) as Json
      const tookMs = clock.now() - started
      expect(waited.isError).toBeUndefined()
      expect(waited.structuredContent.state).toBe("cancelled")
      // Its default length by the service's clock: 30 s, within the SDK's default request timeout (60 s).
      expect(tookMs).toBeGreaterThanOrEqual(29_000)
      expect(tookMs).toBeLessThan(60_000)
      // At the start, every 10 s while waiting, and at the end, each further than the one before.
      expect(progress.map((p) => p.progress)).toEqual([0, 10, 20, 30])
    } finally {
      await fastClient.close()
      await fast.close()
    }
  })
})
