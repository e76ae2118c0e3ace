// An MCP task's status from its marketplace task's history (issue 37): working until the task
// first has a result to review or ends; completed from then on (a revision asked after completion,
// or a cancel after it, leaves it completed); cancelled only when cancelled before that.
import { describe, expect, it } from "@effect/vitest"
import type { TaskState } from "../../src/domain/lifecycle.ts"
import type { Task } from "../../src/domain/task.ts"
import { mcpStatusOf, mcpTaskTtlMs } from "../../src/operations/mcp_tasks.ts"

/** A task that went through `states`, one a minute from 10:00. */
const through = (...states: ReadonlyArray<TaskState>) =>
  ({
    state: states.at(-1),
    history: states.map((to, i) => ({
      from: i === 0 ? null : states[i - 1],
      to,
      actor: "service",
      at: `2030-01-01T10:0${i}:00.000Z`
    }))
  }) as unknown as Task

describe("mcpStatusOf", () => {
  it("is working while the task waits for a participant and while they work", () => {
    for (const states of [
      ["open"],
      ["open", "matching", "awaiting_participant"],
      ["open", "matching", "awaiting_participant", "matching", "awaiting_participant", "accepted", "in_flight"]
    ] as const) {
      expect(mcpStatusOf(through(...states))).toEqual({ status: "working", since: undefined })
    }
  })

  it("completes at the first result to review, or when the task ends settled or declined", () => {
    expect(mcpStatusOf(through("open", "awaiting_participant", "accepted", "in_flight", "submitted"))).toEqual({
      status: "completed",
      since: "2030-01-01T10:04:00.000Z"
    })
    expect(mcpStatusOf(through("open", "matching", "declined"))).toEqual({
      status: "completed",
      since: "2030-01-01T10:02:00.000Z"
    })
  })

  it("stays completed through a revision, and through a cancel after it", () => {
    const revised = through("open", "awaiting_participant", "accepted", "in_flight", "submitted", "in_flight")
    expect(mcpStatusOf(revised)).toEqual({ status: "completed", since: "2030-01-01T10:04:00.000Z" })
    const cancelledAfter = through("open", "accepted", "in_flight", "submitted", "in_flight", "cancelled")
    expect(mcpStatusOf(cancelledAfter).status).toBe("completed")
  })

  it("is cancelled when the task was cancelled before any result", () => {
    expect(mcpStatusOf(through("open", "awaiting_participant", "cancelled"))).toEqual({
      status: "cancelled",
      since: "2030-01-01T10:02:00.000Z"
    })
  })
})

describe("mcpTaskTtlMs", () => {
  it("is a week, or the review window when that is longer", () => {
    expect(mcpTaskTtlMs(72 * 3600_000)).toBe(7 * 24 * 3600_000)
    expect(mcpTaskTtlMs(30 * 24 * 3600_000)).toBe(30 * 24 * 3600_000)
  })
})
