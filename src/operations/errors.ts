/**
 * The refusals the operations make themselves, beside the domain's (domain/errors.ts): a request
 * the rules cannot take (a cursor this service did not issue, a sandbox advance that is no
 * duration), a submission storage could not record, and a participant's sign-in refused. Like the
 * domain's, each is a Schema tagged error carrying its status as the `httpApiStatus` annotation
 * and its envelope code, message and hint (`RefusalError`, domain/errors.ts, but for
 * `RequestInvalid`, whose message and hint are its fields); the edge maps it (api/envelope.ts,
 * `toEnvelope`).
 */
import * as Schema from "effect/Schema"
import { RefusalError, retryAfterSeconds } from "../domain/errors.ts"
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
export class TaskNotCreated extends RefusalError<TaskNotCreated>()(
  "TaskNotCreated",
  { cause: Schema.Unknown },
  {
    status: 503,
    code: "task_not_created",
    message: () => "The task could not be recorded: storage is unavailable.",
    hint: () =>
      `Retry in ${retryAfterSeconds} seconds with the same idempotency key; the retry cannot create a second task.`
  }
) {}

/** No access token came with a participant's request: 401, naming where to sign in (`metadataPath`). */
export class SignInRequired extends RefusalError<SignInRequired>()(
  "SignInRequired",
  { metadataPath: Schema.String },
  {
    status: 401,
    code: "unauthorized",
    message: () => "This endpoint needs a participant's OAuth access token.",
    hint: (e) => `Sign in with OAuth 2.1 (see ${e.metadataPath}) and send Authorization: Bearer <access token>.`
  }
) {}

/** A sign-up not approved yet: signed in, but no participant of the marketplace until then (403). */
export class AwaitingApproval extends RefusalError<AwaitingApproval>()(
  "AwaitingApproval",
  { slug: Schema.String },
  {
    status: 403,
    code: "forbidden",
    message: (e) =>
      `Your profile (${e.slug}) awaits the marketplace operator's approval: until then you receive no offers and cannot act on tasks.`,
    hint: () =>
      "Nothing to change on your side: once the operator approves your profile, this same sign-in works (no new sign-in needed)."
  }
) {}

/** The account is linked to a participant that is no longer in the directory (403). */
export class LinkedParticipantMissing extends RefusalError<LinkedParticipantMissing>()(
  "LinkedParticipantMissing",
  { slug: Schema.String },
  {
    status: 403,
    code: "forbidden",
    message: () => "Your account is linked to a participant that no longer exists.",
    hint: () => "Ask the operator to link your account again."
  }
) {}
