/**
 * Doomed drafts: why the service cannot place a task as drafted, and what to change, said the same
 * way by preflight (a warning), the 201 and the task's reads (`next_step`).
 *
 * Pure. Called only when the preflight ranking found nobody eligible (`eligible_participants` 0):
 * the cause is worked out from counts by the same rules the ranking and the dispatcher apply
 * (`eligibilityCounts`, `eligibilityOf`), never from a second notion of eligibility.
 *
 * A participant may switch offers off (`Profiles.setAvailable`): matching skips them, so a task
 * nobody available can take is said to be one, and a task naming someone who is off is declined
 * at once (docs/decisions/sign-up-and-availability.md).
 */
import * as Schema from "effect/Schema"
import { nextStepFor, type OutcomeReason, type TaskState } from "./lifecycle.ts"
import { type EligibilityCounts, eligibilityOf } from "./matching.ts"
import { servingTypes, type TaskProfile } from "./matching_rules.ts"
import type { ParticipantRecord } from "./participant.ts"
import { type ExecutionMode, executionModes } from "./task_draft/execution_mode.ts"
import type { TaskIssue } from "./task_draft/issues.ts"
import { show } from "./task_draft/text.ts"

/** Recorded with the task at submission (as JSON), so every read can say it without ranking again. */
export const Infeasibility = Schema.Struct({
  code: Schema.Literals(["no_eligible_participant", "participant_ineligible", "participant_unavailable"]),
  /** The draft member to change first. */
  field: Schema.Literals(["action", "execution_mode", "location", "participant_slug"]),
  /** The named participant, for participant_ineligible and participant_unavailable. */
  participant: Schema.NullOr(Schema.String),
  /** Why, as a clause: `no participant is in "Atlantis" (…)`. */
  cause: Schema.String,
  /** What to change, as a clause: `change location to …, or set execution_mode to digital …`. */
  fix: Schema.String
})
export type Infeasibility = typeof Infeasibility.Type

/** The modes a participant of one of `types` can serve, other than `mode`: "digital", "physical or hybrid". */
const otherModesServedBy = (types: ReadonlyArray<ExecutionMode>, mode: ExecutionMode): ReadonlyArray<ExecutionMode> =>
  executionModes.filter((m) => m !== mode && servingTypes[m].some((t) => types.includes(t)))

const or = (items: ReadonlyArray<string>) => items.join(" or ")
const participants = (n: number) => (n === 1 ? "1 participant" : `${n} participants`)
const findThem = "GET /api/public/v1/participants lists them"

/** Who is not taking offers, as far as it concerns a task that nobody available can take. */
export interface Unavailability {
  /** Whether the participant the draft names is not taking offers. */
  readonly named: boolean
  /** How many participants could take the task (as the ranking judges) but are not taking offers. */
  readonly eligible: number
}

const everyoneAvailable: Unavailability = { named: false, eligible: 0 }

/**
 * Why nobody can take a task whose ranking found no eligible participant, and what to change.
 * `named` is the participant the draft names, when it names one that exists; `unavailable`, who of
 * those the ranking skipped is not taking offers. Undefined when the task's mode is unknown
 * (nothing to explain: every participant would count).
 */
export const infeasibilityOf = (
  task: TaskProfile,
  counts: EligibilityCounts,
  named: ParticipantRecord | undefined,
  unavailable: Unavailability = everyoneAvailable
): Infeasibility | undefined => {
  const mode = task.executionMode
  if (mode === undefined) return undefined
  const where = task.location === undefined ? "" : show(task.location)
  if (named !== undefined && unavailable.named) {
    // Whatever else may be said of them, this is what decides the task: no offer reaches them.
    return {
      code: "participant_unavailable",
      field: "participant_slug",
      participant: named.slug,
      cause: `${named.slug} is not taking offers right now`,
      fix: `${withoutNamed(counts)}, or submit it again later`
    }
  }
  if (named !== undefined) {
    const fit = eligibilityOf(task, named)
    const causes: Array<string> = []
    const fixes: Array<string> = []
    if (!fit.servesMode) {
      causes.push(`does not take ${mode} tasks (they take ${named.task_type} tasks)`)
      fixes.push(
        `set execution_mode to ${or(otherModesServedBy([named.task_type], mode))} if the work can be done that way`
      )
    }
    if (!fit.inPlace) {
      causes.push(`is in ${named.location}, which location ${where} does not name`)
      fixes.push(`change location to ${named.location} if the work can be done there`)
    }
    if (fit.refusedByBoundary) {
      causes.push(`rules this kind of task out (their boundary: ${show(named.boundary ?? "")})`)
      fixes.push("choose a participant whose boundary allows it")
    }
    if (causes.length === 0) return undefined
    fixes.push(withoutNamed(counts))
    return {
      code: "participant_ineligible",
      field: "participant_slug",
      participant: named.slug,
      cause: `${named.slug} ${causes.join(" and ")}`,
      fix: fixes.join(", or ")
    }
  }
  const noEligible = (field: Infeasibility["field"], cause: string, fix: string): Infeasibility => ({
    code: "no_eligible_participant",
    field,
    participant: null,
    cause,
    fix
  })
  if (counts.directory.total === 0) {
    return noEligible("execution_mode", "the directory has no participants yet", `submit once ${findThem}`)
  }
  if (unavailable.eligible > 0) {
    return noEligible(
      "action",
      unavailable.eligible === 1
        ? "the one participant who could take it is not taking offers right now"
        : `the ${participants(unavailable.eligible)} who could take it are not taking offers right now`,
      "submit it again later, or describe the task so that others can take it"
    )
  }
  if (counts.servingMode === 0) {
    return noEligible(
      "execution_mode",
      `no participant takes ${mode} tasks`,
      `set execution_mode to ${or(otherModesServedBy(counts.directory.types, mode))} if the work can be done that way`
    )
  }
  const inPlace = counts.inPlace
  // People of the right mode are in the place, yet the ranking found none: their work does not
  // match the text, or their boundaries refuse it.
  // (Without an action yet there is no work to match: the missing action is the draft's issue.)
  if (counts.eligible > 0) {
    if (task.text.trim() === "") return undefined
    const who =
      inPlace === undefined
        ? `of the ${participants(counts.eligible)} who take ${mode} tasks`
        : `of the ${participants(counts.eligible)} in ${where} who take ${mode} tasks`
    // Not one word of the work read (work_reading.ts): said so, for the words are the fix.
    const unread = counts.unreadWords
    return noEligible(
      "action",
      unread.length > 0
        ? `none ${who} does this kind of work as far as the service can tell: none of the action's words (${unread.slice(0, 5).join(", ")}) is one its vocabulary or any participant's record has, so it is written in a language the service does not read or names work nobody here does`
        : `none ${who} does this kind of work (no discipline, tag, capability or return matches the action), or their boundaries rule it out`,
      `describe the skill the task needs in other words${unread.length > 0 ? ", in English if you can" : ""} (GET /api/public/v1/participants?q=<skill> shows who has it)${inPlace === undefined ? "" : ", or change location to where such people are"}`
    )
  }
  if (inPlace === undefined) return undefined
  // Only a digital task is placed nowhere, so it is the one mode that can leave the place behind.
  const online = otherModesServedBy(counts.directory.types, mode).includes("digital")
    ? ", or set execution_mode to digital if the work can be done online"
    : ""
  if (inPlace.total === 0) {
    return noEligible(
      "location",
      `no participant is in ${where} (a participant is in a place when location names their city or country)`,
      `change location to name a city or country where participants are (${findThem})${online}`
    )
  }
  const nobodyThere =
    inPlace.total === 1
      ? `the only participant in ${where} does not take ${mode} tasks (they take ${or(inPlace.types)} tasks)`
      : `none of the ${participants(inPlace.total)} in ${where} takes ${mode} tasks (they take ${or(inPlace.types)} tasks)`
  return noEligible(
    "execution_mode",
    nobodyThere,
    `set execution_mode to ${or(otherModesServedBy(inPlace.types, mode))} if the work can be done that way, or change location to a place where participants take ${mode} tasks (${findThem})`
  )
}

/** What to do instead of naming a participant: let the service choose, as far as anyone can take it. */
const withoutNamed = (counts: EligibilityCounts) =>
  counts.eligible === 0
    ? "omit participant_slug and change the task so that others can take it (nobody else can as drafted)"
    : counts.eligible === 1
      ? "omit participant_slug to let the service offer it to the one participant who can take it as drafted"
      : `omit participant_slug to let the service choose among the ${participants(counts.eligible)} who can take it as drafted`

/** Preflight's warning: the same cause and fix as the task's `next_step` will give. */
export const warningOf = (infeasibility: Infeasibility): TaskIssue => ({
  field: infeasibility.field,
  code: infeasibility.code,
  message:
    infeasibility.code === "no_eligible_participant"
      ? `nobody can take this task: ${infeasibility.cause}, so a submitted task would be declined at once with no_match. To fix it, ${infeasibility.fix}.`
      : infeasibility.code === "participant_unavailable"
        ? `${infeasibility.cause}: a task naming them gets no offer and would be declined at once with no_match. To fix it, ${infeasibility.fix}.`
        : `${infeasibility.cause}: a task offered to them alone is likely to be declined or to lapse (participant_declined, accept_timeout). To fix it, ${infeasibility.fix}.`
})

/**
 * The sentence a task read carries: the state's own (`nextStepFor`), unless the task was
 * recorded as doomed and is in a state the doom concerns — then its cause and fix.
 */
export const nextStepOf = (
  state: TaskState,
  reference: string,
  outcomeReason: OutcomeReason | undefined,
  infeasibility: Infeasibility | null
): string => {
  if (infeasibility !== null) {
    const { cause, fix } = infeasibility
    const resubmit = `To fix it, ${fix}, and submit a new task.`
    if (infeasibility.code === "no_eligible_participant") {
      if (state === "open" || state === "matching") {
        return `Nobody can take this task: ${cause}, so the service will decline it with no_match. ${resubmit}`
      }
      if (state === "declined" && outcomeReason === "no_match") {
        return `The task was declined with no_match: ${cause}. ${resubmit}`
      }
    } else if (infeasibility.code === "participant_unavailable") {
      if (state === "open" || state === "matching") {
        return `The task names ${infeasibility.participant}, but ${cause}, so the service will decline it with no_match. ${resubmit}`
      }
      if (state === "declined" && outcomeReason === "no_match") {
        return `The task was declined with no_match: ${cause}. ${resubmit}`
      }
    } else {
      if (state === "open" || state === "awaiting_participant") {
        return `The task goes to ${infeasibility.participant} alone, but ${cause}: they are likely to decline it or let the offer lapse; poll this task or wait with ?wait=30. If they do, ${fix}, and submit a new task.`
      }
      if (state === "declined" && (outcomeReason === "participant_declined" || outcomeReason === "accept_timeout")) {
        return `The task was declined with ${outcomeReason}: ${cause}. ${resubmit}`
      }
    }
  }
  return nextStepFor[state].replace("{reference}", reference)
}
