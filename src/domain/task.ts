/**
 * A task: a submitted draft, its lifecycle state and, once a human delivers it, its structured result.
 */
import * as Schema from "effect/Schema"
import { linkProblem } from "./evidence.ts"
import { actors, outcomeReasons, TaskState } from "./lifecycle.ts"
import { ResultSchema } from "./result_schema.ts"
import { ExecutionMode } from "./task_draft/execution_mode.ts"

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

const artifactDescription = Schema.optionalKey(
  Schema.String.check(
    Schema.isMaxCodePoints(moveLimits.artifactDescription, {
      message: `description must be at most ${moveLimits.artifactDescription} characters`
    })
  )
)

/**
 * A link, a text, or a file named only (its name, no bytes): one shape, whether a participant
 * sends it or a task shows it.
 */
export const Artifact = Schema.Struct({
  kind: Schema.Literals(["url", "text", "file"]).annotate({ message: "kind must be one of url, text, file" }),
  value: filledText(moveLimits.text, "value")
    .annotate({
      description: "The URL (an absolute http or https URL, for kind url), the text or the file's name."
    })
    .pipe(
      Schema.annotateKey({
        messageMissingKey: "value is required: the URL, the text or the file's name (for an uploaded file, send its id)"
      })
    ),
  description: artifactDescription
}).annotate({ identifier: "Artifact" })
export type Artifact = typeof Artifact.Type

/**
 * An uploaded file named in a result by the id its upload returned (POST
 * /tasks/{reference}/artifacts): the service fills in what it measured of the file.
 */
export const FileReference = Schema.Struct({
  kind: Schema.Literal("file"),
  id: Schema.String.check(
    Schema.isPattern(/\S/u, { message: "id must not be blank" }),
    Schema.isMaxLength(200, { message: "id must be at most 200 characters" })
  )
    .annotate({ description: "The id of a file this participant uploaded to this task." })
    .pipe(Schema.annotateKey({ messageMissingKey: "id is required for an uploaded file: the id its upload returned" })),
  description: artifactDescription
}).annotate({ identifier: "FileReference" })
export type FileReference = typeof FileReference.Type

/** Whether a submitted artifact names an uploaded file (rather than carrying its value). */
export const isFileReference = (artifact: FileReference | Artifact): artifact is FileReference => "id" in artifact

/**
 * What a participant sends as one artifact of a result: an uploaded file by its id, or an
 * Artifact — whose value, for a link (`kind: "url"`), must be one (`linkProblem`). Recorded
 * results are read as they were stored.
 */
export const SubmittedArtifact = Schema.Union([FileReference, Artifact])
  .check(
    Schema.makeFilter((artifact) => {
      if (isFileReference(artifact) || artifact.kind !== "url") return undefined
      const problem = linkProblem(artifact.value)
      return problem === undefined ? undefined : { path: ["value"], issue: problem }
    })
  )
  .annotate({ identifier: "SubmittedArtifact" })
export type SubmittedArtifact = typeof SubmittedArtifact.Type

/** What the service measured of an uploaded file, as a result carries it. */
const fileFacts = {
  id: Schema.String.annotate({ description: "The file's id: opaque." }),
  name: Schema.String.annotate({
    description: "The file's name as the participant gave it, made safe (no path or control characters)."
  }),
  content_type: Schema.String.annotate({
    description:
      "The media type read from the file's bytes (not the uploader's claim); application/octet-stream when unknown."
  }),
  size: Schema.Int.annotate({ description: "Bytes." }),
  sha256: Schema.String.annotate({ description: "SHA-256 of the bytes, hex." })
}

/** An uploaded file of a result as a task's row records it: the address it is read at is not recorded. */
export const RecordedFileArtifact = Schema.Struct({
  kind: Schema.Literal("file"),
  value: Schema.String,
  ...fileFacts,
  description: artifactDescription
})
export type RecordedFileArtifact = typeof RecordedFileArtifact.Type

/** Whether a recorded artifact is an uploaded file (rather than a link, a text or a file named only). */
export const isRecordedFile = (artifact: RecordedResult["artifacts"][number]): artifact is RecordedFileArtifact =>
  "id" in artifact

/** An uploaded file of a result, as the task shows it: with the address to download it from. */
export const FileArtifact = Schema.Struct({
  kind: Schema.Literal("file"),
  value: Schema.String.annotate({ description: "The file's name (as name)." }),
  ...fileFacts,
  url: Schema.String.annotate({
    format: "uri",
    description:
      "Where the file is downloaded: GET with Authorization: Bearer <task_token> (the agent) or the uploader's access token."
  }),
  description: artifactDescription
}).annotate({ identifier: "FileArtifact", description: "An uploaded file of the result." })
export type FileArtifact = typeof FileArtifact.Type

/** The result as recorded in the task's row. */
export const RecordedResult = Schema.Struct({
  summary: Schema.String,
  fields: Schema.Record(Schema.String, Schema.Unknown),
  artifacts: Schema.Array(Schema.Union([RecordedFileArtifact, Artifact])),
  submitted_at: DateTimeString
})
export type RecordedResult = typeof RecordedResult.Type

export const TaskResult = Schema.Struct({
  summary: Schema.String,
  fields: Schema.Record(Schema.String, Schema.Unknown),
  artifacts: Schema.Array(Schema.Union([FileArtifact, Artifact])),
  submitted_at: DateTimeString
}).annotate({ identifier: "TaskResult", description: "The structured human result." })
export type TaskResult = typeof TaskResult.Type

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
  }),
  sandbox: Schema.optionalKey(
    Schema.Literal(true).annotate({
      description: "Present (true) on every task of a sandbox (SANDBOX=on): simulated participants, a test clock."
    })
  )
}).annotate({ identifier: "Task", description: "A task and its current state." })
export type Task = typeof Task.Type

/** The creation response (and its idempotent replays): the task plus the agent's task token. */
export const CreatedTask = Schema.Struct({
  ...Task.fields,
  task_token: Schema.String.annotate({
    description:
      "Bearer credential for this task's agent-side actions (cancel, review). Returned only on creation and its idempotent replays; keep it secret."
  }),
  webhook_secret: Schema.optionalKey(
    Schema.String.annotate({
      description:
        "Present when the draft gave a webhook_url: the secret (whsec_ and base64, as Standard Webhooks writes one) that signs the task's events. Verify each event's webhook-signature with it, e.g. with a Standard Webhooks library. Returned only on creation and its idempotent replays; keep it secret."
    })
  )
}).annotate({ identifier: "CreatedTask", description: "The task just recorded, with its task token." })
export type CreatedTask = typeof CreatedTask.Type
