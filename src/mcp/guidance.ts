/**
 * What the MCP server says to a model: its instructions (sent at initialize) and the
 * `hire_a_human` prompt — the REST cold start (api/description.ts) told in tool names.
 */
import type { AppSettings } from "../config.ts"

const coldStartWithTools = [
  "search: describe the task in plain words; read the ranked participants and the assessment (what a draft still lacks).",
  "Build a draft: action, execution_mode (digital | physical | hybrid), expected_result, acceptance_test; location for physical and hybrid; add timing, principal and agent; name a participant with participant_slug to hire that one.",
  "preflight the draft until valid is true: fix every issue; warnings no_eligible_participant and participant_ineligible mean nobody can take the task as drafted, and say what to change.",
  "submit_task with the draft and a fresh idempotency_key (a UUID); retry with the same key after any failure — it never makes a second task.",
  "Keep the reference and task_token it returns.",
  "wait_for_task (pass since = the updated_at you last saw) until the state is submitted (a result to review), settled, declined or cancelled.",
  "When it is submitted: read the task's result, then review_task with accept, revise (say what to change) or reject (say why)."
] as const

export const instructions = (config: Pick<AppSettings, "docsUrl">) =>
  [
    "Task Marketplace: hire humans (participants) for bounded digital, physical or hybrid tasks and get a structured result back.",
    "Steps:",
    ...coldStartWithTools.map((step, i) => `${i + 1}. ${step}`),
    "A refused call returns isError with structuredContent { error: { code, message, hint, details } }: the hint says what to do; details names each field to fix.",
    "The rules (lifecycle, draft fields, limits) are in the resource marketplace://capabilities.",
    `Documentation: ${config.docsUrl}`
  ].join("\n")

export const hireAHuman = (goal: string) =>
  [
    `I need a human to do this: ${goal}`,
    "",
    "Use the Task Marketplace tools, in this order:",
    ...coldStartWithTools.map((step, i) => `${i + 1}. ${step}`),
    "",
    "Ask me before submitting when the draft needs something only I know (the place, the deadline, what counts as done)."
  ].join("\n")
