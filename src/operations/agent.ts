/**
 * The agent's operations as the contract answers them: the bodies of the REST responses, and the
 * refusals each operation declares (typed errors the edge maps to the envelope), with no transport. The REST handlers (http/) and the MCP tools (mcp/) are
 * adapters over this one service, so a rule, a message or a hint is written once: HTTP adds its
 * headers (ETag, Location, idempotent-replayed) and caches, MCP its tool results.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { pageSize } from "../api/parameters.ts"
import {
  type DeliveryList,
  type ParticipantList,
  type PreflightResult,
  type SandboxClockState,
  type SearchRequest,
  type SearchResult,
  searchLimit,
  type WebhookDelivery
} from "../api/resources.ts"
import { AppConfig } from "../config/app_config.ts"
import {
  type DraftRejected,
  type IdempotencyKeyMismatch,
  type IdempotencyKeyReused,
  IdempotencyKeyTooShort,
  type InvalidTransition,
  type NotPermitted,
  ParticipantNotFound,
  type StorageUnavailable,
  type TaskNotFound,
  type Unauthenticated
} from "../domain/errors.ts"
import type { ConversationClosed, Message, MessageList, MessageRequest, Speaker } from "../domain/messages.ts"
import type { ReviewDecision } from "../domain/moves.ts"
import type { Participant, ParticipantRecord } from "../domain/participant.ts"
import { isoDurationOf, parseAdvance } from "../domain/sandbox.ts"
import type { Task } from "../domain/task.ts"
import { participantSlugPattern } from "../domain/task_draft/fields.ts"
import { messageEventType, webhookEventType } from "../domain/webhooks.ts"
import { ParticipantDirectory, type ParticipantPage } from "../services/participant_directory.ts"
import { SandboxClock } from "../services/sandbox_clock.ts"
import { TaskActions } from "../services/task_actions.ts"
import { TaskEvents } from "../services/task_events.ts"
import { messageListOf, messageOf, TaskMessages } from "../services/task_messages.ts"
import { type PreflightOutcome, type Submission, type SubmitInput, Tasks } from "../services/tasks.ts"
import { hotFn } from "../tracing.ts"
import { RequestInvalid, TaskNotCreated } from "./errors.ts"

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
/**
 * The position a cursor continues after, if it is one this service could have issued. Any text
 * PageCursor accepts is one (its pattern fixes the `after:` prefix): the text after it is a
 * position in slug order even when no slug has it.
 */
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

/** What reading a task can fail with. */
export type ReadFailure = TaskNotFound | StorageUnavailable

/** What the agent's move on its task can fail with (the token checked first). */
export type AgentMoveFailure = TaskNotFound | InvalidTransition | StorageUnavailable | Unauthenticated

/** What a submission can fail with; storage unavailable is TaskNotCreated here (a retry is safe). */
export type SubmitFailure =
  | DraftRejected
  | IdempotencyKeyMismatch
  | IdempotencyKeyTooShort
  | IdempotencyKeyReused
  | TaskNotCreated

/** The agent in a task's conversation: it reads and writes every thread. */
const agent: Speaker = { _tag: "Agent" }
/** What the conversation refuses only to a participant (another's thread) never reaches the agent. */
const asAgent = <A, E extends { readonly _tag: string }>(effect: Effect.Effect<A, E>) =>
  Effect.catchTag(effect as Effect.Effect<A, E | NotPermitted>, "NotPermitted", (refused) =>
    Effect.die(refused)
  ) as Effect.Effect<A, Exclude<E, NotPermitted>>

export class AgentOperations extends Context.Service<
  AgentOperations,
  {
    /** A page of the directory; `presentList` gives its ParticipantList body. */
    listParticipants(input: ListInput): Effect.Effect<ParticipantPage, RequestInvalid | StorageUnavailable>
    presentList(page: ParticipantPage): ParticipantList
    getParticipant(slug: string): Effect.Effect<Participant, ParticipantNotFound | StorageUnavailable>
    search(request: SearchRequest): Effect.Effect<SearchResult, StorageUnavailable>
    preflight(draft: Readonly<Record<string, unknown>>): Effect.Effect<PreflightResult, StorageUnavailable>
    submit(input: SubmitInput): Effect.Effect<Submission, SubmitFailure>
    read(reference: string): Effect.Effect<TaskAt, ReadFailure>
    /** The task's current version, without reading the rest: enough to answer a revalidation. */
    versionOf(reference: string): Effect.Effect<number, ReadFailure>
    /**
     * A long poll: the task as soon as it changes (its version moves past the one read first), or
     * as it is when `waitMs` is over. `answerNow` looks at the first read: when the caller has not
     * seen that version yet (an older ETag, an older updated_at), it gets it at once.
     */
    waitForChange(
      reference: string,
      answerNow: (first: TaskAt) => boolean,
      waitMs: number
    ): Effect.Effect<TaskAt, ReadFailure>
    /** Refuses a token that is not this task's (401) before anything else is judged. */
    checkAgent(reference: string, taskToken: string): Effect.Effect<void, AgentMoveFailure>
    cancel(reference: string, taskToken: string, reason: string | undefined): Effect.Effect<Task, AgentMoveFailure>
    review(reference: string, taskToken: string, decision: ReviewDecision): Effect.Effect<Task, AgentMoveFailure>
    /** The task's webhook events and their attempts, for its agent (the task token). */
    deliveries(reference: string, taskToken: string): Effect.Effect<DeliveryList, AgentMoveFailure>
    /** Writes a message to the participant the task is offered to or held by (domain/messages.ts). */
    postMessage(
      reference: string,
      taskToken: string,
      request: MessageRequest
    ): Effect.Effect<Message, AgentMoveFailure | ConversationClosed>
    /** Every thread of the task's conversation, oldest first. */
    messages(reference: string, taskToken: string): Effect.Effect<MessageList, AgentMoveFailure>
    /** A sandbox's clock (served in a sandbox only). */
    readonly sandboxClock: Effect.Effect<SandboxClockState>
    /** Moves a sandbox's clock forward by `advance`, an ISO 8601 duration (served in a sandbox only). */
    advanceSandboxClock(advance: string): Effect.Effect<SandboxClockState, RequestInvalid | StorageUnavailable>
  }
>()("task-marketplace/operations/AgentOperations") {
  static readonly layer = Layer.effect(
    AgentOperations,
    Effect.gen(function* () {
      const config = yield* AppConfig
      const base = config.publicBaseUrl
      const directory = yield* ParticipantDirectory
      const tasks = yield* Tasks
      const actions = yield* TaskActions
      const conversation = yield* TaskMessages
      const events = yield* TaskEvents
      const clock = yield* SandboxClock

      const listParticipants = hotFn("AgentOperations.listParticipants")(function* ({ q, limit, cursor }: ListInput) {
        const after = cursor === undefined ? undefined : decodeCursor(cursor)
        if (cursor !== undefined && after === undefined) {
          return yield* new RequestInvalid({
            message: "cursor is not one this service issued.",
            hint: "Pass the next_cursor of the previous page unchanged, or omit cursor to start from the beginning."
          })
        }
        return yield* directory.list({ q, limit: limit ?? pageSize.default, after })
      })

      const getParticipant = hotFn("AgentOperations.getParticipant")(function* (slug: string) {
        // A string that cannot be a slug is answered without touching storage.
        const participant = isParticipantSlug(slug) ? yield* directory.findBySlug(slug) : undefined
        if (participant === undefined) return yield* new ParticipantNotFound({ slug })
        return presentParticipant(base, participant)
      })

      const search = Effect.fn("AgentOperations.search")(function* (request: SearchRequest) {
        const query = request.query.trim()
        const outcome = yield* tasks.search(query, request.limit ?? searchLimit.default)
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

      const preflight = hotFn("AgentOperations.preflight")(function* (draft: Readonly<Record<string, unknown>>) {
        return presentPreflight(yield* tasks.preflight(draft))
      })

      const submit = hotFn("AgentOperations.submit")((input: SubmitInput) =>
        tasks.submit(input).pipe(
          Effect.catchTags({
            // The key sent beside the draft is MCP's argument there: the refusal names it so.
            IdempotencyKeyTooShort: (error) =>
              Effect.fail(
                error.source === "header" && input.headerKeyIs === "argument"
                  ? new IdempotencyKeyTooShort({ source: "argument", length: error.length })
                  : error
              ),
            StorageUnavailable: ({ cause }) => Effect.fail(new TaskNotCreated({ cause }))
          })
        )
      )

      // Reading a task is the Tasks service's read itself (its span is `Tasks.read`): an operation
      // that only forwards the call would name the same step twice in a trace, at a poll's cost.
      const read = tasks.read

      const waitForChange = Effect.fn("AgentOperations.waitForChange")(function* (
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

      const cancel = Effect.fn("AgentOperations.cancel")(function* (
        reference: string,
        taskToken: string,
        reason: string | undefined
      ) {
        return tasks.view(yield* actions.cancel(reference, taskToken, reason))
      })
      const review = Effect.fn("AgentOperations.review")(function* (
        reference: string,
        taskToken: string,
        decision: ReviewDecision
      ) {
        return tasks.view(yield* actions.review(reference, taskToken, decision))
      })

      const deliveries = Effect.fn("AgentOperations.deliveries")(function* (reference: string, taskToken: string) {
        yield* actions.checkAgent(reference, taskToken)
        const { webhookUrl, events } = yield* tasks.deliveries(reference)
        const list: DeliveryList = {
          object: "list",
          webhook_url: webhookUrl,
          count: events.length,
          data: events.map((event): WebhookDelivery => {
            const delivery = {
              state: event.state,
              created_at: event.createdAt,
              next_attempt_at: event.nextAttemptAt,
              attempts: event.attempts
            }
            return event.type === messageEventType
              ? {
                  object: "webhook_event",
                  id: event.id,
                  type: messageEventType,
                  message_id: event.messageId ?? "",
                  ...delivery
                }
              : {
                  object: "webhook_event",
                  id: event.id,
                  type: webhookEventType,
                  history_index: event.historyIndex ?? 0,
                  ...delivery
                }
          })
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
      const advanceSandboxClock = Effect.fn("AgentOperations.advanceSandboxClock")(function* (advance: string) {
        const parsed = parseAdvance(advance)
        if ("problem" in parsed) {
          return yield* new RequestInvalid({
            message: parsed.problem,
            hint: 'Send {"advance": "PT25H"}: a positive ISO 8601 duration (weeks, days, hours, minutes, seconds). The clock was not moved.',
            details: [{ field: "advance", code: "invalid", message: parsed.problem }]
          })
        }
        yield* clock.advance(parsed.ms)
        return yield* sandboxClock
      })

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
        preflight,
        submit,
        read,
        // As `read`: the service's own method, named `Tasks.versionOf`.
        versionOf: tasks.versionOf,
        waitForChange,
        checkAgent: Effect.fn("AgentOperations.checkAgent")((reference: string, taskToken: string) =>
          actions.checkAgent(reference, taskToken)
        ),
        cancel,
        review,
        deliveries,
        postMessage: Effect.fn("AgentOperations.postMessage")(function* (
          reference: string,
          taskToken: string,
          request: MessageRequest
        ) {
          yield* actions.checkAgent(reference, taskToken)
          return messageOf(yield* asAgent(conversation.post(reference, agent, request.body)))
        }),
        messages: Effect.fn("AgentOperations.messages")(function* (reference: string, taskToken: string) {
          yield* actions.checkAgent(reference, taskToken)
          return messageListOf(yield* asAgent(conversation.list(reference, agent)))
        }),
        sandboxClock: Effect.withSpan(sandboxClock, "AgentOperations.sandboxClock"),
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
      TaskMessages.layerWithDependencies,
      Tasks.layerWithDependencies
    ])
  )
}
