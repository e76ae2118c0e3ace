/**
 * Query and header parameters: each declared once, here. HttpApi decodes every request by these
 * schemas (a value they refuse is a 400 `invalid_request` naming the parameter, from the envelope
 * middleware), and the OpenAPI document publishes them as they are, so what the document allows
 * is exactly what the service accepts.
 *
 * On the wire a query parameter is text: a number is declared as the text it must be, decoded to
 * the number with its bounds, so handlers receive numbers.
 */
import * as Schema from "effect/Schema"
import * as SchemaTransformation from "effect/SchemaTransformation"
import { usableFileNamePattern } from "../domain/evidence.ts"
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

/**
 * A number as a query parameter carries it: plain decimal text (digits, an optional sign and
 * fraction; no exponent, no leading zeros, no blanks), the form in which a number written into a
 * URL is read back. HttpApi documents a parameter by its text; the OpenAPI document gives its
 * decoded type instead (http/openapi.ts), which is what a client means by it.
 */
const numberText = (message: string) =>
  Schema.String.check(Schema.isPattern(/^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?$/u, { message })).pipe(
    Schema.decodeTo(Schema.Finite, SchemaTransformation.numberFromString)
  )

const limitMessage = `limit must be a whole number from 1 to ${pageSize.max}`

export const PageLimit = numberText(limitMessage)
  .pipe(
    Schema.decodeTo(
      Schema.Number.check(
        Schema.isInt({ message: limitMessage }),
        Schema.isBetween({ minimum: 1, maximum: pageSize.max }, { message: limitMessage })
      ),
      SchemaTransformation.passthrough()
    )
  )
  .annotate({
    description: `Page size: a whole number from 1 to ${pageSize.max} (default ${pageSize.default}).`,
    examples: [20]
  })

/**
 * The next_cursor of the previous page, as text: base64url of `after:` and the slug the page
 * continues after, so every issued cursor begins `YWZ0ZXI6`. The pattern is the whole rule: any
 * text it accepts is a position in the listing (operations/agent.ts decodes it), and the listing
 * refuses nothing it lets through, so a value valid by the document is never refused as malformed.
 */
export const cursorPrefix = "YWZ0ZXI6"

export const PageCursor = Schema.String.check(
  Schema.isPattern(new RegExp(`^${cursorPrefix}[A-Za-z0-9_-]{0,192}$`, "u"), {
    message: "cursor must be the next_cursor of the previous page, unchanged"
  })
).annotate({
  description: `The next_cursor of the previous page, passed unchanged: base64url text of at most 200 characters beginning ${cursorPrefix}.`,
  examples: ["YWZ0ZXI6amFuZS1kb2U"]
})

/**
 * The text GET /participants filters by. No text longer than a request line Node accepts (16 KiB,
 * routes.ts) can arrive anyway; the bound says so in the document.
 */
export const participantQueryMax = 16 * 1024

export const ParticipantQuery = Schema.String.check(
  Schema.isMaxLength(participantQueryMax, { message: `q must be at most ${participantQueryMax} characters` })
).annotate({
  description: `Case-insensitive filter across name, discipline, location, task type and tags (at most ${participantQueryMax} characters).`
})

/** The longest a long poll waits, in seconds. */
export const maxWaitSeconds = 60

const waitMessage = `wait must be a number of seconds from 0 to ${maxWaitSeconds}`

export const WaitSeconds = numberText(waitMessage)
  .pipe(
    Schema.decodeTo(
      Schema.Finite.check(Schema.isBetween({ minimum: 0, maximum: maxWaitSeconds }, { message: waitMessage })),
      SchemaTransformation.passthrough()
    )
  )
  .annotate({
    description: `Long poll: hold the request up to this many seconds (0–${maxWaitSeconds}) until the task changes.`,
    examples: [30]
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

/** GET /tasks/{reference}'s conditional form (RFC 9110 §13.1.2): the ETag last read, or several, or `*`. */
export const IfNoneMatchHeader = Schema.String.annotate({
  description: "The ETag of the last read: an unchanged task is answered 304 with no body."
})

/** A task's version as an entity tag: it changes with every change of the task, whatever its bytes. */
export const TaskEtagHeader = Schema.String.annotate({
  description: "The task's version: send it back as If-None-Match to be answered 304 while nothing changed."
})

export const TaskLocationHeader = Schema.String.annotate({ description: "The new task's URL." })

export const ReplayedHeader = Schema.Literal("true").annotate({
  description: "Present when this 201 replays an earlier submission with the same idempotency key."
})

/** The headers a result's file is served with (pages/download.ts). */
export const FileResponseHeaders = Schema.Struct({
  "content-length": Schema.optionalKey(Schema.String.annotate({ description: "The file's size in bytes." })),
  "content-disposition": Schema.String.annotate({
    description: "attachment, with the file's name (RFC 6266, the name in RFC 8187's UTF-8 form)."
  }),
  etag: Schema.String.annotate({ description: "The file's SHA-256." }),
  "x-content-type-options": Schema.Literal("nosniff").annotate({
    description: "The file is never read as another type."
  }),
  "content-security-policy": Schema.String.annotate({
    description: "default-src 'none'; sandbox: a file opened anyway runs nothing."
  }),
  "cache-control": Schema.String.annotate({ description: "private, no-store: no cache keeps a participant's file." })
})

/**
 * An uploaded file's name: any text that leaves a name once made safe (domain/evidence.ts,
 * `safeFileName`), which is what the pattern says; anything else is refused as malformed here, by
 * the same rule the service would apply.
 */
export const UploadFileName = Schema.String.check(
  Schema.isPattern(usableFileNamePattern, {
    message: "name must be a file name such as photo.jpg, without a path"
  })
).annotate({
  description:
    "The file's name, e.g. photo.jpg: the last segment of what is sent (no path), kept without control characters, at most 255 characters. A name with nothing left once so cleaned (empty, blank, '.', '..', ending in '/') is refused."
})
