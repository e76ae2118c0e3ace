/**
 * The dispatcher's choice: the move a due task needs at an instant (an offer, a re-match, a
 * decline past the deadline or for want of anyone, the settlement of a result nobody reviewed),
 * with the directory to match against as an input. The decider (decider.ts) makes it on the
 * service's tick.
 */

import { rankTop } from "./matching.ts"
import { taskTextOf } from "./matching_rules.ts"
import type { MoveRequest } from "./move_request.ts"
import type { ParticipantRecord } from "./participant.ts"
import { deadlinePassed } from "./task_draft/timing.ts"
import type { StoredTask } from "./task_record.ts"

/** A move the service makes on a due task: a move request, less its actor (the service). */
export type DueMove = Omit<MoveRequest, "actor">

const nobody: ReadonlySet<string> = new Set()

/**
 * What matching decides for a task now: an offer to the best eligible participant who has not
 * passed it over and is taking offers, or `no_match`.
 */
const match = (
  task: StoredTask,
  everyone: ReadonlyArray<ParticipantRecord>,
  unavailable: ReadonlySet<string>
): Omit<DueMove, "followedBy"> => {
  const [best] = rankTop(
    {
      executionMode: task.executionMode,
      location: task.brief.location ?? undefined,
      text: taskTextOf(task.brief.action, task.brief.expected_result)
    },
    everyone,
    { limit: 1, excluding: task.passedOver, unavailable }
  ).best
  return best === undefined
    ? { to: "declined", reason: "no_match" }
    : { to: "awaiting_participant", change: () => ({ participantSlug: best.participant.slug }) }
}

/**
 * The move a due task needs at `now` (ISO 8601), if any, with `everyone` in the directory to
 * match it against and the slugs of those `unavailable` (not taking offers: no offer goes to
 * them).
 */
export const dueMove = (
  task: StoredTask,
  now: string,
  everyone: ReadonlyArray<ParticipantRecord>,
  unavailable: ReadonlySet<string> = nobody
): DueMove | undefined => {
  const pastDeadline = task.deadlineAt !== null && deadlinePassed(task.deadlineAt, now)
  switch (task.state) {
    case "open":
      if (pastDeadline) return { to: "declined", reason: "deadline_passed" }
      if (task.requestedParticipant !== null) {
        // The agent chose someone who is not taking offers: no offer, and nobody else instead.
        // Declined at once, through matching (the table's only way from open to no_match), so the
        // agent learns it now rather than after the offer timeout.
        if (unavailable.has(task.requestedParticipant)) {
          return {
            to: "matching",
            followedBy: {
              to: "declined",
              reason: "no_match",
              note: `the named participant ${task.requestedParticipant} is not taking offers right now`
            }
          }
        }
        return { to: "awaiting_participant", change: () => ({ participantSlug: task.requestedParticipant }) }
      }
      // Matched at once, in the same write: `matching` is in the history, never at rest.
      return { to: "matching", followedBy: match(task, everyone, unavailable) }
    case "matching":
      if (pastDeadline) return { to: "declined", reason: "deadline_passed" }
      return match(task, everyone, unavailable)
    case "awaiting_participant": {
      if (pastDeadline) return { to: "declined", reason: "deadline_passed" }
      if (task.offerExpiresAt === null || task.offerExpiresAt > now) return undefined
      if (task.requestedParticipant !== null) return { to: "declined", reason: "accept_timeout" }
      const passedOver = task.participantSlug === null ? task.passedOver : [...task.passedOver, task.participantSlug]
      return {
        to: "matching",
        note: `accept_timeout: ${task.participantSlug} did not accept in time`,
        change: () => ({ participantSlug: null, passedOver }),
        followedBy: match({ ...task, passedOver }, everyone, unavailable)
      }
    }
    case "submitted":
      return task.reviewDueAt !== null && task.reviewDueAt <= now
        ? { to: "settled", reason: "auto_accepted" }
        : undefined
    default:
      return undefined
  }
}
