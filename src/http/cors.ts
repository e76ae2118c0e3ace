/**
 * CORS for the API: any origin may call it (the API's credentials are bearer tokens, never
 * cookies), and may read the headers an agent needs. Attached to the API's routes (REST and MCP,
 * server.ts and app.ts); the authorization server's and the console's pages are for their own
 * origin and get none. A preflight (`OPTIONS`) on a REST path is answered by the envelope's
 * fallback (error_envelope.ts), which no route serves; the MCP endpoints answer their own.
 */
import * as Effect from "effect/Effect"
import type * as HttpMiddleware from "effect/http/HttpMiddleware"
import * as HttpServerResponse from "effect/http/HttpServerResponse"

export const corsHeaders: Readonly<Record<string, string>> = {
  "access-control-allow-origin": "*",
  "access-control-expose-headers":
    "etag, location, idempotent-replayed, retry-after, x-request-id, allow, www-authenticate, content-disposition, ratelimit-limit, ratelimit-remaining, ratelimit-reset, mcp-session-id, mcp-protocol-version"
}

/** The answer to a CORS preflight on a path that takes `allow` (a comma-separated list of methods). */
export const preflightAnswer = (allow: string) =>
  HttpServerResponse.empty({
    status: 204,
    headers: {
      ...corsHeaders,
      allow: `${allow}, OPTIONS`,
      "access-control-allow-methods": `${allow}, OPTIONS`,
      "access-control-allow-headers": "content-type, idempotency-key, authorization, if-none-match, x-request-id",
      "access-control-max-age": "600"
    }
  })

/** CORS headers on every answer (around the API's envelope, server.ts). */
export const corsMiddleware: HttpMiddleware.HttpMiddleware = (httpEffect) =>
  Effect.map(httpEffect, (response) => HttpServerResponse.setHeaders(response, corsHeaders))
