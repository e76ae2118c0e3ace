/**
 * The benchmark's report (scripts/bench.ts, scripts/bench_scale.ts): the lines every report starts
 * with, and the report printed as JSON (--json) or as a heading, a Markdown table and closing lines.
 */
import { asJson, connections, duration, onPostgres, runs } from "./bench_options.ts"

/** What every report starts with: the backend, Node, and how the load was driven. */
export const reportHeader = () => ({
  database: onPostgres ? "postgres" : "sqlite",
  node: process.versions.node,
  runs,
  duration_s: duration,
  connections,
  tracing: `on: OTLP export to a local collector, ${Number(process.env.OTEL_TRACES_SAMPLER_ARG ?? "0.01") * 100}% of traces sampled`
})

/** Prints the report: as JSON with --json, else a heading, a Markdown table and closing lines. */
export const emit = (
  report: unknown,
  heading: string,
  header: ReadonlyArray<string>,
  rows: ReadonlyArray<ReadonlyArray<string | number>>,
  footer: ReadonlyArray<string>
) => {
  if (asJson) {
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`)
    return
  }
  const line = (cells: ReadonlyArray<string | number>) => `| ${cells.join(" | ")} |`
  process.stdout.write(
    [heading, "", line(header), line(header.map(() => "---")), ...rows.map(line), "", ...footer, ""].join("\n")
  )
}
