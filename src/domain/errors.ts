/**
 * Failures the services report in domain terms; the HTTP adapter maps each to one envelope error.
 */
import * as Data from "effect/Data"
import type { Actor, TaskState } from "./lifecycle.ts"
import type { DraftValidation } from "./task_draft.ts"

export class TaskNotFound extends Data.TaggedError("TaskNotFound")<{ readonly reference: string }> {}

export class ParticipantNotFound extends Data.TaggedError("ParticipantNotFound")<{ readonly slug: string }> {}

/** The draft failed the shared rule set; nothing was stored. */
export class DraftRejected extends Data.TaggedError("DraftRejected")<{ readonly validation: DraftValidation }> {}

/** The header and the body carry different idempotency keys. */
export class IdempotencyKeyMismatch extends Data.TaggedError("IdempotencyKeyMismatch")<{
  readonly header: string
  readonly body: string
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

/** Missing or invalid credentials: 401 unauthorized. */
export class Unauthenticated extends Data.TaggedError("Unauthenticated")<{ readonly reason: string }> {}

/** Valid credentials of the wrong party: 403 forbidden. */
export class NotPermitted extends Data.TaggedError("NotPermitted")<{ readonly reason: string }> {}
