/**
 * What the walks of the fuzzer's stateful phase (scripts/fuzz_stateful.ts) share: its seeded random
 * source, its figures and failures, the tasks it knows and what it learns of them, and the request
 * held to the document (scripts/fuzz_checks.ts).
 */
import type { ValidateFunction } from "ajv/dist/2020.js"
import type { Send } from "./fuzz_checks.ts"
import type { SandboxClock } from "./fuzz_deadlines.ts"
import type { OpenApiDocument, Operation } from "./fuzz_document.ts"
import type { SignedInParticipant } from "./fuzz_participants.ts"

export interface StatefulFigures {
  requests: number
  tasksCreated: number
  drafts: { valid: number; invalid: number }
  /**
   * Drafts valid by the document's schema that POST /tasks refused with 422, by `field:code` of
   * each issue named: what the rules say beyond the schema (a public webhook host, a result schema
   * Ajv's strict mode takes, a deadline not yet passed, a participant that exists).
   */
  validButRefused: Record<string, number>
  statuses: Record<string, number>
  /** Tasks seen in each state (a task counts once for each state it was seen in). */
  statesReached: Record<string, number>
  /** Tasks seen ended, by `state:outcome reason`. */
  outcomes: Record<string, number>
  /** Tasks seen ended, by outcome reason: every reason the document's Outcome names, 0 if never seen. */
  outcomeReasons: Record<string, number>
  /** The deadline walk (scripts/fuzz_deadlines.ts): deadlines passed by state, and what followed. */
  deadlines: Record<string, number>
  /** Moves made (a 2xx), by `operationId→state it left the task in`; uploads as `uploadArtifact`. */
  moves: Record<string, number>
  /** The participant's MCP endpoint (scripts/fuzz_mcp_walk.ts): calls by `tool ok|refused code|rpc code`, and checks passed. */
  mcp: Record<string, number>
  /** Answers of the participant's operations, by `operationId status`. */
  participantStatuses: Record<string, number>
  failures: Array<string>
}

/** A seeded pseudo-random source (the same seed, the same run against the same service). */
export const seeded = (seed: number) => {
  let state = seed
  const random = () => {
    state = (state * 1103515245 + 12345) & 0x7fffffff
    return state / 0x7fffffff
  }
  const pick = <T>(xs: ReadonlyArray<T>): T => xs[Math.floor(random() * xs.length)] as T
  return { random, pick }
}

/** A task the phase created, as last seen. */
export interface Task {
  reference: string
  token: string
  etag: string | undefined
  state: string
  /** The participant it is offered to or held by, as last seen. */
  participant: string | null
  /** The brief's result_schema, as last seen. */
  resultSchema: unknown
  /** The brief's deadline (read from timing), as last seen. */
  deadline: string | undefined
  /** Files uploaded to it: their ids, uploaders and sizes. */
  readonly uploads: Array<{ readonly id: string; readonly by: string; readonly size: number }>
  /** Files a submitted result carries (the agent may download them). */
  readonly attached: Set<string>
  readonly seen: Set<string>
  outcome: string | undefined
  /** Each link's path parameters, resolved against the task's 201. */
  readonly paths: Record<string, Record<string, string>>
}

/** One run of the phase: what statefulPhase builds once and each walk reads. */
export interface Run {
  readonly base: string
  readonly document: OpenApiDocument
  readonly random: () => number
  readonly pick: <T>(xs: ReadonlyArray<T>) => T
  readonly figures: StatefulFigures
  /** Records a failure (at most three examples of each kind). */
  readonly fail: (what: string) => void
  readonly validator: (at: string) => ValidateFunction
  readonly operation: (id: string) => { route: string; method: string; operation: Operation }
  readonly send: Send
  /** Participants a draft may name. */
  readonly participants: ReadonlyArray<string>
  readonly signedIn: ReadonlyArray<SignedInParticipant>
  /** The tasks created lately (at most 40), which the agent's rounds pick from. */
  readonly tasks: Array<Task>
  /** Every task created, by reference. */
  readonly known: Map<string, Task>
  readonly observe: (task: Task, json: unknown) => void
  readonly moved: (id: string, json: unknown) => void
  readonly refresh: (task: Task) => Promise<void>
  readonly withBearer: (authorization: string | undefined) => Record<string, string>
  /** The sandbox's clock, when the run has one. */
  readonly clock: SandboxClock | undefined
}
