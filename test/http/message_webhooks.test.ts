/**
 * `task.message` webhook events over the real HTTP server, on both backends: a participant's
 * message reaches the agent's receiver once, signed as every event is (verified with the
 * `standardwebhooks` package), after the task's earlier events and before its later ones; the
 * agent's own messages send none; a refused message (another party, a closed task, a bad body)
 * writes no event; a receiver that fails gets the same event (same webhook-id) again, and the
 * task's next event waits for it. The deliveries listing shows message events in their place.
 * A message written over the participant's MCP endpoint is heard of alike, and so is one written by
 * another process that sends nothing (the console's path, the participant's operations): the
 * event is in the database, and the server's sender delivers it.
 */
import { randomUUID } from "node:crypto"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ParticipantOperations } from "../../src/operations/participant.ts"
import { linkAccount, startIssuer, type TestIssuer, testAudience } from "../support/issuer.ts"
import {
  awaitTask,
  expectEnvelope,
  json,
  type ServerOnDatabase,
  startOnFreshDatabase,
  validDraft
} from "../support/server.ts"
import { withServicesOn } from "../support/services.ts"
import { type Receiver, startReceiver, verified } from "../support/webhooks.ts"

// biome-ignore lint/suspicious/noExplicitAny: JSON bodies are inspected member by member.
type Json = any

let issuer: TestIssuer
let env: ServerOnDatabase
const receivers: Array<Receiver> = []

beforeAll(async () => {
  issuer = await startIssuer()
  env = await startOnFreshDatabase({
    settings: {
      oauthIssuer: issuer.url,
      oauthAudience: testAudience,
      timerSweepMs: 50,
      webhooks: { allowPrivate: true, retryScheduleMs: [200, 200], timeoutMs: 2000 }
    }
  })
}, 60_000)
afterAll(async () => {
  await env?.close()
  for (const r of receivers) await r.close()
  await issuer?.close()
})

const api = (path: string) => env.server.api(path)
const agent = (token: string) => ({ authorization: `Bearer ${token}` })
const participant = async (slug: string) => {
  const subject = `user-${slug}-${randomUUID().slice(0, 8)}`
  await linkAccount(env.database, subject, slug)
  return { authorization: `Bearer ${await issuer.token({ sub: subject })}` }
}
const write = (reference: string, headers: Record<string, string>, body: unknown) =>
  fetch(api(`/tasks/${reference}/messages`), json(body, headers))

/** A task with a webhook to a fresh receiver, offered to `slug`, its offer's event received. */
const offeredWithHook = async (slug: string) => {
  const receiver = await startReceiver()
  receivers.push(receiver)
  const response = await fetch(
    api("/tasks"),
    json(validDraft({ participant_slug: slug, webhook_url: receiver.url }), { "idempotency-key": randomUUID() })
  )
  expect(response.status).toBe(201)
  const created = await response.json()
  const task = await awaitTask(api(`/tasks/${created.reference}`), (t) => t.state === "awaiting_participant")
  // Every entry of the history so far has its event: the task's earlier events.
  await receiver.waitFor(task.history.length)
  return {
    reference: created.reference as string,
    token: created.task_token as string,
    secret: created.webhook_secret as string,
    receiver
  }
}

const deliveriesOf = async (reference: string, token: string): Promise<Json> => {
  const response = await fetch(api(`/tasks/${reference}/deliveries`), { headers: agent(token) })
  expect(response.status).toBe(200)
  return response.json()
}

const eventsOf = (secret: string, receiver: Receiver) =>
  receiver.received.map((request) => ({ id: request.headers["webhook-id"], event: verified(secret, request) }))

describe("task.message webhook events", { timeout: 60_000 }, () => {
  it("a participant's message is delivered once, signed, after the task's earlier events; the agent's own send none; the task and its ETag stay", async () => {
    const { reference, token, secret, receiver } = await offeredWithHook("lukas-schmidt")
    const lukas = await participant("lukas-schmidt")
    const earlier = receiver.received.length
    const etag = (await fetch(api(`/tasks/${reference}`))).headers.get("etag")

    expect((await write(reference, agent(token), { body: "The left door, please." })).status).toBe(201)
    const written = await write(reference, lukas, { body: "  The one with the green frame?  " })
    expect(written.status).toBe(201)
    const message = await written.json()

    await receiver.waitFor(earlier + 1)
    const events = eventsOf(secret, receiver)
    // The earlier events are the task's history, in order; the message's comes after them.
    expect(events.slice(0, earlier).map((e) => e.event.type)).toEqual(Array(earlier).fill("task.updated"))
    expect(events.slice(0, earlier).map((e) => e.event.data.history.length)).toEqual(
      Array.from({ length: earlier }, (_, i) => i + 1)
    )
    expect(events[earlier]!.event).toEqual({
      type: "task.message",
      timestamp: message.created_at,
      data: { ...message, reference }
    })
    expect(message).toMatchObject({ from: "participant", body: "The one with the green frame?" })
    expect(await (await fetch(api(`/tasks/${reference}`), { headers: { "if-none-match": etag ?? "" } })).status).toBe(
      304
    )

    // A later move's event comes after it; by then every event written before it was sent, and
    // the agent's message sent none.
    expect((await fetch(api(`/tasks/${reference}/accept`), json({}, lukas))).status).toBe(200)
    await receiver.waitFor(earlier + 2)
    const all = eventsOf(secret, receiver)
    expect(all.map((e) => e.event.type)).toEqual([
      ...Array(earlier).fill("task.updated"),
      "task.message",
      "task.updated"
    ])
    expect(all[earlier + 1]!.event.data.state).toBe("accepted")
    expect(new Set(all.map((e) => e.id)).size).toBe(all.length)

    // The deliveries listing shows the message's event in its place, delivered.
    const list = await deliveriesOf(reference, token)
    expect(list.count).toBe(earlier + 2)
    expect(list.data.map((d: Json) => d.type)).toEqual(all.map((e) => e.event.type))
    expect(list.data.map((d: Json) => d.id)).toEqual(all.map((e) => e.id))
    expect(list.data[earlier]).toEqual({
      object: "webhook_event",
      id: all[earlier]!.id,
      type: "task.message",
      message_id: message.id,
      state: "delivered",
      created_at: message.created_at,
      next_attempt_at: null,
      attempts: [{ at: expect.any(String), status: 204, error: null, duration_ms: expect.any(Number) }]
    })
    expect(Object.keys(list.data[0])).toEqual([
      "object",
      "id",
      "type",
      "history_index",
      "state",
      "created_at",
      "next_attempt_at",
      "attempts"
    ])
  })

  it("a refused message (another party, a bad body, a closed task) writes no event", async () => {
    const { reference, token, receiver } = await offeredWithHook("lukas-schmidt")
    const lukas = await participant("lukas-schmidt")
    const jonas = await participant("jonas-weber")
    await expectEnvelope(await write(reference, jonas, { body: "Can I do it?" }), 403, "forbidden")
    await expectEnvelope(await write(reference, {}, { body: "Hello" }), 401, "unauthorized")
    for (const body of [{ body: "" }, { body: "x".repeat(4001) }, { text: "hi" }]) {
      expect((await write(reference, lukas, body)).status, JSON.stringify(body)).toBe(400)
    }
    expect((await fetch(api(`/tasks/${reference}/cancel`), json({}, agent(token)))).status).toBe(200)
    const closed = await write(reference, lukas, { body: "Too late?" })
    expect(closed.status).toBe(409)

    // The cancellation's event is the last one written; once it arrived, nothing else is pending.
    const list = await deliveriesOf(reference, token)
    expect(list.data.map((d: Json) => d.type)).not.toContain("task.message")
    await receiver.waitFor(list.count)
    expect(receiver.received.map((r) => JSON.parse(r.body).type)).not.toContain("task.message")
    expect((await (await fetch(api(`/tasks/${reference}/messages`), { headers: agent(token) })).json()).count).toBe(0)
  })

  it("a receiver that fails gets the same event again, and the task's next event waits for it", async () => {
    const { reference, token, secret, receiver } = await offeredWithHook("lukas-schmidt")
    const lukas = await participant("lukas-schmidt")
    const earlier = receiver.received.length
    // The message's first attempt fails; its retry succeeds.
    receiver.answer = (n) => (n === earlier ? 500 : 204)
    expect((await write(reference, lukas, { body: "Is the side door fine too?" })).status).toBe(201)
    expect((await fetch(api(`/tasks/${reference}/accept`), json({}, lukas))).status).toBe(200)
    await receiver.waitFor(earlier + 3)
    const events = eventsOf(secret, receiver).slice(earlier)
    expect(events.map((e) => e.event.type)).toEqual(["task.message", "task.message", "task.updated"])
    expect(events[1]!.id).toBe(events[0]!.id)
    expect(events[2]!.event.data.state).toBe("accepted")
    const list = await deliveriesOf(reference, token)
    const delivery = list.data.find((d: Json) => d.type === "task.message")
    expect(delivery.state).toBe("delivered")
    expect(delivery.attempts.map((a: Json) => a.status)).toEqual([500, 204])
  })

  it("a message sent over the participant's MCP endpoint is heard of alike", async () => {
    const { reference, secret, receiver } = await offeredWithHook("lukas-schmidt")
    const earlier = receiver.received.length
    const subject = `user-lukas-${randomUUID().slice(0, 8)}`
    await linkAccount(env.database, subject, "lukas-schmidt")
    const token = await issuer.token({ sub: subject, aud: `${env.server.url}/mcp/participant` })
    const client = new Client({ name: "message-webhooks-test", version: "1.0.0" })
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${env.server.url}/mcp/participant`), {
        requestInit: { headers: { authorization: `Bearer ${token}` } }
      })
    )
    try {
      const sent = (await client.callTool({ name: "send_message", arguments: { reference, body: "On my way." } })) as {
        structuredContent?: Json
      }
      await receiver.waitFor(earlier + 1)
      expect(eventsOf(secret, receiver)[earlier]!.event).toEqual({
        type: "task.message",
        timestamp: sent.structuredContent.created_at,
        data: { ...sent.structuredContent, reference }
      })
    } finally {
      await client.close()
    }
  })

  it("a message written by another process, which sends nothing, is delivered by the server from the database", async () => {
    const { reference, secret, receiver } = await offeredWithHook("lukas-schmidt")
    const earlier = receiver.received.length
    // The participant's operations, as the console calls them, in a process with no sender at all.
    const message = await withServicesOn(
      env.database,
      Effect.gen(function* () {
        const operations = yield* ParticipantOperations
        return yield* operations.postMessage({ subject: "unused", slug: "lukas-schmidt" }, reference, {
          body: "Written in the console."
        })
      })
    )
    await receiver.waitFor(earlier + 1)
    expect(eventsOf(secret, receiver)[earlier]!.event.data).toEqual({ ...message, reference })
  })

  it("messages written at once with the task's moves each take their own place: every one is kept and sent once, in the order listed", async () => {
    const { reference, token, secret, receiver } = await offeredWithHook("lukas-schmidt")
    const lukas = await participant("lukas-schmidt")
    const earlier = receiver.received.length
    const bodies = Array.from({ length: 8 }, (_, i) => `Question ${i + 1}`)
    const answers = await Promise.all([
      ...bodies.map((body) => write(reference, lukas, { body })),
      fetch(api(`/tasks/${reference}/accept`), json({}, lukas))
    ])
    expect(answers.map((answer) => answer.status)).toEqual([...bodies.map(() => 201), 200])
    const list = await deliveriesOf(reference, token)
    expect(list.count).toBe(earlier + bodies.length + 1)
    await receiver.waitFor(list.count)
    const events = eventsOf(secret, receiver)
    // Sent in the order listed, each once.
    expect(events.map((e) => e.id)).toEqual(list.data.map((d: Json) => d.id))
    expect(
      events
        .filter((e) => e.event.type === "task.message")
        .map((e) => e.event.data.body)
        .sort()
    ).toEqual([...bodies].sort())
    expect(events.filter((e) => e.event.type === "task.updated").at(-1)!.event.data.state).toBe("accepted")
  })
})
