// MCP Tasks behind one address served by two sandbox processes on one database (issue 37), each
// request sent to the next process in turn: a task made on one process is read, completed,
// reviewed and cancelled on the other, on 2026-07-28 (the official v2 client with ext-tasks) and
// on 2025-11-25 (the v1 SDK); and a process restarted still answers for an MCP task made before.
// Runs in both vitest projects (SQLite: one WAL file; Postgres: one database).
import { randomUUID } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { resultFromTaskOutcome } from "@modelcontextprotocol/ext-tasks/client"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { exchange } from "../support/api_client.ts"
import { freshDatabase, type TestDatabase } from "../support/database.ts"
import { modernMeta } from "../support/mcp.ts"
import { modernDispatch, modernTaskRequest, modernTaskSession } from "../support/mcp_tasks.ts"
import { type ServiceProcess, spawnService } from "../support/process.ts"
import { digitalDraft } from "../support/server.ts"

// biome-ignore lint/suspicious/noExplicitAny: JSON bodies are inspected member by member.
type Json = any

let database: TestDatabase
let one: ServiceProcess
let two: ServiceProcess
const env = { PUBLIC_BASE_URL: "http://marketplace.test", SANDBOX: "on", TIMER_SWEEP_INTERVAL: "50ms" }

beforeAll(async () => {
  database = await freshDatabase()
  one = await spawnService({ databaseUrl: database.url, env })
  two = await spawnService({ databaseUrl: database.url, env })
})
afterAll(async () => {
  await Promise.all([one?.stop("SIGKILL"), two?.stop("SIGKILL")])
  await database?.drop()
})

/** A fetch that sends each request to the next process in turn, as a round-robin balancer does. */
const balancer = () => {
  const seen: Array<string> = []
  let turn = 0
  const fetchInTurn: typeof fetch = (input, init) => {
    const target = new URL(String(input instanceof Request ? input.url : input))
    target.port = new URL([one, two][turn++ % 2]!.url).port
    seen.push(target.port)
    return fetch(target, init)
  }
  return { fetchInTurn, seen }
}

const hire = (slug: string): Record<string, Json> =>
  JSON.parse(JSON.stringify({ draft: digitalDraft({ participant_slug: slug }), idempotency_key: randomUUID() }))

describe("MCP tasks across two processes and a restart", () => {
  it("2026-07-28: hires sim-delivers as a task and reviews it, whichever process answers", async () => {
    const { fetchInTurn, seen } = balancer()
    const { client, session, close } = await modernTaskSession(`${one.url}/mcp`, fetchInTurn)
    try {
      const execution = await session.callTool("submit_task", hire("sim-delivers"))
      if (execution.kind !== "task") throw new Error("not a task")
      const { outcome } = await execution.settle({ close: false })
      const task = (resultFromTaskOutcome(outcome) as Json).structuredContent
      expect(task.state).toBe("submitted")
      const read = await exchange(one, (c) =>
        c.getTask({ params: { reference: task.reference }, query: {}, headers: {} })
      )
      expect(task).toEqual(await read.json())
      const accepted = (await client.callTool({
        name: "review_task",
        arguments: { reference: task.reference, task_token: execution.handle.taskId, decision: "accept" }
      })) as Json
      expect(accepted.structuredContent.state).toBe("settled")
      expect(new Set(seen).size).toBe(2)
    } finally {
      await close()
    }
  })

  it("2025-11-25: a task made on one process is cancelled on the other", async () => {
    const { fetchInTurn, seen } = balancer()
    const client = new Client({ name: "legacy", version: "1.0.0" })
    await client.connect(new StreamableHTTPClientTransport(new URL(`${one.url}/mcp`), { fetch: fetchInTurn }))
    try {
      await client.listTools()
      const stream = client.experimental.tasks.callToolStream({ name: "submit_task", arguments: hire("sim-silent") })
      const first = (await stream.next()).value as Json
      expect(first.type).toBe("taskCreated")
      await stream.return(undefined)
      expect((await client.experimental.tasks.getTask(first.task.taskId)).status).toBe("working")
      expect((await client.experimental.tasks.cancelTask(first.task.taskId)).status).toBe("cancelled")
      expect((await client.experimental.tasks.getTask(first.task.taskId)).status).toBe("cancelled")
      expect(new Set(seen).size).toBe(2)
    } finally {
      await client.close()
    }
  })

  it("a restarted process answers for an MCP task made before it stopped", async () => {
    // Made by hand (a Tasks session would cancel what it owns when it closes).
    const created = await modernDispatch(`${one.url}/mcp`)({
      method: "tools/call",
      params: {
        name: "submit_task",
        arguments: hire("sim-silent"),
        _meta: modernMeta({ extensions: { "io.modelcontextprotocol/tasks": {} } })
      }
    })
    if (created.kind !== "result") throw new Error(JSON.stringify(created))
    const taskId: string = created.result.taskId
    await one.stop("SIGTERM")
    one = await spawnService({ databaseUrl: database.url, env })
    const got = await modernTaskRequest(`${one.url}/mcp`, "tasks/get", taskId)
    expect(got.body.result, JSON.stringify(got.body.result)).toMatchObject({ taskId, status: "working" })
    const cancelled = await modernTaskRequest(`${one.url}/mcp`, "tasks/cancel", taskId)
    expect(cancelled.body.result).toEqual({ resultType: "complete" })
    expect((await modernTaskRequest(`${two.url}/mcp`, "tasks/get", taskId)).body.result.status).toBe("cancelled")
  })
})
