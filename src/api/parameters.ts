/**
 * Query and header parameters: each declared once, here. HttpApi decodes every request by these
 * schemas (a value they refuse is a 400 `invalid_request` naming the parameter, from the envelope
 * middleware), and the OpenAPI document publishes them as they are, so what the document allows
 * is exactly what the service accepts.
 *
 * On the wire a query parameter is text: each is declared as the text it must be (a pattern
 * JSON Schema carries), and handlers read the number out of text already known to be one.
 */
import * as Schema from "effect/Schema"
import { IDEMPOTENCY_KEY_MAX, IDEMPOTENCY_KEY_MIN, idempotencyKeyRule } from "../domain/task_draft/idempotency.ts"

/** The largest request body accepted (DECISIONS §11): 413 payload_too_large past it. */
export const maxBodyBytes = 64 * 1024

/**
 * The deepest a caller's JSON may nest, in objects and arrays, the body (or an MCP tool's
 * arguments) counting as the first level: 400 invalid_request past it (docs/decisions/json-depth.md).
 */
export const maxJsonDepth = 64

/** Participants per page of GET /participants. */
export const pageSize = { default: 100, max: 500 } as const

export const PageLimit = Schema.String.check(
  // 1 to 500 (pageSize.max), without leading zeros or signs.
  Schema.isPattern(/^(?:[1-9][0-9]?|[1-4][0-9]{2}|500)$/u, {
    message: `limit must be a whole number from 1 to ${pageSize.max}`
  })
).annotate({
  description: `Page size: a whole number from 1 to ${pageSize.max} (default ${pageSize.default}).`,
  examples: ["20"]
})

export const PageCursor = Schema.String.check(
  Schema.isPattern(/^[A-Za-z0-9_-]{1,200}$/u, {
    message: "cursor must be the next_cursor of the previous page, unchanged"
  })
).annotate({ description: "The next_cursor of the previous page, passed unchanged (an opaque token)." })

/** The longest a long poll waits, in seconds. */
export const maxWaitSeconds = 60

export const WaitSeconds = Schema.String.check(
  // 0 to 60 seconds, with up to three decimals.
  Schema.isPattern(/^(?:[0-5]?[0-9](?:\.[0-9]{1,3})?|60(?:\.0{1,3})?)$/u, {
    message: `wait must be a number of seconds from 0 to ${maxWaitSeconds}`
  })
).annotate({
  description: `Long poll: hold the request up to this many seconds (0–${maxWaitSeconds}, up to three decimals) until the task changes.`,
  examples: ["30"]
})

/**
 * An idempotency key, as a document publishes it (IDEMPOTENCY_KEY_MIN to IDEMPOTENCY_KEY_MAX
 * characters) and as decoding checks it: not empty, not too long. A key shorter than the minimum
 * is refused by the submission itself (services/tasks.ts), alike in REST's header, the draft's
 * member and MCP's argument, with one answer naming where it came from: decoding lets it through.
 * `name` is how a decoding refusal names the key.
 */
export const idempotencyKey = (name: string, description: string) =>
  Schema.String.check(
    Schema.makeFilter((key: string) => key.length > 0, {
      message: `${name} must not be empty`,
      toJsonSchema: () => ({ minLength: IDEMPOTENCY_KEY_MIN })
    }),
    Schema.isMaxLength(IDEMPOTENCY_KEY_MAX, { message: `${name} must be at most ${IDEMPOTENCY_KEY_MAX} characters` })
  ).annotate({ description })

export const IdempotencyKeyHeader = idempotencyKey(
  "the idempotency-key header",
  `Makes the submission safe to retry: a fresh random value per task, and a secret (a replay returns the task's token): ${idempotencyKeyRule} (at most ${IDEMPOTENCY_KEY_MAX}).`
)
