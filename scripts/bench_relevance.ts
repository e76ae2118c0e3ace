/**
 * `npm run bench -- --relevance [--json]`: search measured against the project's judged set
 * (test/fixtures/relevance.json, over data/sample-participants.json) — nDCG@5, precision@1, mode
 * accuracy and no-answer handling, with each query that falls short — and the in-process cost of
 * a search over 100,000 generated participants. No server: search is pure over the directory.
 */
import { searchDirectory } from "../src/domain/matching.ts"
import { generateDirectory } from "../test/support/directory.ts"
import { evaluate, judgedSet } from "../test/support/relevance.ts"

const round = (x: number, digits = 3) => Math.round(x * 10 ** digits) / 10 ** digits

/** Median milliseconds of a search for each judged query over a directory of `size`. */
const searchCost = (size: number) => {
  const everyone = generateDirectory(size, 25)
  const builtAt = performance.now()
  searchDirectory("warm up", everyone, 10)
  const indexMs = performance.now() - builtAt
  const times: Array<number> = []
  for (let round = 0; round < 5; round++) {
    for (const { query } of judgedSet) {
      const at = performance.now()
      searchDirectory(query, everyone, 10)
      times.push(performance.now() - at)
    }
  }
  times.sort((a, b) => a - b)
  return {
    participants: size,
    index_build_ms: round(indexMs, 0),
    search_p50_ms: round(times[Math.floor(times.length / 2)]!, 2),
    search_p99_ms: round(times[Math.floor(times.length * 0.99)]!, 2)
  }
}

export const relevanceMain = (asJson: boolean) => {
  const report = evaluate()
  const cost = searchCost(100_000)
  const summary = {
    queries: report.queries,
    answerable: report.answerable,
    ndcg_at_5: round(report.ndcg5),
    precision_at_1: round(report.p1),
    mode_accuracy: round(report.modeAccuracy),
    no_answer_handled: report.noAnswer.handled,
    no_answer_total: report.noAnswer.total,
    cost
  }
  const shortfalls = report.outcomes.filter(
    (o) => (o.ndcg5 !== undefined && o.ndcg5 < 1) || o.noAnswerHandled === false || o.mode !== o.expectedMode
  )
  if (asJson) {
    process.stdout.write(`${JSON.stringify({ ...summary, shortfalls }, null, 2)}\n`)
    return
  }
  const lines = [
    `Relevance on the judged set (${report.queries} queries, ${report.answerable} answerable, over the sample catalogue):`,
    "",
    "| measure | value | threshold |",
    "| --- | --- | --- |",
    `| nDCG@5 | ${summary.ndcg_at_5} | ≥ 0.95 |`,
    `| precision@1 | ${summary.precision_at_1} | ≥ 0.9 |`,
    `| mode accuracy | ${summary.mode_accuracy} | ≥ 0.9 |`,
    `| no-answer requests answered empty or flagged | ${report.noAnswer.handled} of ${report.noAnswer.total} | all |`,
    "",
    `Search over ${cost.participants} generated participants, in process: index built once in ${cost.index_build_ms} ms; ` +
      `p50 ${cost.search_p50_ms} ms, p99 ${cost.search_p99_ms} ms per search.`,
    "",
    "Queries that fall short (nDCG@5 < 1, a wrong mode, or a no-answer request answered with somebody):",
    ...shortfalls.map(
      (o) =>
        `- ${JSON.stringify(o.query)}: mode ${o.mode} (judged ${o.expectedMode})` +
        (o.ndcg5 === undefined ? "" : `, nDCG@5 ${round(o.ndcg5, 2)}`) +
        `, top: ${o.top.slice(0, 5).join(", ") || "nobody"}`
    ),
    ""
  ]
  process.stdout.write(lines.join("\n"))
}
