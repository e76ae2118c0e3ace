/**
 * MCP Tasks from the requester's side, with the official clients (issue 37): a 2026-07-28 task
 * session (`@modelcontextprotocol/client` 2.4.0 with `@modelcontextprotocol/ext-tasks` 0.2.2),
 * and the raw JSON-RPC a host sends for what a client library hides (refusals by code).
 */
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client"
import { createTaskSessionFromClient } from "@modelcontextprotocol/ext-tasks/client"
import { modernMeta } from "./mcp.ts"

// biome-ignore lint/suspicious/noExplicitAny: JSON-RPC bodies are inspected member by member.
type Json = any

const clientInfo = { name: "tasks-host", version: "2.0.0" }

/**
 * A 2026-07-28 JSON-RPC request as a host's request coordinator sends one (the ext-tasks session's
 * `rawDispatch`): the headers 2026-07-28 asks for, the framing already in `params._meta`; ids
 * `<idPrefix>-1`, `<idPrefix>-2`… (scripts/mcp_tasks_transcript.ts sends its own through it too).
 */
export const modernDispatch = (endpoint: string, fetchWith: typeof fetch = fetch, idPrefix = "raw") => {
  let next = 0
  return async (request: unknown, options: { readonly signal?: AbortSignal } = {}) => {
    const message = request as Json
    const response = await fetchWith(endpoint, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": message.method,
        ...(message.method === "tools/call" ? { "mcp-name": message.params.name } : {})
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: `${idPrefix}-${++next}`, ...message }),
      ...(options.signal === undefined ? {} : { signal: options.signal })
    })
    const body = (await response.json()) as Json
    return body.error !== undefined
      ? { kind: "error" as const, error: body.error }
      : { kind: "result" as const, result: body.result }
  }
}

/** A connected 2026-07-28 client and a Tasks session over it (close both with `close`). */
export const modernTaskSession = async (endpoint: string, fetchWith: typeof fetch = fetch) => {
  const client = new Client(clientInfo, { versionNegotiation: { mode: "auto" } })
  await client.connect(new StreamableHTTPClientTransport(new URL(endpoint), { fetch: fetchWith }))
  const session = createTaskSessionFromClient(client, {
    endpointId: "marketplace",
    rawDispatch: modernDispatch(endpoint, fetchWith),
    v2RequestFraming: { protocolVersion: "2026-07-28", clientInfo, clientCapabilities: {} }
  })
  return {
    client,
    session,
    close: async () => {
      await session.close()
      await client.close()
    }
  }
}

/** One 2026-07-28 `tasks/*` request by hand, declaring the Tasks extension: its JSON-RPC answer. */
export const modernTaskRequest = async (endpoint: string, method: string, taskId: unknown) => {
  const response = await fetch(endpoint, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": method
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method,
      params: { taskId, _meta: modernMeta({ extensions: { "io.modelcontextprotocol/tasks": {} } }) }
    })
  })
  return { status: response.status, body: (await response.json()) as Json }
}
