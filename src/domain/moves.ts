/**
 * What a party sends with a move on a task, as decoded values: the agent's cancel and review, the
 * participant's decline and result. Declared once here: the HTTP edge decodes request bodies by
 * these schemas (published as they are in the OpenAPI document) and the services take what they
 * decode to, so no service re-validates a member.
 */
import * as Schema from "effect/Schema"
import {
  type Artifact,
  filledText,
  isFileReference,
  moveLimits,
  type RecordedFileArtifact,
  type RecordedResult,
  SubmittedArtifact
} from "./task.ts"

/** A reason kept in the task's history: at most `moveLimits.text` characters. */
const reasonText = (description: string) =>
  Schema.String.annotate({ message: "reason must be a string" })
    .check(Schema.isMaxCodePoints(moveLimits.text, { message: `reason must be at most ${moveLimits.text} characters` }))
    .annotate({ description })

/** An optional reason: absent, null or blank all mean none. */
export const optionalReason = (description: string) =>
  Schema.optionalKey(
    Schema.NullOr(reasonText(description)).annotate({ message: "reason must be a string, or null for none" })
  )

/** The reason as the history keeps it: trimmed, and none when blank. */
export const noteOf = (reason: string | null | undefined): string | undefined => {
  const trimmed = reason?.trim()
  return trimmed === "" ? undefined : trimmed
}

const revisionPrefix = "revision requested: "

/** The history's note of a revision the agent asked for. */
export const revisionNote = (reason: string): string => `${revisionPrefix}${reason}`

/** The agent's own words in a revision's note (what a participant is shown). */
export const revisionReasonOf = (note: string): string =>
  note.startsWith(revisionPrefix) ? note.slice(revisionPrefix.length) : note

const decisionRequired = "decision is required: one of accept, revise, reject"

/** accept may say why; revise and reject must (a reason with something in it). */
export const ReviewDecision = Schema.Union([
  Schema.Struct({
    decision: Schema.Literal("accept").pipe(Schema.annotateKey({ messageMissingKey: decisionRequired })),
    reason: optionalReason("Optional: kept in the task's history.")
  }),
  Schema.Struct({
    decision: Schema.Literals(["revise", "reject"])
      .annotate({ message: "decision must be one of accept, revise, reject" })
      .pipe(Schema.annotateKey({ messageMissingKey: decisionRequired })),
    reason: reasonText("What to change (revise), or why the result fails the acceptance test (reject).")
      .check(
        Schema.isPattern(/\S/u, {
          message: "reason is required to revise or reject: say what must change, or why the result fails"
        })
      )
      .pipe(
        Schema.annotateKey({
          messageMissingKey: "reason is required to revise or reject: say what must change, or why the result fails"
        })
      )
  })
])
export type ReviewDecision = typeof ReviewDecision.Type

/**
 * The structured fields of a result: any JSON object. Its size has no limit of its own (JSON Schema
 * could not publish one): the request body's 64 KiB and 64 levels (`maxJsonDepth`) bound it.
 */
const ResultFields = Schema.Record(Schema.String, Schema.Unknown).annotate({
  description: "The structured fields the brief asked for."
})

/** A participant's result, as submitted (the service adds when). */
export const ResultSubmission = Schema.Struct({
  summary: filledText(moveLimits.text, "summary")
    .annotate({
      description: `What was done and found, in a few sentences (≤ ${moveLimits.text} characters).`
    })
    .pipe(Schema.annotateKey({ messageMissingKey: "summary is required: what was done and found" })),
  fields: Schema.optionalKey(ResultFields),
  artifacts: Schema.optionalKey(
    Schema.Array(SubmittedArtifact).check(
      Schema.isMaxLength(moveLimits.artifacts, {
        message: `artifacts must be at most ${moveLimits.artifacts} {kind, value, description?} or {kind: "file", id, description?}`
      })
    )
  )
})
export type ResultSubmission = typeof ResultSubmission.Type

/** What the service measured of an uploaded file a result names. */
export type MeasuredFile = Pick<RecordedFileArtifact, "id" | "name" | "content_type" | "size" | "sha256">

/**
 * A result as the task records it, submitted at `submittedAt`: its summary and its link and text
 * artifacts trimmed, its fields (`{}` when none), and each uploaded file it names by id replaced
 * by what was measured of it (`files`: every file it names, as the service looked them up).
 */
export const recordedResult = (
  submission: ResultSubmission,
  files: ReadonlyArray<MeasuredFile>,
  submittedAt: string
): RecordedResult => {
  const byId = new Map(files.map((file) => [file.id, file]))
  return {
    summary: submission.summary.trim(),
    fields: submission.fields ?? {},
    artifacts: (submission.artifacts ?? []).map((artifact): RecordedFileArtifact | Artifact => {
      if (!isFileReference(artifact)) return { ...artifact, value: artifact.value.trim() }
      const file = byId.get(artifact.id)!
      return {
        kind: "file",
        value: file.name,
        id: file.id,
        name: file.name,
        content_type: file.content_type,
        size: file.size,
        sha256: file.sha256,
        ...(artifact.description === undefined ? {} : { description: artifact.description })
      }
    }),
    submitted_at: submittedAt
  }
}
