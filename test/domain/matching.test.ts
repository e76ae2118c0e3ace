// Unit tests for lexical matching: relevance against its definition, and ranking.
import { readFileSync } from "node:fs"
import { describe, expect, it } from "@effect/vitest"
import { rankEligible, relevance, terms } from "../../src/domain/matching.ts"
import type { ParticipantRecord } from "../../src/domain/participant.ts"
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
