/**
 * The tools of the participant's MCP endpoint: a participant's own assistant acting for them, one
 * tool per participant operation of the REST API (operations/participant.ts) — GET /me, GET
 * /me/tasks and the moves on a task. Their names are public contract (api/mcp.ts). As on the
 * agents' endpoint (tools.ts), each declares its arguments and result with the Schemas REST
 * publishes, a result's `structuredContent` is exactly the REST body, and a refusal is a result
 * with `isError: true` carrying the REST error envelope. Every call acts as the signed-in caller
 * (verified from the request's access token before the call reaches the MCP server).
 *
 * Who the caller is comes in its own tool (`who_am_i`, GET /me) rather than inside `my_tasks`, so
 * that each result is exactly one REST body.
 */
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { Account, DeclineRequest, ResultSubmission, TaskList } from "../api/resources.ts"
import { Message, MessageList, MessageRequest } from "../domain/messages.ts"
import { Task } from "../domain/task.ts"
import type { Caller, ParticipantOperations } from "../operations/participant.ts"
import { decodeArguments, type Hints, invalidArguments, type ToolFailure, toolSpecFor } from "./tools.ts"

/** What a participant's tool runs over: the operations, and the caller its request signed in as. */
export interface ParticipantDeps {
  readonly operations: ParticipantOperations["Service"]
  readonly caller: Caller
}

const spec = toolSpecFor<ParticipantDeps>()

const reference = Schema.String.annotate({
  description: "The task's reference (tsk_…), as my_tasks lists it."
})

/** The arguments as first decoded: the reference, the rest kept as sent (judged after the holder check). */
const WithReference = Schema.StructWithRest(Schema.Struct({ reference }), [
  Schema.Record(Schema.String, Schema.Unknown)
])

const readOnly: Hints = { readOnly: true, destructive: false, idempotent: true, openWorld: false }

/**
 * A move carrying more than the reference (a reason, a result): the wrong party is refused first,
 * then what came with the move is decoded by the schema REST decodes the body with — the order
 * REST answers in, so both give the same refusal for the same mistake.
 */
const moveWith =
  <S extends Schema.Top, A>(
    schema: S,
    make: (deps: ParticipantDeps, reference: string, body: S["Type"]) => Effect.Effect<A, ToolFailure>
  ) =>
  (deps: ParticipantDeps, args: typeof WithReference.Type) => {
    const { reference, ...rest } = args
    return Effect.andThen(deps.operations.checkHolder(deps.caller, reference), () =>
      Effect.flatMap(Effect.mapError(decodeArguments(schema)(rest), invalidArguments), (body) =>
        make(deps, reference, body as S["Type"])
      )
    )
  }

export const participantTools = [
  spec({
    name: "who_am_i",
    title: "Who am I",
    description:
      "Tells who the person you act for is on the marketplace: their account (the OAuth subject) and their participant profile — what they do, where, what they return and what they refuse. Same as GET /api/public/v1/me.",
    parameters: Schema.Struct({}),
    success: Account,
    hints: readOnly,
    kind: "read",
    run: ({ operations, caller }) => operations.me(caller)
  }),
  spec({
    name: "my_tasks",
    title: "My offers and tasks",
    description:
      "Lists the tasks offered to or held by the person you act for, newest first, each with its state, brief (action, place, timing, expected result, acceptance test), history and next_step. An offer is a task in state awaiting_participant: accept_task or decline_task it. Same as GET /api/public/v1/me/tasks.",
    parameters: Schema.Struct({}),
    success: TaskList,
    hints: readOnly,
    kind: "read",
    run: ({ operations, caller }) => operations.myTasks(caller)
  }),
  spec({
    name: "accept_task",
    title: "Accept an offer",
    description:
      "Accepts a task offered to the person you act for (state awaiting_participant → accepted): they commit to doing it as briefed. Ask them first. Next: start_task when they begin the work.",
    parameters: Schema.Struct({ reference }),
    success: Task,
    hints: { readOnly: false, destructive: false, idempotent: true, openWorld: true },
    kind: "write",
    run: ({ operations, caller }, args) => operations.accept(caller, args.reference)
  }),
  spec({
    name: "decline_task",
    title: "Decline an offer",
    description:
      "Declines a task offered to the person you act for; the offer cannot be taken back (the task goes to someone else, or ends). Ask them first; pass their reason if they give one.",
    parameters: Schema.Struct({ reference, ...DeclineRequest.fields }),
    decodeWith: WithReference,
    success: Task,
    hints: { readOnly: false, destructive: true, idempotent: true, openWorld: true },
    kind: "write",
    run: moveWith(DeclineRequest, ({ operations, caller }, ref, { reason }) => operations.decline(caller, ref, reason))
  }),
  spec({
    name: "start_task",
    title: "Start work on a task",
    description:
      "Marks an accepted task as started (accepted → in_flight): the person you act for is doing the work now. Next: submit_result when it is done.",
    parameters: Schema.Struct({ reference }),
    success: Task,
    hints: { readOnly: false, destructive: false, idempotent: true, openWorld: true },
    kind: "write",
    run: ({ operations, caller }, args) => operations.start(caller, args.reference)
  }),
  spec({
    name: "submit_result",
    title: "Hand in the result",
    description:
      "Hands in the result of a task in flight (in_flight → submitted): a summary of what was done and found, the structured fields the brief's expected_result asks for, and artifacts ({kind: url | text | file, value, description?}: a link, a text, a file's name). The agent then reviews it: accepts it, or asks for a revision (the task comes back in_flight; submit again). Check the result against the task's acceptance_test first; when its brief has a result_schema (a JSON Schema), fields must satisfy it, or the result is refused with result_invalid, details naming each failing field.",
    parameters: Schema.Struct({ reference, ...ResultSubmission.fields }),
    decodeWith: WithReference,
    success: Task,
    hints: { readOnly: false, destructive: false, idempotent: false, openWorld: true },
    kind: "write",
    run: moveWith(ResultSubmission, ({ operations, caller }, ref, result) =>
      operations.submitResult(caller, ref, result)
    )
  }),
  spec({
    name: "send_message",
    title: "Write to the task's agent",
    description:
      'Writes a message (body, 1 to 4,000 characters) to the agent of a task offered to or held by the person you act for: ask what is unclear before accepting or while working ("which entrance?"). From the first offer until the task ends; it changes nothing of the task. Read the answers with get_messages.',
    parameters: Schema.Struct({ reference, ...MessageRequest.fields }),
    decodeWith: WithReference,
    success: Message,
    hints: { readOnly: false, destructive: false, idempotent: false, openWorld: true },
    kind: "write",
    run: moveWith(MessageRequest, ({ operations, caller }, ref, request) =>
      operations.postMessage(caller, ref, request)
    )
  }),
  spec({
    name: "get_messages",
    title: "Read the task's messages",
    description:
      "The conversation with the task's agent, oldest first (from: agent or participant), on a task offered to or held by the person you act for.",
    parameters: Schema.Struct({ reference }),
    success: MessageList,
    hints: readOnly,
    kind: "read",
    run: ({ operations, caller }, args) => operations.messages(caller, args.reference)
  })
]
