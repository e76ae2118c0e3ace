/**
 * A marketplace task followed as an MCP Task (issue 37): what an agent that hired through a
 * task-augmented `submit_task` reads, cancels and reviews with, on MCP's 2025-11-25 experimental
 * tasks and 2026-07-28's Tasks extension alike (mcp/task_front.ts speaks the wire).
 *
 * - The MCP task id is a capability, like the task token: 256 random bits (`mcptask_…`), neither the
 *   reference nor the token, kept as a hash (services/mcp_task_store.ts), never shown to the
 *   participant. Whoever holds it may read and cancel that task, and the agents' MCP tools that take
 *   a `task_token` accept it in its place (`taskTokenFor`); the reference alone grants nothing.
 * - Its status is the marketplace task's, read each time (nothing to keep in step): `working` while
 *   the task waits for a participant and while they work (the status message is its `next_step`);
 *   `completed` from the first time it has a result to review or ends submitted, settled or
 *   declined; `cancelled` when it was cancelled before that. A revision asked after completion
 *   leaves it completed (the agent follows it with get_task / wait_for_task). Its result is the
 *   task as get_task returns it at that moment.
 * - It lives `ttlMs` from its completion (at least the review window), then is unknown.
 */
import { randomBytes } from "node:crypto"
import * as Context from "effect/Context"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { mcpTaskPollIntervalMs, mcpTaskTtlMs } from "../api/mcp.ts"
import { AppConfig } from "../config/app_config.ts"
import type { StorageUnavailable, TaskNotFound } from "../domain/errors.ts"
import type { Task } from "../domain/task.ts"
import { McpTaskStore } from "../services/mcp_task_store.ts"
import { SandboxClock } from "../services/sandbox_clock.ts"
import { TaskTokens } from "../services/task_tokens.ts"
import { type AgentMoveFailure, AgentOperations } from "./agent.ts"

export type McpTaskStatus = "working" | "completed" | "cancelled"

/** An MCP task as both revisions present it (mcp/task_front.ts shapes it for each). */
export interface McpTaskView {
  readonly id: string
  readonly status: McpTaskStatus
  readonly statusMessage: string
  readonly createdAt: string
  readonly lastUpdatedAt: string
  readonly ttlMs: number
  readonly pollIntervalMs: number
  /** The marketplace task, as get_task returns it now: the MCP task's result once completed. */
  readonly task: Task
}

/** An MCP task id this service never issued, or one whose time-to-live is over. */
export class McpTaskNotFound extends Data.TaggedError("McpTaskNotFound")<{}> {}

/** Cancelling an MCP task that already completed or was cancelled. */
export class McpTaskFinished extends Data.TaggedError("McpTaskFinished")<{ readonly view: McpTaskView }> {}

/** The prefix of an MCP task id: what tells one from a task token where a tool takes either. */
export const mcpTaskIdPrefix = "mcptask_"

export { mcpTaskPollIntervalMs, mcpTaskTtlMs }

/** The MCP status of a marketplace task, and since when it holds when it is final. */
export const mcpStatusOf = (task: Task): { readonly status: McpTaskStatus; readonly since: string | undefined } => {
  const final = task.history.find(
    (entry) => entry.to === "submitted" || entry.to === "settled" || entry.to === "declined" || entry.to === "cancelled"
  )
  if (final === undefined) return { status: "working", since: undefined }
  return { status: final.to === "cancelled" ? "cancelled" : "completed", since: final.at }
}

export class McpTaskOperations extends Context.Service<
  McpTaskOperations,
  {
    /** A new MCP task following the marketplace task `reference` (just submitted). */
    open(reference: string): Effect.Effect<McpTaskView, TaskNotFound | StorageUnavailable>
    get(id: string): Effect.Effect<McpTaskView, McpTaskNotFound | StorageUnavailable>
    /** Cancels the marketplace task as its agent ("the agent cancelled"), when it still can be. */
    cancel(id: string): Effect.Effect<McpTaskView, McpTaskNotFound | McpTaskFinished | AgentMoveFailure>
    /**
     * The task token to act with when a tool was given `presented` in its place: the task's own
     * token when `presented` is a live MCP task id of that very task, else `presented` unchanged
     * (a wrong one is then refused as any wrong token is).
     */
    taskTokenFor(reference: string, presented: string): Effect.Effect<string, StorageUnavailable>
  }
>()("task-marketplace/operations/McpTaskOperations") {
  static readonly layer = Layer.effect(
    McpTaskOperations,
    Effect.gen(function* () {
      const config = yield* AppConfig
      const store = yield* McpTaskStore
      const agent = yield* AgentOperations
      const tokens = yield* TaskTokens
      const clock = yield* SandboxClock
      const ttlMs = mcpTaskTtlMs(config.reviewWindowMs)

      const viewOf = (id: string, createdAt: string, task: Task): McpTaskView => {
        const { status } = mcpStatusOf(task)
        return {
          id,
          status,
          statusMessage: task.next_step,
          createdAt,
          // The task may have last moved just before its MCP task was made.
          lastUpdatedAt: task.updated_at > createdAt ? task.updated_at : createdAt,
          ttlMs,
          pollIntervalMs: mcpTaskPollIntervalMs,
          task
        }
      }

      /** The stored MCP task and its marketplace task, unless unknown or expired. */
      const live = Effect.fnUntraced(function* (id: string) {
        const stored = id.startsWith(mcpTaskIdPrefix) ? yield* store.find(id) : undefined
        if (stored === undefined) return undefined
        const read = yield* Effect.catchTag(agent.read(stored.reference), "TaskNotFound", () =>
          Effect.succeed(undefined)
        )
        if (read === undefined) return undefined
        const { since } = mcpStatusOf(read.task)
        if (since !== undefined && Date.parse(since) + ttlMs < (yield* clock.now)) return undefined
        return { stored, task: read.task }
      })

      const open = Effect.fn("McpTaskOperations.open")(function* (reference: string) {
        const id = `${mcpTaskIdPrefix}${randomBytes(32).toString("base64url")}`
        const { task } = yield* agent.read(reference)
        const now = yield* clock.now
        const createdAt = new Date(now).toISOString()
        yield* store.record(id, { reference, createdAt }, new Date(now - ttlMs).toISOString())
        return viewOf(id, createdAt, task)
      })

      const get = Effect.fn("McpTaskOperations.get")(function* (id: string) {
        const found = yield* live(id)
        if (found === undefined) return yield* new McpTaskNotFound()
        return viewOf(id, found.stored.createdAt, found.task)
      })

      const cancel = Effect.fn("McpTaskOperations.cancel")(function* (id: string) {
        const found = yield* live(id)
        if (found === undefined) return yield* new McpTaskNotFound()
        const view = viewOf(id, found.stored.createdAt, found.task)
        if (view.status !== "working") return yield* new McpTaskFinished({ view })
        const { reference } = found.stored
        const task = yield* agent.cancel(reference, tokens.tokenFor(reference), "Cancelled through its MCP task.")
        return viewOf(id, found.stored.createdAt, task)
      })

      const taskTokenFor = Effect.fn("McpTaskOperations.taskTokenFor")(function* (
        reference: string,
        presented: string
      ) {
        if (!presented.startsWith(mcpTaskIdPrefix)) return presented
        const found = yield* live(presented)
        return found?.stored.reference === reference ? tokens.tokenFor(reference) : presented
      })

      return McpTaskOperations.of({ open, get, cancel, taskTokenFor })
    })
  )
}
