/**
 * Handlers of the tasks group: idempotent submission and reading by reference (with ETag).
 * Domain failures become envelope errors here, in one place.
 */
import { Effect } from "effect"
import { HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { MarketplaceApi } from "../api/api.ts"
import { envelopeError } from "../api/envelope.ts"
import { AppConfig } from "../config.ts"
import { Tasks } from "../services/tasks.ts"
import { orStorageUnavailable, retryAfterSeconds } from "./failures.ts"
import { readJsonObject } from "./json_body.ts"

const etagOf = (reference: string, version: number) => `"${reference.slice(4, 12)}-${version}"`

/** RFC 9110 If-None-Match: a list of entity tags (weak comparison) or `*`. */
const matchesEtag = (header: string | undefined, etag: string) =>
  header !== undefined &&
  (header.trim() === "*" || header.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag))

export const TasksHandlers = HttpApiBuilder.group(MarketplaceApi, "tasks", (handlers) =>
  Effect.gen(function* () {
    const config = yield* AppConfig
    const tasks = yield* Tasks
    const docs = config.docsUrl

    return handlers
      .handleRaw("createTask", ({ request }) =>
        Effect.gen(function* () {
          const headerValue = request.headers["idempotency-key"]
          const headerKey = headerValue?.trim()
          if (headerKey !== undefined && (headerKey === "" || headerKey.length > 255)) {
            return yield* envelopeError(
              docs,
              "invalid_request",
              "The idempotency-key header must be 1 to 255 characters.",
              {
                hint: "Use a fresh random value per task, such as a UUID, and reuse it only to retry that submission."
              }
            )
          }
          const body = yield* readJsonObject(request, docs)
          const submission = yield* tasks.submit({ body, headerKey, userAgent: request.headers["user-agent"] }).pipe(
            Effect.catchTags({
              DraftRejected: ({ validation }) =>
                Effect.fail(
                  envelopeError(
                    docs,
                    "preflight_failed",
                    `The draft is incomplete or invalid: ${validation.issues.map((i) => i.field).join(", ")}.`,
                    {
                      hint: `Fix each field listed in details (${validation.issues
                        .map((i) => `${i.field}: ${i.message}`)
                        .join(" ")}) and validate the draft first with POST /api/public/v1/preflight.`,
                      details: validation.issues
                    }
                  )
                ),
              IdempotencyKeyMismatch: () =>
                Effect.fail(
                  envelopeError(
                    docs,
                    "idempotency_key_mismatch",
                    "The idempotency-key header and the body's idempotency_key differ.",
                    {
                      hint: "Send one key: the idempotency-key header (preferred) or idempotency_key, or the same value in both."
                    }
                  )
                ),
              IdempotencyKeyReused: () =>
                Effect.fail(
                  envelopeError(
                    docs,
                    "idempotency_key_reused",
                    "This idempotency key was already used to submit a different draft.",
                    { hint: "Use a new key for a new task; reuse a key only to retry the exact same draft." }
                  )
                ),
              StorageUnavailable: () =>
                Effect.fail(
                  envelopeError(docs, "task_not_created", "The task could not be recorded: storage is unavailable.", {
                    hint: `Retry in ${retryAfterSeconds} seconds with the same idempotency key; the retry cannot create a second task.`
                  })
                )
            })
          )
          const headers: Record<string, string> = {
            location: submission.task.url,
            etag: etagOf(submission.task.reference, submission.version)
          }
          if (submission.replayed) headers["idempotent-replayed"] = "true"
          return HttpServerResponse.jsonUnsafe(submission.task, { status: 201, headers })
        })
      )
      .handleRaw("getTask", ({ request, params }) =>
        Effect.gen(function* () {
          const reference = params.reference
          const { task, version } = yield* tasks.read(reference).pipe(
            Effect.catchTags({
              TaskNotFound: () =>
                Effect.fail(
                  envelopeError(
                    docs,
                    "task_not_found",
                    `No task has the reference ${JSON.stringify(reference.slice(0, 80))}.`,
                    {
                      hint: "Use the reference from the 201 response of POST /api/public/v1/tasks, unchanged."
                    }
                  )
                )
            }),
            orStorageUnavailable(docs)
          )
          const etag = etagOf(task.reference, version)
          const headers = { etag, "cache-control": "no-cache" }
          if (matchesEtag(request.headers["if-none-match"], etag)) {
            return HttpServerResponse.empty({ status: 304, headers })
          }
          return HttpServerResponse.jsonUnsafe(task, { headers })
        })
      )
  })
)
