/**
 * `npm run bench -- --relevance [--json]`: search measured against the project's judged set
 * (test/fixtures/relevance.json, over data/sample-participants.json), each part of its one split
 * (tuning, held-out) apart — nDCG@5, precision@1, mode and location accuracy, no-answer handling
 * and answerable requests answered empty — beside a word-overlap baseline, with each query that
 * falls short; and the in-process cost of a search over 100,000 generated participants. No
 * server: search is pure over the directory.
 */
import { searchDirectory } from "../src/domain/directory_search.ts"
import { generateDirectory } from "../test/support/directory.ts"
import {
  evaluate,
  evaluateProbes,
  judgedSet,
  type Part,
  type ProbeReport,
  partOf,
  probes,
  type RelevanceReport,
  wordOverlap
} from "../test/support/relevance.ts"

const round = (x: number, digits = 3) => Math.round(x * 10 ** digits) / 10 ** digits

/** Median milliseconds of a search for each judged query over a directory of `size`. */
const searchCost = (size: number) => {
  const everyone = generateDirectory(size, 25)
  const builtAt = performance.now()
  searchDirectory("warm up", everyone, 10)
  const indexMs = performance.now() - builtAt
  const times: Array<number> = []
  for (let round = 0; round < 3; round++) {
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

const probeSummaryOf = (report: ProbeReport) => ({
  answerable: report.answerable,
  answerable_answered_empty: report.answerableEmpty,
  acceptable_first: report.first,
  no_answer_handled: report.noAnswer.handled,
  no_answer_total: report.noAnswer.total,
  mode_judged: report.mode.judged,
  mode_right: report.mode.right
})

const summaryOf = (report: RelevanceReport) => ({
  queries: report.queries,
  answerable: report.answerable,
  ndcg_at_5: round(report.ndcg5),
  precision_at_1: round(report.p1),
  mode_accuracy: round(report.modeAccuracy),
  location_accuracy: round(report.locationAccuracy),
  no_answer_handled: report.noAnswer.handled,
  no_answer_total: report.noAnswer.total,
  answerable_answered_empty: report.answerableEmpty
})

export const relevanceMain = (asJson: boolean) => {
  const parts: ReadonlyArray<Part> = ["tuning", "held-out"]
  const reports = parts.map((part) => ({ part, report: evaluate(partOf(part)) }))
  const baselines = parts.map((part) => ({ part, report: evaluate(partOf(part), undefined, wordOverlap) }))
  const probed = evaluateProbes()
  // Batch by batch: each was written before any run of the ranking on it, so a newer batch
  // measures the ranking on requests it was not tuned on.
  const byBatch = [...new Set(probes.map((p) => p.batch))]
    .sort((a, b) => a - b)
    .map((batch) => ({ name: `batch ${batch}`, report: evaluateProbes(probes.filter((p) => p.batch === batch)) }))
  const probeShortfalls = probed.outcomes.filter(
    (o) =>
      (o.probe.acceptable.length === 0
        ? o.top.length > 0 && o.hint === undefined
        : o.top[0] === undefined || !o.probe.acceptable.includes(o.top[0])) ||
      (o.probe.mode !== undefined && o.mode !== o.probe.mode)
  )
  const cost = searchCost(100_000)
  const shortfalls = reports[0]!.report.outcomes.filter(
    (o) =>
      (o.ndcg5 !== undefined && o.ndcg5 < 1) ||
      o.noAnswerHandled === false ||
      o.mode !== o.expectedMode ||
      o.locationRight === false
  )
  const summary = {
    ...Object.fromEntries(reports.map(({ part, report }) => [part, summaryOf(report)])),
    baseline: Object.fromEntries(baselines.map(({ part, report }) => [part, summaryOf(report)])),
    probes: {
      answerable: probed.answerable,
      answerable_answered_empty: probed.answerableEmpty,
      acceptable_first: probed.first,
      acceptable_in_five: probed.inFive,
      no_answer_handled: probed.noAnswer.handled,
      no_answer_total: probed.noAnswer.total,
      by_batch: Object.fromEntries(byBatch.map(({ name, report }) => [name, probeSummaryOf(report)]))
    },
    cost
  }
  if (asJson) {
    process.stdout.write(
      `${JSON.stringify({ ...summary, tuning_shortfalls: shortfalls, probe_shortfalls: probeShortfalls }, null, 2)}\n`
    )
    return
  }
  // The baseline reads no mode and no place: those rows are the ranking's alone.
  const row = (name: string, f: (s: ReturnType<typeof summaryOf>) => string | number, baseline = true) =>
    `| ${name} | ${[...reports, ...baselines]
      .map(({ report }, at) => (at >= reports.length && !baseline ? "—" : f(summaryOf(report))))
      .join(" | ")} |`
  const lines = [
    "Relevance on the judged set (over the sample catalogue), by part of its one split, beside the word-overlap baseline:",
    "",
    "| measure | tuning | held-out | baseline, tuning | baseline, held-out |",
    "| --- | --- | --- | --- | --- |",
    row("queries (answerable)", (s) => `${s.queries} (${s.answerable})`),
    row("nDCG@5", (s) => s.ndcg_at_5),
    row("precision@1", (s) => s.precision_at_1),
    row("mode accuracy", (s) => s.mode_accuracy, false),
    row("location accuracy", (s) => s.location_accuracy, false),
    row("no-answer handled", (s) => `${s.no_answer_handled} of ${s.no_answer_total}`),
    row("answerable answered empty", (s) => s.answerable_answered_empty),
    "",
    `Search over ${cost.participants} generated participants, in process: index built once in ${cost.index_build_ms} ms; ` +
      `p50 ${cost.search_p50_ms} ms, p99 ${cost.search_p99_ms} ms per search.`,
    "",
    "Tuning queries that fall short (nDCG@5 < 1, a wrong mode or location, or a no-answer request answered with somebody); the held-out part's are not listed:",
    ...shortfalls.map(
      (o) =>
        `- ${JSON.stringify(o.query)}: mode ${o.mode} (judged ${o.expectedMode})` +
        (o.locationRight === false ? `, location ${o.location} (judged ${o.expectedLocation})` : "") +
        (o.ndcg5 === undefined ? "" : `, nDCG@5 ${round(o.ndcg5, 2)}`) +
        `, top: ${o.top.slice(0, 5).join(", ") || "nobody"}`
    ),
    "",
    `Fresh probes of the tuning workflow (test/fixtures/relevance_probes.json): ${probed.answerable} answerable, ` +
      `${probed.answerableEmpty} answered with nobody, an acceptable person first for ${probed.first} and in the first five for ` +
      `${probed.inFive}; ${probed.noAnswer.handled} of ${probed.noAnswer.total} nobody can take answered empty or with the reason. Short of it:`,
    ...byBatch.map(
      ({ name, report: r }) =>
        `  ${name}: ${r.answerable} answerable, ${r.answerableEmpty} with nobody, acceptable first ${r.first}, ` +
        `no-answer ${r.noAnswer.handled} of ${r.noAnswer.total}` +
        (r.mode.judged === 0 ? "" : `, mode ${r.mode.right} of ${r.mode.judged}`)
    ),
    ...probeShortfalls.map(
      (o) =>
        `- ${JSON.stringify(o.probe.query)}: ${o.top.slice(0, 3).join(", ") || "nobody"} (acceptable: ${o.probe.acceptable.join(", ") || "nobody"})` +
        (o.probe.mode !== undefined && o.mode !== o.probe.mode ? `, mode ${o.mode} (judged ${o.probe.mode})` : "")
    ),
    ""
  ]
  process.stdout.write(lines.join("\n"))
}
