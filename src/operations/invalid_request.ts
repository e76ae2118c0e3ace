/**
 * The one translation of a schema failure into a refusal: a 400 `invalid_request`
 * (`RequestInvalid`) naming each member that failed in `details`. HttpApi's own decoding of path parameters, query parameters and
 * headers (http/error_envelope.ts), the handlers' decoding of request bodies (http/json_body.ts) and
 * the MCP tools' decoding of their arguments (mcp/tools.ts) all use it. Also the one refusal of a
 * body or of tool arguments nested too deep (`tooDeep`), which comes before any schema.
 */
import * as SchemaIssue from "effect/SchemaIssue"
import { maxJsonDepth } from "../api/parameters.ts"
import { pathDeeperThan } from "../domain/json_depth.ts"
import { RequestInvalid } from "./errors.ts"

/** The part of a request a schema decoded, as HttpApi names it. */
export type RequestPart = "Params" | "Query" | "Headers" | "Payload" | "Arguments"

const partName: Record<RequestPart, string> = {
  Params: "A path parameter",
  Query: "A query parameter",
  Headers: "A header",
  Payload: "The request body",
  Arguments: "An argument of the tool"
}

const formatStandard = SchemaIssue.makeFormatterStandardSchemaV1()

/**
 * A schema failure as (field, message) pairs, e.g. `q: Expected string, got ["a","b"]`: one per
 * member, the first thing wrong with it (a value may fail several checks; one is enough to fix).
 */
const schemaProblems = (
  cause: unknown
): ReadonlyArray<{ field: string; code: "required" | "invalid"; message: string }> => {
  const issue = typeof cause === "object" && cause !== null ? (cause as { issue?: unknown }).issue : undefined
  if (!SchemaIssue.isIssue(issue)) return [{ field: "request", code: "invalid", message: "is invalid" }]
  const seen = new Set<string>()
  return formatStandard(issue).issues.flatMap((i) => {
    const field = (i.path ?? []).map((p) => String(typeof p === "object" && p !== null ? p.key : p)).join(".")
    // Schema's own words for an absent member, said as the member's rule.
    const missing = i.message === "Missing key"
    if (seen.has(field)) return []
    seen.add(field)
    return [
      {
        field: field || "request",
        code: missing ? ("required" as const) : ("invalid" as const),
        message: missing ? `${field || "it"} is required` : i.message
      }
    ]
  })
}

/** The refusal of a schema failure (`cause`, a SchemaError) in a part of the request. */
export const invalidRequest = (part: RequestPart, cause: unknown): RequestInvalid => {
  const problems = schemaProblems(cause)
  return new RequestInvalid({
    message: `${partName[part]} is invalid: ${truncate(problems.map((p) => `${p.field}: ${p.message}`).join("; "))}`,
    hint:
      part === "Query"
        ? "Send each query parameter once, with the type the OpenAPI document at /openapi.json gives."
        : part === "Payload"
          ? "Fix each member named in details; the endpoint's request schema is in the OpenAPI document at /openapi.json."
          : part === "Arguments"
            ? "Fix each argument named in details; the tool's inputSchema (tools/list) gives every argument."
            : "See the endpoint in the OpenAPI document at /openapi.json.",
    details: problems.map((p) => ({ field: p.field, code: p.code, message: p.message }))
  })
}

/** A client's text as a message or a log line repeats it: at most 200 characters. */
export const truncate = (s: string) => (s.length > 200 ? `${s.slice(0, 197)}…` : s)

/**
 * The 400 `invalid_request` for a body (`Payload`) or tool arguments (`Arguments`) nested deeper
 * than `maxJsonDepth`, naming the member of the body that holds the deep part; undefined when
 * `value` is within the limit.
 */
export const tooDeep = (part: "Payload" | "Arguments", value: unknown): RequestInvalid | undefined => {
  const path = pathDeeperThan(value, maxJsonDepth)
  if (path === undefined) return undefined
  const field = path[0] ?? "request"
  const whole = part === "Payload" ? "the request body" : "the tool's arguments"
  const message = `is nested deeper than ${maxJsonDepth} levels of objects and arrays (${whole} counting as the first)`
  return new RequestInvalid({
    message: `${partName[part]} is invalid: ${field}: ${message}`,
    hint: `Send JSON nested at most ${maxJsonDepth} levels deep (limits.max_json_depth of ${part === "Payload" ? "GET /capabilities" : "the marketplace://capabilities resource"}).`,
    details: [{ field, code: "invalid", message }]
  })
}
