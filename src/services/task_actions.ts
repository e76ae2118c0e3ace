/**
 * The moves the parties make on a task, transport-free: the agent (holding the task token)
 * cancels and reviews; the participant (an access token linked to them) accepts, declines,
 * starts and submits; the operator cancels. Each is one lifecycle transition with its checks.
 */
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import {
  InvalidInput,
  InvalidTransition,
  NotPermitted,
  type StorageUnavailable,
  TaskNotFound,
  Unauthenticated
} from "../domain/errors.ts"
import { maxRevisions } from "../domain/lifecycle.ts"
import { tracedFn } from "../tracing.ts"
import { Lifecycle } from "./lifecycle.ts"
import { type StoredTask, TaskStore } from "./task_store.ts"
import { TaskTokens } from "./task_tokens.ts"

export type ReviewDecision = "accept" | "revise" | "reject"

export interface ResultInput {
  readonly summary: unknown
  readonly fields?: unknown
  readonly artifacts?: unknown
}

type Failure = TaskNotFound | InvalidTransition | StorageUnavailable

const maxText = 4000
const maxArtifacts = 50

const textOrUndefined = (value: unknown, field: string) =>
  Effect.gen(function* () {
    if (value === undefined || value === null) return undefined
    if (typeof value !== "string") return yield* new InvalidInput({ field, message: `${field} must be a string.` })
    const trimmed = value.trim()
    if ([...trimmed].length > maxText) {
      return yield* new InvalidInput({ field, message: `${field} is longer than ${maxText} characters.` })
    }
    return trimmed === "" ? undefined : trimmed
  })

export class TaskActions extends Context.Service<
  TaskActions,
  {
    cancel(
      reference: string,
      taskToken: string,
      note: unknown
    ): Effect.Effect<StoredTask, Failure | Unauthenticated | InvalidInput>
    review(
      reference: string,
      taskToken: string,
      decision: unknown,
      reason: unknown
    ): Effect.Effect<StoredTask, Failure | Unauthenticated | InvalidInput>
    accept(reference: string, participant: string): Effect.Effect<StoredTask, Failure | NotPermitted>
    decline(
      reference: string,
      participant: string,
      note: unknown
    ): Effect.Effect<StoredTask, Failure | NotPermitted | InvalidInput>
    start(reference: string, participant: string): Effect.Effect<StoredTask, Failure | NotPermitted>
    submit(
      reference: string,
      participant: string,
      result: ResultInput
    ): Effect.Effect<StoredTask, Failure | NotPermitted | InvalidInput>
    operatorCancel(reference: string, note: string): Effect.Effect<StoredTask, Failure>
  }
>()("task-marketplace/services/TaskActions") {
  static readonly layer = Layer.effect(
    TaskActions,
    Effect.gen(function* () {
      const lifecycle = yield* Lifecycle
      const store = yield* TaskStore
      const tokens = yield* TaskTokens

      /** The task token authorises the agent's moves on its own task only. */
      // Generators made once, not per call (docs/decisions.md, "Performance").
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
       * state and the body, so another participant learns nothing (403). The transition checks it
       * again against the row it changes, so a concurrent move cannot slip past.
       */
      const asHolder = Effect.fnUntraced(function* (reference: string, participant: string) {
        const task = yield* store.findByReference(reference)
        if (task === undefined) return yield* new TaskNotFound({ reference })
        yield* holder(participant)(task)
        return task
      })

      const cancel = tracedFn("TaskActions.cancel")(function* (reference: string, taskToken: string, note: unknown) {
        yield* asAgent(reference, taskToken)
        const reason = yield* textOrUndefined(note, "reason")
        return yield* lifecycle.transition({
          reference,
          to: "cancelled",
          actor: "agent",
          reason: "cancelled_by_agent",
          note: reason
        })
      })

      const review = tracedFn("TaskActions.review")(function* (
        reference: string,
        taskToken: string,
        decision: unknown,
        reasonInput: unknown
      ) {
        yield* asAgent(reference, taskToken)
        if (decision !== "accept" && decision !== "revise" && decision !== "reject") {
          return yield* new InvalidInput({
            field: "decision",
            message: "decision must be one of accept, revise, reject."
          })
        }
        const reason = yield* textOrUndefined(reasonInput, "reason")
        if (decision === "accept") {
          return yield* lifecycle.transition({
            reference,
            to: "settled",
            actor: "agent",
            reason: "accepted",
            note: reason
          })
        }
        if (reason === undefined) {
          return yield* new InvalidInput({
            field: "reason",
            message:
              decision === "revise"
                ? "reason is required to request a revision: say what must change."
                : "reason is required to reject a result: say why it fails the acceptance test."
          })
        }
        if (decision === "reject") {
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
          note: `revision requested: ${reason}`,
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
        note: unknown
      ) {
        const task = yield* asHolder(reference, participant)
        const reason = yield* textOrUndefined(note, "reason")
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
        input: ResultInput
      ) {
        yield* asHolder(reference, participant)
        const summary = yield* textOrUndefined(input.summary, "summary")
        if (summary === undefined) {
          return yield* new InvalidInput({ field: "summary", message: "summary is required: what was done and found." })
        }
        const fields = input.fields ?? {}
        if (typeof fields !== "object" || fields === null || Array.isArray(fields)) {
          return yield* new InvalidInput({
            field: "fields",
            message: "fields must be an object of the structured fields."
          })
        }
        if (JSON.stringify(fields).length > 32_000) {
          return yield* new InvalidInput({ field: "fields", message: "fields are larger than 32,000 characters." })
        }
        const artifactsInput = input.artifacts ?? []
        if (!Array.isArray(artifactsInput) || artifactsInput.length > maxArtifacts) {
          return yield* new InvalidInput({
            field: "artifacts",
            message: `artifacts must be an array of at most ${maxArtifacts} {kind, value, description?}.`
          })
        }
        const artifacts: Array<{ kind: "url" | "text" | "file"; value: string; description?: string }> = []
        for (const [i, a] of artifactsInput.entries()) {
          const item = a as { kind?: unknown; value?: unknown; description?: unknown }
          if (
            typeof a !== "object" ||
            a === null ||
            (item.kind !== "url" && item.kind !== "text" && item.kind !== "file") ||
            typeof item.value !== "string" ||
            item.value.trim() === "" ||
            item.value.length > maxText ||
            (item.description !== undefined && typeof item.description !== "string")
          ) {
            return yield* new InvalidInput({
              field: `artifacts[${i}]`,
              message: "each artifact is {kind: url | text | file, value: non-empty string, description?: string}."
            })
          }
          artifacts.push({
            kind: item.kind,
            value: item.value.trim(),
            ...(typeof item.description === "string" ? { description: item.description.slice(0, 500) } : {})
          })
        }
        const submittedAt = new Date(yield* Clock.currentTimeMillis).toISOString()
        return yield* lifecycle.transition({
          reference,
          to: "submitted",
          actor: "participant",
          guard: holder(participant),
          // `fields` was checked above to be a plain object (JSON's object: string keys).
          change: () => ({
            result: { summary, fields: fields as Record<string, unknown>, artifacts, submitted_at: submittedAt }
          })
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

      return TaskActions.of({ cancel, review, accept, decline, start, submit, operatorCancel })
    })
  )
}
