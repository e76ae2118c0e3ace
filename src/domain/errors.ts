/**
 * Failures the services report in domain terms; the HTTP adapter maps each to one envelope error.
 */
import * as Data from "effect/Data"
import type { Actor, TaskState } from "./lifecycle.ts"
import type { FieldFailure } from "./result_schema.ts"
import type { DraftValidation } from "./task_draft/validate.ts"

export class TaskNotFound extends Data.TaggedError("TaskNotFound")<{ readonly reference: string }> {}

export class ParticipantNotFound extends Data.TaggedError("ParticipantNotFound")<{ readonly slug: string }> {}

/** The draft failed the shared rule set; nothing was stored. */
export class DraftRejected extends Data.TaggedError("DraftRejected")<{ readonly validation: DraftValidation }> {}

/** The header and the body carry different idempotency keys. */
export class IdempotencyKeyMismatch extends Data.TaggedError("IdempotencyKeyMismatch")<{
  readonly header: string
  readonly body: string
}> {}

/**
 * An idempotency key shorter than IDEMPOTENCY_KEY_MIN (task_draft/idempotency.ts): refused before any lookup,
 * nothing stored. `source` is where it came from: the key sent beside the draft (`headerKey`:
 * REST's header, MCP's argument) or the draft's own `idempotency_key` member (`body`).
 */
export class IdempotencyKeyTooShort extends Data.TaggedError("IdempotencyKeyTooShort")<{
  readonly source: "header" | "body"
  readonly length: number
}> {}

/** The key was already used for a different draft. */
export class IdempotencyKeyReused extends Data.TaggedError("IdempotencyKeyReused")<{
  readonly key: string
  readonly reference: string
}> {}

/** Storage could not be reached; the operation changed nothing and may be retried. */
export class StorageUnavailable extends Data.TaggedError("StorageUnavailable")<{ readonly cause: unknown }> {}

/** The current state does not allow the move (DECISIONS §5): 409 invalid_transition. */
export class InvalidTransition extends Data.TaggedError("InvalidTransition")<{
  readonly reference: string
  readonly from: TaskState
  readonly to: TaskState
  readonly actor: Actor
  /** Why, when it is not simply the table (e.g. the revision limit). */
  readonly detail?: string
}> {}

/** A result whose fields fail the task's result_schema; nothing was changed: 422 result_invalid. */
export class ResultRejected extends Data.TaggedError("ResultRejected")<{
  readonly reference: string
  readonly failures: ReadonlyArray<FieldFailure>
}> {}

/** Missing or invalid credentials: 401 unauthorized. */
export class Unauthenticated extends Data.TaggedError("Unauthenticated")<{ readonly reason: string }> {}

/** Valid credentials of the wrong party: 403 forbidden. */
export class NotPermitted extends Data.TaggedError("NotPermitted")<{ readonly reason: string }> {}

// ---------------------------------------------------------------------------------------------------
// Evidence files (services/artifacts.ts). Each message is a sentence a participant can act on.
// ---------------------------------------------------------------------------------------------------

/** Why an upload was refused; nothing of it was kept. */
export type ArtifactRejectedReason = "too_large" | "empty" | "invalid_name" | "too_many_staged"

/** An upload refused: too large, empty, without a usable name, or one too many waiting to be submitted. */
export class ArtifactRejected extends Data.TaggedError("ArtifactRejected")<{
  readonly reason: ArtifactRejectedReason
  /** The limit broken: bytes (too_large) or files (too_many_staged). */
  readonly limit?: number
}> {
  override get message() {
    return artifactRejectedMessages[this.reason](this.limit ?? 0)
  }
}

const artifactRejectedMessages: Record<ArtifactRejectedReason, (limit: number) => string> = {
  too_large: (limit) => `The file is larger than ${formatBytes(limit)}, the most one file may have.`,
  empty: () => "The file is empty.",
  invalid_name: () => "The file needs a name: a file name such as photo.jpg, without a path.",
  too_many_staged: (limit) =>
    `${limit} uploaded files are already waiting to be submitted with a result; submit or remove some first.`
}

/** No file with this id on this task that the caller may read (it may exist for someone else). */
export class ArtifactNotFound extends Data.TaggedError("ArtifactNotFound")<{
  readonly reference: string
  readonly id: string
}> {
  override get message() {
    return `No file ${JSON.stringify(this.id.slice(0, 80))} on this task is yours to read.`
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
export class ArtifactsUnusable extends Data.TaggedError("ArtifactsUnusable")<{
  readonly reference: string
  readonly problems: ReadonlyArray<ArtifactProblem>
}> {
  override get message() {
    return this.problems.map((p) => `${p.field}: ${p.message}`).join("; ")
  }
}

/** Files may be uploaded to a task only while its holder works on it (accepted or in_flight). */
export class UploadNotAllowed extends Data.TaggedError("UploadNotAllowed")<{
  readonly reference: string
  readonly state: TaskState
}> {
  override get message() {
    return `The task is ${this.state}: files can be uploaded only while it is accepted or in_flight.`
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
export class InvalidEmail extends Data.TaggedError("InvalidEmail")<{
  readonly email: string
  /** What is wrong, as a sentence. */
  readonly problem: string
}> {
  override get message() {
    return `${JSON.stringify(this.email)} cannot be a login's address. ${this.problem}`
  }
}

/** Another participant's login already has this address (case aside). */
export class EmailTaken extends Data.TaggedError("EmailTaken")<{
  readonly email: string
  /** The participant whose login has it. */
  readonly participantSlug: string
}> {
  override get message() {
    return `${this.email} is already the login of participant ${this.participantSlug}`
  }
}

/** The participant's login has a password already: an invitation cannot replace it, a reset can. */
export class LoginAlreadyActive extends Data.TaggedError("LoginAlreadyActive")<{ readonly participantSlug: string }> {
  override get message() {
    return `participant ${this.participantSlug} has already chosen a password; send a reset link instead`
  }
}

/** The participant has no login (they were never invited). */
export class LoginNotFound extends Data.TaggedError("LoginNotFound")<{ readonly participantSlug: string }> {
  override get message() {
    return `participant ${this.participantSlug} has no login yet; invite them first`
  }
}

/** Why a one-time link cannot be used: no such link (or one replaced by a newer), used, expired. */
export type LinkUnusableReason = "unknown" | "used" | "expired"

/** A one-time link that cannot be used (reading it, or choosing a password with it). */
export class LinkNotUsable extends Data.TaggedError("LinkNotUsable")<{ readonly reason: LinkUnusableReason }> {
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
export class PasswordRejected extends Data.TaggedError("PasswordRejected")<{
  /** What is wrong, as a sentence. */
  readonly problem: string
}> {
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
export class SignInRefused extends Data.TaggedError("SignInRefused")<{
  readonly reason: "wrong_credentials" | "throttled"
  /** Present when throttled: whole seconds until a sign-in is counted again (at least 1). */
  readonly retryAfterSeconds?: number
}> {
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
export class ProfileNotFound extends Data.TaggedError("ProfileNotFound")<{ readonly slug: string }> {
  override get message() {
    return `no participant or sign-up awaiting approval has the slug ${this.slug}`
  }
}

/** A sign-up to approve whose participant is listed already (approved before, or imported under that slug). */
export class AlreadyListed extends Data.TaggedError("AlreadyListed")<{ readonly slug: string }> {
  override get message() {
    return `participant ${this.slug} is already listed in the directory`
  }
}

/** Too many sign-ups from one client address lately; nothing was made. */
export class SignUpThrottled extends Data.TaggedError("SignUpThrottled")<{
  /** Whole seconds until a sign-up from that address is counted again (at least 1). */
  readonly retryAfterSeconds: number
}> {
  override get message() {
    return `Too many accounts were created from here lately. Try again in ${waitText(this.retryAfterSeconds)}.`
  }
}
