/**
 * The agent's operations as the contract answers them: the bodies of the REST responses and the
 * envelope errors, with no transport. The REST handlers (http/) and the MCP tools (mcp/) are
 * adapters over this one service, so a rule, a message or a hint is written once: HTTP adds its
 * headers (ETag, Location, idempotent-replayed) and caches, MCP its tool results.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { type EnvelopeError, envelopeError } from "../api/envelope.ts"
import { pageSize } from "../api/parameters.ts"
import {
  type DeliveryList,
  type ParticipantList,
  type PreflightResult,
  type SandboxClockState,
  type SearchRequest,
  type SearchResult,
  searchLimit
} from "../api/resources.ts"
import { AppConfig } from "../config/app_config.ts"
import type { ReviewDecision } from "../domain/moves.ts"
import type { Participant, ParticipantRecord } from "../domain/participant.ts"
import { isoDurationOf, parseAdvance } from "../domain/sandbox.ts"
import type { Task } from "../domain/task.ts"
import { participantSlugPattern } from "../domain/task_draft/fields.ts"
import { IDEMPOTENCY_KEY_MIN, idempotencyKeyRule } from "../domain/task_draft/idempotency.ts"
import { webhookEventType } from "../domain/webhooks.ts"
import { ParticipantDirectory, type ParticipantPage } from "../services/participant_directory.ts"
import { SandboxClock } from "../services/sandbox_clock.ts"
import { TaskActions } from "../services/task_actions.ts"
import { TaskEvents } from "../services/task_events.ts"
import { type PreflightOutcome, type Submission, type SubmitInput, Tasks } from "../services/tasks.ts"
import { orActionFailure, orStorageUnavailable, retryAfterSeconds } from "./failures.ts"

/** The public shape of a stored participant. */
export const presentParticipant = (baseUrl: string, p: ParticipantRecord): Participant => ({
  object: "participant",
  slug: p.slug,
  name: p.name,
  discipline: p.discipline,
  location: p.location,
  task_type: p.task_type,
  tags: p.tags,
  capabilities: p.capabilities,
  returns: p.returns,
  boundary: p.boundary,
  url: `${baseUrl}/api/public/v1/participants/${p.slug}`
})

const presentPreflight = ({ validation, feasibility }: PreflightOutcome): PreflightResult => ({
  object: "preflight",
  valid: validation.valid,
  state: validation.valid ? "draft" : "preflight_failed",
  issues: validation.issues,
  warnings: validation.warnings,
  task: validation.task,
  feasibility
})

// Cursors are opaque to clients; inside, the last slug of the page.
export const encodeCursor = (slug: string) => Buffer.from(`after:${slug}`).toString("base64url")
/** The slug a cursor (base64url text, as PageCursor has checked) continues after, if this service issued it. */
const decodeCursor = (cursor: string) => {
  const text = Buffer.from(cursor, "base64url").toString()
  return text.startsWith("after:") ? text.slice("after:".length) : undefined
}

const isParticipantSlug = (s: string) => s.length <= 64 && participantSlugPattern.test(s)

/** A task as stored now, and its version (every change moves it: the ETag names it). */
export interface TaskAt {
  readonly task: Task
  readonly version: number
}

export interface ListInput {
  readonly q?: string | undefined
  /** 1–500 (PageLimit has checked it); the default page size when absent. */
  readonly limit?: number | undefined
  readonly cursor?: string | undefined
}

export class AgentOperations extends Context.Service<
  AgentOperations,
  {
    /** A page of the directory; `presentList` gives its ParticipantList body. */
    listParticipants(input: ListInput): Effect.Effect<ParticipantPage, EnvelopeError>
    presentList(page: ParticipantPage): ParticipantList
    getParticipant(slug: string): Effect.Effect<Participant, EnvelopeError>
    search(request: SearchRequest): Effect.Effect<SearchResult, EnvelopeError>
    preflight(draft: Readonly<Record<string, unknown>>): Effect.Effect<PreflightResult, EnvelopeError>
    submit(input: SubmitInput): Effect.Effect<Submission, EnvelopeError>
    read(reference: string): Effect.Effect<TaskAt, EnvelopeError>
    /** The task's current version, without reading the rest: enough to answer a revalidation. */
    versionOf(reference: string): Effect.Effect<number, EnvelopeError>
    /**
     * A long poll: the task as soon as it changes (its version moves past the one read first), or
     * as it is when `waitMs` is over. `answerNow` looks at the first read: when the caller has not
     * seen that version yet (an older ETag, an older updated_at), it gets it at once.
     */
    waitForChange(
      reference: string,
      answerNow: (first: TaskAt) => boolean,
      waitMs: number
    ): Effect.Effect<TaskAt, EnvelopeError>
    /** Refuses a token that is not this task's (401) before anything else is judged. */
    checkAgent(reference: string, taskToken: string): Effect.Effect<void, EnvelopeError>
    cancel(reference: string, taskToken: string, reason: string | undefined): Effect.Effect<Task, EnvelopeError>
    review(reference: string, taskToken: string, decision: ReviewDecision): Effect.Effect<Task, EnvelopeError>
    /** The task's webhook events and their attempts, for its agent (the task token). */
    deliveries(reference: string, taskToken: string): Effect.Effect<DeliveryList, EnvelopeError>
    /** A sandbox's clock (served in a sandbox only). */
    readonly sandboxClock: Effect.Effect<SandboxClockState>
    /** Moves a sandbox's clock forward by `advance`, an ISO 8601 duration (served in a sandbox only). */
    advanceSandboxClock(advance: string): Effect.Effect<SandboxClockState, EnvelopeError>
  }
>()("task-marketplace/operations/AgentOperations") {
  static readonly layer = Layer.effect(
    AgentOperations,
    Effect.gen(function* () {
      const config = yield* AppConfig
      const docs = config.docsUrl
      const base = config.publicBaseUrl
      const directory = yield* ParticipantDirectory
      const tasks = yield* Tasks
      const actions = yield* TaskActions
      const events = yield* TaskEvents
      const orStorage = orStorageUnavailable(docs)
      const orAction = orActionFailure(docs)
      const clock = yield* SandboxClock

      const badCursor = envelopeError(docs, "invalid_request", "cursor is not one this service issued.", {
        hint: "Pass the next_cursor of the previous page unchanged, or omit cursor to start from the beginning."
      })
      const listParticipants = ({ q, limit, cursor }: ListInput) => {
        const after = cursor === undefined ? undefined : decodeCursor(cursor)
        if (cursor !== undefined && after === undefined) return Effect.fail(badCursor)
        return orStorage(directory.list({ q, limit: limit ?? pageSize.default, after }))
      }

      const participantNotFound = (slug: string) =>
        envelopeError(
          docs,
          "participant_not_found",
          `No participant has the slug ${JSON.stringify(slug.slice(0, 80))}.`,
          {
            hint: "List participants with GET /api/public/v1/participants (filter with ?q=) and use a slug from it."
          }
        )
      const getParticipant = Effect.fnUntraced(function* (slug: string) {
        // A string that cannot be a slug is answered without touching storage.
        const participant = isParticipantSlug(slug) ? yield* orStorage(directory.findBySlug(slug)) : undefined
        if (participant === undefined) return yield* participantNotFound(slug)
        return presentParticipant(base, participant)
      })

      const search = Effect.fnUntraced(function* (request: SearchRequest) {
        const query = request.query.trim()
        const outcome = yield* orStorage(tasks.search(query, request.limit ?? searchLimit.default))
        const preflight = presentPreflight(outcome.preflight)
        const result: SearchResult = {
          object: "search_result",
          query,
          assessment: {
            execution_mode: outcome.executionMode,
            location: outcome.location,
            missing: preflight.issues.filter((i) => i.code === "required").map((i) => i.field),
            draft: outcome.draft,
            preflight
          },
          data: outcome.matches.map((m) => ({
            participant: presentParticipant(base, m.participant),
            score: m.score,
            matched: m.matched
          })),
          ...(outcome.hint === undefined ? {} : { hint: outcome.hint })
        }
        return result
      })

      const submit = (input: SubmitInput) =>
        tasks.submit(input).pipe(
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
            IdempotencyKeyTooShort: ({ source, length }) => {
              const where =
                source === "body"
                  ? { name: "The idempotency_key member of the draft", field: "idempotency_key" }
                  : input.headerKeyIs === "argument"
                    ? { name: "The idempotency_key argument", field: "idempotency_key" }
                    : { name: "The Idempotency-Key header", field: "idempotency-key" }
              const message = `${where.name} is too short (${length} characters): an idempotency key is a secret and must be ${idempotencyKeyRule}.`
              return Effect.fail(
                envelopeError(docs, "invalid_request", message, {
                  hint: `Send a fresh random key of at least ${IDEMPOTENCY_KEY_MIN} characters per task, e.g. a UUID (crypto.randomUUID()): a replay returns the task's token, so anyone who knows the key and the draft could act as the task's agent. Nothing was created.`,
                  details: [
                    {
                      field: where.field,
                      code: "invalid",
                      message: `${where.field} must be ${idempotencyKeyRule}; got ${length} characters`
                    }
                  ]
                })
              )
            },
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

      const read = (reference: string) => orAction(tasks.read(reference))

      const waitForChange = Effect.fnUntraced(function* (
        reference: string,
        answerNow: (first: TaskAt) => boolean,
        waitMs: number
      ) {
        let current = yield* read(reference)
        if (waitMs <= 0 || answerNow(current)) return current
        const baseline = current.version
        yield* events.waitForChange(
          reference,
          Effect.map(read(reference), (latest) => {
            current = latest
            return latest.version > baseline
          }),
          waitMs
        )
        return current
      })

      const cancel = Effect.fnUntraced(function* (reference: string, taskToken: string, reason: string | undefined) {
        return tasks.view(yield* orAction(actions.cancel(reference, taskToken, reason)))
      })
      const review = Effect.fnUntraced(function* (reference: string, taskToken: string, decision: ReviewDecision) {
        return tasks.view(yield* orAction(actions.review(reference, taskToken, decision)))
      })

      const deliveries = Effect.fnUntraced(function* (reference: string, taskToken: string) {
        yield* orAction(actions.checkAgent(reference, taskToken))
        const { webhookUrl, events } = yield* orAction(tasks.deliveries(reference))
        const list: DeliveryList = {
          object: "list",
          webhook_url: webhookUrl,
          count: events.length,
          data: events.map((event) => ({
            object: "webhook_event",
            id: event.id,
            type: webhookEventType,
            history_index: event.historyIndex,
            state: event.state,
            created_at: event.createdAt,
            next_attempt_at: event.nextAttemptAt,
            attempts: event.attempts
          }))
        }
        return list
      })

      const sandboxClock = Effect.map(
        Effect.all([clock.now, clock.advancedBy]),
        ([now, advanced]): SandboxClockState => ({
          object: "sandbox_clock",
          now: new Date(now).toISOString(),
          advanced_by: isoDurationOf(advanced)
        })
      )
      const advanceSandboxClock = (advance: string) => {
        const parsed = parseAdvance(advance)
        if ("problem" in parsed) {
          return Effect.fail(
            envelopeError(docs, "invalid_request", parsed.problem, {
              hint: 'Send {"advance": "PT25H"}: a positive ISO 8601 duration (weeks, days, hours, minutes, seconds). The clock was not moved.',
              details: [{ field: "advance", code: "invalid", message: parsed.problem }]
            })
          )
        }
        return Effect.andThen(orStorage(clock.advance(parsed.ms)), sandboxClock)
      }

      return AgentOperations.of({
        listParticipants,
        presentList: (page) => ({
          object: "list",
          count: page.data.length,
          data: page.data.map((record) => presentParticipant(base, record)),
          has_more: page.nextAfter !== undefined,
          next_cursor: page.nextAfter === undefined ? null : encodeCursor(page.nextAfter)
        }),
        getParticipant,
        search,
        preflight: (draft) => Effect.map(orStorage(tasks.preflight(draft)), presentPreflight),
        submit,
        read,
        versionOf: (reference) => orAction(tasks.versionOf(reference)),
        waitForChange,
        checkAgent: (reference, taskToken) => orAction(actions.checkAgent(reference, taskToken)),
        cancel,
        review,
        deliveries,
        sandboxClock,
        advanceSandboxClock
      })
    })
  )

  /** The same with the services of ours it needs (the database and `AppConfig` still to give). */
  static readonly layerWithDependencies = AgentOperations.layer.pipe(
    Layer.provide([
      ParticipantDirectory.layer,
      SandboxClock.layerWithDependencies,
      TaskActions.layerWithDependencies,
      TaskEvents.layer,
      Tasks.layerWithDependencies
    ])
  )
}
