// Unit tests for lexical matching: relevance against its definition, and ranking.
import { readFileSync } from "node:fs"
import { describe, expect, it } from "@effect/vitest"
import {
  directoryIndexOf,
  inferLocation,
  inferLocationIn,
  rankEligible,
  rankTop,
  relevance,
  terms
} from "../../src/domain/matching.ts"
import type { ParticipantRecord } from "../../src/domain/participant.ts"
import type { ExecutionMode } from "../../src/domain/task_draft.ts"
import { generateDirectory } from "../support/directory.ts"
import { prng } from "../support/random.ts"

const sample: ReadonlyArray<ParticipantRecord> = JSON.parse(
  readFileSync(new URL("../../data/sample-participants.json", import.meta.url), "utf8")
)

/**
 * Relevance as defined, written the plain way: for each term, the highest weight of a field with
 * a word that equals it, or that starts with it or it starts with, both 4 characters or more.
 */
const relevanceByDefinition = (participant: ParticipantRecord, queryTerms: ReadonlyArray<string>) => {
  const fields: ReadonlyArray<readonly [number, ReadonlyArray<string>]> = [
    [3, terms(participant.discipline)],
    [3, participant.tags.flatMap(terms)],
    [2, participant.capabilities.flatMap(terms)],
    [1, terms(participant.returns)],
    [1, terms(participant.name)],
    [1, terms(participant.location)]
  ]
  let score = 0
  const matched: Array<string> = []
  for (const term of queryTerms) {
    const weights = fields
      .filter(([, words]) =>
        words.some(
          (w) => w === term || (term.length >= 4 && w.length >= 4 && (w.startsWith(term) || term.startsWith(w)))
        )
      )
      .map(([weight]) => weight)
    if (weights.length > 0) {
      score += Math.max(...weights)
      matched.push(term)
    }
  }
  return { score, matched }
}

/** Every word of the sample, and prefixes and extensions of them: terms that hit every rule. */
const vocabulary = [
  ...new Set(
    sample.flatMap((p) =>
      [p.discipline, p.name, p.location, p.returns, ...p.tags, ...p.capabilities]
        .flatMap(terms)
        .flatMap((w) => [w, w.slice(0, 3), w.slice(0, 4), w.slice(0, 5), `${w}s`, `${w}ing`, w.slice(1)])
    )
  )
].filter((w) => w.length >= 2)

describe("relevance", () => {
  it("equals its definition for every participant of the sample over 500 random queries", () => {
    const random = prng(20261122)
    let matches = 0
    for (let q = 0; q < 500; q++) {
      const words = Array.from({ length: 1 + Math.floor(random() * 12) }, () => {
        return vocabulary[Math.floor(random() * vocabulary.length)]!
      })
      const queryTerms = terms(words.join(" "))
      for (const participant of sample) {
        const actual = relevance(participant, queryTerms)
        expect(actual).toEqual(relevanceByDefinition(participant, queryTerms))
        if (actual.score > 0) matches++
      }
    }
    // The queries do match: the comparison is not between two empty results.
    expect(matches).toBeGreaterThan(2_000)
  })

  it("weighs fields, counts prefixes of 4 characters or more, and short terms only when equal", () => {
    const ann: ParticipantRecord = {
      slug: "ann-lee",
      name: "Ann Lee",
      discipline: "Photography",
      location: "Oslo, Norway",
      task_type: "physical",
      tags: ["drone"],
      capabilities: ["Site visits"],
      returns: "Photos",
      boundary: null
    }
    const scoreOf = (term: string) => relevance(ann, [term]).score
    expect(scoreOf("photo")).toBe(3) // a prefix of "photography" (3) and of "photos" (1): the best counts
    expect(scoreOf("photographyx")).toBe(3) // starts with "photography"
    expect(scoreOf("drones")).toBe(3)
    expect(scoreOf("visit")).toBe(2)
    expect(scoreOf("norw")).toBe(1)
    expect(scoreOf("lee")).toBe(1) // short, and equal
    expect(scoreOf("pho")).toBe(0) // short prefixes do not count
    expect(scoreOf("nor")).toBe(0)
    expect(scoreOf("le")).toBe(0)
    expect(relevance(ann, ["photo", "pho", "oslo", "drone"])).toEqual({ score: 7, matched: ["photo", "oslo", "drone"] })
  })
})

describe("rankEligible", () => {
  it("ranks by score, then slug, among participants that serve the mode", () => {
    const ranked = rankEligible({ executionMode: "digital", text: "translate a contract into German" }, sample)
    expect(ranked.length).toBeGreaterThan(0)
    for (const r of ranked) expect(["digital", "hybrid"]).toContain(r.participant.task_type)
    for (let i = 1; i < ranked.length; i++) {
      const [a, b] = [ranked[i - 1]!, ranked[i]!]
      expect(a.score > b.score || (a.score === b.score && a.participant.slug < b.participant.slug)).toBe(true)
    }
    expect(ranked[0]!.score).toBeGreaterThan(0)
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

  it("is rankEligible over the whole directory, cut to the limit, over 600 random tasks", () => {
    const random = prng(20261123)
    const pick = <A>(xs: ReadonlyArray<A>): A => xs[Math.floor(random() * xs.length)]!
    const modes: ReadonlyArray<ExecutionMode | undefined> = ["digital", "physical", "hybrid", undefined]
    let scoredSeen = 0
    let placedSeen = 0
    for (const everyone of directories) {
      const locations = [...new Set(everyone.map((p) => p.location))]
      for (let t = 0; t < 300; t++) {
        const text = Array.from({ length: 1 + Math.floor(random() * 10) }, () => pick(vocabulary)).join(" ")
        // A place as participants write it, a city or country alone, a sentence naming one, or none.
        const somewhere = pick(locations)
        const location = pick([
          undefined,
          somewhere,
          somewhere.split(",")[0]!,
          somewhere.split(",").at(-1)!.trim(),
          `Near ${somewhere.toUpperCase()} (old town)`,
          "Nowhere, Atlantis"
        ])
        const participantSlug = random() < 0.1 ? pick([pick(everyone).slug, "no-such-participant"]) : undefined
        const excluding = random() < 0.3 ? Array.from({ length: 3 }, () => pick(everyone).slug) : []
        const task = { executionMode: pick(modes), location, text, participantSlug }
        const options = { limit: 1 + Math.floor(random() * 12), scoredOnly: random() < 0.3, excluding }
        const expected = rankEligible(
          task,
          everyone.filter((p) => !excluding.includes(p.slug))
        )
        const actual = rankTop(task, everyone, options)
        expect(actual.eligible).toBe(expected.length)
        expect(actual.best).toEqual(
          (options.scoredOnly ? expected.filter((r) => r.score > 0) : expected).slice(0, options.limit)
        )
        if (expected.some((r) => r.score > 0)) scoredSeen++
        if (location !== undefined && task.executionMode !== "digital" && expected.length > 0) placedSeen++
      }
    }
    // The tasks do score participants and do filter by place: not only empty answers compared.
    expect(scoredSeen).toBeGreaterThan(300)
    expect(placedSeen).toBeGreaterThan(100)
  })

  it("stays exact when its per-term marks run out and start again", () => {
    // Each term takes a new mark; at the last one the marks are cleared and counting restarts.
    // Without that, the next mark would not fit the marks' 32 bits and no weight would be kept.
    const scratch = directoryIndexOf(sample).scratch
    scratch.lastMark = 0xffffffff - 2
    for (const text of ["photo drone survey", "translate a contract into German", "photographer photos"]) {
      const task = { executionMode: "hybrid" as const, text }
      expect(rankTop(task, sample, { limit: 5 }).best).toEqual(rankEligible(task, sample).slice(0, 5))
    }
    expect(scratch.lastMark).toBeLessThan(20)
  })

  it("does not carry one call's scores into the next", () => {
    const task = { executionMode: "digital" as const, text: "translate a contract into German" }
    const first = rankTop(task, sample, { limit: 3 })
    rankTop({ executionMode: "physical", location: "Berlin, Germany", text: "photograph a shop" }, sample, {
      limit: 3
    })
    expect(rankTop(task, sample, { limit: 3 })).toEqual(first)
  })
})

describe("inferLocationIn", () => {
  it("is inferLocation over the directory's locations, over 600 random texts", () => {
    const random = prng(20261124)
    const pick = <A>(xs: ReadonlyArray<A>): A => xs[Math.floor(random() * xs.length)]!
    const everyone = [...generateDirectory(2_000, 11), ...tricky]
    const known = [...new Set(everyone.map((p) => p.location))]
    const words = known.flatMap((l) => l.split(/[\s,]+/)).filter((w) => w !== "")
    let found = 0
    for (let t = 0; t < 600; t++) {
      const text = Array.from({ length: 1 + Math.floor(random() * 8) }, () => {
        const word = random() < 0.5 ? pick(words) : pick(vocabulary)
        return random() < 0.2 ? `${word.toUpperCase()},` : word
      }).join(" ")
      const expected = inferLocation(text, known)
      expect(inferLocationIn(text, everyone)).toBe(expected)
      if (expected !== null) found++
    }
    expect(found).toBeGreaterThan(200)
    expect(inferLocationIn("a courier in new york city", everyone)).toBe(
      inferLocation("a courier in new york city", known)
    )
  })
})
