/**
 * The one translation of "storage is unavailable" into the envelope, shared by every handler:
 * reads and validations answer 503 `storage_unavailable`; a submission answers 503
 * `task_not_created` (see tasks.ts), whose retry with the same key is safe.
 */
import * as Effect from "effect/Effect"
import { type EnvelopeError, envelopeError, type ServiceUnavailable } from "../api/envelope.ts"
import {
  type ArtifactNotFound,
  type ArtifactRejected,
  type ArtifactsUnusable,
  formatBytes,
  type InvalidTransition,
  type NotPermitted,
  type ResultRejected,
  StorageUnavailable,
  type TaskNotFound,
  type Unauthenticated,
  type UploadNotAllowed
} from "../domain/errors.ts"
import { describeAllowed } from "../domain/lifecycle.ts"

/** Seconds a client should wait before retrying when storage is unavailable. */
export const retryAfterSeconds = 2

export const storageUnavailable = (docsUrl: string) =>
  envelopeError(docsUrl, "storage_unavailable", "Storage is unavailable right now; nothing was changed.", {
    hint: `Retry in ${retryAfterSeconds} seconds.`
  })

export const orStorageUnavailable =
  (docsUrl: string) =>
  <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, Exclude<E, StorageUnavailable> | ServiceUnavailable, R> =>
    Effect.catchIf(
      effect,
      (error): error is Extract<E, StorageUnavailable> => error instanceof StorageUnavailable,
      () => Effect.fail(storageUnavailable(docsUrl))
    ) as Effect.Effect<A, Exclude<E, StorageUnavailable> | ServiceUnavailable, R>

/** The domain failures of task actions, each as its envelope error. */
export const orActionFailure =
  (docsUrl: string) =>
  <A, E, R>(effect: Effect.Effect<A, E, R>) =>
    Effect.catch(effect, (error: unknown): Effect.Effect<never, unknown> => {
      const failure = error as { _tag?: string }
      switch (failure._tag) {
        case "TaskNotFound": {
          const { reference } = error as TaskNotFound
          return Effect.fail(
            envelopeError(
              docsUrl,
              "task_not_found",
              `No task has the reference ${JSON.stringify(reference.slice(0, 80))}.`,
              {
                hint: "Use the reference from the 201 response of POST /api/public/v1/tasks, unchanged."
              }
            )
          )
        }
        case "InvalidTransition": {
          const { from, to, actor, detail } = error as InvalidTransition
          return Effect.fail(
            envelopeError(
              docsUrl,
              "invalid_transition",
              detail === undefined
                ? `The task is ${from}: the ${actor} cannot move it to ${to}.`
                : `The task is ${from} and cannot move to ${to}: ${detail}.`,
              {
                hint:
                  detail === undefined
                    ? `From ${from} the lifecycle allows: ${describeAllowed(from)}. Read the task for its current state.`
                    : `From ${from} the lifecycle allows: ${describeAllowed(from, to)}.`
              }
            )
          )
        }
        case "Unauthenticated":
          return Effect.fail(
            envelopeError(
              docsUrl,
              "unauthorized",
              `Missing or invalid credentials: ${(error as Unauthenticated).reason}.`,
              {
                hint: "Send Authorization: Bearer <task_token from the 201 response> for agent actions, or an OAuth access token for participant actions."
              }
            )
          )
        case "NotPermitted":
          return Effect.fail(
            envelopeError(docsUrl, "forbidden", `Not allowed: ${(error as NotPermitted).reason}.`, {
              hint: "Only the participant a task is offered to (or held by) can act on it."
            })
          )
        case "ResultRejected": {
          const { failures } = error as ResultRejected
          return Effect.fail(
            envelopeError(
              docsUrl,
              "result_invalid",
              `The result's fields fail the task's result_schema: ${failures.map((f) => f.pointer).join(", ")}.`,
              {
                hint: "Fix each field named in details (a JSON Pointer into the result) and submit again; the schema is the task's brief.result_schema. Nothing was changed.",
                details: failures.map((f) => ({ field: f.pointer, code: f.code, message: f.message }))
              }
            )
          )
        }
        case "ArtifactRejected":
          return Effect.fail(artifactRejected(docsUrl, error as ArtifactRejected))
        case "ArtifactNotFound":
          return Effect.fail(
            envelopeError(docsUrl, "artifact_not_found", (error as ArtifactNotFound).message, {
              hint: "Use a file's url from the task's result.artifacts, with the task's token (agent) or the uploader's access token."
            })
          )
        case "ArtifactsUnusable": {
          const { problems } = error as ArtifactsUnusable
          return Effect.fail(
            envelopeError(
              docsUrl,
              "artifact_invalid",
              `The result names files it cannot carry: ${problems.map((p) => p.field).join(", ")}.`,
              {
                hint: 'Upload each file with POST /api/public/v1/tasks/{reference}/artifacts and name it by the id returned, {"kind": "file", "id": …}. Nothing was changed.',
                details: problems.map((p) => ({ field: p.field, code: "invalid", message: p.message }))
              }
            )
          )
        }
        case "UploadNotAllowed": {
          const { state } = error as UploadNotAllowed
          return Effect.fail(
            envelopeError(docsUrl, "invalid_transition", (error as UploadNotAllowed).message, {
              hint:
                state === "awaiting_participant"
                  ? "Accept the offer first, then upload the files the result will name."
                  : "Files are uploaded while working on a task, before its result is submitted."
            })
          )
        }
        case "StorageUnavailable":
          return Effect.fail(storageUnavailable(docsUrl))
        default:
          return Effect.fail(error as Exclude<E, ActionFailure>)
      }
    }) as Effect.Effect<A, Exclude<E, ActionFailure> | EnvelopeError, R>

/** An upload refused, as its envelope: too large 413, unreadable 400, one too many waiting 422. */
export const artifactRejected = (docsUrl: string, error: ArtifactRejected) => {
  switch (error.reason) {
    case "too_large":
      return envelopeError(docsUrl, "payload_too_large", error.message, {
        hint: `Send a file of at most ${formatBytes(error.limit ?? 0)}; split or compress a larger one. Nothing was kept.`
      })
    case "too_many_staged":
      return envelopeError(docsUrl, "artifact_invalid", error.message, {
        hint: "Submit the result naming the files uploaded (or wait an hour: files no result names are removed then)."
      })
    default:
      return envelopeError(docsUrl, "invalid_request", error.message, {
        hint: "Send the file's bytes as the body, and its name in the name query parameter (e.g. ?name=photo.jpg)."
      })
  }
}

type ActionFailure =
  | ArtifactRejected
  | ArtifactNotFound
  | ArtifactsUnusable
  | UploadNotAllowed
  | TaskNotFound
  | InvalidTransition
  | Unauthenticated
  | NotPermitted
  | ResultRejected
  | StorageUnavailable
