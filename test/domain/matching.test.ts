// Unit tests for matching: the indexed ranking against its plain definition, and the rules it reads
// by (word forms, synonyms, boundaries, places, modes).
import { readFileSync } from "node:fs"
import { describe, expect, it } from "@effect/vitest"
import { directoryIndexOf } from "../../src/domain/directory_index.ts"
import { searchDirectory } from "../../src/domain/directory_search.ts"
import { eligibilityCounts, eligibilityOf, rankTop } from "../../src/domain/matching.ts"
import type { ParticipantRecord } from "../../src/domain/participant.ts"
import { stemOf } from "../../src/domain/stemmer.ts"
import type { ExecutionMode } from "../../src/domain/task_draft/execution_mode.ts"
import { inferExecutionMode, inferLocationIn } from "../../src/domain/task_inference.ts"
import { keyOf, termsOf } from "../../src/domain/words.ts"
import { generateDirectory } from "../support/directory.ts"
import { rankEligible } from "../support/matching_oracle.ts"
import { prng } from "../support/random.ts"

const sample: ReadonlyArray<ParticipantRecord> = JSON.parse(
  readFileSync(new URL("../../data/sample-participants.json", import.meta.url), "utf8")
)

/** Every word of the sample (boundaries included), and other forms of them: terms that hit every rule. */
const vocabulary = [
  ...new Set(
    sample.flatMap((p) =>
      [p.discipline, p.returns, p.boundary ?? "", ...p.tags, ...p.capabilities]
        .flatMap((text) => text.split(/[^\p{L}\p{N}]+/u))
        .filter((w) => w.length >= 2)
        .flatMap((w) => [w, `${w}s`, `${w}ing`, w.slice(0, 5)])
    )
  )
]

const ann: ParticipantRecord = {
  slug: "ann-lee",
  name: "Ann Lee",
  discipline: "Photography",
  location: "Oslo, Norway",
  task_type: "physical",
  tags: ["drone"],
  capabilities: ["Site visits"],
  returns: "Photos",
  boundary: "No gas, structural or licensed electrical work. No entry without the owner's consent."
}

describe("words", () => {
  it("reads word forms, accents and the field's synonyms as one key", () => {
    expect(stemOf("generalizations")).toBe("gener") // Porter's published examples
    expect(stemOf("hopping")).toBe("hop")
    expect(stemOf("relational")).toBe("relat")
    for (const [a, b] of [
      ["photographer", "photography"],
      ["photographer", "pictures"],
      ["transcribed", "transcription"],
      ["translator", "translations"],
      ["notarise", "notarized"],
      ["labelling", "annotation"],
      ["courier", "parcels"],
      ["accessible", "accessibility"],
      ["subtitles", "captioning"]
    ] as const) {
      expect(keyOf(a), `${a} ~ ${b}`).toBe(keyOf(b))
    }
    // Related but distinct work stays apart.
    expect(keyOf("translation")).not.toBe(keyOf("interpretation"))
    expect(keyOf("transcription")).not.toBe(keyOf("captions"))
    expect(termsOf("Someone in Montréal to photograph the Café").map((t) => t.word)).toEqual([
      "montreal",
      "photograph",
      "cafe"
    ])
  })
})

describe("rankEligible", () => {
  it("ranks rare words above common ones: the translator before the other German speaker", () => {
    const ranked = rankEligible({ executionMode: "digital", text: "translate a contract into German" }, sample)
    expect(ranked[0]!.participant.discipline).toMatch(/^Translation/)
    for (const r of ranked) expect(["digital", "hybrid"]).toContain(r.participant.task_type)
    for (let i = 1; i < ranked.length; i++) expect(ranked[i - 1]!.score).toBeGreaterThanOrEqual(ranked[i]!.score)
  })

  it("finds both photographers for 'photographer', the one whose discipline it is first on a tie", () => {
    const slugs = rankEligible({ executionMode: undefined, text: "photographer" }, sample).map(
      (r) => r.participant.slug
    )
    expect(slugs.slice(0, 2)).toEqual(["valentina-morales", "eleni-papadopoulou"])
  })

  it("counts only those whose work matches the task: nobody, when nobody's does", () => {
    expect(rankEligible({ executionMode: "physical", location: "Lagos", text: "Tune a piano" }, sample)).toEqual([])
    // A place word is where the task is, not a skill: Amara's capabilities mention Lagos.
    expect(rankEligible({ executionMode: undefined, text: "Tune a piano in Lagos" }, sample)).toEqual([])
    // Named by the task, a participant is eligible whatever the text: the agent has chosen.
    const named = rankEligible(
      { executionMode: "digital", text: "Tune a piano", participantSlug: "akiko-tanaka" },
      sample
    )
    expect(named.map((r) => [r.participant.slug, r.score])).toEqual([["akiko-tanaka", 0]])
  })

  it("leaves out a participant whose boundary refuses the task, and only then", () => {
    const denver = sample.filter((p) => p.location.startsWith("Denver"))
    const gas = { executionMode: "physical" as const, location: "Denver", text: "Repair the gas meter in the kitchen" }
    expect(rankEligible(gas, denver)).toEqual([])
    const shelf = { ...gas, text: "Repair a shelf and mount it on the wall" }
    expect(rankEligible(shelf, denver).map((r) => r.participant.slug)).toEqual(["jack-thompson"])
    // "licensed electrical work" needs all of its words; a condition ("without …") refuses nothing.
    const everyone = [ann]
    expect(
      rankEligible({ executionMode: "physical", text: "drone photos of electrical wiring" }, everyone)
    ).toHaveLength(1)
    expect(rankEligible({ executionMode: "physical", text: "licensed electrical drone work" }, everyone)).toHaveLength(
      0
    )
    expect(rankEligible({ executionMode: "physical", text: "drone photos, entry to the site" }, everyone)).toHaveLength(
      1
    )
    // A translator who refuses sworn translations still takes plain ones.
    const sworn = rankEligible({ executionMode: "digital", text: "sworn translation from Japanese" }, sample)
    expect(sworn.map((r) => r.participant.slug)).not.toContain("akiko-tanaka")
    const plain = rankEligible({ executionMode: "digital", text: "translation from Japanese" }, sample)
    expect(plain[0]!.participant.slug).toBe("akiko-tanaka")
  })

  it("reads each item of a coordinated boundary on its own", () => {
    const refused = (participant: ParticipantRecord, text: string) =>
      eligibilityOf({ executionMode: undefined, text }, participant, sample).refusedByBoundary
    const bySlug = (slug: string) => sample.find((p) => p.slug === slug)!
    // "No certified or sworn translations" (akiko-tanaka), "No sworn court translations" (fatima-zahra-bennani).
    const sworn = "Sworn translation of a birth certificate for a court"
    expect(refused(bySlug("akiko-tanaka"), sworn)).toBe(true)
    expect(refused(bySlug("akiko-tanaka"), "Certified translation of a diploma")).toBe(true)
    expect(refused(bySlug("fatima-zahra-bennani"), sworn)).toBe(true)
    expect(refused(bySlug("akiko-tanaka"), "Translate my blog post into Spanish")).toBe(false)
    expect(refused(bySlug("fatima-zahra-bennani"), "Translate my blog post into Spanish")).toBe(false)
    // "and/or" is a coordination like "or".
    const translator = { ...bySlug("akiko-tanaka"), boundary: "No certified and/or sworn translations." }
    expect(refused(translator, sworn)).toBe(true)
    expect(refused(translator, "Translate my blog post into Spanish")).toBe(false)
    // "or" between whole phrases: each refuses on its own, and needs all of its words.
    const handyman = { ...ann, slug: "han-dy", discipline: "Handyman", boundary: "No heavy lifting or ladders." }
    expect(refused(handyman, "Carry a sofa upstairs: heavy lifting")).toBe(true)
    expect(refused(handyman, "Clean the gutters from a ladder")).toBe(true)
    expect(refused(handyman, "Lift the lid and photograph the meter")).toBe(false)
    expect(refused(handyman, "Assemble a heavy desk")).toBe(false)
  })

  it("reads one-word items before a longer last one with its head noun", () => {
    const refused = (boundary: string, text: string) =>
      eligibilityOf({ executionMode: undefined, text }, { ...ann, boundary }, sample).refusedByBoundary
    // "X or Y Z" is "X Z" or "Y Z": "certified" alone refuses nothing (translation is not ann's work).
    const translations = "No certified or sworn translations."
    expect(refused(translations, "Certified translation of a diploma")).toBe(true)
    expect(refused(translations, "Sworn translation of a birth certificate for a court")).toBe(true)
    expect(refused(translations, "Photograph the plaque of a certified organic farm")).toBe(false)
    expect(refused(translations, "Translate my blog post into Spanish")).toBe(false)
    expect(refused("No certified and/or sworn translations.", "Photograph a certified organic farm")).toBe(false)
    expect(refused("No certified and/or sworn translations.", "Sworn translation of a diploma")).toBe(true)
    // "X, Y or Z W" is "X W", "Y W" or "Z W".
    const payments = "No cash, card or cheque payments."
    expect(refused(payments, "Take card payments at our stand")).toBe(true)
    expect(refused(payments, "Collect a cash payment from the buyer")).toBe(true)
    expect(refused(payments, "Photograph a birthday card")).toBe(false)
    // A generic head ("work") adds nothing: "gas" refuses on its own.
    expect(refused("No gas, structural or licensed electrical work.", "Photograph the gas meter")).toBe(true)
    // Items of several words stand alone, as does a last item of one word.
    expect(refused("No penetration testing or security exploitation.", "Penetration testing of our app")).toBe(true)
    expect(refused("No heavy lifting or ladders.", "Photograph the roof from a ladder")).toBe(true)
  })

  it("confines a task to the city it names, or to the country when it names no city", () => {
    const placesOf = (location: string) =>
      new Set(
        rankEligible(
          { executionMode: "physical", location, text: "photos interviews survey accessibility" },
          sample
        ).map((r) => r.participant.location)
      )
    expect(placesOf("Lagos, Nigeria")).toEqual(new Set(["Lagos, Nigeria"]))
    expect(placesOf("somewhere in Nigeria")).toEqual(new Set(["Lagos, Nigeria", "Abuja, Nigeria"]))
    expect(placesOf("Montreal")).toEqual(new Set(["Montréal, Canada"]))
    // A city of the world nobody is in confines the task to nobody, not to its country.
    expect(placesOf("Madrid, Spain")).toEqual(new Set())
    expect(placesOf("Vancouver, Canada")).toEqual(new Set())
  })
})

/**
 * Places of several words, cities that are also words of other places, a location without a
 * country, and a place of forty words: one participant of the sample's profile in each.
 */
const trickyLocations = [
  "Brooklyn, New York, USA",
  "New York, USA",
  "York, UK",
  "São Paulo, Brazil",
  "Washington, D.C., USA",
  "Lagos",
  `${Array.from({ length: 40 }, (_, i) => `Hamlet${i}`).join(" ")}, United Long Lands`
]
const tricky = trickyLocations.map((location, i) => ({ ...sample[i]!, slug: `tricky-${i}`, location }))

describe("rankTop", () => {
  // The sample, and a generated directory of 3,000 (shared places, shared words, many ties) with
  // the tricky places, not in slug order: the order is rankTop's to keep.
  const directories = [sample, [...generateDirectory(3_000, 7), ...tricky]]
  const unbounded = sample.map((p) => ({ ...p, boundary: null }))
  const boundaries = sample.flatMap((p) => (p.boundary === null ? [] : [p.boundary]))

  it("is rankEligible over the whole directory, cut to the limit, over 600 random tasks", () => {
    const random = prng(20261123)
    // Who is not taking offers, drawn apart so the tasks stay the ones drawn above: rankEligible's
    // definition is the directory without them (they are excluded).
    const off = prng(20261207)
    let unavailableSeen = 0
    const pick = <A>(xs: ReadonlyArray<A>): A => xs[Math.floor(random() * xs.length)]!
    const modes: ReadonlyArray<ExecutionMode | undefined> = ["digital", "physical", "hybrid", undefined]
    let scoredSeen = 0
    let placedSeen = 0
    let refusedSeen = 0
    for (const everyone of directories) {
      const locations = [...new Set(everyone.map((p) => p.location))]
      for (let t = 0; t < 300; t++) {
        // Now and then with the words of a boundary, so that some participants refuse the task.
        const words = Array.from({ length: 1 + Math.floor(random() * 10) }, () => pick(vocabulary))
        const text = [...words, random() < 0.5 ? pick(boundaries) : ""].join(" ")
        // A place as participants write it, a city or country alone, a sentence naming one, a
        // place of the world nobody is in, or none.
        const somewhere = pick(locations)
        const location = pick([
          undefined,
          somewhere,
          somewhere.split(",")[0]!,
          somewhere.split(",").at(-1)!.trim(),
          `Near ${somewhere.toUpperCase()} (old town)`,
          "Madrid, Spain",
          "Nowhere, Atlantis"
        ])
        const participantSlug = random() < 0.1 ? pick([pick(everyone).slug, "no-such-participant"]) : undefined
        const excluding = random() < 0.3 ? Array.from({ length: 3 }, () => pick(everyone).slug) : []
        const task = { executionMode: pick(modes), location, text, participantSlug }
        const unavailable =
          off() < 0.4
            ? new Set([
                ...Array.from({ length: 5 }, () => everyone[Math.floor(off() * everyone.length)]!.slug),
                ...(participantSlug !== undefined && off() < 0.5 ? [participantSlug] : [])
              ])
            : undefined
        const options = { limit: Math.floor(random() * 12), excluding, unavailable }
        const expected = rankEligible(task, everyone, [...excluding, ...(unavailable ?? [])])
        const actual = rankTop(task, everyone, options)
        expect(actual.eligible).toBe(expected.length)
        expect(actual.best).toEqual(expected.slice(0, options.limit))
        if (
          everyone === sample &&
          unavailable !== undefined &&
          rankEligible(task, everyone, excluding).length > expected.length
        ) {
          unavailableSeen++
        }
        if (expected.some((r) => r.score > 0)) scoredSeen++
        if (location !== undefined && task.executionMode !== "digital" && expected.length > 0) placedSeen++
        if (everyone === sample && rankEligible(task, unbounded, excluding).length > expected.length) refusedSeen++
      }
    }
    // The tasks do score participants and do filter by place: not only empty answers compared
    // (random words are often below the plausible threshold, and a random task naming a kind of
    // work is plausible only for those who do it, so fewer tasks find anyone: today about 220 of 600
    // score someone and 77 placed ones find someone).
    expect(scoredSeen).toBeGreaterThan(200)
    expect(placedSeen).toBeGreaterThan(60)
    // And boundaries do refuse some: the same sample without them takes more.
    expect(refusedSeen).toBeGreaterThan(5)
    // And participants not taking offers were skipped where they would have been eligible.
    expect(unavailableSeen).toBeGreaterThan(5)
  })

  it("never offers to a participant not taking offers, named or not; they still weigh in the term statistics", () => {
    const task = { executionMode: "digital" as const, text: "translate a contract into German" }
    const all = rankTop(task, sample, { limit: 5 })
    const [first, second] = all.best
    expect(first).toBeDefined()
    const without = rankTop(task, sample, { limit: 5, unavailable: new Set([first!.participant.slug]) })
    expect(without.eligible).toBe(all.eligible - 1)
    // The others keep their scores: nobody's ranking moves because someone switched off.
    expect(without.best[0]).toEqual(second)
    const named = { ...task, participantSlug: first!.participant.slug }
    expect(rankTop(named, sample, { limit: 1 }).eligible).toBe(1)
    expect(rankTop(named, sample, { limit: 1, unavailable: new Set([first!.participant.slug]) })).toEqual({
      eligible: 0,
      best: []
    })
    expect(rankTop(task, sample, { limit: 5, unavailable: new Set() })).toEqual(all)
  })

  it("does not carry one call's scores into the next", () => {
    const task = { executionMode: "digital" as const, text: "translate a contract into German" }
    const first = rankTop(task, sample, { limit: 3 })
    rankTop({ executionMode: "physical", location: "Berlin, Germany", text: "photograph a shop" }, sample, {
      limit: 3
    })
    expect(rankTop(task, sample, { limit: 3 })).toEqual(first)
    expect(directoryIndexOf(sample).scratch.points.every((p) => p === 0)).toBe(true)
  })
})

describe("eligibilityCounts and eligibilityOf (why nobody is eligible)", () => {
  it("count by mode and place as ranking filters, ranking asking boundaries and text besides", () => {
    const random = prng(20261127)
    const pick = <A>(xs: ReadonlyArray<A>): A => xs[Math.floor(random() * xs.length)]!
    const everyone = [...sample, ...tricky]
    const locations = [...new Set(everyone.map((p) => p.location)), "Madrid, Spain", "Nigeria", "Atlantis"]
    let refused = 0
    for (let t = 0; t < 200; t++) {
      const text = [pick(vocabulary), pick(vocabulary), random() < 0.5 ? (pick(everyone).boundary ?? "") : ""].join(" ")
      const modes: ReadonlyArray<ExecutionMode | undefined> = ["digital", "physical", "hybrid", undefined]
      const task = { executionMode: pick(modes), location: pick([undefined, ...locations]), text }
      const fits = everyone.map((p) => ({ p, fit: eligibilityOf(task, p, everyone) }))
      const byModeAndPlace = fits.filter(({ fit }) => fit.servesMode && fit.inPlace)
      expect(eligibilityCounts(task, everyone).eligible).toBe(byModeAndPlace.length)
      const ranked = new Set(rankEligible(task, everyone).map((r) => r.participant.slug))
      for (const { p, fit } of fits) {
        if (ranked.has(p.slug)) expect(fit).toEqual({ servesMode: true, inPlace: true, refusedByBoundary: false })
        if (fit.servesMode && fit.inPlace && fit.refusedByBoundary) refused++
      }
    }
    expect(refused).toBeGreaterThan(5)
  })
})

describe("inferLocationIn", () => {
  const everyone = [...sample, ...tricky]
  it.each([
    ["pick up a parcel in Madrid", "Madrid, Spain"],
    ["a courier in Montreal", "Montréal, Canada"],
    ["Pick up a parcel in München", "Munich, Germany"],
    ["a survey in Bangalore", "Bengaluru, India"],
    ["a courier in new york city", "New York, USA"],
    ["documents to file in york", "York, UK"],
    ["someone anywhere in Nigeria", "Nigeria"],
    ["somewhere in the US", "United States"],
    ["a survey in Peru's capital Lima", "Lima, Peru"],
    ["ship us samples", null],
    ["a turkey sandwich delivered", null],
    ["deliver it in Turkey", "Türkiye"]
  ])("%s → %s", (text, location) => {
    expect(inferLocationIn(text, everyone)).toBe(location)
  })
})

describe("inferExecutionMode", () => {
  it.each([
    ["Take pictures of a house for sale in Santiago", "physical"],
    ["Get a document notarized in Toronto", "physical"],
    ["Translate our app's UI strings into Spanish", "digital"],
    ["Get this interview transcribed", "digital"],
    ["Visit restaurants and digitise their menus", "hybrid"],
    ["Remote or on-site IT support", "hybrid"],
    ["Looking for a photographer", null],
    // The shop is on the web, not the work: the photos may be taken in a studio (as the judged
    // set reads "…for 40 SKUs of our online shop": no mode).
    ["Product photos for our online shop", null],
    ["Interview farmers in Chichewa", null],
    ["Interpret at a conference in Tokyo", "physical"],
    // Far away is not online: a digital guess would drop the only people there. Households are
    // surveyed where they live.
    ["Survey households in a remote village in Malawi", "physical"],
    ["Remote usability testing", "digital"]
  ])("%s → %s", (text, mode) => {
    expect(inferExecutionMode(text)).toBe(mode)
  })
})

describe("searchDirectory", () => {
  it("answers a place nobody serves with nobody, and says why", () => {
    const found = searchDirectory("Pick up a parcel in Madrid and drop it at the post office", sample, 10)
    expect(found).toMatchObject({ executionMode: "physical", location: "Madrid, Spain", matches: [] })
    expect(found.hint).toMatch(/Nobody in the catalogue works in Madrid, Spain/)
  })

  it("lists nobody whose only match is in what they deliver, and says nobody's work matches", () => {
    // Jack Thompson's returns mention "parts used" and "before-and-after photos"; nothing of his
    // work is a gas repair: below the plausible threshold.
    const found = searchDirectory("Fix a gas leak in my kitchen", sample, 10)
    expect(found.matches).toEqual([])
    expect(found.hint).toMatch(/^Nobody in the catalogue can take this task \(physical\)/)
    expect(searchDirectory("Deliver signed documents across Lisbon", sample, 10).hint).toBeUndefined()
  })

  it("lists nobody who shares only a verb naming no skill (write, file, fix) with the task", () => {
    const found = searchDirectory("Write a COBOL batch job", sample, 10)
    expect(found.matches).toEqual([])
    expect(found.hint).toMatch(/^Nobody in the catalogue can take this task/)
    // The same verb beside the work it names is no weak match.
    expect(searchDirectory("Write API documentation for our endpoints", sample, 10).hint).toBeUndefined()
  })

  it("lists nobody who is not taking offers, and says so when they were the only ones", () => {
    const query = "Deliver signed documents across Lisbon"
    const everyone = searchDirectory(query, sample, 10).matches.map((m) => m.participant.slug)
    expect(everyone.length).toBeGreaterThan(0)
    const [off, ...rest] = everyone
    expect(searchDirectory(query, sample, 10, new Set([off!])).matches.map((m) => m.participant.slug)).toEqual(rest)
    const nobody = searchDirectory(query, sample, 10, new Set(everyone))
    expect(nobody.matches).toEqual([])
    expect(nobody.hint).toMatch(/^Nobody who could take this task is taking offers right now/)
  })
})
