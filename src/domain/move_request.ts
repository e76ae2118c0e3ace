/**
 * A move asked of the lifecycle by name, before any rule judges it: what the decider's commands
 * come down to, what the dispatcher's choice is (dispatch.ts), and what a storage test may ask for.
 */
import type { Actor, OutcomeReason, TaskState } from "./lifecycle.ts"
import type { StoredTask } from "./task_record.ts"

/** What a move changes beyond the state, its history and its timers. */
export type Changes = Partial<Pick<StoredTask, "participantSlug" | "result" | "passedOver" | "revisions">>

/**
 * A move asked of the table by name: the state to enter, by whom, why (the outcome reason of a
 * terminal state, or a reason code kept in history), the actor's free text, what else changes
 * (judged on the task the move starts from), and a second move by the same actor made in the same
 * write right after it (the service's `open` → `matching` → `awaiting_participant`).
 */
export interface MoveRequest {
  readonly to: TaskState
  readonly actor: Actor
  readonly reason?: OutcomeReason | undefined
  readonly note?: string | undefined
  readonly change?: ((task: StoredTask) => Changes) | undefined
  readonly followedBy?: Omit<MoveRequest, "actor" | "followedBy"> | undefined
}
