/**
 * MCP requests by hand (fetch), for what a client library hides: the HTTP status of a refusal,
 * headers, an origin, a session header of one's choosing. Tools' results are tested through the
 * official SDK client instead.
 */

/** An `initialize` message of the given protocol revision. */
export const initializeMessage = (protocolVersion = "2025-11-25", id: number | string = 1) => ({
  jsonrpc: "2.0",
  id,
  method: "initialize",
  params: { protocolVersion, capabilities: {}, clientInfo: { name: "by-hand", version: "1" } }
})

/**
 * POSTs one JSON-RPC message to an MCP endpoint, with the headers Streamable HTTP requires and
 * any others (`mcp-session-id`, `origin`, …).
 */
export const postMcp = (endpoint: string, message: unknown, headers: Record<string, string> = {}) =>
  fetch(endpoint, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
    body: typeof message === "string" ? message : JSON.stringify(message)
  })

/** A 2026-07-28 `server/discover` message: version, client info and capabilities in its `_meta`. */
export const discoverMessage = (id: number | string = 1) => ({
  jsonrpc: "2.0",
  id,
  method: "server/discover",
  params: { _meta: modernMeta() }
})

/** The `_meta` every 2026-07-28 request carries (no session holds them). */
export const modernMeta = (capabilities: Record<string, unknown> = {}) => ({
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientInfo": { name: "by-hand", version: "1" },
  "io.modelcontextprotocol/clientCapabilities": capabilities
})

// biome-ignore lint/suspicious/noExplicitAny: JSON bodies are inspected member by member.
type Json = any

/** A tool's result as the official clients (SDK 1 and client 2) answer it. */
export interface ToolResult {
  readonly structuredContent?: Json
  readonly content: Array<{ type: string; text: string }>
  readonly isError?: boolean
}

interface ToolClient {
  callTool(params: { name: string; arguments?: Record<string, unknown> }): Promise<unknown>
}

/** `call(name, args)`: a tool called through `client()`, read at each call (it is set in a `beforeAll`). */
export const toolCaller =
  (client: () => ToolClient) =>
  async (name: string, args: Record<string, unknown> = {}): Promise<ToolResult> =>
    (await client().callTool({ name, arguments: args })) as ToolResult

/**
 * `restJson(path, init)`: a REST call's status and JSON body, on `server()` (read at each call).
 * Raw: the MCP tests compare a tool's result with the REST body of the same operation as sent.
 */
export const restJsonOn =
  (server: () => { readonly api: (path: string) => string }) =>
  async (path: string, init?: RequestInit): Promise<{ status: number; body: Json }> => {
    const response = await fetch(server().api(path), init)
    return { status: response.status, body: (await response.json()) as Json }
  }
