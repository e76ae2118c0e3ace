// The participant's MCP endpoint, `<MCP_URL>/participant`, driven by the official TypeScript SDK's
// client against the real server with the test OAuth issuer, on SQLite and on Postgres: an OAuth
// 2.1 protected resource (401 with WWW-Authenticate naming its RFC 9728 metadata, which the SDK's
// own discovery finds and accepts; tokens for another audience, expired or malformed refused; an
// unlinked subject 403), its tools answering exactly as REST does (my_tasks as GET /me/tasks, an
// offer accepted, started and handed in, a decline, refusals), and sessions that are their
// subject's alone.
import { randomUUID } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import {
  discoverOAuthProtectedResourceMetadata,
  extractWWWAuthenticateParams,
  selectResourceURL
} from "@modelcontextprotocol/sdk/client/auth.js"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { mcpToolNames, participantMcpToolNames } from "../../src/api/mcp.ts"
import { participantTools } from "../../src/mcp/participant_tools.ts"
import { callKindOf } from "../../src/mcp/tools.ts"
import { linkAccount, startIssuer, type TestIssuer, testAudience } from "../support/issuer.ts"
import { initializeMessage, postMcp, restJsonOn, toolCaller } from "../support/mcp.ts"
import { digitalDraft, json, type ServerOnDatabase, startOnFreshDatabase } from "../support/server.ts"

// biome-ignore lint/suspicious/noExplicitAny: JSON bodies are inspected member by member.
type Json = any

let issuer: TestIssuer
let env: ServerOnDatabase
/** The endpoint, and the resource its tokens are issued for. */
let endpoint: string
let metadataUrl: string

beforeAll(async () => {
  issuer = await startIssuer()
  env = await startOnFreshDatabase({
    settings: { oauthIssuer: issuer.url, oauthAudience: testAudience, timerSweepMs: 50 }
  })
  endpoint = `${env.server.url}/mcp/participant`
  metadataUrl = `${env.server.url}/.well-known/oauth-protected-resource/mcp/participant`
})
afterAll(async () => {
  await env?.close()
  await issuer?.close()
})

interface Person {
  readonly subject: string
  /** An access token for the participant's MCP endpoint. */
  readonly mcpToken: string
  /** An access token for the REST API. */
  readonly restToken: string
}

/** A subject linked to the participant `slug`, with a token for each resource. */
const personOf = async (slug: string): Promise<Person> => {
  const subject = `user-${slug}-${randomUUID().slice(0, 8)}`
  await linkAccount(env.database, subject, slug)
  return {
    subject,
    mcpToken: await issuer.token({ sub: subject, aud: endpoint }),
    restToken: await issuer.token({ sub: subject })
  }
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` })

const connectAs = async (token: string, name = "assistant") => {
  const client = new Client({ name, version: "1.0.0" })
  const transport = new StreamableHTTPClientTransport(new URL(endpoint), { requestInit: { headers: bearer(token) } })
  await client.connect(transport)
  return { client, transport }
}

const callWith = (client: Client) => toolCaller(() => client)
const rest = restJsonOn(() => env.server)
const restAs = (person: Person) => ({
  get: (path: string) => rest(path, { headers: bearer(person.restToken) }),
  post: (path: string, body?: unknown) =>
    rest(
      path,
      body === undefined ? { method: "POST", headers: bearer(person.restToken) } : json(body, bearer(person.restToken))
    )
})

/** An agent submits a digital task naming `slug` over REST, and waits until it is offered to them. */
const offerTo = async (slug: string, overrides: Record<string, unknown> = {}) => {
  const created = await rest(
    "/tasks",
    json(digitalDraft({ participant_slug: slug, ...overrides }), { "idempotency-key": randomUUID() })
  )
  expect(created.status).toBe(201)
  const { reference, task_token } = created.body
  // The service offers it at once (the dispatcher, in this process): read until it has.
  for (let i = 0; i < 200; i++) {
    const { body } = await rest(`/tasks/${reference}`)
    if (body.state === "awaiting_participant")
      return { reference: reference as string, taskToken: task_token as string }
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
  throw new Error(`task ${reference} was never offered`)
}

describe("an OAuth 2.1 protected resource", () => {
  it("without a token: 401, a readable envelope, WWW-Authenticate naming its metadata (found by the SDK)", async () => {
    const response = await postMcp(endpoint, initializeMessage())
    expect(response.status).toBe(401)
    expect(response.headers.get("content-type")).toContain("application/json")
    expect(response.headers.get("www-authenticate")).toBe(`Bearer resource_metadata="${metadataUrl}"`)
    const body = await response.json()
    expect(body.error).toMatchObject({ code: "unauthorized", status: 401 })
    expect(body.error.hint).toContain("/.well-known/oauth-protected-resource/mcp/participant")
    // What an MCP host reads from it to start the OAuth flow by itself.
    const challenge = extractWWWAuthenticateParams(response)
    expect(String(challenge.resourceMetadataUrl)).toBe(metadataUrl)
    expect(challenge.error).toBeUndefined()
  })

  it("publishes its RFC 9728 metadata, which the SDK discovers by the path form and accepts for the endpoint", async () => {
    const response = await fetch(metadataUrl)
    expect(response.status).toBe(200)
    const metadata = await response.json()
    expect(metadata).toEqual({
      resource: endpoint,
      authorization_servers: [issuer.url],
      scopes_supported: ["openid", "email", "profile"],
      bearer_methods_supported: ["header"],
      resource_name: expect.stringMatching(/\S/),
      resource_documentation: expect.stringContaining(`${env.server.url}/docs`)
    })
    // The SDK finds it from the endpoint's URL alone (RFC 9728 §3.1), and checks `resource` as it would.
    const discovered = await discoverOAuthProtectedResourceMetadata(endpoint)
    expect(discovered).toEqual(metadata)
    const provider = { clientMetadata: {}, redirectUrl: undefined } as never
    expect(String(await selectResourceURL(endpoint, provider, discovered))).toBe(endpoint)
    // The REST API's metadata, by the same function: the issuer in use named there too.
    expect(await (await fetch(`${env.server.url}/.well-known/oauth-protected-resource`)).json()).toMatchObject({
      resource: env.server.api(""),
      authorization_servers: [issuer.url]
    })
    // A browser host reads it across origins, sending MCP's protocol-version header.
    const preflight = await fetch(metadataUrl, { method: "OPTIONS" })
    expect(preflight.status).toBe(204)
    expect(preflight.headers.get("access-control-allow-headers")).toContain("mcp-protocol-version")
  })

  it("refuses a token for the REST API, an expired, a malformed one (invalid_token); an unlinked subject is 403", async () => {
    const person = await personOf("kwame-asante")
    const refusedWith = async (headers: Record<string, string>, status: number, code: string) => {
      const response = await postMcp(endpoint, initializeMessage(), headers)
      expect(response.status, JSON.stringify(headers)).toBe(status)
      const body = await response.json()
      expect(body.error.code).toBe(code)
      return { response, body }
    }
    const invalidToken = `Bearer resource_metadata="${metadataUrl}", error="invalid_token"`
    const restAudience = await refusedWith(bearer(person.restToken), 401, "unauthorized")
    expect(restAudience.response.headers.get("www-authenticate")).toBe(invalidToken)
    expect(extractWWWAuthenticateParams(restAudience.response).error).toBe("invalid_token")
    // And the other way round: the endpoint's token is no token for the REST API.
    expect((await rest("/me", { headers: bearer(person.mcpToken) })).status).toBe(401)
    expect((await rest("/me", { headers: bearer(person.restToken) })).status).toBe(200)

    const expired = await issuer.token({ sub: person.subject, aud: endpoint, exp: Math.floor(Date.now() / 1000) - 60 })
    const late = await refusedWith(bearer(expired), 401, "unauthorized")
    expect(late.response.headers.get("www-authenticate")).toBe(invalidToken)
    expect(late.body.error.message).toMatch(/exp/)
    for (const malformed of ["not-a-jwt", "two words"]) {
      const refused = await refusedWith({ authorization: `Bearer ${malformed}` }, 401, "unauthorized")
      expect(refused.response.headers.get("www-authenticate")).toBe(invalidToken)
    }
    // Another scheme is no bearer token at all.
    const basic = await refusedWith({ authorization: "Basic dXNlcjpwYXNz" }, 401, "unauthorized")
    expect(basic.response.headers.get("www-authenticate")).toBe(`Bearer resource_metadata="${metadataUrl}"`)

    const stranger = await issuer.token({ sub: `nobody-${randomUUID()}`, aud: endpoint })
    const unlinked = await refusedWith(bearer(stranger), 403, "forbidden")
    expect(unlinked.body.error.message).toMatch(/not linked to a participant/)
    expect(unlinked.response.headers.get("www-authenticate")).toBeNull()
  })

  it("answers a browser host's CORS preflight: the Authorization header allowed, WWW-Authenticate exposed", async () => {
    const preflight = await fetch(endpoint, { method: "OPTIONS" })
    expect(preflight.status).toBe(204)
    expect(preflight.headers.get("access-control-allow-headers")).toContain("authorization")
    expect(preflight.headers.get("access-control-allow-methods")).toContain("POST")
    const refused = await postMcp(endpoint, initializeMessage(), { origin: env.server.url })
    expect(refused.status).toBe(401)
    expect(refused.headers.get("access-control-expose-headers")).toContain("www-authenticate")
  })

  it("leaves the agents' endpoint as it is: its own tools, no credential", async () => {
    const client = new Client({ name: "agent", version: "1.0.0" })
    await client.connect(new StreamableHTTPClientTransport(new URL(`${env.server.url}/mcp`)))
    try {
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual([...mcpToolNames])
    } finally {
      await client.close()
    }
  })
})

describe("tools, as the participant's REST endpoints answer", () => {
  it("are the published ones, annotated truthfully, with the server's instructions", async () => {
    const person = await personOf("kwame-asante")
    const { client } = await connectAs(person.mcpToken)
    try {
      expect(client.getServerVersion()?.name).toBe("task-marketplace-participant")
      expect(client.getInstructions()).toContain("my_tasks")
      const { tools } = await client.listTools()
      expect(tools.map((t) => t.name)).toEqual([...participantMcpToolNames])
      const byName = new Map(tools.map((t) => [t.name, t.annotations]))
      for (const name of ["who_am_i", "my_tasks"]) {
        expect(byName.get(name), name).toMatchObject({
          readOnlyHint: true,
          destructiveHint: false,
          idempotentHint: true,
          openWorldHint: false
        })
      }
      for (const name of ["accept_task", "decline_task", "start_task", "submit_result"]) {
        expect(byName.get(name), name).toMatchObject({ readOnlyHint: false, openWorldHint: true })
      }
      expect(byName.get("decline_task")?.destructiveHint).toBe(true)
      expect(byName.get("accept_task")?.destructiveHint).toBe(false)
      expect(byName.get("submit_result")?.idempotentHint).toBe(false)
      for (const tool of tools) {
        expect(tool.inputSchema.type, tool.name).toBe("object")
        expect(tool.outputSchema?.type, tool.name).toBe("object")
        expect(tool.description?.length, tool.name).toBeGreaterThan(60)
      }
      const submit = tools.find((t) => t.name === "submit_result")!
      expect(submit.inputSchema.required).toEqual(["reference", "summary"])
      expect(Object.keys(submit.inputSchema.properties ?? {})).toEqual(["reference", "summary", "fields", "artifacts"])
    } finally {
      await client.close()
    }
  })

  it("are counted by the rate limiter as REST counts them: the moves as writes, the reads as reads", () => {
    const kind = callKindOf(participantTools)
    const call = (name: string) => JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name } })
    for (const name of ["accept_task", "decline_task", "start_task", "submit_result"])
      expect(kind(call(name))).toBe("write")
    for (const name of ["who_am_i", "my_tasks"]) expect(kind(call(name))).toBe("read")
    expect(kind(JSON.stringify(initializeMessage()))).toBe("read")
  })

  it("an offer from an agent accepted, started and handed in through MCP; the agent sees it submitted", async () => {
    const slug = "kwame-asante"
    const person = await personOf(slug)
    const { client } = await connectAs(person.mcpToken)
    const call = callWith(client)
    const you = restAs(person)
    try {
      const me = await call("who_am_i")
      expect(me.isError).toBeUndefined()
      expect(me.structuredContent).toEqual((await you.get("/me")).body)
      expect(me.structuredContent).toMatchObject({ subject: person.subject, participant: { slug } })

      const { reference } = await offerTo(slug)
      const mine = await call("my_tasks")
      expect(mine.structuredContent).toEqual((await you.get("/me/tasks")).body)
      expect(JSON.parse(mine.content[0]!.text)).toEqual(mine.structuredContent)
      expect(mine.structuredContent.data.map((t: Json) => t.reference)).toContain(reference)

      const accepted = await call("accept_task", { reference })
      expect(accepted.isError).toBeUndefined()
      expect(accepted.structuredContent.state).toBe("accepted")
      expect(accepted.structuredContent).toEqual((await rest(`/tasks/${reference}`)).body)

      const started = await call("start_task", { reference })
      expect(started.structuredContent.state).toBe("in_flight")
      expect(started.structuredContent).toEqual((await rest(`/tasks/${reference}`)).body)

      const result = {
        summary: "Tested the checkout on two phones; found 2 bugs",
        fields: { bugs_found: 2 },
        artifacts: [{ kind: "url", value: "https://example.com/report", description: "The report" }]
      }
      const handedIn = await call("submit_result", { reference, ...result })
      expect(handedIn.isError).toBeUndefined()
      expect(handedIn.structuredContent.state).toBe("submitted")
      // The agent reads it submitted, with the result as handed in: the same body as the tool's.
      const seen = (await rest(`/tasks/${reference}`)).body
      expect(seen).toEqual(handedIn.structuredContent)
      expect(seen.result).toMatchObject(result)
      expect((await call("my_tasks")).structuredContent).toEqual((await you.get("/me/tasks")).body)
    } finally {
      await client.close()
    }
  })

  it("submits a result naming a file uploaded over REST: the tool's result shows the file as REST does", async () => {
    const slug = "kwame-asante"
    const person = await personOf(slug)
    const { client } = await connectAs(person.mcpToken)
    try {
      const call = callWith(client)
      const { reference } = await offerTo(slug)
      expect((await call("accept_task", { reference })).isError).toBeUndefined()
      expect((await call("start_task", { reference })).isError).toBeUndefined()
      const uploaded = await fetch(env.server.api(`/tasks/${reference}/artifacts?name=notes.txt`), {
        method: "POST",
        headers: { ...bearer(person.restToken), "content-type": "application/octet-stream" },
        body: "Step 3 fails with an empty cart\n"
      })
      expect(uploaded.status).toBe(201)
      const file = await uploaded.json()
      // The SDK client checks structuredContent against the tool's published output schema.
      const handedIn = await call("submit_result", {
        reference,
        summary: "Found a bug",
        artifacts: [{ kind: "file", id: file.id, description: "Steps" }]
      })
      expect(handedIn.isError).toBeUndefined()
      expect(handedIn.structuredContent.result.artifacts).toEqual([
        {
          kind: "file",
          value: "notes.txt",
          id: file.id,
          name: "notes.txt",
          content_type: "text/plain; charset=utf-8",
          size: file.size,
          sha256: file.sha256,
          url: file.url,
          description: "Steps"
        }
      ])
      expect(handedIn.structuredContent).toEqual((await rest(`/tasks/${reference}`)).body)
      // A file that is not theirs is refused as over REST.
      const { reference: next } = await offerTo(slug)
      await call("accept_task", { reference: next })
      await call("start_task", { reference: next })
      const refused = await call("submit_result", {
        reference: next,
        summary: "x",
        artifacts: [{ kind: "file", id: file.id }]
      })
      expect(refused.isError).toBe(true)
      expect(refused.structuredContent.error.code).toBe("artifact_invalid")
      expect(refused.structuredContent.error.details).toEqual([
        { field: "artifacts.0.id", code: "invalid", message: expect.any(String) }
      ])
    } finally {
      await client.close()
    }
  })

  it("declines an offer with a reason, as REST does", async () => {
    const slug = "kwame-asante"
    const person = await personOf(slug)
    const { client } = await connectAs(person.mcpToken)
    try {
      const { reference } = await offerTo(slug)
      const declined = await callWith(client)("decline_task", { reference, reason: "Away that week" })
      expect(declined.isError).toBeUndefined()
      expect(declined.structuredContent).toEqual((await rest(`/tasks/${reference}`)).body)
      expect(JSON.stringify(declined.structuredContent.history)).toContain("Away that week")
    } finally {
      await client.close()
    }
  })

  it("refuses with exactly REST's envelope: someone else's task, a move out of turn, bad arguments", async () => {
    const holder = await personOf("kwame-asante")
    const other = await personOf("lukas-schmidt")
    const { client } = await connectAs(other.mcpToken)
    const call = callWith(client)
    const { reference } = await offerTo("kwame-asante")
    try {
      // Acting on someone else's task: 403, whatever came with the move (the holder is checked first).
      const notYours = await call("accept_task", { reference })
      expect(notYours.isError).toBe(true)
      const restNotYours = await restAs(other).post(`/tasks/${reference}/accept`)
      expect(restNotYours.status).toBe(403)
      expect(notYours.structuredContent).toEqual(restNotYours.body)
      expect(notYours.content[0]!.text).toContain("forbidden: ")
      const badResultNotYours = await call("submit_result", { reference, summary: "" })
      expect(badResultNotYours.structuredContent).toEqual(
        (await restAs(other).post(`/tasks/${reference}/submit`, { summary: "" })).body
      )
      expect((await call("decline_task", { reference })).structuredContent).toEqual(
        (await restAs(other).post(`/tasks/${reference}/decline`)).body
      )
      // An unknown task: 404 as REST.
      expect((await call("start_task", { reference: "tsk_nothing" })).structuredContent).toEqual(
        (await restAs(other).post("/tasks/tsk_nothing/start")).body
      )

      // The holder, out of turn: starting an offer not accepted is 409, as REST says it.
      const own = await connectAs(holder.mcpToken)
      try {
        const early = await callWith(own.client)("start_task", { reference })
        const restEarly = await restAs(holder).post(`/tasks/${reference}/start`)
        expect(restEarly.status).toBe(409)
        expect(early.structuredContent).toEqual(restEarly.body)
        // Arguments failing their schema: every one named, with REST's details (the message names
        // the tool's arguments rather than the body).
        const bad = await callWith(own.client)("submit_result", {
          reference,
          summary: "",
          artifacts: [{ kind: "photo" }]
        })
        const restBad = (
          await restAs(holder).post(`/tasks/${reference}/submit`, { summary: "", artifacts: [{ kind: "photo" }] })
        ).body.error
        expect(bad.structuredContent.error.code).toBe("invalid_request")
        expect(bad.structuredContent.error.details).toEqual(restBad.details)
        // A url artifact that is not an http(s) URL: named by its value, with REST's details.
        const script = { summary: "Done", artifacts: [{ kind: "url", value: "javascript:alert(1)" }] }
        const notALink = await callWith(own.client)("submit_result", { reference, ...script })
        expect(notALink.isError).toBe(true)
        expect(notALink.structuredContent.error.code).toBe("invalid_request")
        expect(notALink.structuredContent.error.details).toEqual([
          expect.objectContaining({ field: "artifacts.0.value", code: "invalid" })
        ])
        expect(notALink.structuredContent.error.details).toEqual(
          (await restAs(holder).post(`/tasks/${reference}/submit`, script)).body.error.details
        )
        const noReference = await callWith(own.client)("accept_task", {})
        expect(noReference.structuredContent.error.details).toEqual([
          { field: "reference", code: "required", message: "reference is required" }
        ])
        expect((await rest(`/tasks/${reference}`)).body.state).toBe("awaiting_participant")
      } finally {
        await own.client.close()
      }
    } finally {
      await client.close()
    }
  })
})

describe("sessions", () => {
  const listTools = '{"jsonrpc":"2.0","id":7,"method":"tools/list"}'

  it("verify the token of every request, not only at initialize", async () => {
    const person = await personOf("kwame-asante")
    const { client, transport } = await connectAs(person.mcpToken)
    const session = { "mcp-session-id": transport.sessionId!, "mcp-protocol-version": "2025-11-25" }
    try {
      expect((await postMcp(endpoint, listTools, { ...session, ...bearer(person.mcpToken) })).status).toBe(200)
      expect((await postMcp(endpoint, listTools, session)).status).toBe(401)
      const expired = await issuer.token({
        sub: person.subject,
        aud: endpoint,
        exp: Math.floor(Date.now() / 1000) - 60
      })
      expect((await postMcp(endpoint, listTools, { ...session, ...bearer(expired) })).status).toBe(401)
      expect((await postMcp(endpoint, listTools, { ...session, ...bearer(person.restToken) })).status).toBe(401)
    } finally {
      await client.close()
    }
  })

  it("are their subject's: another subject's token is refused (404) and ends nothing", async () => {
    const a = await personOf("kwame-asante")
    const b = await personOf("lukas-schmidt")
    const { client, transport } = await connectAs(a.mcpToken)
    const session = { "mcp-session-id": transport.sessionId!, "mcp-protocol-version": "2025-11-25" }
    try {
      const asB = await postMcp(endpoint, listTools, { ...session, ...bearer(b.mcpToken) })
      expect(asB.status).toBe(404)
      expect((await asB.json()).error.message).toMatch(/Send initialize/)
      const deleteAsB = await fetch(endpoint, { method: "DELETE", headers: { ...session, ...bearer(b.mcpToken) } })
      expect(deleteAsB.status).toBe(404)
      // Still A's, and still alive.
      expect((await callWith(client)("who_am_i")).structuredContent.subject).toBe(a.subject)
      // A tool call in A's session with B's token does not act as anyone.
      const call = JSON.stringify({
        jsonrpc: "2.0",
        id: 8,
        method: "tools/call",
        params: { name: "who_am_i", arguments: {} }
      })
      expect((await postMcp(endpoint, call, { ...session, ...bearer(b.mcpToken) })).status).toBe(404)
    } finally {
      await client.close()
    }
  })

  it("of the two endpoints are apart: neither's session id is the other's", async () => {
    const person = await personOf("kwame-asante")
    const participant = await connectAs(person.mcpToken)
    const agent = new Client({ name: "agent", version: "1.0.0" })
    const agentTransport = new StreamableHTTPClientTransport(new URL(`${env.server.url}/mcp`))
    await agent.connect(agentTransport)
    try {
      const headers = { "mcp-protocol-version": "2025-11-25", ...bearer(person.mcpToken) }
      const agentsOnParticipant = await postMcp(endpoint, listTools, {
        ...headers,
        "mcp-session-id": agentTransport.sessionId!
      })
      expect(agentsOnParticipant.status).toBe(404)
      const participantsOnAgent = await postMcp(`${env.server.url}/mcp`, listTools, {
        ...headers,
        "mcp-session-id": participant.transport.sessionId!
      })
      expect(participantsOnAgent.status).toBe(404)
    } finally {
      await agent.close()
      await participant.client.close()
    }
  })
})
