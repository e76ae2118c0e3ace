/**
 * The conversation's rules alone (src/domain/messages.ts), with no database: who writes to which
 * thread, who reads which, and when writing closes.
 */
import { describe, expect, it } from "@effect/vitest"
import { taskStates } from "../../src/domain/lifecycle.ts"
import { type ConversationFacts, threadsToRead, threadToWrite } from "../../src/domain/messages.ts"

const task = (state: ConversationFacts["state"], participantSlug: string | null): ConversationFacts => ({
  reference: "tsk_aaaaaaaaaaaaaaaaaaaaaaaaaa",
  state,
  participantSlug
})
const agent = { _tag: "Agent" } as const
const ada = { _tag: "Participant", slug: "ada" } as const
const bea = { _tag: "Participant", slug: "bea" } as const
const tagOf = (answer: unknown) => (typeof answer === "string" ? answer : (answer as { _tag: string })._tag)

describe("a task's conversation", () => {
  it("the agent and the participant offered or holding the task write to that participant's thread", () => {
    for (const state of ["awaiting_participant", "accepted", "in_flight", "submitted"] as const) {
      expect(threadToWrite(task(state, "ada"), agent), state).toBe("ada")
      expect(threadToWrite(task(state, "ada"), ada), state).toBe("ada")
    }
  })

  it("another participant is refused whatever the state (403), before the state is judged", () => {
    for (const state of taskStates) {
      expect(tagOf(threadToWrite(task(state, "ada"), bea)), state).toBe("NotPermitted")
      expect(tagOf(threadToWrite(task(state, null), bea)), state).toBe("NotPermitted")
      expect(tagOf(threadsToRead(task(state, "ada"), bea)), state).toBe("NotPermitted")
    }
  })

  it("writing closes when the task ends, and waits while it is offered to nobody (409, saying which)", () => {
    for (const state of ["settled", "declined", "cancelled"] as const) {
      const closed = threadToWrite(task(state, "ada"), agent)
      expect([tagOf(closed), (closed as { reason: string }).reason], state).toEqual(["ConversationClosed", "ended"])
    }
    for (const state of ["open", "matching"] as const) {
      const nobody = threadToWrite(task(state, null), agent)
      expect([tagOf(nobody), (nobody as { reason: string }).reason], state).toEqual(["ConversationClosed", "nobody"])
    }
  })

  it("the agent reads every thread; a participant their own while the task is theirs, also once it ended", () => {
    expect(threadsToRead(task("in_flight", "ada"), agent)).toBe("all")
    expect(threadsToRead(task("matching", null), agent)).toBe("all")
    expect(threadsToRead(task("in_flight", "ada"), ada)).toBe("ada")
    expect(threadsToRead(task("settled", "ada"), ada)).toBe("ada")
    // Declined, or the offer lapsed: the task is no longer theirs, nor its thread.
    expect(tagOf(threadsToRead(task("matching", null), ada))).toBe("NotPermitted")
  })
})
