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
