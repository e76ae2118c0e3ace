/**
 * The project's judged set (test/fixtures/relevance.json) measured against search as POST /search
 * runs it (`searchDirectory` over the sample catalogue): nDCG@5, precision@1, mode accuracy and
 * no-answer handling. Used by `npm run bench -- --relevance` and by the test that holds the
 * thresholds.
 */
import { readFileSync } from "node:fs"
import { searchDirectory } from "../../src/domain/matching.ts"
import type { ParticipantRecord } from "../../src/domain/participant.ts"
import type { ExecutionMode } from "../../src/domain/task_draft/execution_mode.ts"

export interface Judged {
  readonly query: string
  readonly mode: ExecutionMode | null
  /** Slug → grade (1–3); empty when nobody in the catalogue can take the task. */
  readonly relevant: Readonly<Record<string, number>>
}

export const judgedSet: ReadonlyArray<Judged> = JSON.parse(
  readFileSync(new URL("../fixtures/relevance.json", import.meta.url), "utf8")
).queries

export const sampleCatalogue: ReadonlyArray<ParticipantRecord> = JSON.parse(
  readFileSync(new URL("../../data/sample-participants.json", import.meta.url), "utf8")
)

export interface QueryOutcome {
  readonly query: string
  readonly expectedMode: ExecutionMode | null
  readonly mode: ExecutionMode | null
  readonly location: string | null
  readonly top: ReadonlyArray<string>
  /** Undefined for a no-answer query. */
  readonly ndcg5: number | undefined
  readonly p1: number | undefined
  /** For a no-answer query: whether it was answered empty, or flagged as weak, with a hint. */
  readonly noAnswerHandled: boolean | undefined
}

export interface RelevanceReport {
  readonly queries: number
  readonly answerable: number
  readonly ndcg5: number
  readonly p1: number
  readonly modeAccuracy: number
  readonly noAnswer: { readonly total: number; readonly handled: number }
  readonly outcomes: ReadonlyArray<QueryOutcome>
}

const cut = 5

/** DCG of grades in rank order, with gains 2^grade − 1. */
const dcg = (grades: ReadonlyArray<number>) => grades.reduce((sum, g, i) => sum + (2 ** g - 1) / Math.log2(i + 2), 0)

export const evaluate = (
  set: ReadonlyArray<Judged> = judgedSet,
  everyone: ReadonlyArray<ParticipantRecord> = sampleCatalogue
): RelevanceReport => {
  const outcomes = set.map((judged): QueryOutcome => {
    const found = searchDirectory(judged.query, everyone, 10)
    const top = found.matches.map((m) => m.participant.slug)
    const gradeOf = (slug: string) => judged.relevant[slug] ?? 0
    const ideal = Object.values(judged.relevant)
      .sort((a, b) => b - a)
      .slice(0, cut)
    const answerable = ideal.length > 0
    return {
      query: judged.query,
      expectedMode: judged.mode,
      mode: found.executionMode,
      location: found.location,
      top,
      ndcg5: answerable ? dcg(top.slice(0, cut).map(gradeOf)) / dcg(ideal) : undefined,
      p1: answerable ? (top[0] !== undefined && gradeOf(top[0]) > 0 ? 1 : 0) : undefined,
      noAnswerHandled: answerable ? undefined : found.hint !== undefined
    }
  })
  const answerable = outcomes.filter((o) => o.ndcg5 !== undefined)
  const mean = (xs: ReadonlyArray<number>) => (xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length)
  const noAnswer = outcomes.filter((o) => o.noAnswerHandled !== undefined)
  return {
    queries: outcomes.length,
    answerable: answerable.length,
    ndcg5: mean(answerable.map((o) => o.ndcg5!)),
    p1: mean(answerable.map((o) => o.p1!)),
    modeAccuracy: mean(outcomes.map((o) => (o.mode === o.expectedMode ? 1 : 0))),
    noAnswer: { total: noAnswer.length, handled: noAnswer.filter((o) => o.noAnswerHandled).length },
    outcomes
  }
}
