/**
 * Replays of a submission: what a retry with a recorded idempotency key answers. A replay answers
 * with the task as its creation recorded it, whatever has happened to it since (its current state
 * is one read away). A deadline is the one draft rule that time can break: a retry of a recorded
 * submission whose deadline has passed since is still that submission, and answers as a replay.
 */
import type { StoredTask } from "./task_record.ts"

/**
 * The key to look the recorded submission up by, when a refused draft may still be a retry of
 * one: it carries a key and its only issues are passed deadlines.
 */
export const lateRetryKey = (
  issues: ReadonlyArray<{ readonly code: string }>,
  key: string | null
): string | undefined => (key !== null && issues.every((issue) => issue.code === "deadline_passed") ? key : undefined)

/**
 * What a retry with a taken key answers: the recorded task (a replay) when it came from the same
 * draft (same fingerprint), `Reused` when the key was used for another draft, `Rejected` when
 * nothing was recorded under it (a refused draft stays refused).
 */
export const retryVerdict = (
  recorded: StoredTask | undefined,
  draftFingerprint: string
):
  | { readonly _tag: "Replay"; readonly task: StoredTask }
  | { readonly _tag: "Reused"; readonly reference: string }
  | { readonly _tag: "Rejected" } =>
  recorded === undefined
    ? { _tag: "Rejected" }
    : recorded.draftFingerprint === draftFingerprint
      ? { _tag: "Replay", task: recorded }
      : { _tag: "Reused", reference: recorded.reference }

/** The task as its creation recorded it: what the 201 and every replay of it show. */
export const asRecorded = (stored: StoredTask): StoredTask => ({
  ...stored,
  state: "open",
  participantSlug: stored.requestedParticipant,
  history: stored.history.slice(0, 1),
  result: null,
  outcome: null,
  updatedAt: stored.createdAt,
  version: 1
})
