/**
 * The error envelope of the published contract, one schema-backed error class per status, and the
 * one mapping of a refusal (domain/errors.ts, operations/errors.ts) to it (`toEnvelope`).
 *
 * Each class's only field is the envelope body, so it encodes to exactly `{ "error": { … } }`
 * (no `_tag`), and its annotated status lets the OpenAPI document list every error response.
 */
import * as Schema from "effect/Schema"
import * as SchemaAST from "effect/SchemaAST"
import type { Refusal } from "../domain/errors.ts"
import { TaskIssue } from "../domain/task_draft/issues.ts"

export const ErrorBody = Schema.Struct({
  code: Schema.String.annotate({ description: "Stable, machine-readable code." }),
  message: Schema.String.annotate({ description: "Human-readable explanation." }),
  status: Schema.Int.annotate({ description: "The HTTP status." }),
  hint: Schema.optionalKey(Schema.String.annotate({ description: "How to resolve it." })),
  details: Schema.optionalKey(Schema.Array(TaskIssue).annotate({ description: "The affected fields." })),
  documentation_url: Schema.String.annotate({ format: "uri", description: "Documentation of this error code." })
}).annotate({ identifier: "ErrorBody" })
export type ErrorBody = typeof ErrorBody.Type

export const ErrorEnvelope = Schema.Struct({ error: ErrorBody }).annotate({
  identifier: "Error",
  description: "Every error is this JSON envelope."
})
export type ErrorEnvelope = typeof ErrorEnvelope.Type

const fields = { error: ErrorBody }

export class BadRequest extends Schema.Error<BadRequest>("BadRequest")(fields, {
  httpApiStatus: 400,
  description: "invalid_json, invalid_request or idempotency_key_mismatch."
}) {}
export class Unauthorized extends Schema.Error<Unauthorized>("Unauthorized")(fields, { httpApiStatus: 401 }) {}
export class Forbidden extends Schema.Error<Forbidden>("Forbidden")(fields, { httpApiStatus: 403 }) {}
export class NotFound extends Schema.Error<NotFound>("NotFound")(fields, {
  httpApiStatus: 404,
  description: "not_found, participant_not_found, task_not_found or artifact_not_found."
}) {}
export class MethodNotAllowed extends Schema.Error<MethodNotAllowed>("MethodNotAllowed")(fields, {
  httpApiStatus: 405,
  description: "method_not_allowed; the Allow header lists the accepted methods."
}) {}
export class RequestTimeout extends Schema.Error<RequestTimeout>("RequestTimeout")(fields, { httpApiStatus: 408 }) {}
export class ExpectationFailed extends Schema.Error<ExpectationFailed>("ExpectationFailed")(fields, {
  httpApiStatus: 417,
  description: "expectation_failed: the only expectation the server meets is Expect: 100-continue."
}) {}
export class Conflict extends Schema.Error<Conflict>("Conflict")(fields, { httpApiStatus: 409 }) {}
export class PayloadTooLarge extends Schema.Error<PayloadTooLarge>("PayloadTooLarge")(fields, {
  httpApiStatus: 413,
  description:
    "payload_too_large: JSON request bodies are limited to 64 KiB; an uploaded file to the service's file limit (GET /capabilities, limits.files)."
}) {}
export class UnsupportedMediaType extends Schema.Error<UnsupportedMediaType>("UnsupportedMediaType")(fields, {
  httpApiStatus: 415,
  description: "unsupported_media_type: content-type must be application/json."
}) {}
export class Unprocessable extends Schema.Error<Unprocessable>("Unprocessable")(fields, {
  httpApiStatus: 422,
  description:
    "preflight_failed (details lists each field), result_invalid (details names each failing result field), artifact_invalid (details names each file artifact refused) or idempotency_key_reused."
}) {}
export class HeadersTooLarge extends Schema.Error<HeadersTooLarge>("HeadersTooLarge")(fields, {
  httpApiStatus: 431,
  description: "headers_too_large: the request line and headers are over 16 KiB."
}) {}
export class RateLimited extends Schema.Error<RateLimited>("RateLimited")(fields, { httpApiStatus: 429 }) {}
export class InternalError extends Schema.Error<InternalError>("InternalError")(fields, {
  httpApiStatus: 500,
  description: "internal_error: an unexpected failure; nothing internal is disclosed."
}) {}
export class ServiceUnavailable extends Schema.Error<ServiceUnavailable>("ServiceUnavailable")(fields, {
  httpApiStatus: 503,
  description:
    "task_not_created or storage_unavailable: retry after Retry-After seconds (with the same idempotency key)."
}) {}

export type EnvelopeError =
  | BadRequest
  | Unauthorized
  | Forbidden
  | NotFound
  | MethodNotAllowed
  | RequestTimeout
  | Conflict
  | ExpectationFailed
  | PayloadTooLarge
  | UnsupportedMediaType
  | Unprocessable
  | HeadersTooLarge
  | RateLimited
  | InternalError
  | ServiceUnavailable

const byStatus = {
  400: BadRequest,
  401: Unauthorized,
  403: Forbidden,
  404: NotFound,
  405: MethodNotAllowed,
  408: RequestTimeout,
  409: Conflict,
  413: PayloadTooLarge,
  415: UnsupportedMediaType,
  417: ExpectationFailed,
  422: Unprocessable,
  429: RateLimited,
  431: HeadersTooLarge,
  500: InternalError,
  503: ServiceUnavailable
} as const
export type ErrorStatus = keyof typeof byStatus

/** Every error code the service emits, its status and meaning: the docs page and /capabilities read this. */
export const errorCodes = {
  invalid_json: { status: 400, meaning: "The body cannot be parsed as JSON." },
  invalid_request: {
    status: 400,
    meaning:
      "The body is not a JSON object, or a body member, parameter, header or tool argument is invalid; details names each."
  },
  idempotency_key_mismatch: { status: 400, meaning: "The idempotency-key header and body idempotency_key differ." },
  unauthorized: { status: 401, meaning: "Missing or invalid credentials." },
  forbidden: { status: 403, meaning: "The credentials do not allow this action." },
  not_found: { status: 404, meaning: "No endpoint at this path." },
  participant_not_found: { status: 404, meaning: "No participant with that slug." },
  task_not_found: { status: 404, meaning: "No task with that reference." },
  artifact_not_found: {
    status: 404,
    meaning:
      "No file with that id on the task that these credentials may read (whether it exists for anyone else is not said)."
  },
  method_not_allowed: {
    status: 405,
    meaning: "The endpoint does not accept this method; the hint names the right one."
  },
  request_timeout: { status: 408, meaning: "The request was not received in time." },
  invalid_transition: { status: 409, meaning: "The task's current state does not allow this action." },
  payload_too_large: {
    status: 413,
    meaning: "The body is over its limit: 64 KiB for JSON, the file limit for an uploaded file (GET /capabilities)."
  },
  unsupported_media_type: { status: 415, meaning: "content-type must be application/json." },
  expectation_failed: { status: 417, meaning: "The Expect header asks for something other than 100-continue." },
  preflight_failed: { status: 422, meaning: "Named fields are missing or ambiguous; details lists each." },
  idempotency_key_reused: { status: 422, meaning: "The idempotency key was already used with a different draft." },
  result_invalid: {
    status: 422,
    meaning:
      "The result's fields fail the task's result_schema; details names each failing field (a JSON Pointer into the result). Nothing was changed."
  },
  artifact_invalid: {
    status: 422,
    meaning:
      "An uploaded file cannot be used: a result names a file that is not yours on this task, or too many files (details names each), or too many uploads wait to be submitted. Nothing was changed."
  },
  headers_too_large: { status: 431, meaning: "The request line and headers are over 16 KiB." },
  rate_limited: { status: 429, meaning: "Too many requests; retry after Retry-After seconds." },
  internal_error: { status: 500, meaning: "An unexpected failure; nothing was disclosed." },
  task_not_created: { status: 503, meaning: "The task could not be recorded; retry with the same idempotency key." },
  storage_unavailable: { status: 503, meaning: "Storage is unreachable; retry after Retry-After seconds." }
} as const satisfies Record<string, { status: ErrorStatus; meaning: string }>
export type ErrorCode = keyof typeof errorCodes

export interface ErrorOptions {
  readonly hint?: string | undefined
  readonly details?: ReadonlyArray<TaskIssue> | undefined
}

/** Builds the envelope body for a code; `docsUrl` is the configured documentation base. */
export const errorBody = (
  docsUrl: string,
  code: ErrorCode,
  message: string,
  options: ErrorOptions = {}
): ErrorBody => ({
  code,
  message,
  status: errorCodes[code].status,
  ...(options.hint === undefined ? {} : { hint: options.hint }),
  ...(options.details === undefined ? {} : { details: options.details }),
  documentation_url: `${docsUrl}#error-${code}`
})

/** The error class instance for a code, carrying its envelope. */
export const envelopeError = <C extends ErrorCode>(
  docsUrl: string,
  code: C,
  message: string,
  options?: ErrorOptions
): InstanceType<(typeof byStatus)[(typeof errorCodes)[C]["status"]]> => {
  const Class = byStatus[errorCodes[code].status]
  return new Class({ error: errorBody(docsUrl, code, message, options) }) as never
}

/** A refusal the envelope can carry: its code is one of the contract's. */
export type EnvelopedRefusal = Refusal & { readonly code: ErrorCode }

/**
 * The status a refusal is answered with: its class's `httpApiStatus` annotation (domain/errors.ts),
 * else its code's.
 */
export const statusOf = (refusal: EnvelopedRefusal): ErrorStatus => {
  const annotated = SchemaAST.resolve((refusal.constructor as Schema.Top).ast)?.httpApiStatus
  return isErrorStatus(annotated) ? annotated : errorCodes[refusal.code].status
}

const isErrorStatus = (status: unknown): status is ErrorStatus => typeof status === "number" && status in byStatus

/** A refusal's envelope body: its code, message, hint and details, its status, and where its code is documented. */
export const refusalBody = (docsUrl: string, refusal: EnvelopedRefusal): ErrorBody => ({
  code: refusal.code,
  message: refusal.message,
  status: statusOf(refusal),
  ...(refusal.hint === undefined ? {} : { hint: refusal.hint }),
  ...(refusal.details === undefined ? {} : { details: refusal.details }),
  documentation_url: `${docsUrl}#error-${refusal.code}`
})

/**
 * The one mapping of the operations' failures to the envelope: a refusal becomes the error class
 * of its status, carrying its body (`documentation_url` from `docsUrl`, the configured
 * documentation); an error already in the envelope passes as it is.
 */
export const toEnvelope =
  (docsUrl: string) =>
  (error: EnvelopedRefusal | EnvelopeError): EnvelopeError => {
    if (isEnvelopeError(error)) return error
    return new byStatus[statusOf(error)]({ error: refusalBody(docsUrl, error) })
  }

const envelopeClasses: ReadonlyArray<abstract new (...args: never) => EnvelopeError> = Object.values(byStatus)

/** Whether `error` is already one of the envelope's error classes. */
export const isEnvelopeError = (error: unknown): error is EnvelopeError =>
  envelopeClasses.some((Class) => error instanceof Class)
