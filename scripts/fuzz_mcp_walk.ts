/**
 * The participant's MCP endpoint in the fuzzer's stateful phase (scripts/fuzz_stateful.ts): not in
 * the OpenAPI document, so held to what the endpoint itself declares (docs/decisions/mcp-participant.md).
 * Each signed-in participant connects with the official SDK's client over Streamable HTTP, with an
 * access token for the endpoint (scripts/fuzz_participants.ts), and lists the tools. Each round
 * calls one tool with arguments built from its `inputSchema` — valid ones (a task of theirs, the
 * move its state calls for, a result made from the task's result_schema), or hostile ones: a
 * member of the wrong type, a required one missing, a huge string, an unknown member, garbage
 * arguments, a reference that names nothing, another participant's task — or sends a call with a
 * garbage token, a token for the REST API, an agent's task token, or another participant's token
 * on their session. It fails on:
 *
 * - an HTTP 5xx, or a JSON-RPC internal error (-32603): bad input is a tool error (`isError` with
 *   the REST envelope) or a JSON-RPC invalid-params error (-32602);
 * - a `structuredContent` its tool's `outputSchema` refuses (Ajv);
 * - a participant seeing another's task (`my_tasks`, `who_am_i`) or moving, reading or writing to a
 *   task that is not offered to or held by them;
 * - a move whose result the REST view of the task does not agree with afterwards (the task's
 *   history over MCP a prefix of the one GET answers; the same state when nothing moved since),
 *   and a `my_tasks` whose tasks REST's myTasks, read after it, does not continue so;
 * - a token that is not the caller's own for this endpoint not refused with 401 and
 *   `WWW-Authenticate`, and another subject's token on a session not answered 404.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { CallToolResultSchema, ListToolsResultSchema } from "@modelcontextprotocol/sdk/types.js"
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js"
import addFormats from "ajv-formats"
import type { SignedInParticipant } from "./fuzz_participants.ts"
import type { Run, Task } from "./fuzz_run.ts"
import { schemaValue } from "./fuzz_values.ts"

type JsonSchema = Record<string, unknown>
interface Tool {
  readonly name: string
  readonly inputSchema: JsonSchema
  readonly outputSchema?: JsonSchema
}
interface Connection {
  readonly me: SignedInParticipant
  readonly client: Client
  readonly transport: StreamableHTTPClientTransport
}
interface TaskBody {
  readonly reference?: string
  readonly state?: string
  readonly participant_slug?: string | null
  readonly history?: ReadonlyArray<unknown>
}

/** What each move leaves the task in when taken. */
const leadsTo: Record<string, ReadonlyArray<string>> = {
  accept_task: ["accepted"],
  start_task: ["in_flight"],
  submit_result: ["submitted"],
  decline_task: ["declined", "matching", "awaiting_participant"]
}
/** The move a state calls for. */
const next: Record<string, ReadonlyArray<string>> = {
  awaiting_participant: ["accept_task", "accept_task", "decline_task"],
  accepted: ["start_task"],
  in_flight: ["submit_result"]
}

/** Connects every signed-in participant to the endpoint named by the index; none without one. */
export const mcpWalk = async (run: Run) => {
  const { base, random, pick, figures, fail, send, signedIn, known, tasks, observe } = run
  const index = (await (await fetch(`${base}/api/public/v1`)).json()) as {
    interfaces?: { mcp_participant?: { endpoint?: string } }
  }
  const endpoint = index.interfaces?.mcp_participant?.endpoint
  const count = (what: string) => {
    figures.mcp[what] = (figures.mcp[what] ?? 0) + 1
  }
  const connections: Array<Connection> = []
  if (endpoint !== undefined)
    for (const me of signedIn) {
      // Every request carries the participant's current token (it may be refreshed mid-run).
      const withToken: typeof fetch = async (url, init) => {
        const headers = new Headers(init?.headers)
        headers.set("authorization", `Bearer ${await me.mcpToken()}`)
        return fetch(url, { ...init, headers })
      }
      const client = new Client({ name: "fuzzer", version: "1.0.0" })
      const transport = new StreamableHTTPClientTransport(new URL(endpoint), { fetch: withToken })
      await client.connect(transport)
      connections.push({ me, client, transport })
    }
  const tools: ReadonlyArray<Tool> =
    connections.length === 0
      ? []
      : ((await (connections[0] as Connection).client.request({ method: "tools/list" }, ListToolsResultSchema))
          .tools as ReadonlyArray<Tool>)
  const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: true })
  addFormats.default(ajv)
  const outputs = new Map<string, ValidateFunction>()
  for (const tool of tools) if (tool.outputSchema !== undefined) outputs.set(tool.name, ajv.compile(tool.outputSchema))

  /** The same arguments spoiled: the kinds of input a careless or hostile client sends. */
  const spoiled = (args: Record<string, unknown>, tool: Tool): { args: unknown; how: string } => {
    const names = Object.keys((tool.inputSchema.properties ?? {}) as object)
    const required = (tool.inputSchema.required ?? []) as ReadonlyArray<string>
    const roll = random()
    if (roll < 0.2 && names.length > 0)
      return {
        args: { ...args, [pick(names)]: pick([42, true, ["x"], { nested: {} }, null, -1.5]) },
        how: "wrong type"
      }
    if (roll < 0.35 && required.length > 0) {
      const out = { ...args }
      delete out[pick(required)]
      return { args: out, how: "missing member" }
    }
    if (roll < 0.5 && names.length > 0)
      return { args: { ...args, [pick(names)]: "x".repeat(pick([4001, 70_000, 400_000])) }, how: "huge string" }
    if (roll < 0.65) return { args: { ...args, unexpected: "member", __proto__x: 1 }, how: "unknown member" }
    if (roll < 0.8)
      return {
        args: pick<unknown>(["garbage", 7, [], null, JSON.parse('{"__proto__": {"polluted": true}}')]),
        how: "garbage arguments"
      }
    let deep: unknown = "bottom"
    for (let i = 0; i < 200; i++) deep = { deep }
    return {
      args: pick<unknown>([{ ...args, reference: pick(["tsk_", "%00", "../..", "a".repeat(300), ""]) }, deep]),
      how: "garbage reference"
    }
  }

  /** A task's view over REST: the task read by GET, held to the document. */
  const restView = async (reference: string): Promise<TaskBody | undefined> => {
    const answer = await send("getTask", { reference }, {})
    if (answer.status !== 200) return undefined
    const task = known.get(reference)
    if (task !== undefined) observe(task, answer.json)
    return answer.json as TaskBody
  }
  const agrees = async (tool: string, body: TaskBody) => {
    if (body.reference === undefined) return
    const rest = await restView(body.reference)
    const mcpHistory = JSON.stringify(body.history ?? [])
    const restHistory = rest?.history ?? []
    // What REST answers afterwards starts with what the move answered (the service may have moved on).
    if (rest === undefined || JSON.stringify(restHistory.slice(0, body.history?.length ?? 0)) !== mcpHistory)
      fail(
        `${tool} over MCP answered a history REST does not show after it: ${body.reference} ${body.state} vs ${rest?.state}`
      )
    else if (restHistory.length === (body.history?.length ?? 0) && rest.state !== body.state)
      fail(`${tool} over MCP left ${body.reference} ${body.state}, REST reads it ${rest.state}`)
    else count(`${tool} agrees with REST`)
  }

  /** One call: answered, refused as a tool error, or refused as JSON-RPC; never a 5xx or an internal error. */
  const call = async (connection: Connection, name: string, args: unknown, label: string) => {
    const shown = `${name} (${label}) by ${connection.me.slug} ${JSON.stringify(args ?? null).slice(0, 120)}`
    try {
      const result = await connection.client.request(
        { method: "tools/call", params: { name, arguments: args as Record<string, unknown> } },
        CallToolResultSchema
      )
      figures.requests++
      const structured = result.structuredContent as
        | (TaskBody & { error?: { code?: string }; data?: ReadonlyArray<TaskBody> })
        | undefined
      const validate = outputs.get(name)
      if (validate !== undefined && structured !== undefined && validate(structured) !== true)
        fail(
          `an MCP structuredContent refused by its tool's outputSchema (${ajv.errorsText(validate.errors).slice(0, 200)}): ${shown}`
        )
      if (result.isError === true) {
        const code = structured?.error?.code ?? "no envelope"
        if (code === "internal_error" || code === "no envelope")
          fail(`an MCP tool error without a clear refusal (${code}): ${shown}`)
        count(`${name} refused ${code}`)
        return { ok: false as const, code }
      }
      count(`${name} ok`)
      return { ok: true as const, body: structured }
    } catch (error) {
      figures.requests++
      const code = (error as { code?: number }).code
      if (typeof code === "number" && code >= 500) fail(`an MCP call answered HTTP ${code}: ${shown}`)
      else if (code === -32603)
        fail(`an MCP call answered a JSON-RPC internal error (${String(error).slice(0, 160)}): ${shown}`)
      else if (code !== -32602 && code !== -32600 && code !== 413 && code !== -32601)
        fail(`an MCP call failed as neither a tool error nor invalid params (${String(error).slice(0, 160)}): ${shown}`)
      count(`${name} rpc ${code}`)
      return { ok: false as const, code: String(code) }
    }
  }

  /** Arguments a careful client builds for `tool` on `task`. */
  const validArgs = (tool: Tool, task: Task | undefined): Record<string, unknown> => {
    const args = schemaValue(run, tool.inputSchema) as Record<string, unknown>
    if (task !== undefined && "reference" in args) args.reference = task.reference
    if (tool.name === "submit_result" && task !== undefined) {
      const schema = task.resultSchema
      args.fields = schema === undefined || schema === null ? {} : schemaValue(run, schema)
      args.summary = "Done: the sign reads OPEN."
      delete args.artifacts
    }
    return args
  }

  /**
   * A call with a credential that is not the caller's own for this endpoint (garbage, a token for
   * the REST API, an agent's task token): 401 naming the metadata; and, with two participants,
   * one's token on the other's session: 404 (to that caller the session does not exist).
   */
  const foreignCredentials = async () => {
    if (endpoint === undefined) return
    const post = (token: string, session: string | undefined) =>
      fetch(endpoint, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-protocol-version": "2025-06-18",
          authorization: `Bearer ${token}`,
          ...(session === undefined ? {} : { "mcp-session-id": session })
        },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "tools/call",
          params: { name: "my_tasks", arguments: {} }
        })
      })
    const a = pick(connections)
    const garbage = pick([
      "garbage",
      "eyJhbGciOiJub25lIn0.e30.",
      await a.me.token(),
      tasks.length > 0 ? pick(tasks).token : "tt_x"
    ])
    const refused = await post(garbage, pick([a.transport.sessionId, undefined]))
    await refused.text()
    figures.requests++
    if (refused.status !== 401 || !/resource_metadata=/.test(refused.headers.get("www-authenticate") ?? ""))
      fail(
        `a call with a foreign token answered ${refused.status} (${refused.headers.get("www-authenticate")}), not 401 naming the metadata`
      )
    else count("foreign token 401")
    const b = connections.find((c) => c !== a)
    if (b === undefined || a.transport.sessionId === undefined) return
    const elsewhere = await post(await b.me.mcpToken(), a.transport.sessionId)
    await elsewhere.text()
    figures.requests++
    if (elsewhere.status !== 404)
      fail(`${b.me.slug}'s token on ${a.me.slug}'s MCP session answered ${elsewhere.status}, not 404`)
    else count("another's session 404")
  }

  /** One round: a tool call, valid or hostile, on a task of theirs or another's; or a foreign credential. */
  const mcpRound = async () => {
    if (connections.length === 0 || tools.length === 0) return
    if (random() < 0.08) return await foreignCredentials()
    const connection = pick(connections)
    const me = connection.me.slug
    const mine = [...known.values()].filter((t) => t.participant === me)
    const waiting = mine.filter((t) => t.state in next)
    const theirs = [...known.values()].filter((t) => t.participant !== me && t.participant !== null)
    const roll = random()
    // Their moves, mostly the one a task's state calls for; sometimes someone else's task.
    if (waiting.length > 0 && roll < 0.5) {
      const task = pick(waiting)
      const tool = tools.find((t) => t.name === pick(next[task.state] as ReadonlyArray<string>))
      if (tool === undefined) return
      const answer = await call(connection, tool.name, validArgs(tool, task), "valid")
      if (answer.ok) {
        const body = answer.body as TaskBody
        if (body.participant_slug !== me && tool.name !== "decline_task")
          fail(`${tool.name} over MCP by ${me} answered a task of ${body.participant_slug}: ${task.reference}`)
        if (!(leadsTo[tool.name] ?? []).includes(body.state ?? ""))
          fail(`${tool.name} over MCP left ${task.reference} ${body.state}`)
        figures.moves[`mcp ${tool.name}→${body.state}`] = (figures.moves[`mcp ${tool.name}→${body.state}`] ?? 0) + 1
        await agrees(tool.name, body)
      } else if (answer.code === "invalid_transition") await restView(task.reference)
      return
    }
    const tool = pick(tools)
    if (roll < 0.65 && theirs.length > 0 && "reference" in ((tool.inputSchema.properties ?? {}) as object)) {
      // Another's task (the other participant's, or a simulated one's): refused, whatever was sent.
      const task = pick(theirs)
      const answer = await call(connection, tool.name, validArgs(tool, task), "another's task")
      if (!answer.ok) return count("another's task refused")
      // Taken: only right if the task has since been offered to them (it was as last seen by the fuzzer).
      const now = await restView(task.reference)
      if (now?.participant_slug !== me)
        fail(`${tool.name} over MCP by ${me} on ${now?.participant_slug}'s task taken: ${task.reference}`)
      return
    }
    const task = mine.length > 0 ? pick(mine) : undefined
    const valid = validArgs(tool, task)
    const hostile = random() < 0.7 ? spoiled(valid, tool) : { args: valid, how: "valid" }
    const answer = await call(connection, tool.name, hostile.args, hostile.how)
    if (!answer.ok) return
    const body = answer.body
    if (tool.name === "my_tasks") {
      for (const listed of body?.data ?? [])
        if (listed.participant_slug !== me)
          fail(`my_tasks over MCP of ${me} lists a task of ${listed.participant_slug}`)
      // REST's list read after it shows each task it still lists at the same point or later.
      const rest = await send("myTasks", {}, { headers: { authorization: `Bearer ${await connection.me.token()}` } })
      const later = new Map(
        ((rest.json as { data?: ReadonlyArray<TaskBody> })?.data ?? []).map((t) => [t.reference, t])
      )
      for (const listed of rest.status === 200 ? (body?.data ?? []) : []) {
        const there = later.get(listed.reference)
        const length = listed.history?.length ?? 0
        if (there !== undefined && JSON.stringify(there.history?.slice(0, length)) !== JSON.stringify(listed.history))
          fail(`my_tasks over MCP shows ${listed.reference} with a history REST's myTasks does not continue`)
      }
      if (rest.status === 200) count("my_tasks agrees with REST")
    }
    if (tool.name === "who_am_i" && (body as { participant?: { slug?: string } })?.participant?.slug !== me)
      fail(`who_am_i over MCP answered another participant than ${me}`)
    if (tool.name in leadsTo) {
      if (body?.participant_slug !== me && tool.name !== "decline_task")
        fail(`${tool.name} over MCP by ${me} answered a task of ${body?.participant_slug}`)
      await agrees(tool.name, body as TaskBody)
    }
  }
  const close = async () => {
    for (const { client } of connections) await client.close().catch(() => undefined)
  }
  return { mcpRound, close, tools: tools.map((tool) => tool.name) }
}
