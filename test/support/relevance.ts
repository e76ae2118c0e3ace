/**
 * The project's judged set (test/fixtures/relevance.json) measured against search as POST /search
 * runs it (`searchDirectory` over the sample catalogue): nDCG@5, precision@1, mode and location
 * accuracy, no-answer handling and answerable requests answered empty — for each part of the
 * set's one split (tuning, held-out; the rule is in the fixture's "about") and for a word-overlap
 * baseline. Used by `npm run bench -- --relevance` and by the test that holds the thresholds.
 */
import { readFileSync } from "node:fs"
import { searchDirectory } from "../../src/domain/directory_search.ts"
import type { ParticipantRecord } from "../../src/domain/participant.ts"
import { canonicalPlace, placeOf } from "../../src/domain/places.ts"
import { stopWords } from "../../src/domain/stop_words.ts"
import type { ExecutionMode } from "../../src/domain/task_draft/execution_mode.ts"
import { wordsOf } from "../../src/domain/words.ts"

export type Part = "tuning" | "held-out"

export interface Judged {
  readonly query: string
  readonly mode: ExecutionMode | null
  /** The place the request confines the work to, as commonly written; absent when not judged. */
  readonly location?: string | null
  /** Slug → grade (1–3); empty when nobody in the catalogue can take the task. */
  readonly relevant: Readonly<Record<string, number>>
  readonly part: Part
}

export const judgedSet: ReadonlyArray<Judged> = JSON.parse(
  readFileSync(new URL("../fixtures/relevance.json", import.meta.url), "utf8")
).queries

export const sampleCatalogue: ReadonlyArray<ParticipantRecord> = JSON.parse(
  readFileSync(new URL("../../data/sample-participants.json", import.meta.url), "utf8")
)

export interface QueryOutcome {
  readonly query: string
  readonly part: Part
  readonly expectedMode: ExecutionMode | null
  readonly mode: ExecutionMode | null
  readonly expectedLocation: string | null | undefined
  readonly location: string | null
  /** Whether the location was read right; undefined when it is not judged. */
  readonly locationRight: boolean | undefined
  readonly top: ReadonlyArray<string>
  /** Undefined for a no-answer query. */
  readonly ndcg5: number | undefined
  readonly p1: number | undefined
  /** For a no-answer query: whether it was answered empty, or flagged as weak, with a hint. */
  readonly noAnswerHandled: boolean | undefined
  readonly hint: string | undefined
}

export interface RelevanceReport {
  readonly queries: number
  readonly answerable: number
  readonly ndcg5: number
  readonly p1: number
  readonly modeAccuracy: number
  /** Over the queries whose location is judged. */
  readonly locationAccuracy: number
  readonly noAnswer: { readonly total: number; readonly handled: number }
  /** Answerable requests answered with nobody: the costliest mistake (the dispatcher declines). */
  readonly answerableEmpty: number
  readonly outcomes: ReadonlyArray<QueryOutcome>
}

const cut = 5

/** DCG of grades in rank order, with gains 2^grade − 1. */
const dcg = (grades: ReadonlyArray<number>) => grades.reduce((sum, g, i) => sum + (2 ** g - 1) / Math.log2(i + 2), 0)

/** The place a location names first ("Montréal, Canada" → montreal), as matching compares places. */
const firstPlace = (location: string) => canonicalPlace(placeOf(location.split(",")[0]!))

/** What a search answers, as far as the measures need it. */
export interface Answer {
  readonly executionMode: ExecutionMode | null
  readonly location: string | null
  readonly top: ReadonlyArray<string>
  readonly hint: string | undefined
}

export type Searcher = (query: string, everyone: ReadonlyArray<ParticipantRecord>) => Answer

export const search: Searcher = (query, everyone) => {
  const found = searchDirectory(query, everyone, 10)
  return { ...found, top: found.matches.map((m) => m.participant.slug) }
}

export const evaluate = (
  set: ReadonlyArray<Judged> = judgedSet,
  everyone: ReadonlyArray<ParticipantRecord> = sampleCatalogue,
  searcher: Searcher = search
): RelevanceReport => {
  const outcomes = set.map((judged): QueryOutcome => {
    const found = searcher(judged.query, everyone)
    const top = found.top
    const gradeOf = (slug: string) => judged.relevant[slug] ?? 0
    const ideal = Object.values(judged.relevant)
      .sort((a, b) => b - a)
      .slice(0, cut)
    const answerable = ideal.length > 0
    const expectedLocation = judged.location
    return {
      query: judged.query,
      part: judged.part,
      expectedMode: judged.mode,
      mode: found.executionMode,
      expectedLocation,
      location: found.location,
      locationRight:
        expectedLocation === undefined
          ? undefined
          : expectedLocation === null || found.location === null
            ? expectedLocation === found.location
            : firstPlace(expectedLocation) === firstPlace(found.location),
      top,
      ndcg5: answerable ? dcg(top.slice(0, cut).map(gradeOf)) / dcg(ideal) : undefined,
      p1: answerable ? (top[0] !== undefined && gradeOf(top[0]) > 0 ? 1 : 0) : undefined,
      noAnswerHandled: answerable ? undefined : top.length === 0 || found.hint !== undefined,
      hint: found.hint
    }
  })
  const answerable = outcomes.filter((o) => o.ndcg5 !== undefined)
  const mean = (xs: ReadonlyArray<number>) => (xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length)
  const noAnswer = outcomes.filter((o) => o.noAnswerHandled !== undefined)
  const placed = outcomes.filter((o) => o.locationRight !== undefined)
  return {
    queries: outcomes.length,
    answerable: answerable.length,
    ndcg5: mean(answerable.map((o) => o.ndcg5!)),
    p1: mean(answerable.map((o) => o.p1!)),
    modeAccuracy: mean(outcomes.map((o) => (o.mode === o.expectedMode ? 1 : 0))),
    locationAccuracy: mean(placed.map((o) => (o.locationRight ? 1 : 0))),
    noAnswer: { total: noAnswer.length, handled: noAnswer.filter((o) => o.noAnswerHandled).length },
    answerableEmpty: answerable.filter((o) => o.top.length === 0).length,
    outcomes
  }
}

/** One part of the judged set. */
export const partOf = (part: Part) => judgedSet.filter((j) => j.part === part)

/**
 * The word-overlap baseline the ranking is compared with: participants ranked by how many of the
 * request's distinct words (folded, no stop words) appear anywhere in their discipline, tags,
 * capabilities and returns; nobody when nobody shares a word. No mode, no place, no stemming.
 */
export const wordOverlap: Searcher = (query, everyone) => {
  const words = new Set(wordsOf(query).filter((w) => w.length > 1 && !stopWords.has(w)))
  const scored = everyone
    .map((p) => {
      const own = new Set(wordsOf([p.discipline, ...p.tags, ...p.capabilities, p.returns].join(" ")))
      let score = 0
      for (const w of words) if (own.has(w)) score++
      return { slug: p.slug, score }
    })
    .filter((s) => s.score > 0)
    .sort((a, b) => b.score - a.score || (a.slug < b.slug ? -1 : 1))
  return { executionMode: null, location: null, top: scored.slice(0, 10).map((s) => s.slug), hint: undefined }
}

/** A fresh request of the tuning workflow (test/fixtures/relevance_probes.json). */
export interface Probe {
  readonly query: string
  /** Who may take it, the specialist first; empty when nobody in the catalogue can. */
  readonly acceptable: ReadonlyArray<string>
  readonly batch: number
  /** The execution mode the wording makes clear (null when it does not); judged from batch 7 on. */
  readonly mode?: ExecutionMode | null
}

export const probes: ReadonlyArray<Probe> = JSON.parse(
  readFileSync(new URL("../fixtures/relevance_probes.json", import.meta.url), "utf8")
).probes

export interface ProbeOutcome {
  readonly probe: Probe
  readonly mode: ExecutionMode | null
  readonly top: ReadonlyArray<string>
  readonly hint: string | undefined
}

export interface ProbeReport {
  readonly answerable: number
  /** Answerable probes answered with nobody: the false "nobody"s the probes are written to find. */
  readonly answerableEmpty: number
  /** Answerable probes whose first answer is acceptable. */
  readonly first: number
  /** Answerable probes with an acceptable answer in the first five. */
  readonly inFive: number
  readonly noAnswer: { readonly total: number; readonly handled: number }
  /** Of the probes whose mode is judged, how many and how many read right. */
  readonly mode: { readonly judged: number; readonly right: number }
  readonly outcomes: ReadonlyArray<ProbeOutcome>
}

/**
 * Search measured on the fresh probes: how many answerable ones come back empty, how many have
 * an acceptable person first or in the first five, and whether the ones nobody can take are
 * answered empty or with the reason. Tuning-side: their shortfalls are read one by one.
 */
export const evaluateProbes = (
  set: ReadonlyArray<Probe> = probes,
  everyone: ReadonlyArray<ParticipantRecord> = sampleCatalogue,
  searcher: Searcher = search
): ProbeReport => {
  const outcomes = set.map((probe): ProbeOutcome => {
    const found = searcher(probe.query, everyone)
    return { probe, mode: found.executionMode, top: found.top, hint: found.hint }
  })
  const modeJudged = outcomes.filter((o) => o.probe.mode !== undefined)
  const answerable = outcomes.filter((o) => o.probe.acceptable.length > 0)
  const noAnswer = outcomes.filter((o) => o.probe.acceptable.length === 0)
  return {
    answerable: answerable.length,
    answerableEmpty: answerable.filter((o) => o.top.length === 0).length,
    first: answerable.filter((o) => o.top[0] !== undefined && o.probe.acceptable.includes(o.top[0])).length,
    inFive: answerable.filter((o) => o.top.slice(0, cut).some((slug) => o.probe.acceptable.includes(slug))).length,
    noAnswer: {
      total: noAnswer.length,
      handled: noAnswer.filter((o) => o.top.length === 0 || o.hint !== undefined).length
    },
    mode: { judged: modeJudged.length, right: modeJudged.filter((o) => o.mode === o.probe.mode).length },
    outcomes
  }
}
