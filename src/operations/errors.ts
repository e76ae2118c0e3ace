/**
 * The refusals the operations make themselves, beside the domain's (domain/errors.ts): a request
 * the rules cannot take (a cursor this service did not issue, a sandbox advance that is no
 * duration), a submission storage could not record, and a participant's sign-in refused. Like the
 * domain's, each is a Schema tagged error carrying its status as the `httpApiStatus` annotation
 * and its envelope code, message and hint; the edge maps it (api/envelope.ts, `toEnvelope`).
 */
import * as Schema from "effect/Schema"
import { retryAfterSeconds } from "../domain/errors.ts"
import { TaskIssue } from "../domain/task_draft/issues.ts"

/** A request member the operation cannot use, said in its own words: 400 invalid_request. */
export class RequestInvalid extends Schema.TaggedError<RequestInvalid>()(
  "RequestInvalid",
  {
    message: Schema.String,
    hint: Schema.String,
    details: Schema.optionalKey(Schema.Array(TaskIssue))
  },
  { httpApiStatus: 400 }
) {
  get code() {
    return "invalid_request" as const
  }
}

/** A submission storage could not record: 503 task_not_created, whose retry with the same key is safe. */
export class TaskNotCreated extends Schema.TaggedError<TaskNotCreated>()(
  "TaskNotCreated",
  { cause: Schema.Unknown },
  { httpApiStatus: 503 }
) {
  get code() {
    return "task_not_created" as const
  }
  override get message() {
    return "The task could not be recorded: storage is unavailable."
  }
  get hint() {
    return `Retry in ${retryAfterSeconds} seconds with the same idempotency key; the retry cannot create a second task.`
  }
}

/** No access token came with a participant's request: 401, naming where to sign in (`metadataPath`). */
export class SignInRequired extends Schema.TaggedError<SignInRequired>()(
  "SignInRequired",
  { metadataPath: Schema.String },
  { httpApiStatus: 401 }
) {
  get code() {
    return "unauthorized" as const
  }
  override get message() {
    return "This endpoint needs a participant's OAuth access token."
  }
  get hint() {
    return `Sign in with OAuth 2.1 (see ${this.metadataPath}) and send Authorization: Bearer <access token>.`
  }
}

/** A sign-up not approved yet: signed in, but no participant of the marketplace until then (403). */
export class AwaitingApproval extends Schema.TaggedError<AwaitingApproval>()(
  "AwaitingApproval",
  { slug: Schema.String },
  { httpApiStatus: 403 }
) {
  get code() {
    return "forbidden" as const
  }
  override get message() {
    return `Your profile (${this.slug}) awaits the marketplace operator's approval: until then you receive no offers and cannot act on tasks.`
  }
  get hint() {
    return "Nothing to change on your side: once the operator approves your profile, this same sign-in works (no new sign-in needed)."
  }
}

/** The account is linked to a participant that is no longer in the directory (403). */
export class LinkedParticipantMissing extends Schema.TaggedError<LinkedParticipantMissing>()(
  "LinkedParticipantMissing",
  { slug: Schema.String },
  { httpApiStatus: 403 }
) {
  get code() {
    return "forbidden" as const
  }
  override get message() {
    return "Your account is linked to a participant that no longer exists."
  }
  get hint() {
    return "Ask the operator to link your account again."
  }
}
