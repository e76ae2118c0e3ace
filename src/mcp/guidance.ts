/**
 * What the MCP server says to a model: its instructions (sent at initialize) and the
 * `hire_a_human` prompt — the REST cold start (api/description.ts) told in tool names.
 */
import type { AppSettings } from "../config/settings.ts"

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

/** What the participant's endpoint says to the assistant of the person it acts for (sent at initialize). */
export const participantInstructions = (config: Pick<AppSettings, "docsUrl">) =>
  [
    "Task Marketplace, for a participant: you act for a human who does tasks that software agents hire people for (digital, physical or hybrid work, each with a brief and an acceptance test). Every call acts as them: their access token says who they are.",
    "What you can do for them:",
    "1. who_am_i: their profile on the marketplace (what they do, where, what they refuse).",
    "2. my_tasks: their offers (state awaiting_participant) and the tasks they hold, newest first; read each brief (action, location, timing, expected_result, acceptance_test) and next_step.",
    "3. accept_task or decline_task an offer — always ask them first; an offer not accepted in time goes to someone else.",
    "4. start_task when they begin the work.",
    "5. submit_result when it is done: a summary, the fields the expected_result asks for, artifacts; check it against the acceptance_test first. If the agent asks for a revision, the task is in_flight again: submit again.",
    "Never accept, decline or submit without their say-so: these moves commit them to another party.",
    "A refused call returns isError with structuredContent { error: { code, message, hint, details } }: the hint says what to do.",
    `Documentation: ${config.docsUrl}`
  ].join("\n")
