/**
 * Handlers of the tasks group: idempotent submission and reading by reference (with ETag, 304,
 * long polls and the last bodies served). The operations (operations/agent.ts) answer with the
 * bodies and their typed refusals; this adds what is HTTP's own, and answers a refusal in the
 * envelope (`toEnvelope`).
 */
import * as Effect from "effect/Effect"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import { toEnvelope } from "../api/envelope.ts"
import { AppConfig } from "../config/app_config.ts"
import { AgentOperations, type TaskAt } from "../operations/agent.ts"
import { versionedCache } from "../read_cache.ts"
import { handlersLayer } from "./group_layer.ts"
import { readJsonObject } from "./json_body.ts"
import { rawEndpoint } from "./raw_endpoints.ts"

const etagOf = (reference: string, version: number) => `"${reference.slice(4, 12)}-${version}"`

/** RFC 9110 If-None-Match: a list of entity tags (weak comparison) or `*`. */
const matchesEtag = (header: string | undefined, etag: string) =>
  header !== undefined &&
  (header.trim() === "*" || header.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag))

/** The characters of task bodies a process keeps for the next poll. */
const bodyBudget = 4_000_000

export const TasksHandlers = handlersLayer(
  "tasks",
  Effect.gen(function* () {
    const config = yield* AppConfig
    const operations = yield* AgentOperations
    const docs = config.docsUrl
    const envelope = toEnvelope(docs)
    // The body last served per task, at the task's version: a body is a function of the row, whose
    // version moves with every change and is read fresh for every request (`versionOf`). Up to ~4M
    // characters: a thousand typical tasks, fewer with large results, none over 1/16 of it.
    const bodies = versionedCache<string, string>({
      budget: bodyBudget,
      weightOf: (body) => body.length,
      largestWeight: bodyBudget / 16
    })

    const noCache = (etag: string) => ({ etag, "cache-control": "no-cache" })
    const notModified = (etag: string) => HttpServerResponse.empty({ status: 304, headers: noCache(etag) })
    const ok = (body: string, etag: string) =>
      HttpServerResponse.text(body, { contentType: "application/json", headers: noCache(etag) })

    /** The task as read whole: 304 when If-None-Match names its version, else its body, kept for the next poll. */
    const answerWhole = (reference: string, ifNoneMatch: string | undefined, current: TaskAt) => {
      const etag = etagOf(reference, current.version)
      if (matchesEtag(ifNoneMatch, etag)) return notModified(etag)
      const body = JSON.stringify(current.task)
      bodies.set(reference, current.version, body)
      return ok(body, etag)
    }

    return (handlers) =>
      handlers
        .handleRaw(
          rawEndpoint("createTask"),
          Effect.fnUntraced(function* ({ request }) {
            const body = yield* readJsonObject(request, docs)
            const submission = yield* operations.submit({
              body,
              // IdempotencyKeyHeader has checked it: 1 to 255 characters (Node strips surrounding
              // blanks); the submission refuses one too short to be a secret.
              headerKey: request.headers["idempotency-key"],
              userAgent: request.headers["user-agent"]
            })
            const headers: Record<string, string> = {
              location: submission.task.url,
              etag: etagOf(submission.task.reference, submission.version)
            }
            if (submission.replayed) headers["idempotent-replayed"] = "true"
            return HttpServerResponse.jsonUnsafe(submission.task, { status: 201, headers })
          }, Effect.mapError(envelope))
        )
        .handle(
          "getTask",
          Effect.fnUntraced(function* ({ params, query, headers }) {
            const reference = params.reference
            const ifNoneMatch = headers["if-none-match"]
            const wait = query.wait ?? 0
            if (wait > 0) {
              // A long poll holds until the task moves past the version the client has: the one its
              // If-None-Match names, else the one current now. An If-None-Match naming an older
              // version is answered at once.
              const answerNow = (first: TaskAt) =>
                ifNoneMatch !== undefined && !matchesEtag(ifNoneMatch, etagOf(reference, first.version))
              return answerWhole(
                reference,
                ifNoneMatch,
                yield* operations.waitForChange(reference, answerNow, wait * 1000)
              )
            }
            // A poll (the commonest request) first reads only the version: enough to answer 304,
            // or with the body last served at this version; only otherwise the whole task.
            const version = yield* operations.versionOf(reference)
            const etag = etagOf(reference, version)
            if (matchesEtag(ifNoneMatch, etag)) return notModified(etag)
            const kept = bodies.get(reference, version)
            if (kept !== undefined) return ok(kept, etag)
            return answerWhole(reference, ifNoneMatch, yield* operations.read(reference))
          }, Effect.mapError(envelope))
        )
  })
)
