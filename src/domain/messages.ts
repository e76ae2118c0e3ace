/**
 * A conversation on each task, the rules alone: who may write and read, and until when. The agent
 * (its task token) talks with the participant the task is offered to or held by; each participant
 * has a thread of their own, so a participant offered the task later never reads what was said to
 * another, and one who declined or let the offer lapse no longer reads theirs. Writing is open from
 * the first offer until the task ends. A message changes nothing of the task (nor its ETag).
 * Storage is services/task_messages.ts.
 */
import * as Schema from "effect/Schema"
import { NotPermitted, RefusalError } from "./errors.ts"
import { isTerminal, TaskState } from "./lifecycle.ts"
import { filledText } from "./task.ts"
import type { StoredTask } from "./task_record.ts"

/** The most characters a message's body holds (Unicode code points, after trimming). */
export const messageBodyLimit = 4000

/** Who speaks: the agent, or a participant by slug. */
export type Speaker = { readonly _tag: "Agent" } | { readonly _tag: "Participant"; readonly slug: string }

/** A conversation's facts about its task: its state, and who it is offered to or held by now. */
export type ConversationFacts = Pick<StoredTask, "reference" | "state" | "participantSlug">

/** A message cannot be written now: 409 invalid_transition, saying why. */
export class ConversationClosed extends RefusalError<ConversationClosed>()(
  "ConversationClosed",
  { reference: Schema.String, state: TaskState, reason: Schema.Literals(["ended", "nobody"]) },
  {
    status: 409,
    code: "invalid_transition",
    message: (e) =>
      e.reason === "ended"
        ? `The task is ${e.state}: its conversation is closed.`
        : `The task is ${e.state} and offered to nobody: a message needs a participant to read it.`,
    hint: (e) =>
      e.reason === "ended"
        ? "Messages can be written from the first offer until the task ends; the ones written stay readable."
        : "Write once the task is offered to a participant (read the task: state awaiting_participant)."
  }
) {}

/**
 * The thread `speaker` writes to on `task` (the participant's slug), or why they cannot write now:
 * a participant the task is not offered to or held by is refused as on the task's other moves
 * (403, whatever its state), then an ended task or one offered to nobody (409).
 */
export const threadToWrite = (
  task: ConversationFacts,
  speaker: Speaker
): string | ConversationClosed | NotPermitted => {
  if (speaker._tag === "Participant" && task.participantSlug !== speaker.slug) {
    return notTheirs()
  }
  if (isTerminal(task.state))
    return new ConversationClosed({ reference: task.reference, state: task.state, reason: "ended" })
  const participant = task.participantSlug
  if (participant === null)
    return new ConversationClosed({ reference: task.reference, state: task.state, reason: "nobody" })
  return participant
}

/**
 * The threads `speaker` may read on `task`: the agent every thread ("all"); a participant their own
 * while the task is offered to or held by them (also once it has ended with them); anyone else is
 * refused as on the task's other moves.
 */
export const threadsToRead = (task: ConversationFacts, speaker: Speaker): "all" | string | NotPermitted =>
  speaker._tag === "Agent" ? "all" : task.participantSlug === speaker.slug ? speaker.slug : notTheirs()

const notTheirs = () => new NotPermitted({ reason: "this task is not offered to or held by you" })

/** What a party sends to write a message: its body, 1 to 4,000 characters, not blank (kept trimmed). */
export const MessageRequest = Schema.Struct({
  body: filledText(messageBodyLimit, "body").annotate({
    description: `The message: 1 to ${messageBodyLimit} characters (kept trimmed).`
  })
}).annotate({ identifier: "MessageRequest" })
export type MessageRequest = typeof MessageRequest.Type

/** A message as the parties read it. */
export const Message = Schema.Struct({
  object: Schema.Literal("message"),
  id: Schema.String.annotate({ description: "The message's id (msg_…)." }),
  from: Schema.Literals(["agent", "participant"]).annotate({ description: "Who wrote it." }),
  body: Schema.String,
  created_at: Schema.String.annotate({ format: "date-time" })
}).annotate({ identifier: "Message", description: "A message of a task's conversation." })
export type Message = typeof Message.Type

export const MessageList = Schema.Struct({
  object: Schema.Literal("list"),
  count: Schema.Int.annotate({ description: "Number of messages in data." }),
  data: Schema.Array(Message).annotate({ description: "The messages these credentials may read, oldest first." })
}).annotate({ identifier: "MessageList", description: "A task's conversation, as these credentials may read it." })
export type MessageList = typeof MessageList.Type
