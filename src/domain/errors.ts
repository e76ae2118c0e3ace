/**
 * Failures the services and operations report in domain terms. Each is a Schema tagged error that
 * says what the edge needs to answer it, and nothing of HTTP: its status as the class's
 * `httpApiStatus` annotation, and (`Refusal`) the stable envelope `code`, the message, the hint and
 * the details. The one mapping to the error envelope (`toEnvelope`, api/envelope.ts) reads these
 * and adds the documentation's address; REST, MCP and the console answer with the same words.
 */
import type * as Cause from "effect/Cause"
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

/** What a refusal says, written from its fields: its status, its envelope code, message, hint and details. */
interface Words<Fields, Code extends string> {
  readonly status: number
  readonly code: Code
  readonly message: (error: Fields) => string
  readonly hint?: ((error: Fields) => string) | undefined
  readonly details?: ((error: Fields) => ReadonlyArray<TaskIssue>) | undefined
}

/** A refusal's words as its instances carry them (the `Refusal` interface). */
interface Worded<Code extends string> {
  readonly code: Code
  readonly hint: string | undefined
  readonly details: ReadonlyArray<TaskIssue> | undefined
}

/**
 * The base class of a refusal: `Schema.TaggedError<Self>()(tag, fields)` with its status as the
 * `httpApiStatus` annotation, and its `code`, `message`, `hint` and `details` written by `words`
 * from the error's fields. `class X extends RefusalError<X>()("X", fields, words) {}`.
 */
export const RefusalError =
  <Self>() =>
  <Tag extends string, const Fields extends Schema.Struct.Fields, const Code extends string>(
    tag: Tag,
    fields: Fields,
    words: Words<Schema.Struct.Type<Fields>, Code>
  ): Schema.Class<Self, Schema.TaggedStruct<Tag, Fields>, Cause.YieldableError & Worded<Code>> => {
    type Own = Schema.Struct.Type<Fields>
    const Base = Schema.TaggedError<Self>()(tag, fields, { httpApiStatus: words.status }) as unknown as new (
      props: unknown
    ) => Cause.YieldableError
    class Refused extends Base {
      get code() {
        return words.code
      }
      override get message() {
        return words.message(this as unknown as Own)
      }
      get hint() {
        return words.hint?.(this as unknown as Own)
      }
      get details() {
        return words.details?.(this as unknown as Own)
      }
    }
    return Refused as unknown as Schema.Class<
      Self,
      Schema.TaggedStruct<Tag, Fields>,
      Cause.YieldableError & Worded<Code>
    >
  }

/** A value of a type the domain declares as an interface, carried as it is. */
const carried = <A>() => Schema.declare((u: unknown): u is A => typeof u === "object" && u !== null)

const quoted = (s: string) => JSON.stringify(s.slice(0, 80))

export class TaskNotFound extends RefusalError<TaskNotFound>()(
  "TaskNotFound",
  { reference: Schema.String },
  {
    status: 404,
    code: "task_not_found",
    message: (e) => `No task has the reference ${quoted(e.reference)}.`,
    hint: () => "Use the reference from the 201 response of POST /api/public/v1/tasks, unchanged."
  }
) {}

export class ParticipantNotFound extends RefusalError<ParticipantNotFound>()(
  "ParticipantNotFound",
  { slug: Schema.String },
  {
    status: 404,
    code: "participant_not_found",
    message: (e) => `No participant has the slug ${quoted(e.slug)}.`,
    hint: () => "List participants with GET /api/public/v1/participants (filter with ?q=) and use a slug from it."
  }
) {}

/** The draft failed the shared rule set; nothing was stored. */
export class DraftRejected extends RefusalError<DraftRejected>()(
  "DraftRejected",
  { validation: carried<DraftValidation>() },
  {
    status: 422,
    code: "preflight_failed",
    message: (e) => `The draft is incomplete or invalid: ${e.validation.issues.map((i) => i.field).join(", ")}.`,
    hint: (e) =>
      `Fix each field listed in details (${e.validation.issues
        .map((i) => `${i.field}: ${i.message}`)
        .join(" ")}) and validate the draft first with POST /api/public/v1/preflight.`,
    details: (e) => e.validation.issues
  }
) {}

/** The header and the body carry different idempotency keys. */
export class IdempotencyKeyMismatch extends RefusalError<IdempotencyKeyMismatch>()(
  "IdempotencyKeyMismatch",
  { header: Schema.String, body: Schema.String },
  {
    status: 400,
    code: "idempotency_key_mismatch",
    message: () => "The idempotency-key header and the body's idempotency_key differ.",
    hint: () => "Send one key: the idempotency-key header (preferred) or idempotency_key, or the same value in both."
  }
) {}

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
export class IdempotencyKeyTooShort extends RefusalError<IdempotencyKeyTooShort>()(
  "IdempotencyKeyTooShort",
  { source: Schema.Literals(["header", "argument", "body"]), length: Schema.Number },
  {
    status: 400,
    code: "invalid_request",
    message: (e) =>
      `${keyPlaces[e.source].name} is too short (${e.length} characters): an idempotency key is a secret and must be ${idempotencyKeyRule}.`,
    hint: () =>
      `Send a fresh random key of at least ${IDEMPOTENCY_KEY_MIN} characters per task, e.g. a UUID (crypto.randomUUID()): a replay returns the task's token, so anyone who knows the key and the draft could act as the task's agent. Nothing was created.`,
    details: (e) => {
      const field = keyPlaces[e.source].field
      return [{ field, code: "invalid", message: `${field} must be ${idempotencyKeyRule}; got ${e.length} characters` }]
    }
  }
) {}

/** The key was already used for a different draft. */
export class IdempotencyKeyReused extends RefusalError<IdempotencyKeyReused>()(
  "IdempotencyKeyReused",
  { key: Schema.String, reference: Schema.String },
  {
    status: 422,
    code: "idempotency_key_reused",
    message: () => "This idempotency key was already used to submit a different draft.",
    hint: () => "Use a new key for a new task; reuse a key only to retry the exact same draft."
  }
) {}

/** Storage could not be reached; the operation changed nothing and may be retried. */
export class StorageUnavailable extends RefusalError<StorageUnavailable>()(
  "StorageUnavailable",
  { cause: Schema.Unknown },
  {
    status: 503,
    code: "storage_unavailable",
    message: () => "Storage is unavailable right now; nothing was changed.",
    hint: () => `Retry in ${retryAfterSeconds} seconds.`
  }
) {}

/** The current state does not allow the move (DECISIONS §5): 409 invalid_transition. */
export class InvalidTransition extends RefusalError<InvalidTransition>()(
  "InvalidTransition",
  {
    reference: Schema.String,
    from: TaskState,
    to: TaskState,
    actor: Schema.Literals(actors),
    /** Why, when it is not simply the table (e.g. the revision limit). */
    detail: Schema.optionalKey(Schema.String)
  },
  {
    status: 409,
    code: "invalid_transition",
    message: (e) =>
      e.detail === undefined
        ? `The task is ${e.from}: the ${e.actor} cannot move it to ${e.to}.`
        : `The task is ${e.from} and cannot move to ${e.to}: ${e.detail}.`,
    hint: (e) =>
      e.detail === undefined
        ? `From ${e.from} the lifecycle allows: ${describeAllowed(e.from)}. Read the task for its current state.`
        : `From ${e.from} the lifecycle allows: ${describeAllowed(e.from, e.to)}.`
  }
) {}

const FieldFailureSchema = Schema.Struct({
  pointer: Schema.String,
  code: Schema.Literals(["required", "invalid"]),
  message: Schema.String
})

/** A result whose fields fail the task's result_schema; nothing was changed: 422 result_invalid. */
export class ResultRejected extends RefusalError<ResultRejected>()(
  "ResultRejected",
  { reference: Schema.String, failures: Schema.Array(FieldFailureSchema) },
  {
    status: 422,
    code: "result_invalid",
    message: (e) =>
      `The result's fields fail the task's result_schema: ${e.failures.map((f) => f.pointer).join(", ")}.`,
    hint: () =>
      "Fix each field named in details (a JSON Pointer into the result) and submit again; the schema is the task's brief.result_schema. Nothing was changed.",
    details: (e) => e.failures.map((f: FieldFailure) => ({ field: f.pointer, code: f.code, message: f.message }))
  }
) {}

/** Missing or invalid credentials: 401 unauthorized. */
export class Unauthenticated extends RefusalError<Unauthenticated>()(
  "Unauthenticated",
  { reason: Schema.String },
  {
    status: 401,
    code: "unauthorized",
    message: (e) => `Missing or invalid credentials: ${e.reason}.`,
    hint: () =>
      "Send Authorization: Bearer <task_token from the 201 response> for agent actions, or an OAuth access token for participant actions."
  }
) {}

/** Valid credentials of the wrong party: 403 forbidden. */
export class NotPermitted extends RefusalError<NotPermitted>()(
  "NotPermitted",
  { reason: Schema.String },
  {
    status: 403,
    code: "forbidden",
    message: (e) => `Not allowed: ${e.reason}.`,
    hint: () => "Only the participant a task is offered to (or held by) can act on it."
  }
) {}

// ---------------------------------------------------------------------------------------------------
// Evidence files (services/artifacts.ts). Each message is a sentence a participant can act on.
// ---------------------------------------------------------------------------------------------------

/** Why an upload was refused as unreadable; nothing of it was kept. */
export type ArtifactRejectedReason = "empty" | "invalid_name"

/** An upload refused as unusable: empty, or without a usable name. */
export class ArtifactRejected extends RefusalError<ArtifactRejected>()(
  "ArtifactRejected",
  { reason: Schema.Literals(["empty", "invalid_name"]) },
  {
    status: 400,
    code: "invalid_request",
    message: (e) =>
      e.reason === "empty"
        ? "The file is empty."
        : "The file needs a name: a file name such as photo.jpg, without a path.",
    hint: () => "Send the file's bytes as the body, and its name in the name query parameter (e.g. ?name=photo.jpg)."
  }
) {}

/** An upload larger than the most one file may have (`limit`, bytes); nothing of it was kept. */
export class ArtifactTooLarge extends RefusalError<ArtifactTooLarge>()(
  "ArtifactTooLarge",
  { limit: Schema.Number },
  {
    status: 413,
    code: "payload_too_large",
    message: (e) => `The file is larger than ${formatBytes(e.limit)}, the most one file may have.`,
    hint: (e) => `Send a file of at most ${formatBytes(e.limit)}; split or compress a larger one. Nothing was kept.`
  }
) {}

/** One upload too many waiting to be submitted with a result (`limit` files); nothing of it was kept. */
export class TooManyStagedFiles extends RefusalError<TooManyStagedFiles>()(
  "TooManyStagedFiles",
  { limit: Schema.Number },
  {
    status: 422,
    code: "artifact_invalid",
    message: (e) =>
      `${e.limit} uploaded files are already waiting to be submitted with a result; submit or remove some first.`,
    hint: () => "Submit the result naming the files uploaded (or wait an hour: files no result names are removed then)."
  }
) {}

/** No file with this id on this task that the caller may read (it may exist for someone else). */
export class ArtifactNotFound extends RefusalError<ArtifactNotFound>()(
  "ArtifactNotFound",
  { reference: Schema.String, id: Schema.String },
  {
    status: 404,
    code: "artifact_not_found",
    message: (e) => `No file ${quoted(e.id)} on this task is yours to read.`,
    hint: () =>
      "Use a file's url from the task's result.artifacts, with the task's token (agent) or the uploader's access token."
  }
) {}

/** What is wrong with one file artifact of a result (`field` names it, e.g. `artifacts.2.id`). */
export interface ArtifactProblem {
  readonly field: string
  readonly message: string
}

/**
 * A result naming files it cannot carry: not an upload of this participant on this task, the same
 * file twice, or more files than a result may have. Nothing was changed.
 */
export class ArtifactsUnusable extends RefusalError<ArtifactsUnusable>()(
  "ArtifactsUnusable",
  { reference: Schema.String, problems: Schema.Array(Schema.Struct({ field: Schema.String, message: Schema.String })) },
  {
    status: 422,
    code: "artifact_invalid",
    message: (e) => `The result names files it cannot carry: ${e.problems.map((p) => p.field).join(", ")}.`,
    hint: () =>
      'Upload each file with POST /api/public/v1/tasks/{reference}/artifacts and name it by the id returned, {"kind": "file", "id": …}. Nothing was changed.',
    details: (e) => e.problems.map((p) => ({ field: p.field, code: "invalid", message: p.message }))
  }
) {}

/** Files may be uploaded to a task only while its holder works on it (accepted or in_flight). */
export class UploadNotAllowed extends RefusalError<UploadNotAllowed>()(
  "UploadNotAllowed",
  { reference: Schema.String, state: TaskState },
  {
    status: 409,
    code: "invalid_transition",
    message: (e) => `The task is ${e.state}: files can be uploaded only while it is accepted or in_flight.`,
    hint: (e) =>
      e.state === "awaiting_participant"
        ? "Accept the offer first, then upload the files the result will name."
        : "Files are uploaded while working on a task, before its result is submitted."
  }
) {}

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
export type LinkUnusableReason = "unknown" | "used" | "replaced" | "expired"

/** A one-time link that cannot be used (reading it, or choosing a password with it). */
export class LinkNotUsable extends Schema.TaggedError<LinkNotUsable>()("LinkNotUsable", {
  reason: Schema.Literals(["unknown", "used", "replaced", "expired"])
}) {
  override get message() {
    return linkUnusableMessages[this.reason]
  }
}

const linkUnusableMessages: Record<LinkUnusableReason, string> = {
  unknown: "This link is not valid. Ask for a new one.",
  used: "This link has already been used. Ask for a new one if you need to choose a password again.",
  replaced: "A newer link replaced this one. Use the newest link you were sent, or ask for a new one.",
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
