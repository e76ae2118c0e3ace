/**
 * The project's benchmark: `npm run bench [-- --runs N --duration S --connections C --pg --json --scale --relevance]`.
 *
 * Starts the service as a child process on a fresh embedded database (or, with `--pg`, a fresh
 * Postgres database on BENCH_POSTGRES_URL, default the local server), measures start-up to the
 * first answered request, loads realistic data, then drives each scenario with autocannon over
 * loopback (50 connections by default) for several runs and reports medians. Beside each figure
 * it prints the ratio to a minimal `node:http` server answering the same bytes from memory — the
 * ceiling for Node on this machine — measured in the same run — and the same answers served through
 * the stack alone (Effect's HttpApi and Node server, scripts/bench_floor.ts): the floor, which
 * separates what the stack costs from what the service's own code costs.
 *
 * `--scale` measures at size instead: a task read among 10,000 and among 1,000,000 stored tasks,
 * and participant search (`q`) over 100,000 participants, with the data loaded straight through
 * SQL before the service starts (scripts/bench_scale.ts).
 *
 * `--relevance` measures search against the project's judged set instead (scripts/bench_relevance.ts).
 *
 * Its parts, each a module: the command line (scripts/bench_options.ts), the processes it starts
 * (scripts/bench_servers.ts), the scenarios and their autocannon runs (scripts/bench_scenarios.ts),
 * `--scale` (scripts/bench_scale.ts) and the report (scripts/bench_report.ts); this module measures
 * start-up and the scenarios on a service with realistic data.
 */
import { randomUUID } from "node:crypto"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { asJson, atScale, connections, duration, relevance, runs } from "./bench_options.ts"
import { relevanceMain } from "./bench_relevance.ts"
import { emit, reportHeader } from "./bench_report.ts"
import { scaleMain } from "./bench_scale.ts"
import { draft, load, type Measured, median, openMcpSession, type Scenario } from "./bench_scenarios.ts"
import {
  freshDatabase,
  rssOf,
  startCeiling,
  startFloor,
  startService,
  stopCollector,
  stopService
} from "./bench_servers.ts"

const main = async () => {
  const dir = mkdtempSync(join(tmpdir(), "tm-bench-"))
  const startups: Array<number> = []
  // Start-up is measured on fresh databases (migrations and the sample catalogue included).
  for (let i = 0; i < runs; i++) {
    const database = await freshDatabase(dir, `startup${i}`)
    const probe = await startService(database.url)
    startups.push(probe.startupMs)
    await stopService(probe.child)
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
  const mcp = await openMcpSession(service.url)
  await mcp.check("get_task", { reference })
  await mcp.check("submit_task", { draft, idempotency_key: randomUUID() })

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
    { name: "GET participants?q", method: "GET", path: "/api/public/v1/participants?q=photo" },
    // The same reads and submissions as MCP tool calls, in one session (issue 22).
    {
      name: "MCP get_task",
      method: "POST",
      path: "/mcp",
      headers: mcp.headers,
      body: mcp.call("get_task", { reference }),
      bounded: false
    },
    {
      name: "MCP submit_task",
      method: "POST",
      path: "/mcp",
      headers: mcp.headers,
      freshBody: () => mcp.call("submit_task", { draft, idempotency_key: randomUUID() }),
      bounded: false
    }
  ]

  // Record the real answers, so the ceiling serves the same bytes.
  const answers: Record<string, { status: number; body: string; headers: Record<string, string> }> = {}
  for (const s of scenarios) {
    if (s.bounded === false) continue
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
  const floor = await startFloor(answers)

  const results = []
  // The server's memory as the REST scenarios leave it, comparable with runs before MCP was
  // measured: the MCP submissions that follow store thousands more tasks.
  let memory: ReturnType<typeof rssOf> | undefined
  for (const scenario of scenarios) {
    if (scenario.bounded === false) memory ??= rssOf(service.child.pid!)
    const service_: Array<Measured> = []
    const ceiling_: Array<Measured> = []
    const floor_: Array<Measured> = []
    for (let i = 0; i < runs; i++) {
      service_.push(await load(service.url, scenario))
      if (scenario.bounded === false) continue
      ceiling_.push(await load(ceiling.url, scenario))
      floor_.push(await load(floor.url, scenario))
    }
    const rps = median(service_.map((m) => m.rps))
    const ceilingRps = scenario.bounded === false ? undefined : median(ceiling_.map((m) => m.rps))
    const floorRps = scenario.bounded === false ? undefined : median(floor_.map((m) => m.rps))
    results.push({
      scenario: scenario.name,
      rps: Math.round(rps),
      p50_ms: median(service_.map((m) => m.p50)),
      p99_ms: median(service_.map((m) => m.p99)),
      errors: Math.max(...service_.map((m) => m.non2xx)) > 0 && scenario.name !== "GET task 304" ? "non-2xx seen" : "",
      ceiling_rps: ceilingRps === undefined ? null : Math.round(ceilingRps),
      ratio: ceilingRps === undefined ? null : Math.round((rps / ceilingRps) * 100) / 100,
      floor_rps: floorRps === undefined ? null : Math.round(floorRps),
      floor_ratio:
        floorRps === undefined || ceilingRps === undefined ? null : Math.round((floorRps / ceilingRps) * 100) / 100,
      // What the machine and the stack allow for the tail at the same load: an absolute p99 target
      // reads against these.
      ceiling_p99_ms: ceilingRps === undefined ? null : median(ceiling_.map((m) => m.p99)),
      floor_p99_ms: floorRps === undefined ? null : median(floor_.map((m) => m.p99))
    })
  }
  memory ??= rssOf(service.child.pid!)
  ceiling.child.kill("SIGTERM")
  await stopService(floor.child)
  await stopService(service.child)
  await database.drop()
  rmSync(dir, { recursive: true, force: true })

  const report = {
    ...reportHeader(),
    startup_ms_median: Math.round(median(startups)),
    startup_ms_runs: startups.map(Math.round),
    floor_startup_ms: Math.round(floor.startupMs),
    server_rss_mb: Math.round(memory.rssMb),
    server_peak_rss_mb: Math.round(memory.peakRssMb),
    results
  }
  emit(
    report,
    `${report.database}, Node ${report.node}; ${runs} runs × ${duration} s, ${connections} connections; medians; tracing ${report.tracing}.`,
    [
      "scenario",
      "req/s",
      "p50 ms",
      "p99 ms",
      "node:http ceiling req/s",
      "ratio",
      "stack floor req/s",
      "floor ratio",
      "p99 ms: ceiling, floor"
    ],
    results.map((r) => [
      r.scenario + (r.errors ? ` (${r.errors})` : ""),
      r.rps,
      r.p50_ms,
      r.p99_ms,
      r.ceiling_rps ?? "—",
      r.ratio ?? "—",
      r.floor_rps ?? "—",
      r.floor_ratio ?? "—",
      r.ceiling_p99_ms === null ? "—" : `${r.ceiling_p99_ms}, ${r.floor_p99_ms}`
    ]),
    [
      `start-up to first answered request: ${report.startup_ms_median} ms (runs: ${report.startup_ms_runs.join(", ")}); ` +
        `the stack floor's: ${report.floor_startup_ms} ms`,
      `server RSS after the REST scenarios: ${report.server_rss_mb} MB (peak ${report.server_peak_rss_mb} MB)`,
      "stack floor: the same answers through Effect's HttpApi and Node server alone (scripts/bench_floor.ts); " +
        "floor ratio = floor ÷ ceiling, what the stack allows before any of the service's code runs"
    ]
  )
}

if (relevance) relevanceMain(asJson)
else await (atScale ? scaleMain() : main()).finally(stopCollector)
