/**
 * Every path has one spelling. A request for another spelling of a path — a trailing slash, a doubled
 * slash, a `.` or `..` segment, a percent-encoded unreserved character (`%70` for `p`), lower-case
 * hex in an escape — is redirected (308, so the method and body are kept) to the canonical
 * spelling, and served there with exactly that route's guards; a spelling that has no
 * canonical form (a `;`, which the router would otherwise cut off as if it began a query, or a broken
 * escape) is refused with 404. The router itself matches literal segments by case (routes.ts), so
 * `/MCP/participant` is no route at all, while path parameters (references, slugs) keep theirs.
 *
 * Why here, once: guards belong to routes (the MCP endpoints' in `mcp/`, sign-up's and client
 * registration's in `oauth/`), but code that still tells a path by its text — which pages take no
 * CORS, what a log line names — must see the one spelling the router matched
 * (docs/decisions/canonical-paths.md).
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import type * as HttpMiddleware from "effect/http/HttpMiddleware"
import * as HttpServerRequest from "effect/http/HttpServerRequest"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import { errorBody } from "../api/envelope.ts"
import { AppConfig } from "../config/app_config.ts"

/** Anything that may make a path non-canonical; a path without any of these is canonical as it is. */
const suspect = /\/\/|%|;|\/$|\/\.\.?(\/|$)/

/** RFC 3986 §2.3: the characters an escape never needs to stand for. */
const unreserved = /[A-Za-z0-9\-._~]/

/**
 * The canonical spelling of a request target's path (without its query), the same string when it is
 * canonical already, or undefined when it has none (a request that no route should serve).
 */
export const canonicalPathOf = (path: string): string | undefined => {
  if (!path.startsWith("/")) return undefined
  if (path === "/" || !suspect.test(path)) return path
  if (path.includes(";")) return undefined
  let escaped = ""
  for (let i = 0; i < path.length; i++) {
    const char = path[i]!
    if (char !== "%") {
      escaped += char
      continue
    }
    const hex = path.slice(i + 1, i + 3)
    if (!/^[0-9A-Fa-f]{2}$/.test(hex)) return undefined
    const decoded = String.fromCharCode(Number.parseInt(hex, 16))
    escaped += unreserved.test(decoded) ? decoded : `%${hex.toUpperCase()}`
    i += 2
  }
  // RFC 3986 §5.2.4: `.` and `..` segments removed (`..` at the root stays at the root).
  const segments: Array<string> = []
  for (const segment of escaped.split("/").slice(1)) {
    if (segment === "..") segments.pop()
    else if (segment !== "." && segment !== "") segments.push(segment)
  }
  return `/${segments.join("/")}`
}

export const canonicalPathMiddleware = Effect.gen(function* () {
  const config = yield* AppConfig
  const noSuchPath = HttpServerResponse.jsonUnsafe(
    {
      error: errorBody(config.docsUrl, "not_found", "No endpoint has a path spelled this way.", {
        hint: "Paths contain no ';' and only well-formed percent-escapes; start from the service index, GET /api/public/v1, which lists every endpoint."
      })
    },
    { status: 404 }
  )
  const middleware: HttpMiddleware.HttpMiddleware = (httpEffect) =>
    Effect.withFiber((fiber) => {
      const url = Context.getUnsafe(fiber.context, HttpServerRequest.HttpServerRequest).url
      const path = url.split("?", 1)[0]!
      // The common case, a canonical path, costs one test (canonicalPathOf's first). A request in
      // absolute form reaches here as its path: Node's request, and a fetch handler's, carry the
      // path alone.
      const canonical = canonicalPathOf(path)
      if (canonical === path) return httpEffect
      if (canonical === undefined) return Effect.succeed(noSuchPath)
      return Effect.succeed(
        HttpServerResponse.empty({
          status: 308,
          headers: { location: `${config.publicBaseUrl}${canonical}${url.slice(path.length)}` }
        })
      )
    })
  return middleware
})
