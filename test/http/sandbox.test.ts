/**
 * The sandbox over HTTP and MCP, on both backends (issue 27): its clock moves everything a task
 * waits for — offers lapse, review windows close, deadlines pass, sim-slow delivers — and the
 * simulated participants behave as their slugs say, through the same REST and MCP interfaces.
 * Outside a sandbox none of it exists: the clock paths are unknown, no simulated participant.
 */
import { randomUUID } from "node:crypto"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import type * as Effect from "effect/Effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ReviewRequest } from "../../src/api/resources.ts"
import type { AppSettings } from "../../src/config/settings.ts"
import { TaskDraft } from "../../src/domain/task_draft/schema.ts"
import { type ApiClient, asPayload, exchange } from "../support/api_client.ts"
import { actingParticipant, startIssuer, type TestIssuer, testAudience } from "../support/issuer.ts"
import {
  awaitTask,
  digitalDraft,
  expectEnvelope,
  json,
  type ServerOnDatabase,
  startOnFreshDatabase
} from "../support/server.ts"

// biome-ignore lint/suspicious/noExplicitAny: JSON bodies are inspected member by member.
type Json = any

let issuer: TestIssuer
const envs: Array<ServerOnDatabase> = []
let sandbox: ServerOnDatabase
let live: ServerOnDatabase

const boot = async (settings: Partial<AppSettings>) => {
  const env = await startOnFreshDatabase({
    settings: { oauthIssuer: issuer.url, oauthAudience: testAudience, timerSweepMs: 50, ...settings }
  })
  envs.push(env)
  return env
}

beforeAll(async () => {
  issuer = await startIssuer()
  ;[sandbox, live] = await Promise.all([boot({ sandbox: true }), boot({})])
})
afterAll(async () => {
  for (const env of envs) await env.close()
  await issuer?.close()
})

const hour = 3600_000

/** A typed call's JSON body, as sent. */
const body = async <A, E>(on: ServerOnDatabase, run: (client: ApiClient) => Effect.Effect<A, E>): Promise<Json> =>
  (await exchange(on.server, run)).json()

const create = (on: ServerOnDatabase, draft: Record<string, unknown>) =>
  exchange(on.server, (c) =>
    c.createTask({ payload: asPayload(TaskDraft, draft), headers: { "idempotency-key": randomUUID() } })
  )

const submit = async (draft: Record<string, unknown>) => {
  const response = await create(sandbox, draft)
  const text = await response.text()
  if (response.status !== 201) throw new Error(`expected 201, got ${response.status}: ${text}`)
  return JSON.parse(text) as Json
}

const read = (reference: string): Promise<Json> =>
  body(sandbox, (c) => c.getTask({ params: { reference }, query: {}, headers: {} }))

/** Reads the task until `until` holds, or fails after 15 s saying where it stayed. */
const waitFor = (reference: string, until: (task: Json) => boolean): Promise<Json> =>
  awaitTask(sandbox.server.api(`/tasks/${reference}`), until)
const stateIs = (state: string) => (task: Json) => task.state === state

// The sandbox clock is not in the API's description (only a sandbox serves it): its calls are raw.
const clock = async (): Promise<Json> => {
  const response = await fetch(sandbox.server.api("/sandbox/clock"))
  expect(response.status).toBe(200)
  return response.json()
}

const advance = async (by: string) => {
  const response = await fetch(sandbox.server.api("/sandbox/clock"), json({ advance: by }))
  const text = await response.text()
  if (response.status !== 200) throw new Error(`advance ${by}: ${response.status} ${text}`)
  return JSON.parse(text) as Json
}

describe("the sandbox", () => {
  it("says so: the index, /capabilities and every task carry sandbox: true", async () => {
    const index = await body(sandbox, (c) => c.index())
    expect(index.sandbox).toBe(true)
    expect(index.sandbox_tools.clock).toBe(sandbox.server.api("/sandbox/clock"))
    expect(Object.keys(index.sandbox_tools.simulated_participants)).toEqual([
      "sim-delivers",
      "sim-declines",
      "sim-silent",
      "sim-slow"
    ])
    const capabilities = await body(sandbox, (c) => c.capabilities())
    expect(capabilities.sandbox).toBe(true)
    expect(capabilities.interfaces.mcp.tools).toContain("advance_clock")
    const created = await submit(digitalDraft({ participant_slug: "sim-silent" }))
    expect(created.sandbox).toBe(true)
    expect((await read(created.reference)).sandbox).toBe(true)
    // The simulated participants are ordinary participants to discovery.
    const listed = await body(sandbox, (c) => c.listParticipants({ query: { q: "simulated" } }))
    expect(listed.data.map((p: Json) => p.slug)).toEqual(["sim-declines", "sim-delivers", "sim-silent", "sim-slow"])
  })

  it("tells its time and moves it forward by an ISO 8601 duration, never back", async () => {
    const before = await clock()
    expect(before.object).toBe("sandbox_clock")
    const moved = await advance("PT25H")
    expect(Date.parse(moved.now) - Date.parse(before.now)).toBeGreaterThanOrEqual(25 * hour)
    expect(Date.parse(moved.now) - Date.parse(before.now)).toBeLessThan(25 * hour + 60_000)
    const after = await clock()
    expect(Date.parse(after.now)).toBeGreaterThanOrEqual(Date.parse(moved.now))
    expect(after.advanced_by).not.toBe(before.advanced_by)
  })

  it.each([
    ["25 hours", /ISO 8601 duration/],
    ["PT0S", /longer than zero/],
    ["-PT1H", /ISO 8601 duration/],
    ["P1M", /years or months/],
    ["P", /ISO 8601 duration/],
    ["P99999D", /at most ten years/]
  ])("refuses advance %s with 400 invalid_request, and moves nothing", async (by, says) => {
    const before = await clock()
    const body = await expectEnvelope(
      await fetch(sandbox.server.api("/sandbox/clock"), json({ advance: by })),
      400,
      "invalid_request"
    )
    expect(body.message).toMatch(says)
    expect((await clock()).advanced_by).toBe(before.advanced_by)
  })

  it("refuses a body without advance, or not JSON, and moves nothing", async () => {
    const before = await clock()
    await expectEnvelope(await fetch(sandbox.server.api("/sandbox/clock"), json({})), 400, "invalid_request")
    await expectEnvelope(
      await fetch(sandbox.server.api("/sandbox/clock"), json({ advance: 25 })),
      400,
      "invalid_request"
    )
    await expectEnvelope(await fetch(sandbox.server.api("/sandbox/clock"), json("{not json")), 400, "invalid_json")
    expect((await clock()).advanced_by).toBe(before.advanced_by)
  })

  it("an offer lapses once the clock passes the offer timeout: accept_timeout for a named participant", async () => {
    const created = await submit(digitalDraft({ participant_slug: "sim-silent" }))
    await waitFor(created.reference, stateIs("awaiting_participant"))
    await advance("PT25H")
    const declined = await waitFor(created.reference, stateIs("declined"))
    expect(declined.outcome.reason).toBe("accept_timeout")
  })

  it("an offer to nobody named that lapses goes to the next participant", async () => {
    const created = await submit(digitalDraft())
    const offered = await waitFor(created.reference, stateIs("awaiting_participant"))
    const first = offered.participant_slug
    await advance("PT25H")
    const next = await waitFor(
      created.reference,
      (task) => task.state !== "awaiting_participant" || task.participant_slug !== first
    )
    expect(next.history.map((h: Json) => h.to)).toEqual([
      "open",
      "matching",
      "awaiting_participant",
      "matching",
      "awaiting_participant"
    ])
    expect(next.participant_slug).not.toBe(first)
    expect(next.history[3].reason).toMatch(/^accept_timeout/)
  })

  it("a review window that passes accepts the result: auto_accepted", async () => {
    const slug = "akiko-tanaka"
    const created = await submit(digitalDraft({ participant_slug: slug }))
    await waitFor(created.reference, stateIs("awaiting_participant"))
    const act = await actingParticipant(sandbox, issuer, slug)
    await act(created.reference, "accept")
    await act(created.reference, "start")
    await act(created.reference, "submit", { summary: "Done", fields: {}, artifacts: [] })
    await advance("PT73H")
    const settled = await waitFor(created.reference, stateIs("settled"))
    expect(settled.outcome.reason).toBe("auto_accepted")
  })

  it("a deadline read from timing passes with the clock: deadline_passed", async () => {
    const now = Date.parse((await clock()).now)
    const deadline = new Date(now + 2 * hour).toISOString()
    const created = await submit(digitalDraft({ participant_slug: "sim-silent", timing: `by ${deadline}` }))
    await waitFor(created.reference, stateIs("awaiting_participant"))
    await advance("PT3H")
    const declined = await waitFor(created.reference, stateIs("declined"))
    expect(declined.outcome.reason).toBe("deadline_passed")
    // The service's moves are recorded at the sandbox's time.
    expect(Date.parse(declined.outcome.decided_at)).toBeGreaterThan(Date.parse(deadline))
  })

  it("serves advance_clock over MCP, beside the same tools", async () => {
    const client = new Client({ name: "sandbox-test", version: "1.0.0" })
    await client.connect(new StreamableHTTPClientTransport(new URL(`${sandbox.server.url}/mcp`)))
    try {
      const names = (await client.listTools()).tools.map((t) => t.name)
      expect(names).toContain("advance_clock")
      expect(names).toContain("submit_task")
      const before = await clock()
      const result = (await client.callTool({ name: "advance_clock", arguments: { advance: "PT2H" } })) as Json
      expect(result.isError).toBeUndefined()
      expect(result.structuredContent.object).toBe("sandbox_clock")
      expect(Date.parse(result.structuredContent.now) - Date.parse(before.now)).toBeGreaterThanOrEqual(2 * hour)
      const refused = (await client.callTool({ name: "advance_clock", arguments: { advance: "soon" } })) as Json
      expect(refused.isError).toBe(true)
      expect(refused.structuredContent.error.code).toBe("invalid_request")
    } finally {
      await client.close()
    }
  })
})

describe("the simulated participants", () => {
  const resultSchema = {
    type: "object",
    properties: {
      bugs_found: { type: "integer", minimum: 0 },
      device: { type: "string", enum: ["Pixel 8", "iPhone 15"] },
      steps: { type: "array", items: { type: "string" }, minItems: 1 }
    },
    required: ["bugs_found", "device", "steps"],
    additionalProperties: false
  }

  const review = async (created: Json, decision: string, reason?: string) => {
    const response = await exchange(
      sandbox.server,
      (c) =>
        c.reviewTask({
          params: { reference: created.reference },
          payload: asPayload(ReviewRequest, { decision, ...(reason === undefined ? {} : { reason }) })
        }),
      { token: created.task_token }
    )
    expect(response.status, await response.clone().text()).toBe(200)
    return (await response.json()) as Json
  }

  it("sim-delivers accepts, starts and delivers fields its task's result_schema accepts; the agent settles it", async () => {
    const created = await submit(digitalDraft({ participant_slug: "sim-delivers", result_schema: resultSchema }))
    const submitted = await waitFor(created.reference, stateIs("submitted"))
    expect(submitted.history.map((h: Json) => `${h.to}:${h.actor}`)).toEqual([
      "open:agent",
      "awaiting_participant:service",
      "accepted:participant",
      "in_flight:participant",
      "submitted:participant"
    ])
    expect(submitted.result.summary).toMatch(/\S/)
    expect(submitted.result.fields).toMatchObject({ device: expect.stringMatching(/^(Pixel 8|iPhone 15)$/) })
    expect(Number.isInteger(submitted.result.fields.bugs_found)).toBe(true)
    expect(submitted.result.artifacts.length).toBeGreaterThan(0)
    const settled = await review(created, "accept")
    expect(settled.state).toBe("settled")
    expect(settled.outcome.reason).toBe("accepted")
  })

  it("sim-delivers, asked for a revision, delivers again", async () => {
    const created = await submit(digitalDraft({ participant_slug: "sim-delivers" }))
    await waitFor(created.reference, stateIs("submitted"))
    expect((await review(created, "revise", "Add the browser version")).state).toBe("in_flight")
    const again = await waitFor(
      created.reference,
      (task) => task.state === "submitted" && task.history.filter((h: Json) => h.to === "submitted").length === 2
    )
    expect(again.history.at(-2).reason).toMatch(/Add the browser version/)
    expect(again.result.artifacts.length).toBeGreaterThan(0)
  })

  it("sim-declines declines: a task naming it ends declined, participant_declined", async () => {
    const created = await submit(digitalDraft({ participant_slug: "sim-declines" }))
    const declined = await waitFor(created.reference, stateIs("declined"))
    expect(declined.outcome.reason).toBe("participant_declined")
    expect(declined.history.at(-1).actor).toBe("participant")
  })

  it("sim-slow accepts and starts at once, and delivers once the clock is six hours on", async () => {
    const created = await submit(digitalDraft({ participant_slug: "sim-slow" }))
    await waitFor(created.reference, stateIs("in_flight"))
    await advance("PT5H")
    // Five hours on, still at work (given a few rounds to show otherwise).
    await new Promise((resolve) => setTimeout(resolve, 500))
    expect((await read(created.reference)).state).toBe("in_flight")
    await advance("PT1H")
    const submitted = await waitFor(created.reference, stateIs("submitted"))
    const started = submitted.history.find((h: Json) => h.to === "in_flight").at
    const delivered = submitted.history.at(-1).at
    expect(Date.parse(delivered) - Date.parse(started)).toBeGreaterThanOrEqual(6 * hour)
  })
})

describe("outside a sandbox", () => {
  it("the clock paths are unknown (404), no simulated participant exists, and nothing says sandbox", async () => {
    for (const init of [undefined, json({ advance: "PT1H" })]) {
      const body = await expectEnvelope(await fetch(live.server.api("/sandbox/clock"), init), 404, "not_found")
      expect(body.message).toContain("/api/public/v1/sandbox/clock")
    }
    await expectEnvelope(
      await exchange(live.server, (c) => c.getParticipant({ params: { slug: "sim-delivers" } })),
      404,
      "participant_not_found"
    )
    const listed = await body(live, (c) => c.listParticipants({ query: { q: "simulated" } }))
    expect(listed.data).toEqual([])
    const index = await body(live, (c) => c.index())
    expect(index.sandbox).toBe(false)
    expect(index).not.toHaveProperty("sandbox_tools")
    const capabilities = await body(live, (c) => c.capabilities())
    expect(capabilities.interfaces.mcp.tools).not.toContain("advance_clock")
    const response = await create(live, digitalDraft())
    expect(response.status).toBe(201)
    expect(await response.json()).not.toHaveProperty("sandbox")
  })

  it("MCP serves no advance_clock", async () => {
    const client = new Client({ name: "live-test", version: "1.0.0" })
    await client.connect(new StreamableHTTPClientTransport(new URL(`${live.server.url}/mcp`)))
    try {
      expect((await client.listTools()).tools.map((t) => t.name)).not.toContain("advance_clock")
    } finally {
      await client.close()
    }
  })
})
