/**
 * The fuzzer's stateful phase (scripts/fuzz.ts; docs/testing.md, "Fuzzing"): tasks created from
 * the document, then walked along the document's links.
 *
 * Each round builds a create body from the document's TaskDraft schema (its required members, the
 * ExecutionMode enum in any letter case, the bounds and examples each member states, null and ""
 * where the schema takes them, an unknown member), sometimes spoiled (a member past its bound, of
 * the wrong type, a required one missing or blank). Ajv, over the document itself, says whether the
 * body is valid. The body goes to preflight and then to POST /tasks, and the answers must agree with
 * that verdict: a valid body is never refused as malformed (400), an invalid one is never taken
 * (201), nor called valid by preflight. From a 201 the phase follows the response's `links`
 * (reference, ETag as If-None-Match, the task token as the taskToken bearer) to getTask, cancelTask,
 * reviewTask and listDeliveries, with seeded valid and invalid inputs and right, wrong or no tokens.
 * With participants signed in (scripts/fuzz_participants.ts), drafts name them, and each walks the
 * tasks offered to them along the participant's operations, found by operationId in the document
 * (myTasks, acceptTask, declineTask, startTask, uploadArtifact, submitTask; bodies from the
 * operations' request schemas and the task's result_schema), with their own token, the other
 * participant's, a garbage one or none; the agent reviews what they submit (accept, revise,
 * reject); in a sandbox the clock is moved now and then, so offers lapse and review windows close.
 *
 * Every answer is held to the document: a 5xx other than 503 fails, as does a status the document
 * does not list for the operation, or a JSON body its schema for that status refuses.
 *
 * The phase's parts, each a module: the document read (scripts/fuzz_document.ts), the request held
 * to it (scripts/fuzz_checks.ts), the drafts (scripts/fuzz_drafts.ts), the agent's walk
 * (scripts/fuzz_agent.ts) and the participant's (scripts/fuzz_participant_walk.ts); this module runs
 * them: what they share (scripts/fuzz_run.ts), the rounds, the sandbox's clock.
 */
import { agentWalk } from "./fuzz_agent.ts"
import { sender } from "./fuzz_checks.ts"
import { deadlineWalk, type SandboxClock, sandboxClockAt } from "./fuzz_deadlines.ts"
import { type OpenApiDocument, operationsOf, outcomeReasonsOf, validatorOf } from "./fuzz_document.ts"
import { draftsOf } from "./fuzz_drafts.ts"
import { mcpWalk } from "./fuzz_mcp_walk.ts"
import { participantWalk } from "./fuzz_participant_walk.ts"
import type { SignedInParticipant } from "./fuzz_participants.ts"
import { type Run, type StatefulFigures, seeded, type Task } from "./fuzz_run.ts"

export const statefulPhase = async (options: {
  readonly base: string
  readonly document: OpenApiDocument
  readonly seconds: number
  /** Stop after this many rounds (a create or a followed link), if that comes first. */
  readonly rounds?: number
  readonly seed?: number
  /** Participants a draft may name (the sandbox's simulated ones reach the lifecycle). */
  readonly participants?: ReadonlyArray<string>
  /** Participants signed in (scripts/fuzz_participants.ts): drafts name them, and they walk their tasks. */
  readonly signedIn?: ReadonlyArray<SignedInParticipant>
  /** The sandbox's clock (the index's sandbox.clock), moved now and then when given. */
  readonly clock?: string
  /** Whether the signed-in participants also walk the participant's MCP endpoint (default: yes). */
  readonly mcp?: boolean
}): Promise<StatefulFigures> => {
  const { base, document } = options
  const { random, pick } = seeded(options.seed ?? 35)
  const validator = validatorOf(document)
  const figures: StatefulFigures = {
    requests: 0,
    tasksCreated: 0,
    drafts: { valid: 0, invalid: 0 },
    validButRefused: {},
    statuses: {},
    statesReached: {},
    outcomes: {},
    outcomeReasons: Object.fromEntries(outcomeReasonsOf(document).map((reason) => [reason, 0])),
    deadlines: {},
    mcp: {},
    moves: {},
    participantStatuses: {},
    failures: []
  }
  // At most three examples of each kind of failure (what it says, on which operation), so that one
  // kind found often does not hide the others.
  const kinds = new Map<string, number>()
  const fail = (what: string) => {
    const kind = `${what.split(": ", 1)[0]} ${/(POST|GET) \/\S*/.exec(what)?.[0] ?? ""}`
    const seen = kinds.get(kind) ?? 0
    kinds.set(kind, seen + 1)
    if (seen < 3 && figures.failures.length < 200) figures.failures.push(what)
  }

  const operation = operationsOf(document)
  const send = sender({ base, validator, operation, figures, fail })
  const participants = options.participants ?? []
  const signedIn = options.signedIn ?? []

  const tasks: Array<Task> = []
  const known = new Map<string, Task>()
  /** What a Task body (validated by `send`) says of the task: its state, participant, outcome. */
  const observe = (task: Task, json: unknown) => {
    const body = json as {
      state?: string
      participant_slug?: string | null
      brief?: { result_schema?: unknown; deadline?: string | null }
      outcome?: { reason?: string } | null
    }
    if (typeof body?.state !== "string") return
    task.state = body.state
    task.seen.add(body.state)
    if (body.participant_slug !== undefined) task.participant = body.participant_slug
    if (body.brief !== undefined) {
      task.resultSchema = body.brief.result_schema
      task.deadline = body.brief.deadline ?? undefined
    }
    const reason = body.outcome?.reason
    if (reason !== undefined && task.outcome === undefined) {
      task.outcome = `${body.state}:${reason}`
      figures.outcomes[task.outcome] = (figures.outcomes[task.outcome] ?? 0) + 1
      figures.outcomeReasons[reason] = (figures.outcomeReasons[reason] ?? 0) + 1
    }
  }
  const moved = (id: string, json: unknown) => {
    const state = (json as { state?: string } | undefined)?.state
    const move = state === undefined ? id : `${id}→${state}`
    figures.moves[move] = (figures.moves[move] ?? 0) + 1
  }
  const withBearer = (authorization: string | undefined): Record<string, string> =>
    authorization === undefined ? {} : { authorization }

  /** After a 409 (the task moved on: a timer, the clock, the other party), read it as it is now. */
  const refresh = async (task: Task) => {
    const answer = await send("getTask", { reference: task.reference }, {})
    if (answer.status === 200) observe(task, answer.json)
  }

  const clock = options.clock === undefined ? undefined : await sandboxClockAt(options.clock)
  const run: Run = {
    base,
    document,
    random,
    pick,
    figures,
    fail,
    validator,
    operation,
    send,
    participants,
    signedIn,
    tasks,
    known,
    observe,
    moved,
    refresh,
    withBearer,
    clock
  }
  const { createOne, follow } = agentWalk(run, draftsOf(run))
  const { participantOps, participantRound } = participantWalk(run)
  const { deadlineRound } = deadlineWalk(run)
  const mcp = signedIn.length > 0 && options.mcp !== false ? await mcpWalk(run) : undefined

  /** Moves the sandbox's clock: offers lapse, review windows close, deadlines pass. */
  const moveClock = async (clock: SandboxClock) => {
    const status = await clock.advance(pick(["PT25H", "PT73H", "PT6H"]))
    figures.requests++
    if (status !== 200) fail(`the sandbox clock answered ${status}`)
    else moved("sandbox clock", undefined)
  }

  const deadline = Date.now() + options.seconds * 1000
  for (let round = 0; Date.now() < deadline && round < (options.rounds ?? Number.POSITIVE_INFINITY); round++) {
    const roll = random()
    if (clock !== undefined && roll < 0.003) await moveClock(clock)
    else if (clock !== undefined && roll < 0.018) await deadlineRound()
    else if (tasks.length === 0 || roll < 0.25) await createOne()
    else if (mcp !== undefined && roll < 0.36) await mcp.mcpRound()
    else if (participantOps.length > 0 && roll < 0.6) await participantRound()
    else {
      // A submitted result waits for its agent: half the agent's rounds go to one, if any.
      const submitted = [...known.values()].filter((task) => task.state === "submitted")
      await follow(pick(submitted.length > 0 && random() < 0.5 ? submitted : tasks))
    }
  }
  await mcp?.close()
  for (const task of known.values())
    for (const state of task.seen) figures.statesReached[state] = (figures.statesReached[state] ?? 0) + 1
  return figures
}
