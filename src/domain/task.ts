/**
 * A task: a submitted draft, its lifecycle state and, once a human delivers it, its structured result.
 */
import * as Schema from "effect/Schema"
import { actors, outcomeReasons, TaskState } from "./lifecycle.ts"
import { ResultSchema } from "./result_schema.ts"
import { ExecutionMode } from "./task_draft.ts"

const DateTimeString = Schema.String.annotate({ format: "date-time", description: "ISO 8601 UTC." })
const OptionalText = Schema.optionalKey(Schema.String)

/** The normalised draft as recorded on the task. */
export const Brief = Schema.Struct({
  action: Schema.String,
  location: Schema.NullOr(Schema.String),
  timing: Schema.NullOr(Schema.String),
  deadline: Schema.NullOr(DateTimeString),
  expected_result: Schema.String,
  acceptance_test: Schema.String,
  constraints: Schema.NullOr(Schema.String),
  budget: Schema.NullOr(Schema.String),
  contact_email: Schema.NullOr(Schema.String),
  // Absent, not null, when the draft had none: tasks recorded before it existed read as they did.
  result_schema: Schema.optionalKey(ResultSchema)
}).annotate({ identifier: "Brief", description: "The normalised draft the task was created from." })
export type Brief = typeof Brief.Type

/**
 * The limits of what a party writes on a task (a reason, a result), counted in characters (code
 * points) as sent: `text` for every free text (a reason, a summary, an artifact's value).
 */
export const moveLimits = { text: 4000, artifacts: 50, artifactDescription: 500 } as const

/** Text that says something: not blank, at most `max` characters. */
export const filledText = (max: number, what: string) =>
  Schema.String.check(
    Schema.isPattern(/\S/u, { message: `${what} must not be blank` }),
    Schema.isMaxCodePoints(max, { message: `${what} must be at most ${max} characters` })
  )

/** One shape for an artifact, whether a participant sends it or a task shows it. */
export const Artifact = Schema.Struct({
  kind: Schema.Literals(["url", "text", "file"]).annotate({ message: "kind must be one of url, text, file" }),
  value: filledText(moveLimits.text, "value").annotate({ description: "The URL, the text or the file's name." }),
  description: Schema.optionalKey(
    Schema.String.check(
      Schema.isMaxCodePoints(moveLimits.artifactDescription, {
        message: `description must be at most ${moveLimits.artifactDescription} characters`
      })
    )
  )
}).annotate({ identifier: "Artifact" })
export type Artifact = typeof Artifact.Type

export const TaskResult = Schema.Struct({
  summary: Schema.String,
  fields: Schema.Record(Schema.String, Schema.Unknown),
  artifacts: Schema.Array(Artifact),
  submitted_at: DateTimeString
}).annotate({ identifier: "TaskResult", description: "The structured human result." })

export const Outcome = Schema.Struct({
  state: TaskState,
  reason: Schema.Literals(outcomeReasons),
  message: Schema.String,
  decided_at: DateTimeString
}).annotate({ identifier: "Outcome", description: "How a task ended; set on terminal states." })

export const HistoryEntry = Schema.Struct({
  from: Schema.NullOr(TaskState),
  to: TaskState,
  actor: Schema.Literals(actors),
  reason: OptionalText,
  at: DateTimeString
}).annotate({ identifier: "HistoryEntry" })
export type HistoryEntry = typeof HistoryEntry.Type

export const Task = Schema.Struct({
  object: Schema.Literal("task"),
  reference: Schema.String.annotate({ description: "Identifier of the task; opaque; used in the task path." }),
  state: TaskState,
  execution_mode: ExecutionMode,
  participant_slug: Schema.NullOr(Schema.String),
  agent: Schema.String.annotate({
    description: "The acting agent (the draft's agent, else the request's User-Agent)."
  }),
  principal: Schema.NullOr(Schema.String).annotate({ description: "The responsible principal." }),
  brief: Brief,
  result: Schema.NullOr(TaskResult),
  outcome: Schema.NullOr(Outcome),
  history: Schema.Array(HistoryEntry),
  created_at: DateTimeString,
  updated_at: DateTimeString,
  url: Schema.String.annotate({ format: "uri", description: "Address of the task resource." }),
  next_step: Schema.String.annotate({
    description:
      "What happens next, in a sentence or two. For a task nobody could take as submitted (preflight's no_eligible_participant or participant_ineligible warning), why, and what to change."
  })
}).annotate({ identifier: "Task", description: "A task and its current state." })
export type Task = typeof Task.Type

/** The creation response (and its idempotent replays): the task plus the agent's task token. */
export const CreatedTask = Schema.Struct({
  ...Task.fields,
  task_token: Schema.String.annotate({
    description:
      "Bearer credential for this task's agent-side actions (cancel, review). Returned only on creation and its idempotent replays; keep it secret."
  })
}).annotate({ identifier: "CreatedTask", description: "The task just recorded, with its task token." })
export type CreatedTask = typeof CreatedTask.Type
