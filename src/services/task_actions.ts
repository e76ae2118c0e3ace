/**
 * The moves the parties make on a task, transport-free: the agent (holding the task token)
 * cancels and reviews; the participant (an access token linked to them) accepts, declines,
 * starts and submits; the operator cancels. Each resolves what needs I/O (the token, the task,
 * the result's files), then asks the lifecycle with a command: the rules are the decider's
 * (domain/decider.ts).
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { holderRefusal, submissionRefusal } from "../domain/decider.ts"
import type {
  ArtifactsUnusable,
  InvalidTransition,
  NotPermitted,
  ResultRejected,
  StorageUnavailable
} from "../domain/errors.ts"
import { TaskNotFound, Unauthenticated } from "../domain/errors.ts"
import { type ResultSubmission, type ReviewDecision, recordedResult } from "../domain/moves.ts"
import { isFileReference } from "../domain/task.ts"
import type { StoredTask } from "../domain/task_record.ts"
import { Artifacts } from "./artifacts.ts"
import { Lifecycle } from "./lifecycle.ts"
import { SandboxClock } from "./sandbox_clock.ts"
import { TaskStore } from "./task_store.ts"
import { TaskTokens } from "./task_tokens.ts"

type Failure = TaskNotFound | InvalidTransition | StorageUnavailable

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
      const asAgent = Effect.fn("TaskActions.checkAgent")(function* (reference: string, taskToken: string) {
        const task = yield* store.findByReference(reference)
        if (task === undefined) return yield* new TaskNotFound({ reference })
        if (!tokens.matches(taskToken, task.tokenHash)) {
          return yield* new Unauthenticated({ reason: "the task token does not belong to this task" })
        }
        return task
      })

      /**
       * A participant may act only on a task offered to or held by them: checked first, before the
       * state (and, over HTTP, before the body: `checkHolder`), so another participant learns
       * nothing (403). The decider checks it again against the row the move changes, so a
       * concurrent move cannot slip past.
       */
      const asHolder = Effect.fn("TaskActions.checkHolder")(function* (reference: string, participant: string) {
        const task = yield* store.findByReference(reference)
        if (task === undefined) return yield* new TaskNotFound({ reference })
        const notHolder = holderRefusal(task, participant)
        if (notHolder !== undefined) return yield* Effect.fail(notHolder)
        return task
      })

      const cancel = Effect.fn("TaskActions.cancel")(function* (
        reference: string,
        taskToken: string,
        reason: string | undefined
      ) {
        const read = yield* asAgent(reference, taskToken)
        return yield* lifecycle.transition({ reference, read, command: { _tag: "Cancel", actor: "agent", reason } })
      })

      const review = Effect.fn("TaskActions.review")(function* (
        reference: string,
        taskToken: string,
        decision: ReviewDecision
      ) {
        const read = yield* asAgent(reference, taskToken)
        return yield* lifecycle.transition({ reference, read, command: { _tag: "Review", decision } })
      })

      const accept = Effect.fn("TaskActions.accept")(function* (reference: string, participant: string) {
        const read = yield* asHolder(reference, participant)
        return yield* lifecycle.transition({ reference, read, command: { _tag: "Accept", participant } })
      })

      const decline = Effect.fn("TaskActions.decline")(function* (
        reference: string,
        participant: string,
        reason: string | undefined
      ) {
        const read = yield* asHolder(reference, participant)
        return yield* lifecycle.transition({ reference, read, command: { _tag: "Decline", participant, reason } })
      })

      const start = Effect.fn("TaskActions.start")(function* (reference: string, participant: string) {
        const read = yield* asHolder(reference, participant)
        return yield* lifecycle.transition({ reference, read, command: { _tag: "Start", participant } })
      })

      const submit = Effect.fn("TaskActions.submit")(function* (
        reference: string,
        participant: string,
        submission: ResultSubmission
      ) {
        const read = yield* asHolder(reference, participant)
        const submittedAt = new Date(yield* time.now).toISOString()
        // The table, the holder and the result schema judge the result before its files are
        // looked up: a result out of turn is 409 whatever it holds or names.
        const refused = submissionRefusal(read, participant, submission.fields ?? {})
        if (refused !== undefined) return yield* Effect.fail(refused)
        const fileIds = (submission.artifacts ?? []).flatMap((artifact, i) =>
          isFileReference(artifact) ? [{ id: artifact.id, field: `artifacts.${i}.id` }] : []
        )
        const files = fileIds.length === 0 ? [] : yield* artifacts.resolve(reference, participant, fileIds)
        return yield* lifecycle.transition({
          reference,
          read,
          command: { _tag: "Submit", participant, result: recordedResult(submission, files, submittedAt) },
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

      const operatorCancel = Effect.fn("TaskActions.operatorCancel")(function* (reference: string, note: string) {
        return yield* lifecycle.transition({ reference, command: { _tag: "Cancel", actor: "operator", reason: note } })
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
