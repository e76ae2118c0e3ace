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

/** The furthest one move of the sandbox clock goes: ten years (dates stay dates). */
export const maxAdvanceMs = 3650 * 24 * 3600_000

const isoDuration =
  /^P(?!$)(?:(\d+(?:[.,]\d+)?)Y)?(?:(\d+(?:[.,]\d+)?)M)?(?:(\d+(?:[.,]\d+)?)W)?(?:(\d+(?:[.,]\d+)?)D)?(?:T(?!$)(?:(\d+(?:[.,]\d+)?)H)?(?:(\d+(?:[.,]\d+)?)M)?(?:(\d+(?:[.,]\d+)?)S)?)?$/

/**
 * How far `advance` moves the sandbox clock: a positive ISO 8601 duration (`PT25H`, `P3D`,
 * `P1DT2H30M`, `PT90S`, `P2W`), in milliseconds, or why it cannot. Years and months have no fixed
 * length, so they are refused with a hint to count in days.
 */
export const parseAdvance = (text: string): { readonly ms: number } | { readonly problem: string } => {
  const match = isoDuration.exec(text.trim().toUpperCase())
  if (match === null) {
    return { problem: "advance must be an ISO 8601 duration such as PT25H (25 hours), P3D (3 days) or PT90M." }
  }
  const [, years, months, weeks, days, hours, minutes, seconds] = match
  if (years !== undefined || months !== undefined) {
    return { problem: "advance must not count in years or months (they have no fixed length): write days, e.g. P30D." }
  }
  const number = (part: string | undefined) => (part === undefined ? 0 : Number(part.replace(",", ".")))
  const ms = Math.round(
    number(weeks) * 7 * 24 * 3600_000 +
      number(days) * 24 * 3600_000 +
      number(hours) * 3600_000 +
      number(minutes) * 60_000 +
      number(seconds) * 1000
  )
  if (ms <= 0) return { problem: "advance must move the clock forward: a duration longer than zero, e.g. PT1H." }
  if (ms > maxAdvanceMs) return { problem: "advance moves the clock at most ten years (P3650D) at a time." }
  return { ms }
}

/** Milliseconds as an ISO 8601 duration: 90_000_000 → `P1DT1H`, 0 → `PT0S`. */
export const isoDurationOf = (ms: number): string => {
  const days = Math.floor(ms / (24 * 3600_000))
  let rest = ms - days * 24 * 3600_000
  const hours = Math.floor(rest / 3600_000)
  rest -= hours * 3600_000
  const minutes = Math.floor(rest / 60_000)
  const seconds = (rest - minutes * 60_000) / 1000
  const time = `${hours > 0 ? `${hours}H` : ""}${minutes > 0 ? `${minutes}M` : ""}${seconds > 0 ? `${seconds}S` : ""}`
  if (days === 0 && time === "") return "PT0S"
  return `P${days > 0 ? `${days}D` : ""}${time === "" ? "" : `T${time}`}`
}
