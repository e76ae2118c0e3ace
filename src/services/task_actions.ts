/**
 * The moves the parties make on a task, transport-free: the agent (holding the task token)
 * cancels and reviews; the participant (an access token linked to them) accepts, declines,
 * starts and submits; the operator cancels. Each is one lifecycle transition with its checks.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import {
  type ArtifactsUnusable,
  InvalidTransition,
  NotPermitted,
  ResultRejected,
  type StorageUnavailable,
  TaskNotFound,
  Unauthenticated
} from "../domain/errors.ts"
import { maxRevisions } from "../domain/lifecycle.ts"
import { noteOf, type ResultSubmission, type ReviewDecision, revisionNote } from "../domain/moves.ts"
import { resultFieldFailures } from "../domain/result_schema.ts"
import {
  type Artifact,
  type FileReference,
  isFileReference,
  type RecordedFileArtifact,
  type RecordedResult
} from "../domain/task.ts"
import { tracedFn } from "../tracing.ts"
import { Artifacts, type StoredFile } from "./artifacts.ts"
import { Lifecycle } from "./lifecycle.ts"
import { SandboxClock } from "./sandbox_clock.ts"
import { type StoredTask, TaskStore } from "./task_store.ts"
import { TaskTokens } from "./task_tokens.ts"

type Failure = TaskNotFound | InvalidTransition | StorageUnavailable

/** A link or text artifact as recorded: its value trimmed. */
const trimmed = (artifact: Artifact): Artifact => ({ ...artifact, value: artifact.value.trim() })

/** An uploaded file named by a result, as the result records it: what the service measured of it. */
const recorded = (reference: FileReference, files: ReadonlyMap<string, StoredFile>): RecordedFileArtifact => {
  const file = files.get(reference.id)!
  return {
    kind: "file",
    value: file.name,
    id: file.id,
    name: file.name,
    content_type: file.content_type,
    size: file.size,
    sha256: file.sha256,
    ...(reference.description === undefined ? {} : { description: reference.description })
  }
}

export class TaskActions extends Context.Service<
  TaskActions,
  {
    /**
     * The checks each move makes first, on their own: that the token is this task's (agent), or
     * that the task is offered to or held by the participant. An adapter that must refuse the
     * wrong party before judging what they sent (the HTTP handlers) runs one, then decodes, then
     * makes the move, which checks again.
     */
    checkAgent(reference: string, taskToken: string): Effect.Effect<void, Failure | Unauthenticated>
    checkHolder(reference: string, participant: string): Effect.Effect<void, Failure | NotPermitted>
    cancel(
      reference: string,
      taskToken: string,
      reason: string | undefined
    ): Effect.Effect<StoredTask, Failure | Unauthenticated>
    review(
      reference: string,
      taskToken: string,
      decision: ReviewDecision
    ): Effect.Effect<StoredTask, Failure | Unauthenticated>
    accept(reference: string, participant: string): Effect.Effect<StoredTask, Failure | NotPermitted>
    decline(
      reference: string,
      participant: string,
      reason: string | undefined
    ): Effect.Effect<StoredTask, Failure | NotPermitted>
    start(reference: string, participant: string): Effect.Effect<StoredTask, Failure | NotPermitted>
    /**
     * Artifacts naming uploaded files by id must name this participant's files of this task (at
     * most ARTIFACT_MAX_FILES), which are attached with the move, in its transaction.
     */
    submit(
      reference: string,
      participant: string,
      result: ResultSubmission
    ): Effect.Effect<StoredTask, Failure | NotPermitted | ResultRejected | ArtifactsUnusable>
    operatorCancel(reference: string, note: string): Effect.Effect<StoredTask, Failure>
  }
>()("task-marketplace/services/TaskActions") {
  static readonly layer = Layer.effect(
    TaskActions,
    Effect.gen(function* () {
      const lifecycle = yield* Lifecycle
      const store = yield* TaskStore
      const tokens = yield* TaskTokens
      const artifacts = yield* Artifacts
      const time = yield* SandboxClock

      /** The task token authorises the agent's moves on its own task only. */
      // Generators made once, not per call (docs/performance.md, "No generator function made per request").
      const asAgent = Effect.fnUntraced(function* (reference: string, taskToken: string) {
        const task = yield* store.findByReference(reference)
        if (task === undefined) return yield* new TaskNotFound({ reference })
        if (!tokens.matches(taskToken, task.tokenHash)) {
          return yield* new Unauthenticated({ reason: "the task token does not belong to this task" })
        }
        return task
      })

      const holder = (participant: string) => (task: StoredTask) =>
        task.participantSlug === participant
          ? Effect.void
          : Effect.fail(new NotPermitted({ reason: "this task is not offered to or held by you" }))

      /**
       * A participant may act only on a task offered to or held by them: checked first, before the
       * state (and, over HTTP, before the body: `checkHolder`), so another participant learns
       * nothing (403). The transition checks it again against the row it changes, so a concurrent
       * move cannot slip past.
       */
      const asHolder = Effect.fnUntraced(function* (reference: string, participant: string) {
        const task = yield* store.findByReference(reference)
        if (task === undefined) return yield* new TaskNotFound({ reference })
        yield* holder(participant)(task)
        return task
      })

      const cancel = tracedFn("TaskActions.cancel")(function* (
        reference: string,
        taskToken: string,
        reason: string | undefined
      ) {
        yield* asAgent(reference, taskToken)
        return yield* lifecycle.transition({
          reference,
          to: "cancelled",
          actor: "agent",
          reason: "cancelled_by_agent",
          note: noteOf(reason)
        })
      })

      const review = tracedFn("TaskActions.review")(function* (
        reference: string,
        taskToken: string,
        verdict: ReviewDecision
      ) {
        yield* asAgent(reference, taskToken)
        if (verdict.decision === "accept") {
          return yield* lifecycle.transition({
            reference,
            to: "settled",
            actor: "agent",
            reason: "accepted",
            note: noteOf(verdict.reason)
          })
        }
        // The schema has required a reason with something in it.
        const reason = verdict.reason.trim()
        if (verdict.decision === "reject") {
          return yield* lifecycle.transition({
            reference,
            to: "declined",
            actor: "agent",
            reason: "result_rejected",
            note: reason
          })
        }
        return yield* lifecycle.transition({
          reference,
          to: "in_flight",
          actor: "agent",
          note: revisionNote(reason),
          guard: (task) =>
            task.revisions < maxRevisions
              ? Effect.void
              : Effect.fail(
                  new InvalidTransition({
                    reference,
                    from: task.state,
                    to: "in_flight",
                    actor: "agent",
                    detail: `the ${maxRevisions} revisions allowed have been used: accept or reject the result`
                  })
                ),
          change: (task) => ({ revisions: task.revisions + 1 })
        })
      })

      const accept = tracedFn("TaskActions.accept")(function* (reference: string, participant: string) {
        yield* asHolder(reference, participant)
        return yield* lifecycle.transition({
          reference,
          to: "accepted",
          actor: "participant",
          guard: holder(participant)
        })
      })

      const decline = tracedFn("TaskActions.decline")(function* (
        reference: string,
        participant: string,
        note: string | undefined
      ) {
        const task = yield* asHolder(reference, participant)
        const reason = noteOf(note)
        // A task that named this participant is declined; otherwise it goes back to matching,
        // never to be offered to them again.
        return task.requestedParticipant !== null
          ? yield* lifecycle.transition({
              reference,
              to: "declined",
              actor: "participant",
              reason: "participant_declined",
              note: reason,
              guard: holder(participant)
            })
          : yield* lifecycle.transition({
              reference,
              to: "matching",
              actor: "participant",
              note: reason === undefined ? "declined" : `declined: ${reason}`,
              guard: holder(participant),
              change: (current) => ({ participantSlug: null, passedOver: [...current.passedOver, participant] })
            })
      })

      const start = tracedFn("TaskActions.start")(function* (reference: string, participant: string) {
        yield* asHolder(reference, participant)
        return yield* lifecycle.transition({
          reference,
          to: "in_flight",
          actor: "participant",
          guard: holder(participant)
        })
      })

      const submit = tracedFn("TaskActions.submit")(function* (
        reference: string,
        participant: string,
        submission: ResultSubmission
      ) {
        yield* asHolder(reference, participant)
        const submitted = submission.artifacts ?? []
        const fileIds = submitted.flatMap((artifact, i) =>
          isFileReference(artifact) ? [{ id: artifact.id, field: `artifacts.${i}.id` }] : []
        )
        const fields = submission.fields ?? {}
        const submittedAt = new Date(yield* time.now).toISOString()
        // Judged in the guard, after the table: a result out of turn is 409 whatever it holds.
        const fitsSchema = (task: StoredTask) => {
          const schema = task.brief.result_schema
          if (schema === undefined) return Effect.void
          const failures = resultFieldFailures(schema, fields)
          return failures.length === 0 ? Effect.void : Effect.fail(new ResultRejected({ reference, failures }))
        }
        // The uploaded files the result names, as the guard found them (what the result records).
        let files = new Map<string, StoredFile>()
        const filesFound =
          fileIds.length === 0
            ? Effect.void
            : Effect.map(artifacts.resolve(reference, participant, fileIds), (found) => {
                files = new Map(found.map((file) => [file.id, file]))
              })
        const result = (): RecordedResult => ({
          summary: submission.summary.trim(),
          fields,
          artifacts: submitted.map((artifact) =>
            isFileReference(artifact) ? recorded(artifact, files) : trimmed(artifact)
          ),
          submitted_at: submittedAt
        })
        return yield* lifecycle.transition({
          reference,
          to: "submitted",
          actor: "participant",
          guard: (task) => Effect.andThen(holder(participant)(task), Effect.andThen(fitsSchema(task), filesFound)),
          change: () => ({ result: result() }),
          // The files are attached in the submission's own transaction: a submission that fails attaches none.
          alongside:
            fileIds.length === 0
              ? undefined
              : () =>
                  artifacts.attach(
                    reference,
                    participant,
                    fileIds.map(({ id }) => id)
                  )
        })
      })

      const operatorCancel = tracedFn("TaskActions.operatorCancel")(function* (reference: string, note: string) {
        return yield* lifecycle.transition({
          reference,
          to: "cancelled",
          actor: "operator",
          reason: "cancelled_by_operator",
          note
        })
      })

      return TaskActions.of({
        checkAgent: (reference, taskToken) => Effect.asVoid(asAgent(reference, taskToken)),
        checkHolder: (reference, participant) => Effect.asVoid(asHolder(reference, participant)),
        cancel,
        review,
        accept,
        decline,
        start,
        submit,
        operatorCancel
      })
    })
  )

  /** The same with the services of ours it needs (the database and `AppConfig` still to give). */
  static readonly layerWithDependencies = TaskActions.layer.pipe(
    Layer.provide([
      Artifacts.layerWithDependencies,
      Lifecycle.layerWithDependencies,
      SandboxClock.layerWithDependencies,
      TaskStore.layer,
      TaskTokens.layer
    ])
  )
}
