/**
 * Signed webhooks over the real HTTP server, on both backends: every transition of a task's life
 * arrives at a real receiver, signed so that the `standardwebhooks` package verifies it; a receiver
 * that fails gets the same event (same webhook-id) again; what the URL shows is refused without
 * WEBHOOK_ALLOW_PRIVATE, and what a host name resolves to is refused at connection time.
 */
import { randomUUID } from "node:crypto"
import type { LookupFunction } from "node:net"
import { Layer } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type AppServices, ServerServicesLayer } from "../../src/app.ts"
import type { AppConfig } from "../../src/config/app_config.ts"
import type { AppSettings } from "../../src/config/settings.ts"
import { TaskDraft } from "../../src/domain/task_draft/schema.ts"
import { WebhookLookup } from "../../src/services/webhook_delivery.ts"
import { type ApiClient, apiClient, asJsonObject, asPayload, call, exchange } from "../support/api_client.ts"
import { actingParticipant, startIssuer, type TestIssuer, testAudience } from "../support/issuer.ts"
import {
  awaitTask,
  digitalDraft,
  expectEnvelope,
  json,
  type ServerOnDatabase,
  startOnFreshDatabase
} from "../support/server.ts"
import { type Answer, type Receiver, startReceiver, verified } from "../support/webhooks.ts"

// biome-ignore lint/suspicious/noExplicitAny: JSON bodies are inspected member by member.
type Json = any

let issuer: TestIssuer
const envs: Array<ServerOnDatabase> = []
const receivers: Array<Receiver> = []
/** Webhooks to loopback allowed (WEBHOOK_ALLOW_PRIVATE), retries after 200 ms. */
let dev: ServerOnDatabase
/** The production default: https to public addresses only. */
let strict: ServerOnDatabase
/** The production default, with a resolver that answers a loopback address for every host name. */
let rebound: ServerOnDatabase

const boot = async (settings: Partial<AppSettings>, services?: Layer.Layer<AppServices, unknown, AppConfig>) => {
  const env = await startOnFreshDatabase({
    settings: { oauthIssuer: issuer.url, oauthAudience: testAudience, timerSweepMs: 50, ...settings },
    ...(services === undefined ? {} : { services })
  })
  envs.push(env)
  return env
}

/**
 * A DNS answer that points every name at this machine: what a hostile name's owner can arrange.
 * `compat.example.com` gets 127.0.0.1 written as an IPv4-compatible IPv6 address.
 */
const resolved: Array<string> = []
const toLoopback = ((hostname: string, options: { all?: boolean }, callback: (...args: Array<unknown>) => void) => {
  resolved.push(hostname)
  const [address, family] = hostname === "compat.example.com" ? ["::7f00:1", 6] : ["127.0.0.1", 4]
  if (options.all) callback(null, [{ address, family }])
  else callback(null, address, family)
}) as unknown as LookupFunction

const receiver = async (answer?: (n: number) => Answer) => {
  const r = await startReceiver(answer)
  receivers.push(r)
  return r
}

beforeAll(async () => {
  issuer = await startIssuer()
  ;[dev, strict, rebound] = await Promise.all([
    boot({ webhooks: { allowPrivate: true, retryScheduleMs: [200, 200], timeoutMs: 2000 } }),
    boot({}),
    boot(
      { webhooks: { allowPrivate: false, retryScheduleMs: [200], timeoutMs: 2000 } },
      ServerServicesLayer.pipe(Layer.provide(Layer.succeed(WebhookLookup, toLoopback)))
    )
  ])
})
afterAll(async () => {
  for (const env of envs) await env.close()
  for (const r of receivers) await r.close()
  await issuer?.close()
})

/**
 * POST /tasks, raw: the drafts name receivers on this machine, which only a service run with
 * WEBHOOK_ALLOW_PRIVATE accepts; the document, and so the typed client, states the default policy.
 */
const submit = async (env: ServerOnDatabase, draft: Record<string, unknown>, key = randomUUID()) => {
  const response = await fetch(env.server.api("/tasks"), json(draft, { "idempotency-key": key }))
  const text = await response.text()
  if (response.status !== 201) throw new Error(`expected 201, got ${response.status}: ${text}`)
  return JSON.parse(text) as Json
}

const readTask = (env: ServerOnDatabase, reference: string) =>
  exchange(env.server, (c) => c.getTask({ params: { reference }, query: {}, headers: {} }))

const waitForState = (env: ServerOnDatabase, reference: string, state: string): Promise<Json> =>
  awaitTask(env.server.api(`/tasks/${reference}`), (task) => task.state === state)

/** GET /tasks/{reference}/deliveries until `until` holds (or 15 s pass). */
const deliveriesOf = async (
  env: ServerOnDatabase,
  reference: string,
  token: string,
  until: (list: Json) => boolean
) => {
  const deadline = Date.now() + 15_000
  for (;;) {
    const response = await exchange(env.server, (c) => c.listDeliveries({ params: { reference } }), { token })
    expect(response.status).toBe(200)
    expect(response.headers.get("content-type")).toContain("application/json")
    const list = await response.json()
    if (until(list)) return list
    if (Date.now() > deadline) throw new Error(`the deliveries stayed ${JSON.stringify(list)}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

const result = {
  summary: "Found one bug in the checkout flow",
  fields: { bugs_found: 1 },
  artifacts: [{ kind: "url", value: "https://example.com/report.pdf" }]
}

describe("signed webhooks", () => {
  it("every transition of a task's life arrives in order, signed, with the task as GET returns it", async () => {
    const hooks = await receiver()
    const slug = "akiko-tanaka"
    const created = await submit(dev, digitalDraft({ participant_slug: slug, webhook_url: hooks.url }))
    expect(created.webhook_secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/)
    expect(Buffer.from(created.webhook_secret.slice("whsec_".length), "base64").length).toBeGreaterThanOrEqual(24)
    const { reference, task_token: token, webhook_secret: secret } = created

    await waitForState(dev, reference, "awaiting_participant")
    const act = await actingParticipant(dev, issuer, slug)
    await act(reference, "accept")
    await act(reference, "start")
    await act(reference, "submit", result)
    const review = await exchange(
      dev.server,
      (c) => c.reviewTask({ params: { reference }, payload: { decision: "accept" } }),
      { token }
    )
    expect(review.status).toBe(200)
    const final = await review.json()
    expect(final.state).toBe("settled")

    const requests = await hooks.waitFor(final.history.length)
    // Nothing more arrives: one event per entry of the history.
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(hooks.received.length).toBe(final.history.length)

    const ids = new Set<string>()
    requests.forEach((request, i) => {
      expect(request.path).toBe("/hooks")
      expect(request.headers["content-type"]).toBe("application/json")
      const event = verified(secret, request)
      expect(event.type).toBe("task.updated")
      const entry = final.history[i]
      expect(event.timestamp).toBe(entry.at)
      // The task as it was once this entry was recorded.
      expect(event.data.object).toBe("task")
      expect(event.data.reference).toBe(reference)
      expect(event.data.state).toBe(entry.to)
      expect(event.data.history).toEqual(final.history.slice(0, i + 1))
      expect(event.data.task_token).toBeUndefined()
      const timestamp = Number(request.headers["webhook-timestamp"])
      expect(Math.abs(timestamp - Date.now() / 1000)).toBeLessThan(60)
      ids.add(String(request.headers["webhook-id"]))
    })
    expect(ids.size).toBe(requests.length)
    // The service's own moves are there, and the write that records two of them sends two events.
    expect(requests.map((r) => verified(secret, r).data.state)).toEqual([
      "open",
      "awaiting_participant",
      "accepted",
      "in_flight",
      "submitted",
      "settled"
    ])
    // The last event is the task as GET returns it now.
    const now = await (await readTask(dev, reference)).json()
    expect(verified(secret, requests.at(-1)!).data).toEqual(now)
    // A signature made with another secret is not accepted.
    const other = await submit(dev, digitalDraft({ webhook_url: hooks.url }))
    expect(() => verified(other.webhook_secret, requests[0]!)).toThrow()
  })

  it("a write that records two transitions sends two events, in order", async () => {
    const hooks = await receiver()
    // Nobody named: the service matches at once, open → matching → awaiting_participant in one write.
    const created = await submit(dev, digitalDraft({ webhook_url: hooks.url }))
    const offered = await waitForState(dev, created.reference, "awaiting_participant")
    expect(offered.history.map((h: Json) => h.to)).toEqual(["open", "matching", "awaiting_participant"])
    const events = (await hooks.waitFor(3)).map((r) => verified(created.webhook_secret, r))
    expect(events.map((e) => e.data.state)).toEqual(["open", "matching", "awaiting_participant"])
    expect(events[1].data.participant_slug).toBeNull()
    expect(events[2].data.participant_slug).toBe(offered.participant_slug)
    expect(events[1].timestamp).toBe(events[2].timestamp)
  })

  it("a receiver failing twice gets the event on the third attempt, with the same webhook-id", async () => {
    const hooks = await receiver((n) => (n < 2 ? 503 : 200))
    const created = await submit(dev, digitalDraft({ participant_slug: "akiko-tanaka", webhook_url: hooks.url }))
    const [first, second, third] = await hooks.waitFor(3)
    for (const request of [first!, second!, third!]) verified(created.webhook_secret, request)
    expect(second!.headers["webhook-id"]).toBe(first!.headers["webhook-id"])
    expect(third!.headers["webhook-id"]).toBe(first!.headers["webhook-id"])
    expect(third!.body).toBe(first!.body)
    expect(verified(created.webhook_secret, third!).data.state).toBe("open")

    // The deliveries endpoint tells the story, to the task's agent alone.
    const list = await deliveriesOf(dev, created.reference, created.task_token, (l) =>
      l.data.every((e: Json) => e.state === "delivered")
    )
    expect(list.object).toBe("list")
    expect(list.webhook_url).toBe(hooks.url)
    // The secret is handed out by the 201 alone: never by the deliveries list.
    expect(JSON.stringify(list)).not.toContain(created.webhook_secret.slice("whsec_".length))
    expect(list.count).toBe(list.data.length)
    const open = list.data[0]
    expect(open).toMatchObject({
      object: "webhook_event",
      id: first!.headers["webhook-id"],
      type: "task.updated",
      history_index: 0,
      state: "delivered",
      next_attempt_at: null
    })
    expect(open.attempts.map((a: Json) => [a.status, a.error])).toEqual([
      [503, "the receiver answered 503"],
      [503, "the receiver answered 503"],
      [200, null]
    ])
    for (const a of open.attempts) {
      expect(Date.parse(a.at)).not.toBeNaN()
      expect(a.duration_ms).toBeGreaterThanOrEqual(0)
    }
    const deliveries = (c: ApiClient) => c.listDeliveries({ params: { reference: created.reference } })
    await expectEnvelope(
      await exchange(dev.server, deliveries, { token: "tt_not-this-tasks-token" }),
      401,
      "unauthorized"
    )
    await expectEnvelope(await exchange(dev.server, deliveries), 401, "unauthorized")
  })

  it("an event whose every attempt fails is marked failed, with each attempt's error", async () => {
    const hooks = await receiver(() => 500)
    const created = await submit(dev, digitalDraft({ participant_slug: "akiko-tanaka", webhook_url: hooks.url }))
    // The schedule has two retries: three attempts, then failed.
    const list = await deliveriesOf(dev, created.reference, created.task_token, (l) => l.data[0]?.state === "failed")
    expect(list.data[0].attempts.map((a: Json) => a.status)).toEqual([500, 500, 500])
    expect(list.data[0].next_attempt_at).toBeNull()
    // The task's next event goes out once the first is settled: events are sent in order.
    const requests = await hooks.waitFor(4)
    expect(requests.slice(0, 3).map((r) => verified(created.webhook_secret, r).data.state)).toEqual(
      Array(3).fill("open")
    )
    expect(verified(created.webhook_secret, requests[3]!).data.state).toBe("awaiting_participant")
  })

  it("an attempt to an address that does not answer is recorded with why", async () => {
    const hooks = await receiver()
    const url = hooks.url
    await hooks.close()
    const created = await submit(dev, digitalDraft({ participant_slug: "akiko-tanaka", webhook_url: url }))
    const list = await deliveriesOf(dev, created.reference, created.task_token, (l) => l.data[0]?.state === "failed")
    expect(list.data[0].attempts.map((a: Json) => [a.status, a.error])).toEqual([
      [null, "connection refused"],
      [null, "connection refused"],
      [null, "connection refused"]
    ])
  })

  it("a redirect is not followed: it is a failed attempt", async () => {
    const hooks = await receiver(() => 307)
    const created = await submit(dev, digitalDraft({ participant_slug: "akiko-tanaka", webhook_url: hooks.url }))
    const list = await deliveriesOf(dev, created.reference, created.task_token, (l) => l.data[0]?.state === "failed")
    expect(list.data[0].attempts.map((a: Json) => a.error)).toEqual(Array(3).fill("the receiver answered 307"))
    expect(hooks.received.map((r) => r.path)).not.toContain("/hooks/elsewhere")
  })

  it("an answer that never ends is read no further than its first 64 KiB: the 200 counts", async () => {
    const hooks = await receiver(() => "endless")
    const created = await submit(dev, digitalDraft({ participant_slug: "akiko-tanaka", webhook_url: hooks.url }))
    const list = await deliveriesOf(dev, created.reference, created.task_token, (l) => l.data[0]?.state !== "pending")
    expect(list.data[0].state).toBe("delivered")
    expect(list.data[0].attempts.map((a: Json) => a.status)).toEqual([200])
  })

  it("a receiver that does not answer in time fails the attempt", async () => {
    const hooks = await receiver((n) => (n === 0 ? "hang" : 200))
    const created = await submit(dev, digitalDraft({ participant_slug: "akiko-tanaka", webhook_url: hooks.url }))
    const list = await deliveriesOf(dev, created.reference, created.task_token, (l) => l.data[0]?.state === "delivered")
    expect(list.data[0].attempts.map((a: Json) => [a.status, a.error])).toEqual([
      [null, "no answer within 2 s"],
      [200, null]
    ])
    expect(list.data[0].attempts[0].duration_ms).toBeGreaterThanOrEqual(1900)
  })

  it("a task without webhook_url has no deliveries; an unknown task is 404", async () => {
    const plain = await submit(dev, digitalDraft())
    const list = await deliveriesOf(dev, plain.reference, plain.task_token, () => true)
    expect(list).toEqual({ object: "list", webhook_url: null, count: 0, data: [] })
    await expectEnvelope(
      await exchange(dev.server, (c) => c.listDeliveries({ params: { reference: "tsk_aaaaaaaaaaaaaaaaaaaaaaaaaa" } }), {
        token: plain.task_token
      }),
      404,
      "task_not_found"
    )
  })

  it("the 201's idempotent replay carries the same secret; a task without webhook_url has none", async () => {
    const hooks = await receiver()
    const key = randomUUID()
    const draft = digitalDraft({ webhook_url: hooks.url })
    const first = await submit(dev, draft, key)
    // Raw, as `submit`: a receiver on this machine.
    const replay = await fetch(dev.server.api("/tasks"), json(draft, { "idempotency-key": key }))
    expect(replay.status).toBe(201)
    expect((await replay.json()).webhook_secret).toBe(first.webhook_secret)
    const plain = await submit(dev, digitalDraft())
    expect(plain).not.toHaveProperty("webhook_secret")
    // GET never shows the secret.
    const read = await (await readTask(dev, first.reference)).json()
    expect(JSON.stringify(read)).not.toContain(first.webhook_secret)
  })

  it("/capabilities describes the events, headers and this server's schedule", async () => {
    const strictEvents = (await call(apiClient(strict.server).capabilities())).events
    expect(strictEvents.delivery).toBe("polling and webhooks")
    expect(strictEvents.webhooks).toMatchObject({
      draft_member: "webhook_url",
      types: ["task.updated", "task.message"],
      specification: "https://www.standardwebhooks.com/",
      timeout_seconds: 10,
      retry_schedule_seconds: [5, 30, 120, 600, 3600, 10800, 21600, 50400],
      max_answer_bytes: 65536,
      redirects: "never followed"
    })
    expect(Object.keys(strictEvents.webhooks.headers)).toEqual(["webhook-id", "webhook-timestamp", "webhook-signature"])
    expect(strictEvents.webhooks.addresses).toMatch(/^https only/)
    const devEvents = (await call(apiClient(dev.server).capabilities())).events
    expect(devEvents.webhooks.retry_schedule_seconds).toEqual([0.2, 0.2])
    expect(devEvents.webhooks.timeout_seconds).toBe(2)
    expect(devEvents.webhooks.addresses).toMatch(/WEBHOOK_ALLOW_PRIVATE/)
  })

  describe("without WEBHOOK_ALLOW_PRIVATE", () => {
    const refused = [
      ["http://hooks.example.com/x", /must be an https URL/],
      ["https://localhost/x", /this machine/],
      ["https://127.0.0.1:8443/x", /loopback/],
      ["https://[::1]/x", /loopback/],
      ["https://[::7f00:1]/x", /loopback address \(\[::7f00:1\], which is 127\.0\.0\.1\)/],
      ["https://[::ffff:0:7f00:1]/x", /loopback/],
      ["https://[64:ff9b::10.0.0.8]/x", /private address \(\[64:ff9b::a00:8\], which is 10\.0\.0\.8\)/],
      ["https://[2002:a9fe:a9fe::1]/x", /link-local address .*which is 169\.254\.169\.254/],
      ["https://10.0.0.8/x", /private/],
      ["https://169.254.169.254/latest/meta-data", /link-local/],
      ["https://0x7f.1/x", /loopback/],
      ["https://user:secret@hooks.example.com/x", /user name or password/],
      ["hooks.example.com/x", /absolute URL/]
    ] as const
    it.each(refused)("preflight and submission refuse %s, and nothing is created", async (url, reason) => {
      const draft = digitalDraft({ webhook_url: url })
      const preflight = await call(apiClient(strict.server).preflight({ payload: asJsonObject(draft) }))
      expect(preflight.valid).toBe(false)
      const issue = preflight.issues.find((i) => i.field === "webhook_url")
      expect(issue?.code).toBe("invalid")
      expect(issue?.message).toMatch(reason)
      const key = randomUUID()
      const body = await expectEnvelope(
        // Raw: a draft the document's schema refuses, which the typed client would not send.
        await fetch(strict.server.api("/tasks"), json(draft, { "idempotency-key": key })),
        422,
        "preflight_failed"
      )
      expect(JSON.stringify(body)).toContain("webhook_url")
      // Nothing was recorded under the key: the same key with a good draft creates a task.
      const good = await exchange(strict.server, (c) =>
        c.createTask({ payload: asPayload(TaskDraft, digitalDraft()), headers: { "idempotency-key": key } })
      )
      expect(good.status).toBe(201)
    })

    it("refuses at connection time a public-looking name that resolves to a private address: nothing reaches it", async () => {
      const hooks = await receiver()
      const port = new URL(hooks.url).port
      // The name passes every check the URL allows; its DNS answer is this machine.
      const url = `https://hooks.example.com:${port}/hooks`
      const created = await submit(rebound, digitalDraft({ participant_slug: "akiko-tanaka", webhook_url: url }))
      const list = await deliveriesOf(
        rebound,
        created.reference,
        created.task_token,
        (l) => l.data[0]?.state === "failed"
      )
      expect(list.data[0].attempts.map((a: Json) => [a.status, a.error])).toEqual([
        [
          null,
          "refused: hooks.example.com resolved to 127.0.0.1, a loopback address; events are sent only to public addresses"
        ],
        [
          null,
          "refused: hooks.example.com resolved to 127.0.0.1, a loopback address; events are sent only to public addresses"
        ]
      ])
      // Every attempt looked the name up again, and nothing reached the address.
      expect(resolved.filter((name) => name === "hooks.example.com").length).toBeGreaterThanOrEqual(2)
      expect(hooks.received).toEqual([])
    })

    it("refuses at connection time a name that resolves to 127.0.0.1 written as IPv6 (::7f00:1)", async () => {
      const created = await submit(
        rebound,
        digitalDraft({ participant_slug: "akiko-tanaka", webhook_url: "https://compat.example.com/hooks" })
      )
      const list = await deliveriesOf(
        rebound,
        created.reference,
        created.task_token,
        (l) => l.data[0]?.state === "failed"
      )
      const refusal =
        "refused: compat.example.com resolved to ::7f00:1 (127.0.0.1), a loopback address; events are sent only to public addresses"
      expect(list.data[0].attempts.map((a: Json) => [a.status, a.error])).toEqual([
        [null, refusal],
        [null, refusal]
      ])
    })

    it("accepts a public https URL", async () => {
      const preflight = await call(
        apiClient(strict.server).preflight({
          payload: asJsonObject(digitalDraft({ webhook_url: "https://hooks.example.com/t" }))
        })
      )
      expect(preflight.valid).toBe(true)
      expect(preflight.task.webhook_url).toBe("https://hooks.example.com/t")
    })
  })
})
