/**
 * The sandbox (SANDBOX=on): the same service with simulated participants and a clock an agent
 * developer can move. This module holds what the sandbox is made of, as data: the simulated
 * participants, each behaving as its slug says (services/simulator.ts makes their moves).
 */
import type { ParticipantRecord } from "./participant.ts"

/** How each simulated participant behaves; its slug says the same. */
export const simulatedBehaviours = {
  "sim-delivers":
    "accepts an offer at once, starts, and within seconds submits a result whose fields satisfy the task's result_schema; asked for a revision, delivers again",
  "sim-declines": "declines every offer",
  "sim-silent": "never answers: its offers lapse at the offer timeout",
  "sim-slow": "accepts an offer at once and starts, then submits a result 6 hours later by the sandbox clock"
} as const
export type SimulatedSlug = keyof typeof simulatedBehaviours

export const simulatedSlugs = Object.keys(simulatedBehaviours) as ReadonlyArray<SimulatedSlug>

/** How long sim-slow works before it submits, by the sandbox clock. */
export const slowWorkMs = 6 * 3600_000

const names: Readonly<Record<SimulatedSlug, string>> = {
  "sim-delivers": "Sim Delivers",
  "sim-declines": "Sim Declines",
  "sim-silent": "Sim Silent",
  "sim-slow": "Sim Slow"
}

/**
 * The simulated participants as the directory lists them: hybrid and anywhere, so a task of any
 * mode and place may name them (and matching may pick them); their boundary says what they do.
 */
export const simulatedParticipants: ReadonlyArray<ParticipantRecord> = simulatedSlugs.map((slug) => ({
  slug,
  name: names[slug],
  discipline: "Simulated participant (sandbox)",
  location: "Anywhere (simulated)",
  task_type: "hybrid",
  tags: ["sandbox", "simulated", slug],
  capabilities: [`Simulates a participant who ${simulatedBehaviours[slug]}`],
  returns: "A generated result: a summary, fields that satisfy the task's result_schema, and a text artifact.",
  boundary: `Sandbox only: ${simulatedBehaviours[slug]}.`
}))
