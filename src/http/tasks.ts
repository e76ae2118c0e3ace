/**
 * Handlers of the tasks group: idempotent submission and reading by reference (with ETag).
 * Domain failures become envelope errors here, in one place.
 */
import * as Effect from "effect/Effect"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import { MarketplaceApi } from "../api/api.ts"
import { envelopeError } from "../api/envelope.ts"
import { AppConfig } from "../config.ts"
import type { Task } from "../domain/task.ts"
import { TaskEvents } from "../services/task_events.ts"
import { Tasks } from "../services/tasks.ts"
import { orActionFailure, retryAfterSeconds } from "./failures.ts"
import { group as handlerGroup } from "./handler_group.ts"
import { readJsonObject } from "./json_body.ts"

const etagOf = (reference: string, version: number) => `"${reference.slice(4, 12)}-${version}"`

/** RFC 9110 If-None-Match: a list of entity tags (weak comparison) or `*`. */
const matchesEtag = (header: string | undefined, etag: string) =>
  header !== undefined &&
  (header.trim() === "*" || header.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag))

export const TasksHandlers = handlerGroup(MarketplaceApi, "tasks", (handlers) =>
  Effect.gen(function* () {
    const config = yield* AppConfig
    const tasks = yield* Tasks
    const events = yield* TaskEvents
    const docs = config.docsUrl
    // Up to ~4 MB of bodies: a thousand typical tasks, fewer with large results.
    const bodies = makeBodyCache(4_000_000)
    /**
     * A long poll: hold until the task moves past the version the client has (the one its
     * If-None-Match names, else the one current now), or the wait is over. Made once, not per
     * request (docs/performance.md, "No generator function made per request").
     */
    const longPoll = Effect.fnUntraced(function* <E>(
      read: Effect.Effect<{ readonly task: Task; readonly version: number }, E>,
      reference: string,
      ifNoneMatch: string | undefined,
      wait: number,
      answer: (current: { readonly task: Task; readonly version: number }) => HttpServerResponse.HttpServerResponse
    ) {
      let current = yield* read
      const seen = ifNoneMatch !== undefined && matchesEtag(ifNoneMatch, etagOf(reference, current.version))
      const baseline = current.version
      if (seen || ifNoneMatch === undefined) {
        yield* events.waitForChange(
          reference,
          Effect.map(read, (latest) => {
            current = latest
            return latest.version > baseline
          }),
          wait * 1000
        )
      }
      return answer(current)
    })

    // The agent's moves: generators made once, not per request (docs/performance.md, "No generator function made per request").
    return (
      handlers
        // Every submission passes here: combinators, not a generator (docs/performance.md, "No generator function made per request").
        .handleRaw("createTask", ({ request }) => {
          // IdempotencyKeyHeader has checked it: 1 to 255 characters (Node strips surrounding blanks).
          const headerKey = request.headers["idempotency-key"]
          const submit = (body: Record<string, unknown>) =>
            tasks.submit({ body, headerKey, userAgent: request.headers["user-agent"] }).pipe(
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
          return Effect.flatMap(readJsonObject(request, docs), (body) =>
            Effect.map(submit(body), (submission) => {
              const headers: Record<string, string> = {
                location: submission.task.url,
                etag: etagOf(submission.task.reference, submission.version)
              }
              if (submission.replayed) headers["idempotent-replayed"] = "true"
              return HttpServerResponse.jsonUnsafe(submission.task, { status: 201, headers })
            })
          )
        })
        .handleRaw("getTask", ({ request, params, query }) => {
          const reference = params.reference
          // WaitSeconds has checked the text: a number of seconds in range.
          const wait = query.wait === undefined ? 0 : Number(query.wait)
          const ifNoneMatch = request.headers["if-none-match"]
          /**
           * The answer for the task at `version`: 304 when If-None-Match names it, else 200 with
           * the body `body` gives, or undefined when it gives none.
           */
          const answerAt = (version: number, body: () => string | undefined) => {
            const etag = etagOf(reference, version)
            const headers = { etag, "cache-control": "no-cache" }
            if (matchesEtag(ifNoneMatch, etag)) return HttpServerResponse.empty({ status: 304, headers })
            const text = body()
            return text === undefined
              ? undefined
              : HttpServerResponse.text(text, { contentType: "application/json", headers })
          }
          const read = tasks.read(reference).pipe(orActionFailure(docs))
          /** The answer for the task as read whole, its body kept for the next poll. */
          const answerWhole = (current: { readonly task: Task; readonly version: number }) =>
            answerAt(current.version, () => {
              const body = JSON.stringify(current.task)
              bodies.set(reference, current.version, body)
              return body
            })!
          if (wait === 0) {
            // A poll (the commonest request) first reads only the version: enough to answer 304,
            // or with the body last served at this version; only otherwise the whole task.
            // Combinators, not generators made per request (docs/performance.md, "No generator function made per request").
            return Effect.flatMap(tasks.versionOf(reference).pipe(orActionFailure(docs)), (version) => {
              const answer = answerAt(version, () => bodies.get(reference, version))
              return answer === undefined ? Effect.map(read, answerWhole) : Effect.succeed(answer)
            })
          }
          return longPoll(read, reference, ifNoneMatch, wait, answerWhole)
        })
    )
  })
)

/**
 * The body last served for each recently read task, with the version it shows, within a budget
 * of `budget` characters in all (the least recently read dropped first). A task's body is a
 * function of its stored row, and every change to the row moves its version; the version is read
 * from the database on every request, so a body is never served past a change made by any process.
 */
const makeBodyCache = (budget: number) => {
  const entries = new Map<string, { readonly version: number; readonly body: string }>()
  let size = 0
  const remove = (reference: string) => {
    const entry = entries.get(reference)
    if (entry === undefined) return
    entries.delete(reference)
    size -= entry.body.length
  }
  return {
    get: (reference: string, version: number): string | undefined => {
      const entry = entries.get(reference)
      if (entry?.version !== version) return undefined
      entries.delete(reference)
      entries.set(reference, entry)
      return entry.body
    },
    set: (reference: string, version: number, body: string) => {
      remove(reference)
      if (body.length > budget / 16) return
      entries.set(reference, { version, body })
      size += body.length
      while (size > budget) remove(entries.keys().next().value!)
    }
  }
}
