/**
 * Writes the session at the end of docs/mcp.md (everything after its marker line): a host's session
 * with the MCP interface, call by call, as the official SDK client sees it — against a running
 * service (`npm start`, or MCP_URL).
 *
 *   node scripts/node.mjs scripts/mcp_transcript.ts [--write]
 *
 * Without --write it prints the Markdown. Long results are cut (marked …) to keep the page short.
 */
import { randomUUID } from "node:crypto"
import { readFileSync, writeFileSync } from "node:fs"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"

const url = process.env.MCP_URL ?? "http://127.0.0.1:8080/mcp"
const out: Array<string> = []
const say = (...lines: Array<string>) => out.push(...lines)

/** JSON, with long strings and arrays shortened so a page shows the shape. */
const shorten = (value: unknown, depth = 0): unknown => {
  if (typeof value === "string") return value.length > 160 ? `${value.slice(0, 157)}…` : value
  if (Array.isArray(value)) {
    const kept = value.slice(0, depth === 0 ? 3 : 2).map((v) => shorten(v, depth + 1))
    return value.length > kept.length ? [...kept, `… ${value.length - kept.length} more`] : kept
  }
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shorten(v, depth + 1)]))
  }
  return value
}
const block = (value: unknown) => ["```json", JSON.stringify(shorten(value), null, 2), "```", ""]

const client = new Client({ name: "transcript-host", version: "1.0.0" })
const transport = new StreamableHTTPClientTransport(new URL(url))
await client.connect(transport)

say(
  "## An MCP host's session, call by call",
  "",
  `Recorded with \`node scripts/node.mjs scripts/mcp_transcript.ts --write\` against \`npm start\` (the`,
  "sample catalogue), through the official TypeScript SDK client. Long values are cut (…).",
  "",
  "### Connect",
  "",
  `The client posts \`initialize\` to \`${new URL(url).pathname}\`; the server answers with revision`,
  `\`${transport.protocolVersion}\`, a session id (\`Mcp-Session-Id\`) and its instructions:`,
  "",
  "```text",
  client.getInstructions() ?? "",
  "```",
  ""
)

const { tools } = await client.listTools()
say("### tools/list", "", "| tool | hints |", "|---|---|")
for (const tool of tools) {
  const a = tool.annotations ?? {}
  const hints = Object.entries(a)
    .filter(([k, v]) => k !== "title" && v === true)
    .map(([k]) => k.replace("Hint", ""))
  say(`| \`${tool.name}\` | ${hints.join(", ") || "—"} |`)
}
say("")

const callTool = async (title: string, name: string, args: Record<string, unknown>, note?: string) => {
  const progress: Array<unknown> = []
  const result = (await client.callTool({ name, arguments: args }, undefined, {
    onprogress: (p) => progress.push(p),
    timeout: 90_000
  })) as { structuredContent?: unknown; isError?: boolean; content: Array<{ text?: string }> }
  say(`### ${title}`, "", ...(note === undefined ? [] : [note, ""]), `\`tools/call\` \`${name}\`:`, "", ...block(args))
  if (progress.length > 0) say("Progress notifications while it ran:", "", ...block(progress))
  say(
    result.isError ? "Refused (`isError: true`), `structuredContent`:" : "`structuredContent`:",
    "",
    ...block(result.structuredContent)
  )
  if (result.isError) say(`Its text content, for a host that shows text: \`${result.content[0]?.text ?? ""}\``, "")
  return result.structuredContent as Record<string, unknown>
}

await callTool("Find the right human", "search", {
  query: "Photograph the storefront of a bakery in Berlin in daylight",
  limit: 3
})
const draft = {
  action: "Photograph the storefront of Bäckerei Sonne, Torstraße 12",
  execution_mode: "physical",
  location: "Berlin, Germany",
  timing: "2030-12-01T17:00:00Z",
  expected_result: "Five geotagged photos of the storefront and opening-hours sign",
  acceptance_test: "The shop sign and the opening hours are legible"
}
await callTool("A draft missing something", "preflight", {
  draft: { action: draft.action, execution_mode: "physical" }
})
await callTool("The complete draft", "preflight", { draft })
const key = randomUUID()
const task = await callTool("Hire: submit the task", "submit_task", { draft, idempotency_key: key })
await callTool(
  "A retry with the same key",
  "submit_task",
  { draft, idempotency_key: key },
  "The host retries the call (a timeout, say): the same task comes back, never a second one."
)
await callTool(
  "Wait for the task to move",
  "wait_for_task",
  { reference: task.reference, since: task.updated_at, wait_seconds: 30 },
  "With a progress token (the SDK sends one when given `onprogress`): the service offers the task to a participant at once."
)
await callTool("An argument that fails its schema", "list_participants", { limit: 0 })
await callTool(
  "A move the lifecycle does not allow",
  "review_task",
  { reference: task.reference, task_token: task.task_token, decision: "accept" },
  "Nothing was delivered yet, so there is nothing to review:"
)
await callTool("Cancel", "cancel_task", {
  reference: task.reference,
  task_token: task.task_token,
  reason: "Transcript done"
})

const { contents } = await client.readResource({ uri: `marketplace://tasks/${task.reference}` })
say(
  "### Read the task as a resource",
  "",
  `\`resources/read\` \`marketplace://tasks/${String(task.reference)}\`:`,
  "",
  ...block(JSON.parse(String((contents[0] as { text: string }).text)))
)
const prompt = await client.getPrompt({
  name: "hire_a_human",
  arguments: { goal: "check a flat's smoke alarms in Lyon" }
})
say("### The prompt hire_a_human", "", "```text", (prompt.messages[0]!.content as { text: string }).text, "```", "")
await transport.terminateSession()
await client.close()
say("The host ends the session (`DELETE` with its `Mcp-Session-Id`).", "")

const markdown = out.join("\n")
/** docs/mcp.md up to and including this line is written by hand; the session follows it. */
const marker = "<!-- The session below is written by scripts/mcp_transcript.ts --write. -->"
if (process.argv.includes("--write")) {
  const target = new URL("../docs/mcp.md", import.meta.url)
  const page = readFileSync(target, "utf8")
  const at = page.indexOf(marker)
  if (at < 0) throw new Error(`docs/mcp.md has no marker line: ${marker}`)
  writeFileSync(target, `${page.slice(0, at + marker.length)}\n\n${markdown}`)
} else process.stdout.write(markdown)
