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
  "review_task"
] as const
export type McpToolName = (typeof mcpToolNames)[number]

export const mcpResources = {
  capabilities: "marketplace://capabilities",
  participant: "marketplace://participants/{slug}",
  task: "marketplace://tasks/{reference}"
} as const

export const mcpPromptNames = ["hire_a_human"] as const

/** Newest first: a client gets the newest revision it asks for or knows. */
export const mcpProtocolVersions = ["2025-11-25", "2025-06-18", "2025-03-26"] as const
