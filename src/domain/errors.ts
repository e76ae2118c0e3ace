/**
 * Failures the services and operations report in domain terms. Each is a Schema tagged error that
 * says what the edge needs to answer it, and nothing of HTTP: its status as the class's
 * `httpApiStatus` annotation, and (`Refusal`) the stable envelope `code`, the message, the hint and
 * the details. The one mapping to the error envelope (`toEnvelope`, api/envelope.ts) reads these
 * and adds the documentation's address; REST, MCP and the console answer with the same words.
 */
import * as Schema from "effect/Schema"
import { actors, describeAllowed, TaskState } from "./lifecycle.ts"
import type { FieldFailure } from "./result_schema.ts"
import { IDEMPOTENCY_KEY_MIN, idempotencyKeyRule } from "./task_draft/idempotency.ts"
import type { TaskIssue } from "./task_draft/issues.ts"
import type { DraftValidation } from "./task_draft/validate.ts"

/**
 * What a refusal tells whoever asked, in the contract's words: the stable `code` of the error
 * envelope, a message, how to resolve it (`hint`) and the fields concerned (`details`). Its status
 * is its class's `httpApiStatus` annotation.
 */
export interface Refusal {
  readonly _tag: string
  readonly code: string
  readonly message: string
  readonly hint?: string | undefined
  readonly details?: ReadonlyArray<TaskIssue> | undefined
}

/** Seconds a client should wait before retrying when storage is unavailable. */
export const retryAfterSeconds = 2

/** A value of a type the domain declares as an interface, carried as it is. */
const carried = <A>() => Schema.declare((u: unknown): u is A => typeof u === "object" && u !== null)

const quoted = (s: string) => JSON.stringify(s.slice(0, 80))

export class TaskNotFound extends Schema.TaggedError<TaskNotFound>()(
  "TaskNotFound",
  { reference: Schema.String },
  { httpApiStatus: 404 }
) {
  get code() {
    return "task_not_found" as const
  }
  override get message() {
    return `No task has the reference ${quoted(this.reference)}.`
  }
  get hint() {
    return "Use the reference from the 201 response of POST /api/public/v1/tasks, unchanged."
  }
}

export class ParticipantNotFound extends Schema.TaggedError<ParticipantNotFound>()(
  "ParticipantNotFound",
  { slug: Schema.String },
  { httpApiStatus: 404 }
) {
  get code() {
    return "participant_not_found" as const
  }
  override get message() {
    return `No participant has the slug ${quoted(this.slug)}.`
  }
  get hint() {
    return "List participants with GET /api/public/v1/participants (filter with ?q=) and use a slug from it."
  }
}

/** The draft failed the shared rule set; nothing was stored. */
export class DraftRejected extends Schema.TaggedError<DraftRejected>()(
  "DraftRejected",
  { validation: carried<DraftValidation>() },
  { httpApiStatus: 422 }
) {
  get code() {
    return "preflight_failed" as const
  }
  override get message() {
    return `The draft is incomplete or invalid: ${this.validation.issues.map((i) => i.field).join(", ")}.`
  }
  get hint() {
    return `Fix each field listed in details (${this.validation.issues
      .map((i) => `${i.field}: ${i.message}`)
      .join(" ")}) and validate the draft first with POST /api/public/v1/preflight.`
  }
  get details() {
    return this.validation.issues
  }
}

/** The header and the body carry different idempotency keys. */
export class IdempotencyKeyMismatch extends Schema.TaggedError<IdempotencyKeyMismatch>()(
  "IdempotencyKeyMismatch",
  { header: Schema.String, body: Schema.String },
  { httpApiStatus: 400 }
) {
  get code() {
    return "idempotency_key_mismatch" as const
  }
  override get message() {
    return "The idempotency-key header and the body's idempotency_key differ."
  }
  get hint() {
    return "Send one key: the idempotency-key header (preferred) or idempotency_key, or the same value in both."
  }
}

const keyPlaces = {
  header: { name: "The Idempotency-Key header", field: "idempotency-key" },
  argument: { name: "The idempotency_key argument", field: "idempotency_key" },
  body: { name: "The idempotency_key member of the draft", field: "idempotency_key" }
} as const

/**
 * An idempotency key shorter than IDEMPOTENCY_KEY_MIN (task_draft/idempotency.ts): refused before any lookup,
 * nothing stored. `source` is where it came from: the key sent beside the draft (`header`: REST's
 * header; `argument`: MCP's argument, as the agent's operations name it) or the draft's own
 * `idempotency_key` member (`body`).
 */
export class IdempotencyKeyTooShort extends Schema.TaggedError<IdempotencyKeyTooShort>()(
  "IdempotencyKeyTooShort",
  { source: Schema.Literals(["header", "argument", "body"]), length: Schema.Number },
  { httpApiStatus: 400 }
) {
  get code() {
    return "invalid_request" as const
  }
  override get message() {
    return `${keyPlaces[this.source].name} is too short (${this.length} characters): an idempotency key is a secret and must be ${idempotencyKeyRule}.`
  }
  get hint() {
    return `Send a fresh random key of at least ${IDEMPOTENCY_KEY_MIN} characters per task, e.g. a UUID (crypto.randomUUID()): a replay returns the task's token, so anyone who knows the key and the draft could act as the task's agent. Nothing was created.`
  }
  get details() {
    const field = keyPlaces[this.source].field
    return [
      { field, code: "invalid", message: `${field} must be ${idempotencyKeyRule}; got ${this.length} characters` }
    ]
  }
}

/** The key was already used for a different draft. */
export class IdempotencyKeyReused extends Schema.TaggedError<IdempotencyKeyReused>()(
  "IdempotencyKeyReused",
  { key: Schema.String, reference: Schema.String },
  { httpApiStatus: 422 }
) {
  get code() {
    return "idempotency_key_reused" as const
  }
  override get message() {
    return "This idempotency key was already used to submit a different draft."
  }
  get hint() {
    return "Use a new key for a new task; reuse a key only to retry the exact same draft."
  }
}

/** Storage could not be reached; the operation changed nothing and may be retried. */
export class StorageUnavailable extends Schema.TaggedError<StorageUnavailable>()(
  "StorageUnavailable",
  { cause: Schema.Unknown },
  { httpApiStatus: 503 }
) {
  get code() {
    return "storage_unavailable" as const
  }
  override get message() {
    return "Storage is unavailable right now; nothing was changed."
  }
  get hint() {
    return `Retry in ${retryAfterSeconds} seconds.`
  }
}

/** The current state does not allow the move (DECISIONS §5): 409 invalid_transition. */
export class InvalidTransition extends Schema.TaggedError<InvalidTransition>()(
  "InvalidTransition",
  {
    reference: Schema.String,
    from: TaskState,
    to: TaskState,
    actor: Schema.Literals(actors),
    /** Why, when it is not simply the table (e.g. the revision limit). */
    detail: Schema.optionalKey(Schema.String)
  },
  { httpApiStatus: 409 }
) {
  get code() {
    return "invalid_transition" as const
  }
  override get message() {
    return this.detail === undefined
      ? `The task is ${this.from}: the ${this.actor} cannot move it to ${this.to}.`
      : `The task is ${this.from} and cannot move to ${this.to}: ${this.detail}.`
  }
  get hint() {
    return this.detail === undefined
      ? `From ${this.from} the lifecycle allows: ${describeAllowed(this.from)}. Read the task for its current state.`
      : `From ${this.from} the lifecycle allows: ${describeAllowed(this.from, this.to)}.`
  }
}

const FieldFailureSchema = Schema.Struct({
  pointer: Schema.String,
  code: Schema.Literals(["required", "invalid"]),
  message: Schema.String
})

/** A result whose fields fail the task's result_schema; nothing was changed: 422 result_invalid. */
export class ResultRejected extends Schema.TaggedError<ResultRejected>()(
  "ResultRejected",
  { reference: Schema.String, failures: Schema.Array(FieldFailureSchema) },
  { httpApiStatus: 422 }
) {
  get code() {
    return "result_invalid" as const
  }
  override get message() {
    return `The result's fields fail the task's result_schema: ${this.failures.map((f) => f.pointer).join(", ")}.`
  }
  get hint() {
    return "Fix each field named in details (a JSON Pointer into the result) and submit again; the schema is the task's brief.result_schema. Nothing was changed."
  }
  get details(): ReadonlyArray<TaskIssue> {
    return this.failures.map((f: FieldFailure) => ({ field: f.pointer, code: f.code, message: f.message }))
  }
}

/** Missing or invalid credentials: 401 unauthorized. */
export class Unauthenticated extends Schema.TaggedError<Unauthenticated>()(
  "Unauthenticated",
  { reason: Schema.String },
  { httpApiStatus: 401 }
) {
  get code() {
    return "unauthorized" as const
  }
  override get message() {
    return `Missing or invalid credentials: ${this.reason}.`
  }
  get hint() {
    return "Send Authorization: Bearer <task_token from the 201 response> for agent actions, or an OAuth access token for participant actions."
  }
}

/** Valid credentials of the wrong party: 403 forbidden. */
export class NotPermitted extends Schema.TaggedError<NotPermitted>()(
  "NotPermitted",
  { reason: Schema.String },
  { httpApiStatus: 403 }
) {
  get code() {
    return "forbidden" as const
  }
  override get message() {
    return `Not allowed: ${this.reason}.`
  }
  get hint() {
    return "Only the participant a task is offered to (or held by) can act on it."
  }
}

// ---------------------------------------------------------------------------------------------------
// Evidence files (services/artifacts.ts). Each message is a sentence a participant can act on.
// ---------------------------------------------------------------------------------------------------

/** Why an upload was refused as unreadable; nothing of it was kept. */
export type ArtifactRejectedReason = "empty" | "invalid_name"

/** An upload refused as unusable: empty, or without a usable name. */
export class ArtifactRejected extends Schema.TaggedError<ArtifactRejected>()(
  "ArtifactRejected",
  { reason: Schema.Literals(["empty", "invalid_name"]) },
  { httpApiStatus: 400 }
) {
  get code() {
    return "invalid_request" as const
  }
  override get message() {
    return this.reason === "empty"
      ? "The file is empty."
      : "The file needs a name: a file name such as photo.jpg, without a path."
  }
  get hint() {
    return "Send the file's bytes as the body, and its name in the name query parameter (e.g. ?name=photo.jpg)."
  }
}

/** An upload larger than the most one file may have (`limit`, bytes); nothing of it was kept. */
export class ArtifactTooLarge extends Schema.TaggedError<ArtifactTooLarge>()(
  "ArtifactTooLarge",
  { limit: Schema.Number },
  { httpApiStatus: 413 }
) {
  get code() {
    return "payload_too_large" as const
  }
  override get message() {
    return `The file is larger than ${formatBytes(this.limit)}, the most one file may have.`
  }
  get hint() {
    return `Send a file of at most ${formatBytes(this.limit)}; split or compress a larger one. Nothing was kept.`
  }
}

/** One upload too many waiting to be submitted with a result (`limit` files); nothing of it was kept. */
export class TooManyStagedFiles extends Schema.TaggedError<TooManyStagedFiles>()(
  "TooManyStagedFiles",
  { limit: Schema.Number },
  { httpApiStatus: 422 }
) {
  get code() {
    return "artifact_invalid" as const
  }
  override get message() {
    return `${this.limit} uploaded files are already waiting to be submitted with a result; submit or remove some first.`
  }
  get hint() {
    return "Submit the result naming the files uploaded (or wait an hour: files no result names are removed then)."
  }
}

/** No file with this id on this task that the caller may read (it may exist for someone else). */
export class ArtifactNotFound extends Schema.TaggedError<ArtifactNotFound>()(
  "ArtifactNotFound",
  { reference: Schema.String, id: Schema.String },
  { httpApiStatus: 404 }
) {
  get code() {
    return "artifact_not_found" as const
  }
  override get message() {
    return `No file ${quoted(this.id)} on this task is yours to read.`
  }
  get hint() {
    return "Use a file's url from the task's result.artifacts, with the task's token (agent) or the uploader's access token."
  }
}

/** What is wrong with one file artifact of a result (`field` names it, e.g. `artifacts.2.id`). */
export interface ArtifactProblem {
  readonly field: string
  readonly message: string
}

/**
 * A result naming files it cannot carry: not an upload of this participant on this task, the same
 * file twice, or more files than a result may have. Nothing was changed.
 */
export class ArtifactsUnusable extends Schema.TaggedError<ArtifactsUnusable>()(
  "ArtifactsUnusable",
  { reference: Schema.String, problems: Schema.Array(Schema.Struct({ field: Schema.String, message: Schema.String })) },
  { httpApiStatus: 422 }
) {
  get code() {
    return "artifact_invalid" as const
  }
  override get message() {
    return `The result names files it cannot carry: ${this.problems.map((p) => p.field).join(", ")}.`
  }
  get hint() {
    return 'Upload each file with POST /api/public/v1/tasks/{reference}/artifacts and name it by the id returned, {"kind": "file", "id": …}. Nothing was changed.'
  }
  get details(): ReadonlyArray<TaskIssue> {
    return this.problems.map((p) => ({ field: p.field, code: "invalid", message: p.message }))
  }
}

/** Files may be uploaded to a task only while its holder works on it (accepted or in_flight). */
export class UploadNotAllowed extends Schema.TaggedError<UploadNotAllowed>()(
  "UploadNotAllowed",
  { reference: Schema.String, state: TaskState },
  { httpApiStatus: 409 }
) {
  get code() {
    return "invalid_transition" as const
  }
  override get message() {
    return `The task is ${this.state}: files can be uploaded only while it is accepted or in_flight.`
  }
  get hint() {
    return this.state === "awaiting_participant"
      ? "Accept the offer first, then upload the files the result will name."
      : "Files are uploaded while working on a task, before its result is submitted."
  }
}

/** 26214400 → "25 MiB", 1000 → "1000 bytes". */
export const formatBytes = (bytes: number): string => {
  for (const [unit, size] of [
    ["GiB", 1024 ** 3],
    ["MiB", 1024 ** 2],
    ["KiB", 1024]
  ] as const) {
    if (bytes >= size && bytes % size === 0) return `${bytes / size} ${unit}`
  }
  return bytes === 1 ? "1 byte" : `${bytes} bytes`
}

// ---------------------------------------------------------------------------------------------------
// Participant logins (services/logins/). Each message is a sentence an operator or a sign-in
// page can show as it is.
// ---------------------------------------------------------------------------------------------------

/** The address given for a login is not one (domain/login.ts, `emailProblem`). */
export class InvalidEmail extends Schema.TaggedError<InvalidEmail>()("InvalidEmail", {
  email: Schema.String,
  /** What is wrong, as a sentence. */
  problem: Schema.String
}) {
  override get message() {
    return `${JSON.stringify(this.email)} cannot be a login's address. ${this.problem}`
  }
}

/** Another participant's login already has this address (case aside). */
export class EmailTaken extends Schema.TaggedError<EmailTaken>()("EmailTaken", {
  email: Schema.String,
  /** The participant whose login has it. */
  participantSlug: Schema.String
}) {
  override get message() {
    return `${this.email} is already the login of participant ${this.participantSlug}`
  }
}

/** The participant's login has a password already: an invitation cannot replace it, a reset can. */
export class LoginAlreadyActive extends Schema.TaggedError<LoginAlreadyActive>()("LoginAlreadyActive", {
  participantSlug: Schema.String
}) {
  override get message() {
    return `participant ${this.participantSlug} has already chosen a password; send a reset link instead`
  }
}

/** The participant has no login (they were never invited). */
export class LoginNotFound extends Schema.TaggedError<LoginNotFound>()("LoginNotFound", {
  participantSlug: Schema.String
}) {
  override get message() {
    return `participant ${this.participantSlug} has no login yet; invite them first`
  }
}

/** Why a one-time link cannot be used: no such link (or one replaced by a newer), used, expired. */
export type LinkUnusableReason = "unknown" | "used" | "expired"

/** A one-time link that cannot be used (reading it, or choosing a password with it). */
export class LinkNotUsable extends Schema.TaggedError<LinkNotUsable>()("LinkNotUsable", {
  reason: Schema.Literals(["unknown", "used", "expired"])
}) {
  override get message() {
    return linkUnusableMessages[this.reason]
  }
}

const linkUnusableMessages: Record<LinkUnusableReason, string> = {
  unknown: "This link is not valid (a newer one may have replaced it). Ask for a new one.",
  used: "This link has already been used. Ask for a new one if you need to choose a password again.",
  expired: "This link has expired. Ask for a new one."
}

/** The password breaks the password rule (domain/login.ts, `passwordProblem`); nothing changed. */
export class PasswordRejected extends Schema.TaggedError<PasswordRejected>()("PasswordRejected", {
  /** What is wrong, as a sentence. */
  problem: Schema.String
}) {
  override get message() {
    return this.problem
  }
}

/**
 * A sign-in refused: `wrong_credentials` whatever was wrong (unknown address, no password chosen
 * yet, wrong password), so the answer never tells which addresses have logins; `throttled` when
 * too many sign-ins failed lately, for the account or the client address (the password was not
 * even checked), with how long to wait.
 */
export class SignInRefused extends Schema.TaggedError<SignInRefused>()("SignInRefused", {
  reason: Schema.Literals(["wrong_credentials", "throttled"]),
  /** Present when throttled: whole seconds until a sign-in is counted again (at least 1). */
  retryAfterSeconds: Schema.optionalKey(Schema.Number)
}) {
  static readonly wrongCredentials = () => new SignInRefused({ reason: "wrong_credentials" })
  static readonly throttled = (retryAfterSeconds: number) =>
    new SignInRefused({ reason: "throttled", retryAfterSeconds })

  override get message() {
    return this.reason === "throttled"
      ? `Too many failed sign-ins. Try again in ${waitText(this.retryAfterSeconds ?? 1)}.`
      : "The email address or the password is not right."
  }
}

const waitText = (seconds: number) =>
  seconds < 90 ? `${seconds} second${seconds === 1 ? "" : "s"}` : `${Math.ceil(seconds / 60)} minutes`

// ---------------------------------------------------------------------------------------------------
// Profiles and sign-ups (services/profiles.ts).
// ---------------------------------------------------------------------------------------------------

/** No participant, listed or awaiting approval, has this slug. */
export class ProfileNotFound extends Schema.TaggedError<ProfileNotFound>()("ProfileNotFound", { slug: Schema.String }) {
  override get message() {
    return `no participant or sign-up awaiting approval has the slug ${this.slug}`
  }
}

/** A sign-up to approve whose participant is listed already (approved before, or imported under that slug). */
export class AlreadyListed extends Schema.TaggedError<AlreadyListed>()("AlreadyListed", { slug: Schema.String }) {
  override get message() {
    return `participant ${this.slug} is already listed in the directory`
  }
}

/** Too many sign-ups from one client address lately; nothing was made. */
export class SignUpThrottled extends Schema.TaggedError<SignUpThrottled>()("SignUpThrottled", {
  /** Whole seconds until a sign-up from that address is counted again (at least 1). */
  retryAfterSeconds: Schema.Number
}) {
  override get message() {
    return `Too many accounts were created from here lately. Try again in ${waitText(this.retryAfterSeconds)}.`
  }
}
