/**
 * Writes docs/mcp-tasks-session.md: a 2026-07-28 host hiring a sandbox participant as an MCP Task,
 * message by message on the wire, as the official clients send them (`@modelcontextprotocol/client`
 * with `@modelcontextprotocol/ext-tasks`) — against a running sandbox (`npm run sandbox`, or MCP_URL).
 *
 *   node scripts/node.mjs scripts/mcp_tasks_transcript.ts [--write]
 *
 * Without --write it prints the Markdown. Long values are cut (marked …) to keep the page short;
 * repeated polls of a working task are shown once.
 */
import { randomUUID } from "node:crypto"
import { writeFileSync } from "node:fs"
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client"
import { createTaskSessionFromClient, resultFromTaskOutcome } from "@modelcontextprotocol/ext-tasks/client"
import { modernDispatch } from "../test/support/mcp_tasks.ts"

const url = process.env.MCP_URL ?? "http://127.0.0.1:8080/mcp"
const out: Array<string> = []
const say = (...lines: Array<string>) => out.push(...lines)

/** JSON, with long strings and arrays shortened so a page shows the shape. */
const shorten = (value: unknown, depth = 0): unknown => {
  if (typeof value === "string") return value.length > 140 ? `${value.slice(0, 137)}…` : value
  if (Array.isArray(value)) {
    const kept = value.slice(0, depth <= 1 ? 3 : 2).map((v) => shorten(v, depth + 1))
    return value.length > kept.length ? [...kept, `… ${value.length - kept.length} more`] : kept
  }
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shorten(v, depth + 1)]))
  }
  return value
}
const block = (value: unknown) => ["```json", JSON.stringify(shorten(value), null, 2), "```", ""]

interface Exchange {
  readonly headers: Record<string, string>
  readonly request: Record<string, unknown>
  readonly response: unknown
}
/** Every JSON-RPC exchange on the wire, in order; `shown` up to where the page has said them. */
const wire: Array<Exchange> = []
let shown = 0

const recording: typeof fetch = async (input, init) => {
  const response = await fetch(input, init)
  const headers = Object.fromEntries(
    [...new Headers(init?.headers).entries()].filter(([name]) => name.startsWith("mcp-"))
  )
  const text = await response.clone().text()
  if (init?.method === "POST" && typeof init.body === "string") {
    wire.push({
      headers,
      request: JSON.parse(init.body),
      response: text.startsWith("{") ? JSON.parse(text) : text
    })
  }
  return response
}

/** A tools/list answer with its tools by name only (the whole list is in mcp.md's session). */
const toolNamesOnly = (response: unknown) => {
  const { result, ...rest } = response as { result: { tools: Array<{ name: string }> } }
  return [
    `(its tools, shown here by name only: ${result.tools.map((tool) => `\`${tool.name}\``).join(", ")}; their schemas and descriptions as in [mcp.md](mcp.md)'s session)`,
    "",
    ...block({ ...rest, result: { ...result, tools: ["…"] } })
  ]
}

/** The exchanges since the last call, each once; consecutive polls of a working task as one. */
const showWire = (title: string, note: string) => {
  say(`### ${title}`, "", note, "")
  let polls = 0
  for (const exchange of wire.slice(shown)) {
    const status = (exchange.response as { result?: { status?: string } }).result?.status
    if (exchange.request.method === "tasks/get" && status === "working") {
      polls++
      if (polls > 1) continue
    } else if (polls > 1) {
      say(`(… ${polls - 1} more \`tasks/get\` answered \`working\`, ${pollNote})`, "")
      polls = 0
    }
    say(
      `→ POST \`${new URL(url).pathname}\` (${Object.entries(exchange.headers)
        .map(([name, value]) => `\`${name}: ${value}\``)
        .join(", ")}):`,
      "",
      ...block(exchange.request),
      "←",
      "",
      ...(exchange.request.method === "tools/list" ? toolNamesOnly(exchange.response) : block(exchange.response))
    )
  }
  if (polls > 1) say(`(… ${polls - 1} more \`tasks/get\` answered \`working\`, ${pollNote})`, "")
  shown = wire.length
}
let pollNote = "one every poll interval"

const clientInfo = { name: "transcript-host", version: "2.0.0" }
const client = new Client(clientInfo, { versionNegotiation: { mode: "auto" } })
await client.connect(new StreamableHTTPClientTransport(new URL(url), { fetch: recording }))
const session = createTaskSessionFromClient(client, {
  endpointId: "marketplace",
  v2RequestFraming: { protocolVersion: "2026-07-28", clientInfo, clientCapabilities: {} },
  // What a host's request coordinator does: one JSON-RPC request, 2026-07-28's headers.
  rawDispatch: modernDispatch(url, recording, "host")
})

say(
  "# Hiring a human as an MCP Task: a 2026-07-28 session",
  "",
  "Recorded with `node scripts/node.mjs scripts/mcp_tasks_transcript.ts --write` against `npm run sandbox`,",
  "through the official clients (`@modelcontextprotocol/client` with `@modelcontextprotocol/ext-tasks`):",
  "every JSON-RPC message on the wire, with the `Mcp-*` headers it was sent with. Long values are cut (…).",
  "How it works and why: [mcp.md](mcp.md#hiring-as-an-mcp-task), [decisions/mcp-tasks.md](decisions/mcp-tasks.md).",
  ""
)
showWire(
  "Discover",
  "No `initialize` and no session: the client probes 2026-07-28 with `server/discover`, and the server names its revisions, its capabilities (the Tasks extension among them) and its instructions."
)

const draft = {
  action: "Proofread a 300-word product description in English",
  execution_mode: "digital",
  expected_result: "The corrected text, with each change listed",
  acceptance_test: "No spelling or grammar errors remain",
  participant_slug: "sim-delivers"
}
const execution = await session.callTool("submit_task", { draft, idempotency_key: randomUUID() })
if (execution.kind !== "task") throw new Error("submit_task was not answered with a task")
showWire(
  "Hire as a task",
  "The Tasks session reads the tools first. The call declares the Tasks extension in its client capabilities; the task is recorded as a plain `submit_task` records it, and the answer is at once a task: `working`, its status message the task's `next_step`."
)
pollNote = "one every `pollIntervalMs`"
const { outcome } = await execution.settle({ close: false })
showWire(
  "Follow it until there is a result",
  "The client polls `tasks/get` at the announced interval. `sim-delivers` accepts, starts and hands in a result within seconds: the task completes, its result the task exactly as `get_task` returns it."
)
const task = (resultFromTaskOutcome(outcome) as unknown as { structuredContent: { reference: string } })
  .structuredContent
await client.callTool({
  name: "review_task",
  arguments: { reference: task.reference, task_token: execution.handle.taskId, decision: "accept" }
})
showWire(
  "Review with the task id",
  "The host never saw a `task_token`: the MCP task id stands in for it in `review_task` (and `cancel_task`, `get_deliveries`)."
)

const silent = await session.callTool("submit_task", {
  draft: { ...draft, participant_slug: "sim-silent" },
  idempotency_key: randomUUID()
})
if (silent.kind !== "task") throw new Error("submit_task was not answered with a task")
await silent.cancel()
await silent.settle()
showWire(
  "Cancel a task nobody answers",
  "`sim-silent` never answers its offer; `tasks/cancel` cancels the marketplace task as its agent, and the MCP task is `cancelled`."
)

const refused = await recording(url, {
  method: "POST",
  headers: {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": "2026-07-28",
    "mcp-method": "tasks/get"
  },
  body: JSON.stringify({
    jsonrpc: "2.0",
    id: "host-refused",
    method: "tasks/get",
    params: {
      taskId: task.reference,
      _meta: {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": clientInfo,
        "io.modelcontextprotocol/clientCapabilities": { extensions: { "io.modelcontextprotocol/tasks": {} } }
      }
    }
  })
})
await refused.text()
showWire("A reference is not a task id", "The reference grants nothing: it is refused as an unknown id would be.")

await session.close()
await client.close()

const markdown = out.join("\n")
if (process.argv.includes("--write")) writeFileSync(new URL("../docs/mcp-tasks-session.md", import.meta.url), markdown)
else process.stdout.write(markdown)
