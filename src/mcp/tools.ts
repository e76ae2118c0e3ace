/**
 * The MCP tools: one per agent operation of the REST API, over the same service
 * (operations/agent.ts). Their names are public contract. Each declares its arguments and its
 * result with the Schemas REST publishes; a result's `structuredContent` is exactly the REST
 * response body of the same operation, and a refusal is a tool result with `isError: true` whose
 * `structuredContent` is the REST error envelope — arguments that fail their schema included, so a
 * model reads which argument to fix instead of a bare JSON-RPC error.
 */
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import type { EnvelopedRefusal, EnvelopeError } from "../api/envelope.ts"
import type { McpToolName, ParticipantMcpToolName } from "../api/mcp.ts"
import { idempotencyKey, maxWaitSeconds, PageCursor, pageSize } from "../api/parameters.ts"
import {
  AdvanceClockRequest,
  CancelRequest,
  DeliveryList,
  ParticipantList,
  PreflightResult,
  SandboxClockState,
  SearchRequest,
  SearchResult
} from "../api/resources.ts"
import { Message, MessageList, MessageRequest } from "../domain/messages.ts"
import { ReviewDecision } from "../domain/moves.ts"
import { Participant } from "../domain/participant.ts"
import { CreatedTask, Task } from "../domain/task.ts"
import { IDEMPOTENCY_KEY_MAX, idempotencyKeyRule } from "../domain/task_draft/idempotency.ts"
import { TaskDraft } from "../domain/task_draft/schema.ts"
import type { AgentOperations } from "../operations/agent.ts"
import { invalidRequest } from "../operations/invalid_request.ts"

/** How the rate limiter counts a call: as REST counts the request of the same operation. */
export type CallKind = "read" | "write"

/** What a host may assume of a tool (MCP tool annotations). */
export interface Hints {
  readonly readOnly: boolean
  readonly destructive: boolean
  readonly idempotent: boolean
  /** True only where a human is engaged. */
  readonly openWorld: boolean
}

/**
 * What a tool call can fail with: a refusal (an operation's, or its arguments'), answered in the
 * envelope by registration.ts, or a refusal of the endpoint's own already in it.
 */
export type ToolFailure = EnvelopedRefusal | EnvelopeError

/** What a tool needs of the caller beyond its arguments. */
export interface CallContext {
  /** The MCP client's name and version, recorded as the acting agent when a draft names none. */
  readonly client: string | undefined
  /** Reports progress of a long call, when the client asked for it (a no-op otherwise). */
  readonly progress: (progress: number, total: number | undefined, message: string) => Effect.Effect<void>
}

/**
 * A tool: its published name, schemas and hints, and how a call runs over `Deps` (the agents'
 * operations here; the participant's operations and the signed-in caller on their endpoint).
 */
export interface ToolSpec<Deps = AgentOperations["Service"]> {
  readonly name: McpToolName | ParticipantMcpToolName
  readonly title: string
  readonly description: string
  /** The arguments as published (inputSchema). */
  readonly parameters: Schema.Top
  /** The arguments as decoded: the published schema, or a wider one where the rules report issues themselves. */
  readonly decode: (input: unknown) => Effect.Effect<unknown, Schema.SchemaError>
  /** The result as published (outputSchema): the REST response body's schema. */
  readonly success: Schema.Top
  readonly hints: Hints
  readonly kind: CallKind
  readonly run: (
    deps: Deps,
    /** What `decode` made of the arguments. */
    args: unknown,
    context: CallContext
  ) => Effect.Effect<unknown, ToolFailure>
}

/** The spec maker of tools over `Deps`: each tool's `run` typed by what its own `decode` makes. */
export const toolSpecFor =
  <Deps>() =>
  <P extends Schema.Top, D extends Schema.Top = P>(
    options: Omit<ToolSpec<Deps>, "decode" | "parameters" | "run"> & {
      readonly parameters: P
      /** A wider schema to decode with, when the published one is stricter than the rules. */
      readonly decodeWith?: D
      readonly run: (deps: Deps, args: D["Type"], context: CallContext) => Effect.Effect<unknown, ToolFailure>
    }
  ): ToolSpec<Deps> => ({
    ...options,
    // Every failing argument is reported, not only the first: a model fixes them in one go.
    decode: decodeArguments(options.decodeWith ?? options.parameters),
    // Each spec's `run` takes what its own `decode` makes; the list erases that pairing.
    run: options.run as unknown as ToolSpec<Deps>["run"]
  })

/** A decoder of arguments by `schema`, reporting every failing argument. */
export const decodeArguments = (schema: Schema.Top) =>
  Schema.decodeUnknownEffect(schema as unknown as Schema.Codec<unknown>, { errors: "all" })

const spec = toolSpecFor<AgentOperations["Service"]>()

const reference = Schema.String.annotate({
  description: "The task's reference (tsk_…), as submit_task returned it."
})
const taskToken = Schema.String.annotate({
  description:
    "The task_token submit_task returned: it authorises the agent's moves on this task. When submit_task ran as an MCP task, its taskId (mcptask_…) may be given here instead."
})
/** A draft is any JSON object: the draft rules report what is missing or unknown as issues and warnings. */
const AnyDraft = Schema.Record(Schema.String, Schema.Unknown).annotate({
  message: "draft must be a JSON object (a TaskDraft)"
})
const draftDescription =
  "The task brief: a TaskDraft object, as POST /api/public/v1/preflight and /tasks take it (action, execution_mode, acceptance_criteria, result, … — see the marketplace://capabilities resource for the rules)."

/**
 * How long `wait_for_task` waits when not told: under the 60 s an MCP client commonly allows a
 * call (the official SDK's default request timeout), so a default wait ends as a result, not as
 * the client's timeout.
 */
export const defaultWaitSeconds = 30

/** How often a long wait reports that it is still waiting. */
const progressEverySeconds = 10

const readOnly: Hints = { readOnly: true, destructive: false, idempotent: true, openWorld: false }

const SubmitArguments = {
  draft: TaskDraft.annotate({ description: draftDescription }),
  // REST's rule (api/parameters.ts): a key too short is refused by the submission, as over REST.
  idempotency_key: idempotencyKey(
    "idempotency_key",
    `Required here: a fresh random value per task, and a secret (a replay returns the task_token): ${idempotencyKeyRule} (at most ${IDEMPOTENCY_KEY_MAX}). Hosts retry tool calls; a retry with the same key and draft returns the same task, never a second one. The same key used over REST and here names the same task.`
  )
}

const ReviewArguments = Schema.Struct({
  reference,
  task_token: taskToken,
  decision: Schema.Literals(["accept", "revise", "reject"]).annotate({
    description:
      "accept: the result meets the acceptance criteria (the task completes). revise: ask for changes (reason says what). reject: the result fails the acceptance test (reason says why)."
  }),
  reason: Schema.optionalKey(
    Schema.String.annotate({ description: "Required for revise and reject; optional for accept." })
  )
})

export const tools: ReadonlyArray<ToolSpec> = [
  spec({
    name: "search",
    title: "Find the right human for a task",
    description:
      "Describe a task in plain words and get the participants best able to do it, ranked, with an assessment of the task (execution mode, place, what a draft still lacks, a preflight). Use it first, before drafting. Next: build a draft from assessment.draft, check it with preflight, then submit_task (name a participant with participant_slug to hire that one).",
    parameters: SearchRequest,
    success: SearchResult,
    hints: readOnly,
    kind: "write",
    run: (operations, args) => operations.search(args)
  }),
  spec({
    name: "list_participants",
    title: "List participants",
    description: `Lists the humans on the marketplace (a page of up to ${pageSize.max}), optionally filtered by q (words matched against skills, tags and place). Use it to browse; use search to rank people for a described task. Pass next_cursor back as cursor for the next page.`,
    parameters: Schema.Struct({
      q: Schema.optionalKey(Schema.String.annotate({ description: "Words to filter by, e.g. 'plumber Berlin'." })),
      limit: Schema.optionalKey(
        Schema.Int.check(
          Schema.isBetween(
            { minimum: 1, maximum: pageSize.max },
            { message: `limit must be a whole number from 1 to ${pageSize.max}` }
          )
        ).annotate({ description: `Page size, 1–${pageSize.max} (default ${pageSize.default}).` })
      ),
      cursor: Schema.optionalKey(PageCursor)
    }),
    success: ParticipantList,
    hints: readOnly,
    kind: "read",
    run: (operations, args) => Effect.map(operations.listParticipants(args), operations.presentList)
  }),
  spec({
    name: "get_participant",
    title: "Read a participant",
    description:
      "Reads one participant by slug: what they do, where, what they return and what they refuse (boundary). Use it before naming them in a draft's participant_slug.",
    parameters: Schema.Struct({
      slug: Schema.String.annotate({ description: "The participant's slug, e.g. 'lukas-schmidt'." })
    }),
    success: Participant,
    hints: readOnly,
    kind: "read",
    run: (operations, args) => operations.getParticipant(args.slug)
  }),
  spec({
    name: "preflight",
    title: "Check a task draft",
    description:
      "Validates a task draft without submitting it: issues (what must be fixed), warnings (advice, including when nobody could take the task as drafted) and the normalised task. Nothing is stored. Next: fix every issue, then submit_task with the same draft.",
    // Any object, as REST's preflight takes: every problem is named in the answer, never refused.
    parameters: Schema.Struct({ draft: AnyDraft.annotate({ description: draftDescription }) }),
    success: PreflightResult,
    hints: readOnly,
    kind: "write",
    run: (operations, args) => operations.preflight(args.draft)
  }),
  spec({
    name: "submit_task",
    title: "Hire a human: submit a task",
    description:
      "Submits a task to the marketplace: a human is offered it and, once they accept, does it and hands in a structured result. Returns the task with its reference and task_token (keep both: the token authorises cancel_task and review_task). Safe to retry with the same idempotency_key. Next: wait_for_task until the state is submitted (a result to review), then review_task. Called as an MCP task (2026-07-28's Tasks extension, or 2025-11-25's tasks), it answers at once with a task that completes when there is a result to review or the task ends; the task's result is then the task as get_task returns it, and its taskId stands in for the task_token in review_task, cancel_task and get_deliveries.",
    parameters: Schema.Struct(SubmitArguments),
    decodeWith: Schema.Struct({ ...SubmitArguments, draft: AnyDraft }),
    // Called as an MCP task, its result is the task as get_task returns it (task_front.ts).
    success: Schema.Union([CreatedTask, Task]),
    hints: { readOnly: false, destructive: false, idempotent: true, openWorld: true },
    kind: "write",
    run: (operations, args, context) =>
      Effect.map(
        operations.submit({
          body: args.draft,
          headerKey: args.idempotency_key,
          headerKeyIs: "argument",
          userAgent: context.client
        }),
        (submission) => submission.task
      )
  }),
  spec({
    name: "get_task",
    title: "Read a task",
    description:
      "Reads a task now: its state, history, the participant's result when there is one, and next_step (what to do next). To wait for a change instead of reading again and again, use wait_for_task.",
    parameters: Schema.Struct({ reference }),
    success: Task,
    hints: readOnly,
    kind: "read",
    run: (operations, args) => Effect.map(operations.read(args.reference), (current) => current.task)
  }),
  spec({
    name: "wait_for_task",
    title: "Wait for a task to change",
    description: `Waits until the task changes, then returns it: at once if it is already newer than since (the updated_at you last saw), else as soon as it changes, or when wait_seconds (at most ${maxWaitSeconds}, default ${defaultWaitSeconds}) are over — then it returns the task unchanged; call again to keep waiting. Sends a progress notification when it starts, every 10 s while it waits and when it ends, when the call carries a progress token.`,
    parameters: Schema.Struct({
      reference,
      since: Schema.optionalKey(
        Schema.String.check(
          Schema.makeFilter((s: string) => !Number.isNaN(Date.parse(s)), {
            message: "since must be a date-time, the updated_at of the task as you last saw it"
          })
        ).annotate({ format: "date-time", description: "The task's updated_at as you last saw it." })
      ),
      wait_seconds: Schema.optionalKey(
        Schema.Finite.check(
          Schema.isBetween(
            { minimum: 0, maximum: maxWaitSeconds },
            { message: `wait_seconds must be a number from 0 to ${maxWaitSeconds}` }
          )
        ).annotate({
          description: `How long to wait at most, 0–${maxWaitSeconds} seconds (default ${defaultWaitSeconds}).`
        })
      )
    }),
    success: Task,
    hints: readOnly,
    kind: "read",
    run: (operations, args, context) => waitForTask(operations, args, context)
  }),
  spec({
    name: "cancel_task",
    title: "Cancel a task",
    description:
      "Cancels a task that is not finished yet (the human stops; nothing is delivered). It cannot be undone. Use it when the task is no longer needed. Needs the task_token from submit_task.",
    // The reason by REST's own rule (CancelRequest: at most 4,000 characters, or null for none).
    parameters: Schema.Struct({ reference, task_token: taskToken, ...CancelRequest.fields }),
    success: Task,
    hints: { readOnly: false, destructive: true, idempotent: false, openWorld: true },
    kind: "write",
    // The move checks the token itself; nothing is decoded in between to order refusals around.
    run: (operations, args) => operations.cancel(args.reference, args.task_token, args.reason ?? undefined)
  }),
  spec({
    name: "review_task",
    title: "Review a delivered result",
    description:
      "Reviews the result the human handed in (the task is submitted): accept it, ask for a revision (reason says what to change), or reject it (reason says why it fails the acceptance criteria). Needs the task_token from submit_task.",
    parameters: ReviewArguments,
    success: Task,
    hints: { readOnly: false, destructive: false, idempotent: false, openWorld: true },
    kind: "write",
    run: (operations, args) =>
      Effect.andThen(operations.checkAgent(args.reference, args.task_token), () =>
        Effect.flatMap(
          decodeDecision({
            decision: args.decision,
            ...(args.reason === undefined ? {} : { reason: args.reason })
          }),
          (decision) => operations.review(args.reference, args.task_token, decision)
        )
      )
  }),
  spec({
    name: "get_deliveries",
    title: "Check a task's webhook deliveries",
    description:
      "Lists the webhook events of a task submitted with a webhook_url (one per entry of its history) and how each was delivered: every attempt with its time and the receiver's status or the error, and the event's state (pending with its next attempt, delivered, or failed). Use it when your receiver missed events. Needs the task_token from submit_task.",
    parameters: Schema.Struct({ reference, task_token: taskToken }),
    success: DeliveryList,
    hints: readOnly,
    kind: "read",
    run: (operations, args) => operations.deliveries(args.reference, args.task_token)
  }),
  spec({
    name: "send_message",
    title: "Write to the task's participant",
    description:
      'Writes a message (body, 1 to 4,000 characters) to the participant the task is offered to or held by: answer their question, or tell them what you need ("the left door"). From the first offer until the task ends; it changes nothing of the task. Read their answers with get_messages (or have them sent to the webhook_url as task.message events). Needs the task_token from submit_task.',
    parameters: Schema.Struct({ reference, task_token: taskToken, body: MessageRequest.fields.body }),
    success: Message,
    hints: { readOnly: false, destructive: false, idempotent: false, openWorld: true },
    kind: "write",
    run: (operations, args) => operations.postMessage(args.reference, args.task_token, { body: args.body })
  }),
  spec({
    name: "get_messages",
    title: "Read the task's messages",
    description:
      "The task's conversation with its participants, oldest first: every message you and they wrote (from: agent or participant). Needs the task_token from submit_task.",
    parameters: Schema.Struct({ reference, task_token: taskToken }),
    success: MessageList,
    hints: readOnly,
    kind: "read",
    run: (operations, args) => operations.messages(args.reference, args.task_token)
  })
]

/** The tools a sandbox serves besides (SANDBOX=on only). */
export const sandboxTools: ReadonlyArray<ToolSpec> = [
  spec({
    name: "advance_clock",
    title: "Move the sandbox's clock forward",
    description:
      "Sandbox only. Moves the sandbox's time forward by advance, an ISO 8601 duration (PT25H, P3D, PT90M), for everything that waits on time: offers lapse, review windows close, deadlines pass, sim-slow delivers; the moves that fell due are made within a few seconds. Returns the sandbox's time. The clock never goes back.",
    parameters: AdvanceClockRequest,
    success: SandboxClockState,
    hints: { readOnly: false, destructive: false, idempotent: false, openWorld: false },
    kind: "write",
    run: (operations, args) => operations.advanceSandboxClock(args.advance)
  })
]

/** The review's decision, by the rule REST decodes it with (a reason for revise and reject). */
const decodeDecisionWith = Schema.decodeUnknownEffect(ReviewDecision)
const decodeDecision = (input: unknown) => Effect.mapError(decodeDecisionWith(input), invalidArguments)

/** A long wait (made once: docs/performance.md, "No generator function made per request"). */
const waitForTask = Effect.fnUntraced(function* (
  operations: AgentOperations["Service"],
  args: { readonly reference: string; readonly since?: string; readonly wait_seconds?: number },
  context: CallContext
) {
  const since = args.since === undefined ? undefined : Date.parse(args.since)
  const waitSeconds = args.wait_seconds ?? defaultWaitSeconds
  const answerNow = (first: { readonly task: Task }) => since !== undefined && Date.parse(first.task.updated_at) > since
  // Progress must grow from one notification to the next: none for a wait of no time.
  const progress = waitSeconds > 0 ? context.progress : () => Effect.void
  yield* progress(0, waitSeconds, `waiting up to ${waitSeconds} s for task ${args.reference} to change`)
  // While it waits, every ten seconds: still waiting (ended when the wait is).
  let waited = 0
  const stillWaiting = Effect.forever(
    Effect.andThen(Effect.sleep(`${progressEverySeconds} seconds`), () => {
      waited += progressEverySeconds
      return waited < waitSeconds
        ? progress(waited, waitSeconds, `still waiting for task ${args.reference} (${waited} s)`)
        : Effect.void
    })
  )
  const current = yield* Effect.raceFirst(
    operations.waitForChange(args.reference, answerNow, waitSeconds * 1000),
    Effect.andThen(stillWaiting, Effect.never)
  )
  // The wait is over, whether the task changed or the time ran out.
  yield* progress(waitSeconds, waitSeconds, `task ${args.reference} is ${current.task.state}`)
  return current.task
})

/** A schema failure of a tool's arguments, as REST names a failed request member. */
export const invalidArguments = (error: Schema.SchemaError) => invalidRequest("Arguments", error)

/**
 * How the rate limiter counts an MCP request (its JSON-RPC body) to an endpoint serving `specs`: a
 * tool call as REST counts the same operation (search, preflight and the moves as writes; reads as
 * reads), anything else (initialize, listings, resources, prompts, notifications) as a read.
 */
export const callKindOf = (specs: ReadonlyArray<{ readonly name: string; readonly kind: CallKind }>) => {
  const kindOf = new Map<string, CallKind>(specs.map((tool) => [tool.name, tool.kind]))
  return (body: string): CallKind => {
    try {
      const message = JSON.parse(body) as { method?: unknown; params?: { name?: unknown } }
      return message?.method === "tools/call" && kindOf.get(String(message.params?.name)) === "write" ? "write" : "read"
    } catch {
      return "read"
    }
  }
}

/** How the rate limiter counts a request to the agents' endpoint. */
export const callKind = callKindOf(tools)
