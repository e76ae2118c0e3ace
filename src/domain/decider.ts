/**
 * The task lifecycle as a decider. `decide(task, command, now, policy)` judges a command against
 * the task as it is — the transition table (lifecycle.ts) and every rule beyond it: who holds the
 * task, the revision limit, the result schema, the dispatcher's choice (dispatch.ts) — and gives
 * the refusal or the moves (one, or two made in one write); `evolve(task, move)` gives the task
 * after a move: its state, history entry, outcome, timers and version. Pure: the instant, the
 * policy and the directory are inputs. The Lifecycle service (services/lifecycle.ts) reads the
 * task, decides, writes with compare-and-set, and on a lost race reads and decides again.
 */
import * as Result from "effect/Result"
import { dueMove } from "./dispatch.ts"
import { InvalidTransition, NotPermitted, ResultRejected } from "./errors.ts"
import {
  type Actor,
  findTransition,
  isTerminal,
  type OutcomeReason,
  outcomeMessages,
  type TaskState
} from "./lifecycle.ts"
import type { Changes, MoveRequest } from "./move_request.ts"
import { noteOf, type ReviewDecision, revisionNote } from "./moves.ts"
import type { ParticipantRecord } from "./participant.ts"
import { resultFieldFailures } from "./result_schema.ts"
import type { RecordedResult } from "./task.ts"
import { deadlinePassed } from "./task_draft/timing.ts"
import type { StoredTask } from "./task_record.ts"

/** The settings the rules read: how long an offer and a review window last, how many revisions. */
export interface Policy {
  readonly offerTimeoutMs: number
  readonly reviewWindowMs: number
  readonly maxRevisions: number
}

/**
 * A move decided: a row of the table taken (`from`, `to`, `actor`) at `at`, with what it records
 * and changes, and the timers the state entered arms (by the policy, from `at`).
 */
export interface Move {
  readonly from: TaskState
  readonly to: TaskState
  readonly actor: Actor
  readonly at: string
  readonly reason?: OutcomeReason | undefined
  readonly note?: string | undefined
  readonly changes: Changes
  readonly offerExpiresAt: string | null
  readonly reviewDueAt: string | null
}

/**
 * What a party, or the service, asks of a task:
 * - `Tick`: the service looks at a due task it read at version `seen`, with the directory's view
 *   (everyone, and who is not taking offers): it makes the move the task needs now, if any, and
 *   none once the task has changed since (the next look judges it again).
 * - `Move`: a move of the table as asked, with no rule beyond the table.
 * - `Cancel` (the agent or the operator, with their reason), `Review` (the agent's decision).
 * - `Accept`, `Decline`, `Start`, `Submit`: the participant the task is offered to or held by;
 *   `Submit` carries the result as it will be recorded (its files already looked up).
 */
export type Command =
  | {
      readonly _tag: "Tick"
      readonly seen: number
      readonly everyone: ReadonlyArray<ParticipantRecord>
      readonly unavailable: ReadonlySet<string>
    }
  | ({ readonly _tag: "Move" } & MoveRequest)
  | { readonly _tag: "Cancel"; readonly actor: "agent" | "operator"; readonly reason: string | undefined }
  | { readonly _tag: "Review"; readonly decision: ReviewDecision }
  | { readonly _tag: "Accept"; readonly participant: string }
  | { readonly _tag: "Decline"; readonly participant: string; readonly reason: string | undefined }
  | { readonly _tag: "Start"; readonly participant: string }
  | { readonly _tag: "Submit"; readonly participant: string; readonly result: RecordedResult }

/** Every way a command can be refused. */
export type Refusal = InvalidTransition | NotPermitted | ResultRejected

/** The refusals a command can get: only the participant's moves check the holder, only a result its schema. */
export type RefusalOf<C extends Command> = C extends { readonly _tag: "Accept" | "Decline" | "Start" }
  ? InvalidTransition | NotPermitted
  : C extends { readonly _tag: "Submit" }
    ? Refusal
    : InvalidTransition

/** The moves a command makes (none: nothing to do), or why it is refused. */
export type Decision<C extends Command = Command> = Result.Result<ReadonlyArray<Move>, RefusalOf<C>>

const iso = (ms: number) => new Date(ms).toISOString()

/** The states in which the deadline still matters: until a participant accepts (DECISIONS §5). */
const beforeAcceptance: ReadonlySet<TaskState> = new Set(["open", "matching", "awaiting_participant"])

/**
 * When the service must next look at a task: at once while it is open or matching, else the
 * earliest of its offer timeout, its review window and, before an acceptance, its deadline.
 */
export const nextTimerOf = (
  task: Pick<StoredTask, "state" | "updatedAt" | "offerExpiresAt" | "reviewDueAt" | "deadlineAt">
): string | null => {
  const candidates: Array<string> = []
  if (task.state === "open" || task.state === "matching") candidates.push(task.updatedAt)
  if (task.offerExpiresAt !== null) candidates.push(task.offerExpiresAt)
  if (task.reviewDueAt !== null) candidates.push(task.reviewDueAt)
  if (task.deadlineAt !== null && beforeAcceptance.has(task.state)) candidates.push(task.deadlineAt)
  candidates.sort()
  return candidates[0] ?? null
}

/** The outcome reason of a terminal move that names none: the canceller's, else the row's first. */
const defaultReason = (from: TaskState, to: TaskState, actor: Actor): OutcomeReason =>
  to === "cancelled"
    ? actor === "operator"
      ? "cancelled_by_operator"
      : "cancelled_by_agent"
    : (findTransition(from, to, actor)?.reasons?.[0] ?? "no_match")

/**
 * The task after `move`: in its new state, with one more history entry (the reason code and the
 * actor's text, joined by ": "), an outcome on a terminal state (the reason's sentence followed by
 * the text), the timers of the state left dropped and those of the state entered armed, and its
 * version one higher (so the version is the length of the history).
 */
export const evolve = (task: StoredTask, move: Move): StoredTask => {
  const reason = move.reason ?? defaultReason(task.state, move.to, move.actor)
  const entered: StoredTask = {
    ...task,
    ...move.changes,
    state: move.to,
    offerExpiresAt: move.offerExpiresAt,
    reviewDueAt: move.reviewDueAt,
    updatedAt: move.at,
    version: task.version + 1,
    history: [
      ...task.history,
      {
        from: task.state,
        to: move.to,
        actor: move.actor,
        ...(move.reason === undefined && move.note === undefined
          ? {}
          : { reason: [move.reason, move.note].filter((s) => s !== undefined).join(": ") }),
        at: move.at
      }
    ],
    outcome: isTerminal(move.to)
      ? {
          state: move.to,
          reason,
          message: move.note === undefined ? outcomeMessages[reason] : `${outcomeMessages[reason]} ${move.note}`,
          decided_at: move.at
        }
      : task.outcome
  }
  return { ...entered, nextTimerAt: nextTimerOf(entered) }
}

const refusedBy = (task: StoredTask, to: TaskState, actor: Actor, detail?: string) =>
  new InvalidTransition({
    reference: task.reference,
    from: task.state,
    to,
    actor,
    ...(detail === undefined ? {} : { detail })
  })

/**
 * A move request judged by the table alone: the moves it makes from `task` at `now`, or the
 * refusal of the first one the table does not allow (from the state it would start from).
 */
export const judgeMove = (
  task: StoredTask,
  request: MoveRequest,
  now: number,
  policy: Policy
): Result.Result<ReadonlyArray<Move>, InvalidTransition> => {
  const at = iso(now)
  const steps =
    request.followedBy === undefined ? [request] : [request, { ...request.followedBy, actor: request.actor }]
  const moves: Array<Move> = []
  let current = task
  for (const step of steps) {
    if (findTransition(current.state, step.to, step.actor) === undefined) {
      return Result.fail(refusedBy(current, step.to, step.actor))
    }
    const move: Move = {
      from: current.state,
      to: step.to,
      actor: step.actor,
      at,
      ...(step.reason === undefined ? {} : { reason: step.reason }),
      ...(step.note === undefined ? {} : { note: step.note }),
      changes: step.change?.(current) ?? {},
      offerExpiresAt: step.to === "awaiting_participant" ? iso(now + policy.offerTimeoutMs) : null,
      reviewDueAt: step.to === "submitted" ? iso(now + policy.reviewWindowMs) : null
    }
    moves.push(move)
    current = evolve(current, move)
  }
  return Result.succeed(moves)
}

/** A participant may act only on a task offered to or held by them. */
export const holderRefusal = (task: StoredTask, participant: string): NotPermitted | undefined =>
  task.participantSlug === participant
    ? undefined
    : new NotPermitted({ reason: "this task is not offered to or held by you" })

/**
 * Why a result with these `fields` cannot be submitted by `participant` now, if it cannot: out of
 * turn (the table, whatever the result holds), not the holder, or fields failing the task's
 * result_schema. Judged before the result's files are looked up, and again with them.
 */
export const submissionRefusal = (
  task: StoredTask,
  participant: string,
  fields: Readonly<Record<string, unknown>>
): Refusal | undefined => {
  if (findTransition(task.state, "submitted", "participant") === undefined) {
    return refusedBy(task, "submitted", "participant")
  }
  const notHolder = holderRefusal(task, participant)
  if (notHolder !== undefined) return notHolder
  const schema = task.brief.result_schema
  if (schema === undefined) return undefined
  const failures = resultFieldFailures(schema, fields)
  return failures.length === 0 ? undefined : new ResultRejected({ reference: task.reference, failures })
}

/**
 * A move the service's due timer has already decided against, though the timer has not run yet
 * (DECISIONS §5): once a task's deadline has passed before a participant accepted it, the service
 * declines it (`deadline_passed`), so neither the participant (accept, decline) nor the agent
 * (cancel) moves it any more; once an offer has lapsed, the service withdraws it (`accept_timeout`),
 * so the participant no longer accepts or declines it.
 */
const overtakenRefusal = (
  task: StoredTask,
  to: TaskState,
  actor: "participant" | "agent",
  now: number
): InvalidTransition | undefined => {
  const at = iso(now)
  if (task.deadlineAt !== null && beforeAcceptance.has(task.state) && deadlinePassed(task.deadlineAt, at))
    return refusedBy(
      task,
      to,
      actor,
      `its deadline, ${task.deadlineAt}, has passed: the service declines it (deadline_passed)`
    )
  if (
    actor === "participant" &&
    task.state === "awaiting_participant" &&
    task.offerExpiresAt !== null &&
    task.offerExpiresAt <= at
  )
    return refusedBy(
      task,
      to,
      actor,
      `the offer lapsed at ${task.offerExpiresAt}: the service withdraws it (accept_timeout)`
    )
  return undefined
}

/** The participant's move, once the table allows it, if they hold the task. */
const byHolder = (
  task: StoredTask,
  participant: string,
  request: MoveRequest,
  now: number,
  policy: Policy
): Result.Result<ReadonlyArray<Move>, InvalidTransition | NotPermitted> => {
  const moves = judgeMove(task, request, now, policy)
  if (Result.isFailure(moves)) return moves
  const notHolder = holderRefusal(task, participant)
  return notHolder === undefined ? moves : Result.fail(notHolder)
}

const nothing: Result.Result<ReadonlyArray<Move>, never> = Result.succeed([])

const decideAny = (task: StoredTask, command: Command, now: number, policy: Policy): Decision => {
  switch (command._tag) {
    case "Tick": {
      // Changed since it was read: another move got there first, and the next look judges it again.
      if (task.version !== command.seen) return nothing
      const due = dueMove(task, iso(now), command.everyone, command.unavailable)
      return due === undefined ? nothing : judgeMove(task, { ...due, actor: "service" }, now, policy)
    }
    case "Move": {
      const { _tag, ...request } = command
      return judgeMove(task, request, now, policy)
    }
    case "Cancel": {
      const late = command.actor === "agent" ? overtakenRefusal(task, "cancelled", "agent", now) : undefined
      if (late !== undefined) return Result.fail(late)
      return judgeMove(
        task,
        command.actor === "agent"
          ? { to: "cancelled", actor: "agent", reason: "cancelled_by_agent", note: noteOf(command.reason) }
          : { to: "cancelled", actor: "operator", reason: "cancelled_by_operator", note: command.reason },
        now,
        policy
      )
    }
    case "Review": {
      const verdict = command.decision
      if (verdict.decision === "accept") {
        return judgeMove(
          task,
          { to: "settled", actor: "agent", reason: "accepted", note: noteOf(verdict.reason) },
          now,
          policy
        )
      }
      // The schema has required a reason with something in it.
      const reason = verdict.reason.trim()
      if (verdict.decision === "reject") {
        return judgeMove(task, { to: "declined", actor: "agent", reason: "result_rejected", note: reason }, now, policy)
      }
      const moves = judgeMove(
        task,
        {
          to: "in_flight",
          actor: "agent",
          note: revisionNote(reason),
          change: (current) => ({ revisions: current.revisions + 1 })
        },
        now,
        policy
      )
      if (Result.isFailure(moves) || task.revisions < policy.maxRevisions) return moves
      return Result.fail(
        refusedBy(
          task,
          "in_flight",
          "agent",
          `the ${policy.maxRevisions} revisions allowed have been used: accept or reject the result`
        )
      )
    }
    case "Accept": {
      const late = overtakenRefusal(task, "accepted", "participant", now)
      if (late !== undefined) return Result.fail(late)
      return byHolder(task, command.participant, { to: "accepted", actor: "participant" }, now, policy)
    }
    case "Start":
      return byHolder(task, command.participant, { to: "in_flight", actor: "participant" }, now, policy)
    case "Decline": {
      const reason = noteOf(command.reason)
      const late = overtakenRefusal(
        task,
        task.requestedParticipant !== null ? "declined" : "matching",
        "participant",
        now
      )
      if (late !== undefined) return Result.fail(late)
      // A task that named this participant is declined; otherwise it goes back to matching,
      // never to be offered to them again.
      return byHolder(
        task,
        command.participant,
        task.requestedParticipant !== null
          ? { to: "declined", actor: "participant", reason: "participant_declined", note: reason }
          : {
              to: "matching",
              actor: "participant",
              note: reason === undefined ? "declined" : `declined: ${reason}`,
              change: (current) => ({
                participantSlug: null,
                passedOver: [...current.passedOver, command.participant]
              })
            },
        now,
        policy
      )
    }
    case "Submit": {
      const refused = submissionRefusal(task, command.participant, command.result.fields)
      if (refused !== undefined) return Result.fail(refused)
      const result = command.result
      return judgeMove(task, { to: "submitted", actor: "participant", change: () => ({ result }) }, now, policy)
    }
  }
}

/**
 * Judges `command` against `task` at `now` (epoch milliseconds) under `policy`: the moves to make,
 * in order (none when a tick finds nothing due), or the refusal, which names the task's current
 * state. The table comes first: a move out of turn is refused as such whoever asks and whatever
 * they send; then the holder, the revision limit, the result schema.
 */
export const decide = <C extends Command>(task: StoredTask, command: C, now: number, policy: Policy): Decision<C> =>
  decideAny(task, command, now, policy) as Decision<C>
