/**
 * The project's benchmark: `npm run bench [-- --runs N --duration S --connections C --pg --json]`.
 *
 * Starts the service as a child process on a fresh embedded database (or, with `--pg`, a fresh
 * Postgres database on BENCH_POSTGRES_URL, default the local server), measures start-up to the
 * first answered request, loads realistic data, then drives each scenario with autocannon over
 * loopback (50 connections by default) for several runs and reports medians. Beside each figure
 * it prints the ratio to a minimal `node:http` server answering the same bytes from memory — the
 * ceiling for Node on this machine — measured in the same run.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { randomUUID } from "node:crypto"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { PgClient } from "@effect/sql-pg"
// @ts-expect-error autocannon ships no type declarations
import autocannon from "autocannon"
import { Effect, Redacted } from "effect"
import { Reactivity } from "effect/reactivity"

const option = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`)
  return i >= 0 ? Number(process.argv[i + 1]) : fallback
}
const runs = option("runs", 3)
const duration = option("duration", 5)
const connections = option("connections", 50)
const asJson = process.argv.includes("--json")
const onPostgres = process.argv.includes("--pg")
const postgresAdminUrl = process.env.BENCH_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres"

/** Runs one statement on Postgres through @effect/sql-pg (the service's own driver). */
const postgres = (url: string, statement: string) =>
  Effect.runPromise(
    Effect.scoped(
      Effect.gen(function* () {
        const sql = yield* PgClient.make({ url: Redacted.make(url), maxConnections: 1 })
        yield* sql.unsafe(statement)
      })
    ).pipe(Effect.provide(Reactivity.layer)) as Effect.Effect<void, unknown, never>
  )

/** A fresh database for one service start: a SQLite file in `dir`, or a new Postgres database. */
const freshDatabase = async (dir: string, name: string) => {
  if (!onPostgres) return { url: `sqlite:${join(dir, `${name}.sqlite`)}`, drop: async () => {} }
  const database = `tm_bench_${name.replace(/\W/g, "_")}_${process.pid}`
  await postgres(postgresAdminUrl, `CREATE DATABASE ${database}`)
  const url = new URL(postgresAdminUrl)
  url.pathname = `/${database}`
  return {
    url: url.toString(),
    drop: () => postgres(postgresAdminUrl, `DROP DATABASE IF EXISTS ${database} WITH (FORCE)`)
  }
}
const root = new URL("..", import.meta.url).pathname

interface Scenario {
  readonly name: string
  readonly method: "GET" | "POST"
  readonly path: string
  readonly headers?: Record<string, string>
  readonly body?: string
  /** A fresh idempotency key per request (distinct submissions). */
  readonly freshKey?: boolean
}

interface Measured {
  readonly rps: number
  readonly p50: number
  readonly p99: number
  readonly non2xx: number
}

const median = (xs: ReadonlyArray<number>) => {
  const s = [...xs].sort((a, b) => a - b)
  const m = Math.floor(s.length / 2)
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2
}

const freePort = async () => {
  const { createServer } = await import("node:net")
  return new Promise<number>((resolve) => {
    const server = createServer()
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      server.close(() => resolve(typeof address === "object" && address !== null ? address.port : 0))
    })
  })
}

const waitUntilAnswering = async (url: string, child: ChildProcess, timeoutMs = 30_000) => {
  const started = performance.now()
  while (performance.now() - started < timeoutMs) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`)
    try {
      const response = await fetch(url)
      if (response.status === 200) return
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 5))
  }
  throw new Error("server did not answer in time")
}

const startService = async (databaseUrl: string) => {
  const port = await freePort()
  const url = `http://127.0.0.1:${port}`
  const spawnedAt = performance.now()
  // Started the way `npm start` starts it (scripts/node.mjs, with its compile cache).
  const child = spawn(process.execPath, ["scripts/node.mjs", "src/main.ts"], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      DATABASE_URL: databaseUrl,
      LOG_LEVEL: "Info",
      RATE_LIMIT: "off"
    },
    stdio: ["ignore", "ignore", "inherit"]
  })
  await waitUntilAnswering(`${url}/api/public/v1`, child)
  return { child, url, startupMs: performance.now() - spawnedAt }
}

/** The ceiling: node:http answering each scenario's recorded status, headers and body from memory. */
const startCeiling = async (
  answers: Record<string, { status: number; body: string; headers: Record<string, string> }>
) => {
  const port = await freePort()
  const source = `
    const answers = ${JSON.stringify(answers)};
    require("node:http").createServer((req, res) => {
      const key = req.method + " " + req.url.split("?")[0].replace(/tsk_[a-z2-7]+/, "{reference}");
      const a = (req.headers["if-none-match"] && answers[key + " 304"]) || answers[key] || { status: 404, body: "{}", headers: {} };
      req.resume();
      req.on("end", () => { res.writeHead(a.status, { "content-type": "application/json", ...a.headers }); res.end(a.body); });
    }).listen(${port}, "127.0.0.1", () => process.send("ready"));
  `
  const child = spawn(process.execPath, ["-e", source], { stdio: ["ignore", "ignore", "inherit", "ipc"] })
  await new Promise((resolve) => child.once("message", resolve))
  return { child, url: `http://127.0.0.1:${port}` }
}

const load = (url: string, scenario: Scenario): Promise<Measured> =>
  new Promise((resolve, reject) => {
    autocannon(
      {
        url: `${url}${scenario.path}`,
        connections,
        duration,
        requests: [
          {
            method: scenario.method,
            headers: scenario.headers ?? {},
            ...(scenario.body === undefined ? {} : { body: scenario.body }),
            ...(scenario.freshKey
              ? {
                  setupRequest: (request: { headers: Record<string, string> }) => ({
                    ...request,
                    headers: { ...request.headers, "idempotency-key": randomUUID() }
                  })
                }
              : {})
          }
        ]
      },
      (
        error: unknown,
        result: { requests: { average: number }; latency: { p50: number; p99: number }; non2xx: number }
      ) =>
        error
          ? reject(error)
          : resolve({
              rps: result.requests.average,
              p50: result.latency.p50,
              p99: result.latency.p99,
              non2xx: result.non2xx
            })
    )
  })

const rssOf = (pid: number) => {
  const status = readFileSync(`/proc/${pid}/status`, "utf8")
  const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 0)
  return { rssMb: kb("VmRSS") / 1024, peakRssMb: kb("VmHWM") / 1024 }
}

const draft = {
  action: "Photograph the storefront of Bäckerei Sonne at Torstraße 12 and its opening-hours sign",
  execution_mode: "physical",
  location: "Berlin, Germany",
  timing: "2026-12-01T17:00:00Z",
  expected_result: "Five geotagged photos and a JSON checklist with the opening hours",
  acceptance_test: "The photos show the shop sign and the opening hours legibly",
  principal: "ACME Retail Research GmbH",
  agent: "bench/1.0"
}

const main = async () => {
  const dir = mkdtempSync(join(tmpdir(), "tm-bench-"))
  const startups: Array<number> = []
  // Start-up is measured on fresh databases (migrations and the sample catalogue included).
  for (let i = 0; i < runs; i++) {
    const database = await freshDatabase(dir, `startup${i}`)
    const probe = await startService(database.url)
    startups.push(probe.startupMs)
    probe.child.kill("SIGTERM")
    await new Promise((r) => probe.child.once("exit", r))
    await database.drop()
  }

  const database = await freshDatabase(dir, "main")
  const service = await startService(database.url)
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${service.url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify(body)
    })
  // Realistic data: a thousand stored tasks; the benchmark reads one of them.
  const references: Array<string> = []
  for (let i = 0; i < 1000; i++) {
    const response = await post(
      "/api/public/v1/tasks",
      { ...draft, action: `${draft.action} (#${i})` },
      { "idempotency-key": randomUUID() }
    )
    references.push(((await response.json()) as { reference: string }).reference)
  }
  const reference = references[500]!
  const taskResponse = await fetch(`${service.url}/api/public/v1/tasks/${reference}`)
  const etag = taskResponse.headers.get("etag")!
  const body = JSON.stringify(draft)

  const scenarios: ReadonlyArray<Scenario> = [
    { name: "GET task", method: "GET", path: `/api/public/v1/tasks/${reference}` },
    {
      name: "GET task 304",
      method: "GET",
      path: `/api/public/v1/tasks/${reference}`,
      headers: { "if-none-match": etag }
    },
    {
      name: "POST preflight",
      method: "POST",
      path: "/api/public/v1/preflight",
      headers: { "content-type": "application/json" },
      body
    },
    {
      name: "POST tasks",
      method: "POST",
      path: "/api/public/v1/tasks",
      headers: { "content-type": "application/json" },
      body,
      freshKey: true
    },
    { name: "GET participants?q", method: "GET", path: "/api/public/v1/participants?q=photo" }
  ]

  // Record the real answers, so the ceiling serves the same bytes.
  const answers: Record<string, { status: number; body: string; headers: Record<string, string> }> = {}
  for (const s of scenarios) {
    const response = await fetch(`${service.url}${s.path}`, {
      method: s.method,
      headers: { ...(s.headers ?? {}), ...(s.freshKey ? { "idempotency-key": randomUUID() } : {}) },
      ...(s.body === undefined ? {} : { body: s.body })
    })
    const key = `${s.method} ${s.path.split("?")[0]!.replace(/tsk_[a-z2-7]+/, "{reference}")}`
    const headers: Record<string, string> = {}
    for (const name of ["etag", "location", "x-request-id"]) {
      const value = response.headers.get(name)
      if (value !== null) headers[name] = value
    }
    answers[s.name === "GET task 304" ? `${key} 304` : key] = {
      status: response.status,
      body: await response.text(),
      headers
    }
  }
  const ceiling = await startCeiling(answers)

  const results = []
  for (const scenario of scenarios) {
    const service_: Array<Measured> = []
    const ceiling_: Array<Measured> = []
    for (let i = 0; i < runs; i++) {
      service_.push(await load(service.url, scenario))
      ceiling_.push(await load(ceiling.url, scenario))
    }
    const rps = median(service_.map((m) => m.rps))
    const ceilingRps = median(ceiling_.map((m) => m.rps))
    results.push({
      scenario: scenario.name,
      rps: Math.round(rps),
      p50_ms: median(service_.map((m) => m.p50)),
      p99_ms: median(service_.map((m) => m.p99)),
      errors: Math.max(...service_.map((m) => m.non2xx)) > 0 && scenario.name !== "GET task 304" ? "non-2xx seen" : "",
      ceiling_rps: Math.round(ceilingRps),
      ratio: Math.round((rps / ceilingRps) * 100) / 100
    })
  }
  const memory = rssOf(service.child.pid!)
  service.child.kill("SIGTERM")
  ceiling.child.kill("SIGTERM")
  await new Promise((r) => service.child.once("exit", r))
  await database.drop()
  rmSync(dir, { recursive: true, force: true })

  const report = {
    database: onPostgres ? "postgres" : "sqlite",
    node: process.versions.node,
    runs,
    duration_s: duration,
    connections,
    startup_ms_median: Math.round(median(startups)),
    startup_ms_runs: startups.map(Math.round),
    server_rss_mb: Math.round(memory.rssMb),
    server_peak_rss_mb: Math.round(memory.peakRssMb),
    results
  }
  if (asJson) {
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`)
    return
  }
  const line = (cells: ReadonlyArray<string | number>) => `| ${cells.join(" | ")} |`
  process.stdout.write(
    [
      `${report.database}, Node ${report.node}; ${runs} runs × ${duration} s, ${connections} connections; medians.`,
      "",
      line(["scenario", "req/s", "p50 ms", "p99 ms", "node:http ceiling req/s", "ratio"]),
      line(["---", "---", "---", "---", "---", "---"]),
      ...results.map((r) =>
        line([r.scenario + (r.errors ? ` (${r.errors})` : ""), r.rps, r.p50_ms, r.p99_ms, r.ceiling_rps, r.ratio])
      ),
      "",
      `start-up to first answered request: ${report.startup_ms_median} ms (runs: ${report.startup_ms_runs.join(", ")})`,
      `server RSS after the benchmark: ${report.server_rss_mb} MB (peak ${report.server_peak_rss_mb} MB)`,
      ""
    ].join("\n")
  )
}

await main()
