// The decider (domain/decider.ts) against the transition table, as pure functions: random tasks
// and random command sequences, judged by `decide` and applied by `evolve`, with no database.
// What must hold of every step: each move is a row of the table, a refusal names the current
// state, each move adds one history entry and one version, terminal states carry an outcome the
// row allows, timers exist only in their states, the revision limit holds, only the holder moves,
// and a participant who declined or let an offer lapse is never offered the task again.
import { assert, describe, it } from "@effect/vitest"
import { Result, Schema } from "effect"
import { type Command, decide, evolve, type Move, type Policy } from "../../src/domain/decider.ts"
import { dueMove } from "../../src/domain/dispatch.ts"
import { mayReadFile } from "../../src/domain/file_access.ts"
import {
  type Actor,
  actors,
  allowedFrom,
  findTransition,
  isTerminal,
  maxRevisions,
  type OutcomeReason,
  outcomeMessages,
  type TaskState,
  taskStates,
  transitions
} from "../../src/domain/lifecycle.ts"
import { recordedResult } from "../../src/domain/moves.ts"
import { asRecorded, lateRetryKey, retryVerdict } from "../../src/domain/replay.ts"
import type { RecordedResult } from "../../src/domain/task.ts"
import type { StoredTask } from "../../src/domain/task_record.ts"
import { photographer } from "../support/directory.ts"
import { storedTask } from "../support/tasks.ts"

const T0 = Date.parse("2026-11-27T10:00:00.000Z")
const iso = (ms: number) => new Date(ms).toISOString()
const policy: Policy = { offerTimeoutMs: 30 * 60_000, reviewWindowMs: 6 * 3600_000, maxRevisions: 3 }

const everyone = [photographer("ada-photo"), photographer("bea-photo"), photographer("cem-photo")]
const countSchema = { type: "object", required: ["count"], properties: { count: { type: "integer" } } }

/** The states a random task starts in: every state a task can rest in before it ends. */
const restingStates = ["open", "matching", "awaiting_participant", "accepted", "in_flight", "submitted"] as const

const between = (minimum: number, maximum: number) => Schema.Int.check(Schema.isBetween({ minimum, maximum }))

/** One command, chosen by numbers: what (`kind`), who (`who`), a detail (`pick`), how long after the last (`wait`). */
const Step = Schema.Struct({ kind: between(0, 12), who: between(0, 3), pick: between(0, 1000), wait: between(0, 4) })
const Scenario = Schema.Struct({
  start: Schema.Literals(restingStates),
  named: Schema.Boolean,
  deadline: between(0, 3),
  withSchema: Schema.Boolean,
  /** Revisions already used: near the limit, random sequences reach it. */
  revisions: between(0, 3),
  steps: Schema.Array(Step).check(Schema.isMaxLength(40))
})
type Scenario = typeof Scenario.Type
type Step = typeof Step.Type

const waits = [0, 60_000, 31 * 60_000, 7 * 3600_000, 3 * 24 * 3600_000]
const deadlines = [null, iso(T0 - 3600_000), iso(T0 + 20 * 60_000), iso(T0 + 10 * 24 * 3600_000)]

const result = (fields: Record<string, unknown>, at: number): RecordedResult => ({
  summary: "done",
  fields,
  artifacts: [],
  submitted_at: iso(at)
})

/** A task resting in `start` at T0, with the members that state implies; version = history length. */
const startingTask = (scenario: Scenario): StoredTask => {
  const state = scenario.start
  const holder = scenario.named ? "ada-photo" : "bea-photo"
  const entered: StoredTask = storedTask({
    state,
    participantSlug: state === "open" || state === "matching" ? null : holder,
    requestedParticipant: scenario.named ? "ada-photo" : null,
    result: state === "submitted" ? result({ count: 1 }, T0) : null,
    offerExpiresAt: state === "awaiting_participant" ? iso(T0 + policy.offerTimeoutMs) : null,
    reviewDueAt: state === "submitted" ? iso(T0 + policy.reviewWindowMs) : null,
    deadlineAt: deadlines[scenario.deadline]!,
    revisions: scenario.revisions,
    updatedAt: iso(T0),
    history: [{ from: null, to: "open", actor: "agent", at: iso(T0) }],
    version: 1
  })
  const brief = scenario.withSchema ? { ...entered.brief, result_schema: countSchema } : entered.brief
  return { ...entered, brief, nextTimerAt: earliestTimer(entered) }
}

/** The oracle for `nextTimerAt`, written apart from the decider's. */
const earliestTimer = (task: StoredTask): string | null => {
  const due = [
    task.state === "open" || task.state === "matching" ? task.updatedAt : null,
    task.offerExpiresAt,
    task.reviewDueAt,
    ["open", "matching", "awaiting_participant"].includes(task.state) ? task.deadlineAt : null
  ].filter((t): t is string => t !== null)
  return due.length === 0 ? null : due.reduce((a, b) => (a < b ? a : b))
}

/** The participant a step names: the holder (0, 1), another participant (2) or a stranger (3). */
const participantOf = (task: StoredTask, who: number) =>
  who <= 1 ? (task.participantSlug ?? "ada-photo") : who === 2 ? "cem-photo" : "zed-stranger"

const commandOf = (task: StoredTask, step: Step, now: number): Command => {
  const participant = participantOf(task, step.who)
  switch (step.kind) {
    case 0:
    case 1:
      return {
        _tag: "Tick",
        seen: step.pick % 9 === 0 ? task.version - 1 : task.version,
        everyone,
        unavailable: step.pick % 4 === 0 ? new Set(["bea-photo"]) : new Set()
      }
    case 2:
      return { _tag: "Move", to: taskStates[step.pick % taskStates.length]!, actor: actors[step.who]! }
    case 3:
      return {
        _tag: "Cancel",
        actor: "agent",
        reason: step.pick % 2 === 0 ? undefined : ` changed plans ${step.pick} `
      }
    case 4:
      return { _tag: "Cancel", actor: "operator", reason: `spam ${step.pick}` }
    case 5:
      return { _tag: "Review", decision: { decision: "accept" } }
    case 6:
    case 7:
      return { _tag: "Review", decision: { decision: "revise", reason: ` sharper ${step.pick} ` } }
    case 8:
      return { _tag: "Review", decision: { decision: "reject", reason: "blurry" } }
    case 9:
      return { _tag: "Accept", participant }
    case 10:
      return { _tag: "Decline", participant, reason: step.pick % 2 === 0 ? undefined : "busy" }
    case 11:
      return { _tag: "Start", participant }
    default:
      return {
        _tag: "Submit",
        participant,
        result: result(step.pick % 3 === 0 ? { count: "many" } : { count: 4 }, now)
      }
  }
}

/** The actor a command moves as (for the table), when it names one. */
const actorOf = (command: Command): Actor | undefined => {
  switch (command._tag) {
    case "Tick":
      return "service"
    case "Move":
      return command.actor
    case "Cancel":
      return command.actor
    case "Review":
      return "agent"
    default:
      return "participant"
  }
}

const participantCommands: ReadonlySet<string> = new Set(["Accept", "Decline", "Start", "Submit"])

/**
 * Checks one move from `before` to `after` against the table and the entity's invariants; who
 * holds the task only for the rules' commands (`ruled`: a bare `Move` changes nothing but the state).
 */
const checkMove = (before: StoredTask, move: Move, after: StoredTask, ruled: boolean) => {
  const label = `${before.state} → ${move.to} by ${move.actor}`
  const row = findTransition(before.state, move.to, move.actor)
  assert.isDefined(row, `${label} is not a row of the table`)
  assert.strictEqual(move.from, before.state, label)
  assert.strictEqual(after.state, move.to, label)
  assert.strictEqual(after.version, before.version + 1, `version after ${label}`)
  assert.strictEqual(after.history.length, before.history.length + 1, `history after ${label}`)
  assert.deepStrictEqual(after.history.slice(0, -1), before.history, `history is append-only (${label})`)
  const entry = after.history.at(-1)!
  assert.deepStrictEqual([entry.from, entry.to, entry.actor, entry.at], [before.state, move.to, move.actor, move.at])
  assert.strictEqual(after.updatedAt, move.at)
  if (isTerminal(move.to)) {
    const outcome = after.outcome!
    assert.isNotNull(after.outcome, `no outcome after ${label}`)
    assert.strictEqual(outcome.state, move.to)
    assert.include(row!.reasons ?? [], outcome.reason, `${label}: outcome reason ${outcome.reason}`)
    if (move.to === "cancelled") {
      assert.strictEqual(outcome.reason, move.actor === "operator" ? "cancelled_by_operator" : "cancelled_by_agent")
    }
    assert.isTrue(outcome.message.startsWith(outcomeMessages[outcome.reason as OutcomeReason]), outcome.message)
    assert.strictEqual(outcome.decided_at, move.at)
  } else {
    assert.isNull(after.outcome, `outcome after ${label}`)
  }
  // Timers exist only in their states, and the next look is the earliest of them.
  assert.strictEqual(after.offerExpiresAt !== null, after.state === "awaiting_participant", `offer timer in ${label}`)
  assert.strictEqual(after.reviewDueAt !== null, after.state === "submitted", `review timer in ${label}`)
  if (after.offerExpiresAt !== null) {
    assert.strictEqual(Date.parse(after.offerExpiresAt) - Date.parse(move.at), policy.offerTimeoutMs)
  }
  if (after.reviewDueAt !== null) {
    assert.strictEqual(Date.parse(after.reviewDueAt) - Date.parse(move.at), policy.reviewWindowMs)
  }
  assert.strictEqual(after.nextTimerAt, earliestTimer(after), `nextTimerAt after ${label}`)
  if (!ruled) return
  // An offer never goes to someone who passed the task over.
  if (after.state === "awaiting_participant") {
    assert.isNotNull(after.participantSlug)
    assert.notInclude(after.passedOver, after.participantSlug!, `offered again to ${after.participantSlug}`)
  }
  if (after.state === "open" || after.state === "matching") assert.isNull(after.participantSlug)
}

/** Runs a scenario, checking every step; gives the task at the end and what happened. */
const run = (scenario: Scenario) => {
  let task = startingTask(scenario)
  let now = T0
  const applied: Array<{
    readonly command: Command
    readonly before: StoredTask
    readonly moves: ReadonlyArray<Move>
  }> = []
  for (const step of scenario.steps) {
    now += waits[step.wait]!
    const command = commandOf(task, step, now)
    const decided = decide(task, command, now, policy)
    if (Result.isFailure(decided)) {
      const refusal = decided.failure
      if (refusal._tag === "InvalidTransition") {
        assert.strictEqual(refusal.from, task.state, "a refusal names the current state")
        assert.strictEqual(refusal.reference, task.reference)
        assert.strictEqual(refusal.actor, actorOf(command))
      } else {
        assert.isTrue(participantCommands.has(command._tag), `${command._tag} refused with ${refusal._tag}`)
        if (refusal._tag === "ResultRejected") assert.strictEqual(command._tag, "Submit")
      }
      assert.notStrictEqual(command._tag, "Tick", "a tick is never refused")
      continue
    }
    const moves = decided.success
    assert.isAtMost(moves.length, 2)
    let next = task
    for (const move of moves) {
      const after = evolve(next, move)
      checkMove(next, move, after, command._tag !== "Move")
      assert.strictEqual(move.actor, actorOf(command), "every move is made by the command's actor")
      assert.strictEqual(move.at, iso(now))
      next = after
    }
    if (moves.length > 0) applied.push({ command, before: task, moves })
    task = next
    assert.strictEqual(task.version, task.history.length, "the version is the length of the history")
    assert.isAtMost(task.revisions, policy.maxRevisions, "the revision limit")
  }
  return { task, applied }
}

/** Enough runs to reach deep sequences (reviews, revisions, lapses); a run takes microseconds. */
const deep = { arbitrary: { runs: 250, size: 40 } } as const

describe("decide and evolve, over random tasks and command sequences", () => {
  it.prop(
    "every move is a row of the table; refusals name the state; history, version, outcome and timers follow",
    [Scenario],
    ([scenario]) => {
      run(scenario)
    },
    deep
  )

  it.prop("a bare move is applied exactly when the table has the row", [Scenario], ([scenario]) => {
    let task = startingTask(scenario)
    for (const step of scenario.steps) {
      const to = taskStates[step.pick % taskStates.length]!
      const actor = actors[step.who]!
      const decided = decide(task, { _tag: "Move", to, actor }, T0, policy)
      assert.strictEqual(Result.isSuccess(decided), findTransition(task.state, to, actor) !== undefined)
      if (Result.isSuccess(decided)) task = decided.success.reduce(evolve, task)
    }
  })

  it.prop("only the holder accepts, declines, starts or submits", [Scenario], ([scenario]) => {
    for (const { command, before } of run(scenario).applied) {
      if ("participant" in command) assert.strictEqual(command.participant, before.participantSlug)
    }
    // And a stranger is refused wherever the table would allow the move.
    const task = startingTask(scenario)
    for (const command of [
      { _tag: "Accept", participant: "zed-stranger" },
      { _tag: "Decline", participant: "zed-stranger", reason: undefined },
      { _tag: "Start", participant: "zed-stranger" },
      { _tag: "Submit", participant: "zed-stranger", result: result({ count: 1 }, T0) }
    ] as const) {
      const decided = decide(task, command, T0, policy)
      assert.isTrue(Result.isFailure(decided))
      if (Result.isFailure(decided)) assert.include(["InvalidTransition", "NotPermitted"], decided.failure._tag)
    }
  })

  it.prop(
    "the revision limit holds over any sequence: the revisions are the agent's revise decisions",
    [Scenario],
    ([scenario]) => {
      const { task, applied } = run(scenario)
      // A bare Move (a row of the table, no rule: what the storage tests use) is not a review.
      const revised = applied.filter(
        ({ command }) => command._tag === "Review" && command.decision.decision === "revise"
      )
      assert.strictEqual(task.revisions, scenario.revisions + revised.length)
      assert.isAtMost(task.revisions, policy.maxRevisions)
    }
  )

  it.prop(
    "a named participant's decline declines the task; anyone else's sends it back to matching, passed over",
    [Scenario],
    ([scenario]) => {
      for (const { command, before, moves } of run(scenario).applied) {
        if (command._tag !== "Decline") continue
        const after = moves.reduce(evolve, before)
        if (before.requestedParticipant !== null) {
          assert.strictEqual(after.state, "declined")
          assert.strictEqual(after.outcome?.reason, "participant_declined")
        } else {
          assert.strictEqual(after.state, "matching")
          assert.isNull(after.participantSlug)
          assert.deepStrictEqual(after.passedOver, [...before.passedOver, command.participant])
        }
      }
    }
  )

  it.prop("a tick on a task changed since it was read makes no move", [Scenario], ([scenario]) => {
    const task = startingTask(scenario)
    const decided = decide(
      task,
      { _tag: "Tick", seen: task.version - 1, everyone, unavailable: new Set() },
      T0 + 10 * 24 * 3600_000,
      policy
    )
    assert.deepStrictEqual(decided, Result.succeed([]))
  })
})

describe("the texts a move records", () => {
  const at = T0 + 60_000
  const submitted = () =>
    startingTask({ start: "submitted", named: false, deadline: 0, withSchema: false, revisions: 0, steps: [] })
  const apply = (task: StoredTask, command: Command, now = at) => {
    const decided = decide(task, command, now, policy)
    if (Result.isFailure(decided)) throw new Error(`refused: ${JSON.stringify(decided.failure)}`)
    return decided.success.reduce(evolve, task)
  }

  it("a revision: `revision requested: …` in history, the review window cleared, one revision more", () => {
    const revising = apply(submitted(), { _tag: "Review", decision: { decision: "revise", reason: "  sharper " } })
    assert.deepStrictEqual(revising.history.at(-1), {
      from: "submitted",
      to: "in_flight",
      actor: "agent",
      reason: "revision requested: sharper",
      at: iso(at)
    })
    assert.strictEqual(revising.revisions, 1)
    assert.isNull(revising.reviewDueAt)
    assert.isNull(revising.nextTimerAt)
  })

  it("a fourth revision is refused, naming the limit", () => {
    const task = { ...submitted(), revisions: 3 }
    const decided = decide(task, { _tag: "Review", decision: { decision: "revise", reason: "again" } }, at, policy)
    assert.isTrue(Result.isFailure(decided))
    if (Result.isFailure(decided)) {
      assert.strictEqual(decided.failure._tag, "InvalidTransition")
      assert.strictEqual(
        (decided.failure as { detail?: string }).detail,
        "the 3 revisions allowed have been used: accept or reject the result"
      )
    }
  })

  it("a rejection and an acceptance: the reason and the text in history and outcome", () => {
    const rejected = apply(submitted(), { _tag: "Review", decision: { decision: "reject", reason: " blurry " } })
    assert.strictEqual(rejected.history.at(-1)?.reason, "result_rejected: blurry")
    assert.deepStrictEqual(rejected.outcome, {
      state: "declined",
      reason: "result_rejected",
      message: "The agent rejected the result. blurry",
      decided_at: iso(at)
    })
    const accepted = apply(submitted(), { _tag: "Review", decision: { decision: "accept" } })
    assert.strictEqual(accepted.history.at(-1)?.reason, "accepted")
    assert.strictEqual(accepted.outcome?.message, "The agent accepted the result.")
    const settledLate = apply(
      submitted(),
      { _tag: "Tick", seen: 1, everyone, unavailable: new Set() },
      T0 + 7 * 3600_000
    )
    assert.strictEqual(settledLate.outcome?.reason, "auto_accepted")
  })

  it("cancels: the agent's text trimmed (blank is none), the operator's as given", () => {
    const open = startingTask({ start: "open", named: false, deadline: 0, withSchema: false, revisions: 0, steps: [] })
    const byAgent = apply(open, { _tag: "Cancel", actor: "agent", reason: "  no longer needed " })
    assert.strictEqual(byAgent.history.at(-1)?.reason, "cancelled_by_agent: no longer needed")
    assert.strictEqual(byAgent.outcome?.message, "The agent cancelled the task. no longer needed")
    assert.strictEqual(
      apply(open, { _tag: "Cancel", actor: "agent", reason: "  " }).history.at(-1)?.reason,
      "cancelled_by_agent"
    )
    const byOperator = apply(open, { _tag: "Cancel", actor: "operator", reason: "spam" })
    assert.strictEqual(byOperator.outcome?.reason, "cancelled_by_operator")
    assert.strictEqual(byOperator.history.at(-1)?.reason, "cancelled_by_operator: spam")
  })

  it("declines: `declined: …` back to matching, or the named participant's participant_declined", () => {
    const offered = startingTask({
      start: "awaiting_participant",
      named: false,
      deadline: 0,
      withSchema: false,
      revisions: 0,
      steps: []
    })
    const back = apply(offered, { _tag: "Decline", participant: "bea-photo", reason: " busy " })
    assert.strictEqual(back.history.at(-1)?.reason, "declined: busy")
    assert.strictEqual(
      apply(offered, { _tag: "Decline", participant: "bea-photo", reason: undefined }).history.at(-1)?.reason,
      "declined"
    )
    const named = startingTask({
      start: "awaiting_participant",
      named: true,
      deadline: 0,
      withSchema: false,
      revisions: 0,
      steps: []
    })
    const declined = apply(named, { _tag: "Decline", participant: "ada-photo", reason: "busy" })
    assert.deepStrictEqual(declined.outcome, {
      state: "declined",
      reason: "participant_declined",
      message: "The named participant declined the task. busy",
      decided_at: iso(at)
    })
  })

  it("an offer past its task's deadline: accept, decline and the agent's cancel refused before the service's timer has run, which declines it with deadline_passed", () => {
    const offered = startingTask({
      start: "awaiting_participant",
      named: true,
      deadline: 2,
      withSchema: false,
      revisions: 0,
      steps: []
    })
    const deadline = Date.parse(offered.deadlineAt!)
    // A minute before, the offer is open; at the deadline (a deadline equal to now has passed), not.
    assert.isTrue(
      Result.isSuccess(decide(offered, { _tag: "Accept", participant: "ada-photo" }, deadline - 60_000, policy))
    )
    for (const command of [
      { _tag: "Accept", participant: "ada-photo" },
      { _tag: "Decline", participant: "ada-photo", reason: "busy" },
      { _tag: "Cancel", actor: "agent", reason: undefined }
    ] as const) {
      const decided = decide(offered, command, deadline, policy)
      assert.isTrue(Result.isFailure(decided), `${command._tag} past the deadline`)
      if (Result.isFailure(decided)) {
        assert.strictEqual(decided.failure._tag, "InvalidTransition")
        assert.include(decided.failure.message, "deadline_passed")
      }
    }
    // The operator's forced cancel is not a party's move: it still ends the task.
    assert.isTrue(
      Result.isSuccess(decide(offered, { _tag: "Cancel", actor: "operator", reason: "x" }, deadline, policy))
    )
    const ticked = decide(
      offered,
      { _tag: "Tick", seen: offered.version, everyone, unavailable: new Set() },
      deadline,
      policy
    )
    const declined = (Result.isSuccess(ticked) ? ticked.success : []).reduce(evolve, offered)
    assert.strictEqual(declined.state, "declined")
    assert.strictEqual(declined.outcome?.reason, "deadline_passed")
  })

  it("a lapsed offer is no longer the participant's to accept or decline, before the service's timer has run", () => {
    const offered = startingTask({
      start: "awaiting_participant",
      named: false,
      deadline: 0,
      withSchema: false,
      revisions: 0,
      steps: []
    })
    const lapsed = Date.parse(offered.offerExpiresAt!)
    assert.isTrue(Result.isSuccess(decide(offered, { _tag: "Accept", participant: "bea-photo" }, lapsed - 1, policy)))
    for (const command of [
      { _tag: "Accept", participant: "bea-photo" },
      { _tag: "Decline", participant: "bea-photo", reason: undefined }
    ] as const) {
      const decided = decide(offered, command, lapsed, policy)
      assert.isTrue(Result.isFailure(decided), `${command._tag} after the offer lapsed`)
      if (Result.isFailure(decided)) assert.include(decided.failure.message, "accept_timeout")
    }
    // The agent may still cancel: the task is theirs until the service moves it.
    assert.isTrue(
      Result.isSuccess(decide(offered, { _tag: "Cancel", actor: "agent", reason: undefined }, lapsed, policy))
    )
  })

  it("a lapsed offer: `accept_timeout: X did not accept in time`, then offered to the next in the same write", () => {
    const offered = startingTask({
      start: "awaiting_participant",
      named: false,
      deadline: 0,
      withSchema: false,
      revisions: 0,
      steps: []
    })
    const now = T0 + policy.offerTimeoutMs
    const decided = decide(
      offered,
      { _tag: "Tick", seen: offered.version, everyone, unavailable: new Set() },
      now,
      policy
    )
    assert.isTrue(Result.isSuccess(decided))
    const moves = Result.isSuccess(decided) ? decided.success : []
    assert.deepStrictEqual(
      moves.map((m) => [m.from, m.to, m.note]),
      [
        ["awaiting_participant", "matching", "accept_timeout: bea-photo did not accept in time"],
        ["matching", "awaiting_participant", undefined]
      ]
    )
    const reoffered = moves.reduce(evolve, offered)
    assert.deepStrictEqual(reoffered.passedOver, ["bea-photo"])
    assert.strictEqual(reoffered.participantSlug, "ada-photo")
    assert.strictEqual(reoffered.offerExpiresAt, iso(now + policy.offerTimeoutMs))
    assert.strictEqual(reoffered.version, offered.version + 2)
  })

  it("a result: refused from another participant, refused by the result schema, recorded as sent otherwise", () => {
    const working = startingTask({
      start: "in_flight",
      named: false,
      deadline: 0,
      withSchema: true,
      revisions: 0,
      steps: []
    })
    const stranger = decide(
      working,
      { _tag: "Submit", participant: "cem-photo", result: result({ count: 1 }, at) },
      at,
      policy
    )
    assert.deepStrictEqual(
      Result.isFailure(stranger) && [stranger.failure._tag, (stranger.failure as { reason?: string }).reason],
      ["NotPermitted", "this task is not offered to or held by you"]
    )
    const wrong = decide(
      working,
      { _tag: "Submit", participant: "bea-photo", result: result({ count: "x" }, at) },
      at,
      policy
    )
    assert.strictEqual(Result.isFailure(wrong) && wrong.failure._tag, "ResultRejected")
    const recorded = recordedResult(
      {
        summary: " done ",
        artifacts: [
          { kind: "url", value: " https://example.com/a " },
          { kind: "file", id: "f1", description: "front" }
        ],
        fields: { count: 2 }
      },
      [{ id: "f1", name: "a.png", content_type: "image/png", size: 3, sha256: "abc" }],
      iso(at)
    )
    const done = apply(working, { _tag: "Submit", participant: "bea-photo", result: recorded })
    assert.deepStrictEqual(done.result, {
      summary: "done",
      fields: { count: 2 },
      artifacts: [
        { kind: "url", value: "https://example.com/a" },
        {
          kind: "file",
          value: "a.png",
          id: "f1",
          name: "a.png",
          content_type: "image/png",
          size: 3,
          sha256: "abc",
          description: "front"
        }
      ],
      submitted_at: iso(at)
    })
    assert.strictEqual(done.reviewDueAt, iso(at + policy.reviewWindowMs))
  })

  it("the dispatcher's choice declines a task named for someone not taking offers, through matching", () => {
    const open = {
      ...startingTask({ start: "open", named: true, deadline: 0, withSchema: false, revisions: 0, steps: [] })
    }
    assert.deepStrictEqual(dueMove(open, iso(T0), everyone, new Set(["ada-photo"])), {
      to: "matching",
      followedBy: {
        to: "declined",
        reason: "no_match",
        note: "the named participant ada-photo is not taking offers right now"
      }
    })
  })
})

describe("replays and file reads", () => {
  const recorded = storedTask({ draftFingerprint: "fp-1" })

  it("a draft refused only for its passed deadline, with a key, may be a retry of a recorded submission", () => {
    assert.strictEqual(lateRetryKey([{ code: "deadline_passed" }], "key-1"), "key-1")
    assert.isUndefined(lateRetryKey([{ code: "deadline_passed" }], null))
    assert.isUndefined(lateRetryKey([{ code: "deadline_passed" }, { code: "missing_field" }], "key-1"))
    assert.deepStrictEqual(retryVerdict(recorded, "fp-1"), { _tag: "Replay", task: recorded })
    assert.deepStrictEqual(retryVerdict(recorded, "fp-2"), { _tag: "Reused", reference: recorded.reference })
    assert.deepStrictEqual(retryVerdict(undefined, "fp-1"), { _tag: "Rejected" })
  })

  it("a replay shows the task as its creation recorded it", () => {
    const moved: StoredTask = {
      ...recorded,
      state: "declined",
      requestedParticipant: "ada-photo",
      participantSlug: "ada-photo",
      history: [...recorded.history, { from: "open", to: "declined", actor: "service", at: iso(T0) }],
      version: 2,
      updatedAt: iso(T0)
    }
    const replayed = asRecorded(moved)
    assert.deepStrictEqual(
      [replayed.state, replayed.participantSlug, replayed.history, replayed.version, replayed.updatedAt],
      ["open", "ada-photo", recorded.history, 1, recorded.createdAt]
    )
  })

  it("the agent reads a submitted result's files; a participant their own uploads; nobody a missing file", () => {
    const staged = { attached: false, uploader: "ada-photo" }
    const attached = { attached: true, uploader: "ada-photo" }
    assert.isFalse(mayReadFile({ _tag: "Agent" }, staged))
    assert.isTrue(mayReadFile({ _tag: "Agent" }, attached))
    assert.isTrue(mayReadFile({ _tag: "Participant", slug: "ada-photo" }, staged))
    assert.isTrue(mayReadFile({ _tag: "Participant", slug: "ada-photo" }, attached))
    assert.isFalse(mayReadFile({ _tag: "Participant", slug: "bea-photo" }, attached))
    assert.isFalse(mayReadFile({ _tag: "Agent" }, undefined))
  })
})

describe("the table, exhaustively", () => {
  it("is well-formed: eleven states, terminal states have no way out, every other resting state one", () => {
    assert.strictEqual(taskStates.length, 11)
    for (const state of taskStates) {
      if (isTerminal(state)) assert.deepStrictEqual(allowedFrom(state), [])
      else if (state !== "draft" && state !== "preflight_failed") assert.isAbove(allowedFrom(state).length, 0, state)
    }
    for (const row of transitions) {
      if (row.reasons !== undefined) assert.isTrue(isTerminal(row.to), `${row.to} has reasons`)
    }
    assert.strictEqual(maxRevisions, 3)
  })

  it("every (from, to, actor) of every state: a bare move is made exactly when the table has the row; a terminal one without a reason records the row's reason and its sentence", () => {
    let made = 0
    let refused = 0
    for (const from of taskStates) {
      const task = storedTask({ state: from, participantSlug: "ada-photo" })
      for (const to of taskStates) {
        for (const actor of actors) {
          const label = `${from} → ${to} by ${actor}`
          const row = findTransition(from, to, actor)
          const decided = decide(task, { _tag: "Move", to, actor }, T0, policy)
          if (Result.isFailure(decided)) {
            assert.isUndefined(row, `${label} is in the table but refused`)
            assert.deepStrictEqual(
              [decided.failure._tag, decided.failure.from, decided.failure.to, decided.failure.actor],
              ["InvalidTransition", from, to, actor],
              label
            )
            refused++
            continue
          }
          assert.isDefined(row, `${label} is not in the table but made`)
          made++
          const after = decided.success.reduce(evolve, task)
          if (!isTerminal(to)) continue
          const outcome = after.outcome!
          assert.include(row!.reasons ?? [], outcome.reason, label)
          if (to === "cancelled") {
            assert.strictEqual(outcome.reason, actor === "operator" ? "cancelled_by_operator" : "cancelled_by_agent")
          }
          assert.strictEqual(outcome.message, outcomeMessages[outcome.reason as OutcomeReason], label)
        }
      }
    }
    const rows = transitions.filter((t) => t.from !== null).reduce((n, t) => n + t.actors.length, 0)
    assert.strictEqual(made, rows)
    assert.strictEqual(refused, 11 * 11 * actors.length - rows)
  })

  it("two moves asked at once: the second is judged from the state between, and its refusal makes neither", () => {
    const open = storedTask()
    const decided = decide(
      open,
      { _tag: "Move", to: "matching", actor: "service", followedBy: { to: "accepted" } },
      T0,
      policy
    )
    assert.isTrue(Result.isFailure(decided))
    if (Result.isFailure(decided)) {
      assert.deepStrictEqual(
        [decided.failure.from, decided.failure.to, decided.failure.actor],
        ["matching", "accepted", "service"]
      )
    }
  })
})

// The table's rows are all reachable by the decider's commands (none is dead code).
describe("coverage of the table", () => {
  it("every row (from, to, actor) is made by some command from a task resting in its `from` state", () => {
    const made = new Set<string>()
    const steps: ReadonlyArray<Step> = Array.from({ length: 13 * 4 * 5 }, (_, i) => ({
      kind: i % 13,
      who: Math.floor(i / 13) % 4,
      pick: i,
      wait: Math.floor(i / 52) % 5
    }))
    for (const start of restingStates) {
      for (const named of [false, true]) {
        for (const deadline of [0, 1]) {
          for (const step of steps) {
            const task = startingTask({ start, named, deadline, withSchema: false, revisions: 0, steps: [] })
            const now = T0 + waits[step.wait]!
            const decided = decide(task, commandOf(task, step, now), now, policy)
            if (Result.isSuccess(decided) && decided.success.length > 0) {
              const first = decided.success[0]!
              if (commandOf(task, step, now)._tag !== "Move") made.add(`${first.from} ${first.to} ${first.actor}`)
            }
          }
        }
      }
    }
    const rows = restingStates.flatMap((from) =>
      taskStates.flatMap((to) =>
        actors.flatMap((actor: Actor) =>
          findTransition(from as TaskState, to, actor) ? [`${from} ${to} ${actor}`] : []
        )
      )
    )
    assert.deepStrictEqual(
      rows.filter((row) => !made.has(row)),
      []
    )
  })
})
