/**
 * The MCP interface's public names: tools, resources, prompts and protocol revisions. Like the
 * REST paths they are contract; the MCP server (mcp/) serves exactly these, and the service index
 * and /capabilities announce them from here.
 */
export const mcpToolNames = [
  "search",
  "list_participants",
  "get_participant",
  "preflight",
  "submit_task",
  "get_task",
  "wait_for_task",
  "cancel_task",
  "review_task",
  "get_deliveries",
  "send_message",
  "get_messages"
] as const
/** Tools served by a sandbox only (SANDBOX=on), beside the others. */
export const sandboxMcpToolNames = ["advance_clock"] as const

export type McpToolName = (typeof mcpToolNames)[number] | (typeof sandboxMcpToolNames)[number]

/**
 * The tools of the participant's MCP endpoint (`<MCP_URL>/participant`, OAuth-protected): a
 * participant's own assistant acting for them, as GET /me, GET /me/tasks and the participant's
 * moves do over REST.
 */
export const participantMcpToolNames = [
  "who_am_i",
  "my_tasks",
  "accept_task",
  "decline_task",
  "start_task",
  "submit_result",
  "send_message",
  "get_messages"
] as const
export type ParticipantMcpToolName = (typeof participantMcpToolNames)[number]

export const mcpResources = {
  capabilities: "marketplace://capabilities",
  participant: "marketplace://participants/{slug}",
  task: "marketplace://tasks/{reference}"
} as const

export const mcpPromptNames = ["hire_a_human"] as const

/** Newest first: a client gets the newest revision it asks for or knows. */
export const mcpProtocolVersions = ["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26"] as const

/** How often a client following an MCP task is asked to poll: a human's work takes minutes to hours. */
export const mcpTaskPollIntervalMs = 5_000

/** An MCP task's time-to-live after it completes: a week, or the review window when that is longer. */
export const mcpTaskTtlMs = (reviewWindowMs: number) => Math.max(7 * 24 * 3600_000, reviewWindowMs)
