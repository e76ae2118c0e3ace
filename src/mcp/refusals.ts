/**
 * MCP's own HTTP refusals with a body that says why. Effect's MCP transport answers a request it
 * refuses before any JSON-RPC is read (no session, an unknown session, an origin not allowed, a
 * method or media type it does not take) with the status MCP's Streamable HTTP transport defines
 * and an empty body. The status stays; the body becomes a JSON-RPC error (id null), as MCP servers
 * commonly send, whose message tells a client or its developer what to do.
 */
import * as HttpServerResponse from "effect/http/HttpServerResponse"

const why: Record<number, string> = {
  400: "Bad Request: send one JSON-RPC message per POST, and with every message but initialize the Mcp-Session-Id header its response gave.",
  403: "Forbidden: this Origin may not call the MCP endpoint (the server's MCP_ALLOWED_ORIGINS); clients that are not browsers send no Origin.",
  404: "Session not found: it ended or expired. Send initialize, without Mcp-Session-Id, to start a new session.",
  405: "Method not allowed: POST JSON-RPC messages; DELETE ends a session. This server sends no server-initiated stream (GET).",
  406: "Not Acceptable: send Accept: application/json, text/event-stream.",
  415: "Unsupported Media Type: send Content-Type: application/json."
}

/** The response, with a JSON-RPC error body when it is an MCP refusal that came without one. */
export const explained = (response: HttpServerResponse.HttpServerResponse): HttpServerResponse.HttpServerResponse => {
  const message = why[response.status]
  if (message === undefined || response.body._tag !== "Empty") return response
  return HttpServerResponse.jsonUnsafe(
    { jsonrpc: "2.0", id: null, error: { code: response.status === 404 ? -32001 : -32600, message } },
    { status: response.status, headers: response.headers }
  )
}
