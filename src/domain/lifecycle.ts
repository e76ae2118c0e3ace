/**
 * The task lifecycle as data (DECISIONS §4–§5): the single source for the code, /capabilities
 * (`transitions`) and the docs.
 */
import * as Schema from "effect/Schema"

/** The eleven states, in the order the service lists them (published contract). */
export const taskStates = [
  "draft",
  "preflight_failed",
  "open",
  "matching",
  "awaiting_participant",
  "accepted",
  "in_flight",
  "submitted",
  "settled",
  "declined",
  "cancelled"
] as const

export const TaskState = Schema.Literals(taskStates).annotate({
  identifier: "TaskState",
  description: "One of the eleven task states, in lifecycle order."
})
export type TaskState = typeof TaskState.Type

export const terminalStates: ReadonlyArray<TaskState> = ["settled", "declined", "cancelled"]

export const actors = ["agent", "participant", "service", "operator"] as const
export type Actor = (typeof actors)[number]

export const outcomeReasons = [
  "accepted",
  "auto_accepted",
  "participant_declined",
  "no_match",
  "accept_timeout",
  "deadline_passed",
  "result_rejected",
  "cancelled_by_agent",
  "cancelled_by_operator"
] as const
export type OutcomeReason = (typeof outcomeReasons)[number]

export interface Transition {
  readonly from: TaskState | null
  readonly to: TaskState
  readonly actors: ReadonlyArray<Actor>
  readonly trigger: string
  readonly reasons?: ReadonlyArray<OutcomeReason>
}

const submissionStates = ["open", "matching", "awaiting_participant", "accepted"] as const

export const transitions: ReadonlyArray<Transition> = [
  { from: null, to: "open", actors: ["agent"], trigger: "POST /tasks accepted" },
  {
    from: "open",
    to: "awaiting_participant",
    actors: ["service"],
    trigger: "the draft names participant_slug: offered to them"
  },
  { from: "open", to: "matching", actors: ["service"], trigger: "no participant named" },
  {
    from: "open",
    to: "declined",
    actors: ["service"],
    trigger: "the deadline from timing passed",
    reasons: ["deadline_passed"]
  },
  { from: "matching", to: "awaiting_participant", actors: ["service"], trigger: "best eligible participant offered" },
  {
    from: "matching",
    to: "declined",
    actors: ["service"],
    trigger: "nobody eligible, every candidate declined, or the deadline passed",
    reasons: ["no_match", "deadline_passed"]
  },
  {
    from: "awaiting_participant",
    to: "accepted",
    actors: ["participant"],
    trigger: "the participant accepts the offer"
  },
  {
    from: "awaiting_participant",
    to: "matching",
    actors: ["participant", "service"],
    trigger: "the participant declines or the offer times out, and the task named no participant"
  },
  {
    from: "awaiting_participant",
    to: "declined",
    actors: ["participant", "service"],
    trigger: "the named participant declines or the offer times out, or the deadline passed",
    reasons: ["participant_declined", "accept_timeout", "deadline_passed"]
  },
  { from: "accepted", to: "in_flight", actors: ["participant"], trigger: "the participant starts work" },
  { from: "in_flight", to: "submitted", actors: ["participant"], trigger: "the participant submits a result" },
  {
    from: "submitted",
    to: "settled",
    actors: ["agent", "service"],
    trigger: "the agent accepts the result, or the review window passes",
    reasons: ["accepted", "auto_accepted"]
  },
  {
    from: "submitted",
    to: "in_flight",
    actors: ["agent"],
    trigger: "the agent requests a revision (reason required; at most 3)"
  },
  {
    from: "submitted",
    to: "declined",
    actors: ["agent"],
    trigger: "the agent rejects the result (reason required)",
    reasons: ["result_rejected"]
  },
  ...submissionStates.map(
    (from): Transition => ({
      from,
      to: "cancelled",
      actors: ["agent", "operator"],
      trigger: "cancel",
      reasons: ["cancelled_by_agent", "cancelled_by_operator"]
    })
  )
]

/** The sentence a task read carries for its current state (DECISIONS §4: `next_step` on every read). */
export const nextStepFor: Record<TaskState, string> = {
  draft: "Submit the draft with POST /api/public/v1/tasks.",
  preflight_failed: "Fix the fields named in issues, validate again with POST /api/public/v1/preflight, then submit.",
  open: "The task is recorded and about to be offered to a participant; poll this task or wait with ?wait=30.",
  matching: "Looking for the best eligible participant; poll this task or wait with ?wait=30.",
  awaiting_participant: "Waiting for the participant to accept; poll again or wait with ?wait=30.",
  accepted: "The participant accepted and will start soon; poll again or wait with ?wait=30.",
  in_flight: "The participant is working on the task; poll again or wait with ?wait=30.",
  submitted:
    "A result is ready: review it with POST /api/public/v1/tasks/{reference}/review (accept, revise or reject).",
  settled: "The task is settled; its result is final.",
  declined: "The task was declined; see outcome for the reason. Submit a new task to try again.",
  cancelled: "The task was cancelled; see outcome for the reason."
}

export const isTerminal = (state: TaskState): boolean => terminalStates.includes(state)

/** The transitions the table allows out of a state. */
export const allowedFrom = (state: TaskState): ReadonlyArray<Transition> => transitions.filter((t) => t.from === state)

/** The table's row for a move by an actor, if the table has one. */
export const findTransition = (from: TaskState, to: TaskState, actor: Actor): Transition | undefined =>
  transitions.find((t) => t.from === from && t.to === to && t.actors.includes(actor))

/** "matching (service), cancelled (agent, operator)": what is allowed from a state, for hints. */
export const describeAllowed = (state: TaskState, except?: TaskState): string => {
  const allowed = allowedFrom(state).filter((t) => t.to !== except)
  return allowed.length === 0
    ? `nothing: ${state} is a terminal state`
    : allowed.map((t) => `${t.to} (${t.actors.join(", ")})`).join("; ")
}

/** The sentence an outcome carries for each reason. */
export const outcomeMessages: Record<OutcomeReason, string> = {
  accepted: "The agent accepted the result.",
  auto_accepted: "The review window passed without a decision; the result was accepted automatically.",
  participant_declined: "The named participant declined the task.",
  no_match: "No eligible participant was available to take the task.",
  accept_timeout: "The named participant did not accept the offer in time.",
  deadline_passed: "The deadline from timing passed before a participant accepted the task.",
  result_rejected: "The agent rejected the result.",
  cancelled_by_agent: "The agent cancelled the task.",
  cancelled_by_operator: "The operator cancelled the task."
}

/** At most this many revisions may be requested of one task. */
export const maxRevisions = 3
