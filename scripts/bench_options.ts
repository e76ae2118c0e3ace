/**
 * The benchmark's command line (`npm run bench`, scripts/bench.ts): how many runs of how long, with
 * how many connections, on which backend, what to measure, and how to print the report.
 */
const option = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`)
  return i >= 0 ? Number(process.argv[i + 1]) : fallback
}
export const runs = option("runs", 3)
export const duration = option("duration", 5)
export const connections = option("connections", 50)
export const asJson = process.argv.includes("--json")
export const onPostgres = process.argv.includes("--pg")
export const atScale = process.argv.includes("--scale")
export const relevance = process.argv.includes("--relevance")
export const postgresAdminUrl = process.env.BENCH_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres"
