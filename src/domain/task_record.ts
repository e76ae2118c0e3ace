/**
 * The task entity as the service keeps it (`StoredTask`): what a task's row holds, decoded. The
 * lifecycle's rules over it are in decider.ts; services/task_store.ts keeps its row codec and storage.
 */
import * as Schema from "effect/Schema"
import { Infeasibility } from "./feasibility.ts"
import { TaskState } from "./lifecycle.ts"
import { Brief, HistoryEntry, Outcome, RecordedResult } from "./task.ts"
import { ExecutionMode } from "./task_draft/execution_mode.ts"

/** A task as the service keeps it: the row of `tasks`, decoded. */
export const StoredTask = Schema.Struct({
  reference: Schema.String,
  state: TaskState,
  executionMode: ExecutionMode,
  participantSlug: Schema.NullOr(Schema.String),
  agent: Schema.String,
  principal: Schema.NullOr(Schema.String),
  brief: Brief,
  result: Schema.NullOr(RecordedResult),
  outcome: Schema.NullOr(Outcome),
  history: Schema.Array(HistoryEntry),
  version: Schema.Number,
  tokenHash: Schema.String,
  idempotencyKey: Schema.NullOr(Schema.String),
  draftFingerprint: Schema.String,
  createdAt: Schema.String,
  updatedAt: Schema.String,
  /** The participant the draft named (offered only to them), if any. */
  requestedParticipant: Schema.NullOr(Schema.String),
  /** Participants who declined or let an offer lapse: never offered this task again. */
  passedOver: Schema.Array(Schema.String),
  offerExpiresAt: Schema.NullOr(Schema.String),
  reviewDueAt: Schema.NullOr(Schema.String),
  deadlineAt: Schema.NullOr(Schema.String),
  /** Why nobody could take the task as submitted, when nobody could: what its reads explain. */
  infeasibility: Schema.NullOr(Infeasibility),
  revisions: Schema.Number,
  /** The earliest instant the service must look at this task again (dispatch or a timer). */
  nextTimerAt: Schema.NullOr(Schema.String),
  /** Where the task's events are sent (signed webhooks), if anywhere. */
  webhookUrl: Schema.NullOr(Schema.String)
})
export type StoredTask = typeof StoredTask.Type
