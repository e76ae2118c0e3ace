// Doomed drafts (issue 25): why nobody can take a task, worked out by the ranking's own rules.
import { readFileSync } from "node:fs"
import { describe, expect, it } from "@effect/vitest"
import { infeasibilityOf, nextStepOf, warningOf } from "../../src/domain/feasibility.ts"
import { nextStepFor } from "../../src/domain/lifecycle.ts"
import { eligibilityCounts, eligibilityOf, rankTop } from "../../src/domain/matching.ts"
import type { TaskProfile } from "../../src/domain/matching_rules.ts"
import type { ParticipantRecord } from "../../src/domain/participant.ts"
import { executionModes } from "../../src/domain/task_draft/execution_mode.ts"
import { generateDirectory } from "../support/directory.ts"
import { rankEligible } from "../support/matching_oracle.ts"

const sample: ReadonlyArray<ParticipantRecord> = JSON.parse(
  readFileSync(new URL("../../data/sample-participants.json", import.meta.url), "utf8")
)
const bySlug = (slug: string) => sample.find((p) => p.slug === slug)!

const task = (
  executionMode: TaskProfile["executionMode"],
  location?: string,
  participantSlug?: string
): TaskProfile => ({
  executionMode,
  location,
  text: "Photograph the storefront",
  participantSlug
})

/** What preflight does: rank once, and explain only when nobody is eligible. */
const explain = (profile: TaskProfile, everyone: ReadonlyArray<ParticipantRecord> = sample) => {
  const { eligible } = rankTop(profile, everyone, { limit: 5 })
  expect(eligible).toBe(0)
  const named =
    profile.participantSlug === undefined ? undefined : everyone.find((p) => p.slug === profile.participantSlug)
  return infeasibilityOf(profile, eligibilityCounts(profile, everyone), named)!
}

describe("eligibilityCounts", () => {
  it("counts exactly the participants rankEligible keeps, for every mode and many places", () => {
    const directories = [sample, generateDirectory(2_000, 25)]
    const places = [undefined, "Berlin, Germany", "Lagos", "Osaka", "Reykjavik, Iceland", "United States", "x"]
    for (const everyone of directories) {
      for (const mode of [undefined, ...executionModes]) {
        for (const location of places) {
          const profile = task(mode, location)
          const counts = eligibilityCounts(profile, everyone)
          const what = `${mode} ${location}`
          // By mode and place only: ranking also asks that a participant's work match the text
          // and that their boundary allow it, so it keeps at most these.
          const byModeAndPlace = (p: (typeof everyone)[number], t = profile) => {
            const fit = eligibilityOf(t, p, everyone)
            return fit.servesMode && fit.inPlace
          }
          expect(counts.eligible, what).toBe(everyone.filter((p) => byModeAndPlace(p)).length)
          expect(rankEligible(profile, everyone).length, what).toBeLessThanOrEqual(counts.eligible)
          expect(rankTop(profile, everyone, { limit: 1 }).eligible, what).toBe(rankEligible(profile, everyone).length)
          const anywhere = task(mode, undefined)
          expect(counts.servingMode, what).toBe(everyone.filter((p) => byModeAndPlace(p, anywhere)).length)
          expect(counts.directory.total).toBe(everyone.length)
        }
      }
    }
  })
})

describe("infeasibilityOf: nobody eligible", () => {
  it("people of the mode are in the place but nobody does the work: the cause is the action, the fix other words", () => {
    const profile = { ...task("physical", "Berlin, Germany"), text: "Tune the pipe organ of the cathedral" }
    const found = explain(profile)
    expect(found).toMatchObject({ code: "no_eligible_participant", field: "action", participant: null })
    expect(found.cause).toMatch(
      /^none of the \d+ participants? in "Berlin, Germany" who take physical tasks does this kind of work/
    )
    expect(found.fix).toContain("describe the skill the task needs in other words")
    // A digital task has no place to change.
    const online = explain({ ...task("digital"), text: "Tune the pipe organ of the cathedral" })
    expect(online.field).toBe("action")
    expect(online.fix).not.toContain("change location")
    // Not one word of the work read (Georgian, or words no record has and no concept names): said so.
    const georgian = explain({ ...task("physical", "Berlin, Germany"), text: "ოფისის კედლების შეღებვა" })
    expect(georgian.cause).toMatch(
      /does this kind of work as far as the service can tell: none of the action's words \(ოფისის, კედლების, შეღებვა\)/
    )
    expect(georgian.fix).toMatch(/^describe the skill the task needs in other words, in English if you can/)
    // One word read, and the old cause.
    const read = explain({ ...task("physical", "Berlin, Germany"), text: "Install solar panels on the roof" })
    expect(read.cause).toMatch(/does this kind of work \(no discipline, tag, capability or return matches the action\)/)
    expect(eligibilityCounts(profile, sample).unreadWords).toEqual(["tune", "pipe", "organ", "cathedral"])
    // Without an action there is nothing to match yet: the missing action is the draft's issue.
    expect(infeasibilityOf({ ...profile, text: " " }, eligibilityCounts(profile, sample), undefined)).toBeUndefined()
  })

  it("a place nobody is in: the cause names the place; the fix a place with participants, or digital", () => {
    const found = explain(task("physical", "Reykjavik, Iceland"))
    expect(found).toMatchObject({ code: "no_eligible_participant", field: "location", participant: null })
    expect(found.cause).toContain('no participant is in "Reykjavik, Iceland"')
    expect(found.fix).toContain("change location")
    expect(found.fix).toContain("GET /api/public/v1/participants")
    expect(found.fix).toContain("set execution_mode to digital")
  })

  it("a place whose participants do not take the mode: the cause says who is there; the fix the mode they take", () => {
    // Osaka: akiko-tanaka alone, digital.
    const found = explain(task("physical", "Osaka"))
    expect(found).toMatchObject({ code: "no_eligible_participant", field: "execution_mode" })
    expect(found.cause).toBe('the only participant in "Osaka" does not take physical tasks (they take digital tasks)')
    expect(found.fix).toContain("set execution_mode to digital")
    const two = explain(task("hybrid", "Osaka"), [...sample, { ...bySlug("akiko-tanaka"), slug: "akiko-tanaka-2" }])
    expect(two.cause).toBe('none of the 2 participants in "Osaka" takes hybrid tasks (they take digital tasks)')
  })

  it("a mode nobody takes anywhere: the cause names the mode; the fix the modes the directory serves", () => {
    const onSite = sample.filter((p) => p.task_type === "physical")
    const found = explain(task("digital"), onSite)
    expect(found).toMatchObject({ code: "no_eligible_participant", field: "execution_mode" })
    expect(found.cause).toBe("no participant takes digital tasks")
    expect(found.fix).toContain("set execution_mode to physical or hybrid")
  })

  it("an empty directory says so", () => {
    expect(explain(task("digital"), []).cause).toBe("the directory has no participants yet")
  })

  it("nothing to explain when the mode is unknown", () => {
    expect(infeasibilityOf(task(undefined), eligibilityCounts(task(undefined), []), undefined)).toBeUndefined()
  })
})

describe("infeasibilityOf: a named participant who cannot serve the task", () => {
  it("a boundary that refuses the task: names the boundary and the fix", () => {
    // jack-thompson takes physical work in Denver, and refuses "gas … work".
    const profile = { ...task("physical", "Denver, United States", "jack-thompson"), text: "Repair the gas boiler" }
    const found = explain(profile)
    expect(found).toMatchObject({ code: "participant_ineligible", participant: "jack-thompson" })
    expect(found.cause).toContain("rules this kind of task out (their boundary:")
    expect(found.fix).toContain("choose a participant whose boundary allows it")
  })

  it("the wrong mode: names the participant, the mode they take, and the fixes", () => {
    // jonas-weber is in Berlin but works digitally; lukas-schmidt takes physical work in Berlin.
    const found = explain(task("physical", "Berlin, Germany", "jonas-weber"))
    expect(found).toMatchObject({
      code: "participant_ineligible",
      field: "participant_slug",
      participant: "jonas-weber"
    })
    expect(found.cause).toBe("jonas-weber does not take physical tasks (they take digital tasks)")
    expect(found.fix).toBe(
      "set execution_mode to digital if the work can be done that way, or omit participant_slug to let the service offer it to the one participant who can take it as drafted"
    )
  })

  it("the wrong place: names where they are; says when nobody else can take it either", () => {
    const found = explain(task("physical", "Paris, France", "lukas-schmidt"))
    expect(found.cause).toBe('lukas-schmidt is in Berlin, Germany, which location "Paris, France" does not name')
    expect(found.fix).toContain("change location to Berlin, Germany if the work can be done there")
    // "Paris, France" names a city: only people in Paris are there, and nobody is.
    expect(found.fix).toContain("nobody else can as drafted")
    // Nigeria: amara-okafor (physical, Lagos) and aisha-bello (hybrid, Abuja) can take it.
    const two = explain(task("physical", "Nigeria", "lukas-schmidt"))
    expect(two.fix).toContain("omit participant_slug to let the service choose among the 2 participants who")
    const alone = explain(task("physical", "Reykjavik, Iceland", "lukas-schmidt"))
    expect(alone.fix).toContain("nobody else can as drafted")
  })

  it("both at once", () => {
    const found = explain(task("physical", "Paris, France", "jonas-weber"))
    expect(found.cause).toBe(
      'jonas-weber does not take physical tasks (they take digital tasks) and is in Berlin, Germany, which location "Paris, France" does not name'
    )
  })

  it("a digital task has no place: a named digital participant anywhere can serve it", () => {
    const profile = task("digital", "Paris, France", "jonas-weber")
    expect(rankTop(profile, sample, { limit: 5 }).eligible).toBe(1)
  })
})

describe("what is said", () => {
  const doomed = explain(task("physical", "Reykjavik, Iceland"))
  const named = explain(task("physical", "Berlin, Germany", "jonas-weber"))

  it("the warning carries the code, the field, the cause, the decline to expect and the fix", () => {
    const warning = warningOf(doomed)
    expect(warning).toMatchObject({ code: "no_eligible_participant", field: "location" })
    for (const part of [doomed.cause, doomed.fix, "no_match"]) expect(warning.message).toContain(part)
    const other = warningOf(named)
    expect(other).toMatchObject({ code: "participant_ineligible", field: "participant_slug" })
    for (const part of [named.cause, named.fix]) expect(other.message).toContain(part)
  })

  it("next_step explains a doomed task where the doom applies, and is the state's own sentence elsewhere", () => {
    const ref = "tsk_x"
    for (const state of ["open", "matching"] as const) {
      const sentence = nextStepOf(state, ref, undefined, doomed)
      expect(sentence).toMatch(/^Nobody can take this task: .*no_match.*submit a new task\.$/)
      expect(sentence).toContain(doomed.cause)
      expect(sentence).toContain(doomed.fix)
    }
    expect(nextStepOf("declined", ref, "no_match", doomed)).toContain(doomed.cause)
    expect(nextStepOf("declined", ref, "cancelled_by_agent", doomed)).toBe(nextStepFor.declined)
    expect(nextStepOf("cancelled", ref, "cancelled_by_agent", doomed)).toBe(nextStepFor.cancelled)
    expect(nextStepOf("open", ref, undefined, null)).toBe(nextStepFor.open)

    for (const state of ["open", "awaiting_participant"] as const) {
      expect(nextStepOf(state, ref, undefined, named)).toContain(
        `The task goes to jonas-weber alone, but ${named.cause}`
      )
    }
    expect(nextStepOf("declined", ref, "accept_timeout", named)).toContain(named.cause)
    expect(nextStepOf("accepted", ref, undefined, named)).toBe(nextStepFor.accepted)
    expect(nextStepOf("submitted", ref, undefined, named)).toBe(nextStepFor.submitted.replace("{reference}", ref))
  })
})

describe("infeasibilityOf: participants not taking offers", () => {
  /** What preflight does when some are off: rank without them, and say so when they were the ones. */
  const explainWithout = (profile: TaskProfile, unavailable: ReadonlySet<string>) => {
    expect(rankTop(profile, sample, { limit: 5, unavailable }).eligible).toBe(0)
    const named = profile.participantSlug === undefined ? undefined : bySlug(profile.participantSlug)
    return infeasibilityOf(profile, eligibilityCounts(profile, sample), named, {
      named: named !== undefined && unavailable.has(named.slug),
      eligible: rankTop(profile, sample, { limit: 0 }).eligible
    })!
  }

  it("a named participant who is off: that is the cause, whatever else may be said of them", () => {
    // Nigeria: amara-okafor (physical, Lagos) and aisha-bello (hybrid, Abuja).
    const profile = task("physical", "Nigeria", "amara-okafor")
    const found = explainWithout(profile, new Set(["amara-okafor"]))
    expect(found).toEqual({
      code: "participant_unavailable",
      field: "participant_slug",
      participant: "amara-okafor",
      cause: "amara-okafor is not taking offers right now",
      fix: "omit participant_slug to let the service choose among the 2 participants who can take it as drafted, or submit it again later"
    })
    // Off and in the wrong place: being off decides (no offer reaches them at all).
    expect(explainWithout(task("physical", "Paris, France", "amara-okafor"), new Set(["amara-okafor"])).code).toBe(
      "participant_unavailable"
    )
    const warning = warningOf(found)
    expect(warning).toMatchObject({ code: "participant_unavailable", field: "participant_slug" })
    for (const part of [found.cause, found.fix, "no_match"]) expect(warning.message).toContain(part)
    const ref = "tsk_x"
    expect(nextStepOf("open", ref, undefined, found)).toBe(
      `The task names amara-okafor, but ${found.cause}, so the service will decline it with no_match. To fix it, ${found.fix}, and submit a new task.`
    )
    expect(nextStepOf("declined", ref, "no_match", found)).toContain(found.cause)
    expect(nextStepOf("declined", ref, "cancelled_by_agent", found)).toBe(nextStepFor.declined)
  })

  it("everyone who could take it is off: said as such, not as a mismatch of the work", () => {
    // Both in Nigeria take photographs and interview people.
    const nigeria = { ...task("physical", "Nigeria"), text: "Photograph the shop and interview the owner" }
    expect(rankTop(nigeria, sample, { limit: 5 }).eligible).toBe(2)
    const both = explainWithout(nigeria, new Set(["amara-okafor", "aisha-bello"]))
    expect(both).toMatchObject({ code: "no_eligible_participant", field: "action", participant: null })
    expect(both.cause).toBe("the 2 participants who could take it are not taking offers right now")
    expect(both.fix).toBe("submit it again later, or describe the task so that others can take it")
    const one = explainWithout(task("physical", "Lagos, Nigeria"), new Set(["amara-okafor"]))
    expect(one.cause).toBe("the one participant who could take it is not taking offers right now")
    // Nobody could take it anyway: the cause is the place, as before.
    expect(explainWithout(task("physical", "Reykjavik, Iceland"), new Set(["amara-okafor"])).field).toBe("location")
  })
})
