/**
 * A conversation on each task (issue 38), over REST, on both backends: the agent (task token) and
 * the participant the task is offered to or held by (their access token) write and read; anyone
 * else is refused as on the task's other moves, with nothing changed; messages change nothing of
 * the task, nor its ETag; writing closes when the task ends; a participant who declined no longer
 * reads their thread, and one offered later sees only their own.
 */
import { randomUUID } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { freshDatabase, type TestDatabase } from "../support/database.ts"
import { linkAccount, startIssuer, type TestIssuer, testAudience } from "../support/issuer.ts"
import {
  awaitTask,
  digitalDraft,
  expectEnvelope,
  json,
  startServer,
  submitTask,
  type TestServer,
  validDraft
} from "../support/server.ts"

let issuer: TestIssuer
let database: TestDatabase
let server: TestServer

beforeAll(async () => {
  issuer = await startIssuer()
  database = await freshDatabase()
  server = await startServer({
    database,
    settings: { oauthIssuer: issuer.url, oauthAudience: testAudience, timerSweepMs: 50 }
  })
}, 60_000)
afterAll(async () => {
  await server?.close()
  await database?.drop()
  await issuer?.close()
})

/** The authorization header of a participant signed in with a real access token. */
const participant = async (slug: string) => {
  const subject = `user-${slug}-${randomUUID().slice(0, 8)}`
  await linkAccount(database, subject, slug)
  return { authorization: `Bearer ${await issuer.token({ sub: subject })}` }
}
const agent = (token: string) => ({ authorization: `Bearer ${token}` })

const messagesOf = (reference: string) => server.api(`/tasks/${reference}/messages`)
const write = (reference: string, headers: Record<string, string>, body: unknown) =>
  fetch(messagesOf(reference), json(body, headers))
const read = (reference: string, headers: Record<string, string>) => fetch(messagesOf(reference), { headers })

/** A task offered to `slug` (named by the draft), with its agent's token. */
const offeredTo = async (slug: string) => {
  const { reference, token } = await submitTask(server.api("/tasks"), validDraft({ participant_slug: slug }))
  await awaitTask(server.api(`/tasks/${reference}`), (task) => task.state === "awaiting_participant")
  return { reference, token }
}

describe("a task's conversation", () => {
  it("the agent and the participant offered the task write and read it, oldest first; the task and its ETag do not change", async () => {
    const { reference, token } = await offeredTo("lukas-schmidt")
    const lukas = await participant("lukas-schmidt")
    const before = await fetch(server.api(`/tasks/${reference}`))
    const etag = before.headers.get("etag")

    const first = await write(reference, agent(token), { body: "  Please photograph the left door.  " })
    expect(first.status).toBe(201)
    const sent = await first.json()
    expect(sent).toEqual({
      object: "message",
      id: expect.stringMatching(/^msg_[A-Za-z0-9_-]{22}$/),
      from: "agent",
      body: "Please photograph the left door.",
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
    })
    const reply = await write(reference, lukas, { body: "The one with the green frame?" })
    expect(reply.status).toBe(201)
    expect((await reply.json()).from).toBe("participant")

    for (const reader of [agent(token), lukas]) {
      const list = await read(reference, reader)
      expect(list.status).toBe(200)
      const body = await list.json()
      expect(body.object).toBe("list")
      expect(body.count).toBe(2)
      expect(body.data.map((m: { from: string; body: string }) => [m.from, m.body])).toEqual([
        ["agent", "Please photograph the left door."],
        ["participant", "The one with the green frame?"]
      ])
    }
    const after = await fetch(server.api(`/tasks/${reference}`), { headers: { "if-none-match": etag ?? "" } })
    expect(after.status).toBe(304)
  })

  it("anyone else is refused as on the task's other moves, before the body is judged, and nothing is written", async () => {
    const { reference, token } = await offeredTo("lukas-schmidt")
    const other = await submitTask(server.api("/tasks"), validDraft())
    const jonas = await participant("jonas-weber")
    await expectEnvelope(await write(reference, {}, { body: "hello" }), 401, "unauthorized")
    await expectEnvelope(await write(reference, agent(other.token), { body: "hello" }), 401, "unauthorized")
    await expectEnvelope(await write(reference, agent("tt_not-a-token"), "{not json"), 401, "unauthorized")
    await expectEnvelope(await write(reference, jonas, { body: "hello" }), 403, "forbidden")
    await expectEnvelope(await write(reference, jonas, "{not json"), 403, "forbidden")
    await expectEnvelope(await read(reference, jonas), 403, "forbidden")
    await expectEnvelope(await read(reference, {}), 401, "unauthorized")
    await expectEnvelope(
      await write("tsk_aaaaaaaaaaaaaaaaaaaaaaaaaa", agent(token), { body: "x" }),
      404,
      "task_not_found"
    )
    expect((await (await read(reference, agent(token))).json()).count).toBe(0)
  })

  it("a body must be 1 to 4,000 characters of text: anything else is 400, and nothing is written", async () => {
    const { reference, token } = await offeredTo("lukas-schmidt")
    for (const body of [{}, { body: "" }, { body: "   " }, { body: 42 }, { body: "x".repeat(4001) }, [], "{"]) {
      const response = await write(reference, agent(token), body)
      expect(response.status, JSON.stringify(body)).toBe(400)
      expect((await response.json()).error.code).toMatch(/^invalid_(request|json)$/)
    }
    expect((await write(reference, agent(token), { body: "é".repeat(4000) })).status).toBe(201)
    expect((await (await read(reference, agent(token))).json()).count).toBe(1)
  })

  it("closes when the task ends (409 saying why); what was written stays readable", async () => {
    const { reference, token } = await offeredTo("lukas-schmidt")
    expect((await write(reference, agent(token), { body: "Still there?" })).status).toBe(201)
    const cancelled = await fetch(server.api(`/tasks/${reference}/cancel`), json({}, agent(token)))
    expect(cancelled.status).toBe(200)
    const refused = await write(reference, agent(token), { body: "Too late" })
    expect(refused.status).toBe(409)
    const { error } = await refused.json()
    expect([error.code, error.message]).toEqual([
      "invalid_transition",
      "The task is cancelled: its conversation is closed."
    ])
    const list = await (await read(reference, agent(token))).json()
    expect(list.data.map((m: { body: string }) => m.body)).toEqual(["Still there?"])
  })

  it("a participant who declined no longer reads their thread; the next one offered sees only their own", async () => {
    const { reference, token } = await submitTask(
      server.api("/tasks"),
      // A digital task many can take: declined by one, it is offered to the next.
      digitalDraft()
    )
    const offered = await awaitTask(server.api(`/tasks/${reference}`), (task) => task.state === "awaiting_participant")
    const first = await participant(offered.participant_slug)
    expect((await write(reference, first, { body: "Which entrance?" })).status).toBe(201)
    const declined = await fetch(server.api(`/tasks/${reference}/decline`), json({ reason: "Too far" }, first))
    expect(declined.status).toBe(200)
    await expectEnvelope(await read(reference, first), 403, "forbidden")
    await expectEnvelope(await write(reference, first, { body: "Sorry" }), 403, "forbidden")
    const next = await awaitTask(
      server.api(`/tasks/${reference}`),
      (task) => task.state === "awaiting_participant" && task.participant_slug !== offered.participant_slug
    )
    const second = await participant(next.participant_slug)
    expect((await (await read(reference, second)).json()).count).toBe(0)
    expect((await write(reference, agent(token), { body: "Hello, second" })).status).toBe(201)
    expect((await (await read(reference, second)).json()).data.map((m: { body: string }) => m.body)).toEqual([
      "Hello, second"
    ])
    // The agent reads every thread.
    const all = await (await read(reference, agent(token))).json()
    expect(all.data.map((m: { body: string }) => m.body)).toEqual(["Which entrance?", "Hello, second"])
  })
})

describe("over MCP: send_message and get_messages on both endpoints", () => {
  // biome-ignore lint/suspicious/noExplicitAny: tool results are inspected member by member.
  type ToolResult = { structuredContent?: any; isError?: boolean }
  const connect = async (path: string, headers: Record<string, string> = {}) => {
    const client = new Client({ name: "messages-test", version: "1.0.0" })
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${server.url}${path}`), { requestInit: { headers } })
    )
    return {
      call: async (name: string, args: Record<string, unknown>) =>
        (await client.callTool({ name, arguments: args })) as ToolResult,
      close: () => client.close()
    }
  }

  it("the agent's and the participant's tools write and read the same conversation as REST", async () => {
    const { reference, token } = await offeredTo("lukas-schmidt")
    const subject = `user-lukas-${randomUUID().slice(0, 8)}`
    await linkAccount(database, subject, "lukas-schmidt")
    const mcpToken = await issuer.token({ sub: subject, aud: `${server.url}/mcp/participant` })
    const agentMcp = await connect("/mcp")
    const lukasMcp = await connect("/mcp/participant", { authorization: `Bearer ${mcpToken}` })
    try {
      const sent = await agentMcp.call("send_message", { reference, task_token: token, body: "The left door, please." })
      expect(sent.isError).toBeFalsy()
      expect(sent.structuredContent).toMatchObject({ object: "message", from: "agent", body: "The left door, please." })
      const replied = await lukasMcp.call("send_message", { reference, body: "Understood." })
      expect(replied.isError).toBeFalsy()
      expect(replied.structuredContent.from).toBe("participant")
      const viaMcp = (await agentMcp.call("get_messages", { reference, task_token: token })).structuredContent
      const viaRest = await (await read(reference, agent(token))).json()
      expect(viaMcp).toEqual(viaRest)
      expect((await lukasMcp.call("get_messages", { reference })).structuredContent).toEqual(viaRest)
      // Refusals are the REST envelope: a wrong token, a blank body, nothing written.
      const wrong = await agentMcp.call("send_message", { reference, task_token: "tt_wrong", body: "x" })
      expect([wrong.isError, wrong.structuredContent.error.code]).toEqual([true, "unauthorized"])
      const blank = await lukasMcp.call("send_message", { reference, body: "   " })
      expect([blank.isError, blank.structuredContent.error.code]).toEqual([true, "invalid_request"])
      expect((await (await read(reference, agent(token))).json()).count).toBe(2)
    } finally {
      await agentMcp.close()
      await lukasMcp.close()
    }
  })
})
