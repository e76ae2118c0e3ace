// A human task as an MCP Task (issue 37), with the official clients against a sandbox, on SQLite
// and on Postgres: on 2026-07-28 through the Tasks extension (`@modelcontextprotocol/client` 2.4.0
// with `@modelcontextprotocol/ext-tasks` 0.2.2) and on 2025-11-25 through its experimental tasks
// (`@modelcontextprotocol/sdk` 1.32.2). `sim-delivers` hired as a task and its result received
// (exactly what get_task returns), then reviewed with the MCP task id in place of the task token;
// a task offered to `sim-silent` cancelled through its MCP task; refusals: an unknown id, a
// reference used as an id, a cancel after settlement, a reference alone where a token is needed.
import { randomUUID } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { resultFromTaskOutcome } from "@modelcontextprotocol/ext-tasks/client"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { mcpTaskIdPrefix, mcpTaskTtlMs } from "../../src/operations/mcp_tasks.ts"
import { mcpTaskIdHash } from "../../src/services/mcp_task_store.ts"
import { startIssuer, type TestIssuer, testAudience } from "../support/issuer.ts"
import { modernMeta, postMcp, restJsonOn } from "../support/mcp.ts"
import { modernTaskRequest, modernTaskSession } from "../support/mcp_tasks.ts"
import { digitalDraft, json, type ServerOnDatabase, startOnFreshDatabase } from "../support/server.ts"

// biome-ignore lint/suspicious/noExplicitAny: JSON bodies are inspected member by member.
type Json = any

let issuer: TestIssuer
let env: ServerOnDatabase
let endpoint: string

beforeAll(async () => {
  issuer = await startIssuer()
  env = await startOnFreshDatabase({
    settings: { oauthIssuer: issuer.url, oauthAudience: testAudience, timerSweepMs: 50, sandbox: true }
  })
  endpoint = `${env.server.url}/mcp`
})
afterAll(async () => {
  await env?.close()
  await issuer?.close()
})

const restJson = restJsonOn(() => env.server)

// As JSON (the ext-tasks session takes JSON values only: no member left undefined).
const hire = (slug: string): Record<string, Json> =>
  JSON.parse(JSON.stringify({ draft: digitalDraft({ participant_slug: slug }), idempotency_key: randomUUID() }))

describe("announced", () => {
  it("by /capabilities: which tool, on which revisions, its poll interval and time-to-live", async () => {
    const { body } = await restJson("/capabilities")
    expect(body.interfaces.mcp.tasks).toEqual({
      tools: ["submit_task"],
      protocol_versions: ["2026-07-28", "2025-11-25"],
      poll_interval_seconds: 5,
      ttl_seconds: mcpTaskTtlMs(72 * 3600_000) / 1000
    })
  })
})

describe("2026-07-28: the Tasks extension", () => {
  it("hires sim-delivers as a task, receives its result, reviews with the task id", async () => {
    const { client, session, close } = await modernTaskSession(endpoint)
    try {
      expect(client.getServerCapabilities()?.extensions?.["io.modelcontextprotocol/tasks"]).toEqual({})
      const args = hire("sim-delivers")
      const execution = await session.callTool("submit_task", args)
      expect(execution.kind).toBe("task")
      if (execution.kind !== "task") return
      const taskId = execution.handle.taskId
      expect(taskId.startsWith(mcpTaskIdPrefix)).toBe(true)

      const { outcome } = await execution.settle({ close: false })
      expect(outcome.status).toBe("completed")
      const result = resultFromTaskOutcome(outcome) as Json
      const task = result.structuredContent
      expect(task.state).toBe("submitted")
      expect(task.participant_slug).toBe("sim-delivers")
      // Exactly what get_task (and REST) return for it: nothing moves a submitted task meanwhile.
      expect(task).toEqual((await restJson(`/tasks/${task.reference}`)).body)
      // Recorded exactly as a plain submission: the same key over REST is the same task.
      const replay = await restJson("/tasks", json(args.draft, { "idempotency-key": args.idempotency_key }))
      expect(replay.body.reference).toBe(task.reference)
      // The id is neither the reference nor the token, and the task never shows it.
      expect(taskId).not.toBe(task.reference)
      expect(taskId).not.toBe(replay.body.task_token)
      expect(JSON.stringify(task)).not.toContain(taskId)

      // The reference alone reviews nothing; the task id does, as the task token would.
      const byReference = (await client.callTool({
        name: "review_task",
        arguments: { reference: task.reference, task_token: task.reference, decision: "accept" }
      })) as Json
      expect(byReference.structuredContent.error.code).toBe("unauthorized")
      const accepted = (await client.callTool({
        name: "review_task",
        arguments: { reference: task.reference, task_token: taskId, decision: "accept" }
      })) as Json
      expect(accepted.isError).toBeUndefined()
      expect(accepted.structuredContent.state).toBe("settled")
      const deliveries = (await client.callTool({
        name: "get_deliveries",
        arguments: { reference: task.reference, task_token: taskId }
      })) as Json
      expect(deliveries.structuredContent.object).toBe("list")

      // The MCP task stays completed, its result the task as it is now; cancelling it is refused.
      const after = await modernTaskRequest(endpoint, "tasks/get", taskId)
      expect(after.body.result).toMatchObject({ status: "completed", taskId, ttlMs: mcpTaskTtlMs(72 * 3600_000) })
      expect(after.body.result.result.structuredContent.state).toBe("settled")
      const cancel = await modernTaskRequest(endpoint, "tasks/cancel", taskId)
      expect(cancel.body.error.code).toBe(-32602)
      expect(cancel.body.error.message).toContain("completed")
      expect((await restJson(`/tasks/${task.reference}`)).body.state).toBe("settled")
    } finally {
      await close()
    }
  })

  it("cancels a task offered to sim-silent through its MCP task; the history says the agent did", async () => {
    const { session, close } = await modernTaskSession(endpoint)
    try {
      const args = hire("sim-silent")
      const execution = await session.callTool("submit_task", args)
      if (execution.kind !== "task") throw new Error("not a task")
      const taskId = execution.handle.taskId
      const working = await modernTaskRequest(endpoint, "tasks/get", taskId)
      expect(working.body.result.status).toBe("working")
      expect(working.body.result.lastUpdatedAt >= working.body.result.createdAt).toBe(true)
      expect(working.body.result.pollIntervalMs).toBeGreaterThan(0)
      expect(working.body.result.result).toBeUndefined()
      await execution.cancel()
      const { outcome } = await execution.settle()
      expect(outcome.status).toBe("cancelled")
      const got = await modernTaskRequest(endpoint, "tasks/get", taskId)
      expect(got.body.result.status).toBe("cancelled")
      // The marketplace task (found by its idempotency key) is cancelled, by the agent.
      const { reference } = (await restJson("/tasks", json(args.draft, { "idempotency-key": args.idempotency_key })))
        .body
      const task = (await restJson(`/tasks/${reference}`)).body
      expect(task.state).toBe("cancelled")
      expect(task.history.at(-1)).toMatchObject({ to: "cancelled", actor: "agent" })
      expect(task.outcome.reason).toBe("cancelled_by_agent")
    } finally {
      await close()
    }
  })

  it("refuses an unknown id and a reference used as an id (-32602); a plain call is as today", async () => {
    const unknown = await modernTaskRequest(endpoint, "tasks/get", `${mcpTaskIdPrefix}${"A".repeat(43)}`)
    expect(unknown.body.error.code).toBe(-32602)
    expect(unknown.body.error.message).toMatch(/Unknown task/)
    const created = await restJson(
      "/tasks",
      json(digitalDraft({ participant_slug: "sim-silent" }), { "idempotency-key": randomUUID() })
    )
    for (const id of [created.body.reference, created.body.task_token, 42]) {
      for (const method of ["tasks/get", "tasks/cancel"]) {
        const refused = await modernTaskRequest(endpoint, method, id)
        expect(refused.body.error.code, `${method} ${id}`).toBe(-32602)
      }
    }
    expect((await restJson(`/tasks/${created.body.reference}`)).body.state).not.toBe("cancelled")
    // tasks/list is not a 2026-07-28 method.
    expect((await modernTaskRequest(endpoint, "tasks/list", undefined)).body.error.code).toBe(-32601)
    // Framed as every 2026-07-28 request must be: the headers repeat the method and the revision.
    const misframed = async (headers: Record<string, string>, meta: unknown = modernMeta()) => {
      const response = await postMcp(
        endpoint,
        { jsonrpc: "2.0", id: 7, method: "tasks/get", params: { taskId: "mcptask_x", _meta: meta } },
        { "mcp-protocol-version": "2026-07-28", "mcp-method": "tasks/get", ...headers }
      )
      return { status: response.status, error: ((await response.json()) as Json).error }
    }
    expect(await misframed({ "mcp-method": "tasks/cancel" })).toEqual({
      status: 400,
      error: { code: -32020, message: "Mcp-Method header does not match request method" }
    })
    expect((await misframed({}, { ...modernMeta(), "io.modelcontextprotocol/clientCapabilities": 1 })).status).toBe(400)
    expect((await misframed({}, {})).error.code).toBe(-32602)
  })
})

describe("2025-11-25: experimental tasks", () => {
  const connect = async () => {
    const client = new Client({ name: "legacy-host", version: "1.0.0" })
    const transport = new StreamableHTTPClientTransport(new URL(endpoint))
    await client.connect(transport)
    return { client, transport }
  }

  it("announces tasks; submit_task runs as a task, its result what get_task returns", async () => {
    const { client, transport } = await connect()
    try {
      expect(transport.protocolVersion).toBe("2025-11-25")
      expect(client.getServerCapabilities()?.tasks).toEqual({ cancel: {}, requests: { tools: { call: {} } } })
      const { tools } = await client.listTools()
      expect(tools.find((tool) => tool.name === "submit_task")?.execution).toEqual({ taskSupport: "optional" })
      expect(tools.filter((tool) => tool.execution !== undefined).map((tool) => tool.name)).toEqual(["submit_task"])

      const messages: Array<Json> = []
      for await (const message of client.experimental.tasks.callToolStream(
        { name: "submit_task", arguments: hire("sim-delivers") },
        undefined,
        { timeout: 60_000 }
      )) {
        messages.push(message)
      }
      expect(messages[0].type).toBe("taskCreated")
      const taskId = messages[0].task.taskId as string
      expect(taskId.startsWith(mcpTaskIdPrefix)).toBe(true)
      expect(messages[0].task).toMatchObject({ status: "working", ttl: mcpTaskTtlMs(72 * 3600_000) })
      const last = messages.at(-1)
      expect(last.type, JSON.stringify(last)).toBe("result")
      const task = last.result.structuredContent
      expect(task.state).toBe("submitted")
      expect(task).toEqual((await restJson(`/tasks/${task.reference}`)).body)
      expect((await client.experimental.tasks.getTask(taskId)).status).toBe("completed")

      const accepted = (await client.callTool({
        name: "review_task",
        arguments: { reference: task.reference, task_token: taskId, decision: "accept" }
      })) as Json
      expect(accepted.structuredContent.state).toBe("settled")
      await expect(client.experimental.tasks.cancelTask(taskId)).rejects.toThrow(/completed/)
      await expect(client.experimental.tasks.getTask(task.reference)).rejects.toThrow(/Unknown task/)
      await expect(client.experimental.tasks.listTasks()).rejects.toThrow(/does not list tasks/)
    } finally {
      await client.close()
    }
  })

  it("cancels a task offered to sim-silent", async () => {
    const { client } = await connect()
    try {
      await client.listTools()
      const stream = client.experimental.tasks.callToolStream({ name: "submit_task", arguments: hire("sim-silent") })
      const first = (await stream.next()).value as Json
      expect(first.type).toBe("taskCreated")
      const cancelled = await client.experimental.tasks.cancelTask(first.task.taskId)
      expect(cancelled.status).toBe("cancelled")
      await stream.return(undefined)
      const got = await client.experimental.tasks.getTask(first.task.taskId)
      expect(got.status).toBe("cancelled")
    } finally {
      await client.close()
    }
  })

  it("a plain submit_task is as today: the task with its token", async () => {
    const { client } = await connect()
    try {
      const plain = (await client.callTool({ name: "submit_task", arguments: hire("sim-silent") })) as Json
      expect(plain.structuredContent.task_token).toMatch(/^tt_/)
    } finally {
      await client.close()
    }
  })
})

describe("time-to-live", () => {
  // Last in this file: it moves the sandbox's clock a week forward.
  it("runs from completion: a completed task is readable until then, and an unknown id after", async () => {
    const { session, close } = await modernTaskSession(endpoint)
    try {
      const execution = await session.callTool("submit_task", hire("sim-silent"))
      if (execution.kind !== "task") throw new Error("not a task")
      const taskId = execution.handle.taskId
      await execution.cancel()
      const ttlMs = (await modernTaskRequest(endpoint, "tasks/get", taskId)).body.result.ttlMs
      // At least the review window (72 hours by default).
      expect(ttlMs).toBeGreaterThanOrEqual(72 * 3600_000)
      const advance = async (hours: number) =>
        expect((await restJson("/sandbox/clock", json({ advance: `PT${hours}H` }))).status).toBe(200)
      await advance(ttlMs / 3600_000 - 1)
      expect((await modernTaskRequest(endpoint, "tasks/get", taskId)).body.result.status).toBe("cancelled")
      await advance(2)
      const expired = await modernTaskRequest(endpoint, "tasks/get", taskId)
      expect(expired.body.error.code).toBe(-32602)
      expect(expired.body.error.message).toContain("time-to-live")
      // Its row is deleted when the next MCP task is made; a working task's row stays.
      const hashes = async () => (await env.database.rows("SELECT id_hash FROM mcp_tasks")).map((row) => row.id_hash)
      expect(await hashes()).toContain(mcpTaskIdHash(taskId))
      const next = await session.callTool("submit_task", hire("sim-silent"))
      if (next.kind !== "task") throw new Error("not a task")
      const left = await hashes()
      expect(left).not.toContain(mcpTaskIdHash(taskId))
      expect(left).toContain(mcpTaskIdHash(next.handle.taskId))
    } finally {
      await close()
    }
  })
})
