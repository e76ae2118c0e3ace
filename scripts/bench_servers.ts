/**
 * The processes the benchmark (scripts/bench.ts) starts and the databases it gives them: the service
 * itself, exactly as `npm start` starts it, on a fresh database; the node:http ceiling and the stack
 * floor (scripts/bench_floor.ts) serving its recorded answers; the trace collector the service
 * exports to; another process committing to its SQLite database; and the benchmark's own SQL
 * connection.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { PgClient } from "@effect/sql-pg"
import { Effect, Redacted } from "effect"
import { Reactivity } from "effect/reactivity"
import type { SqlClient } from "effect/sql"
import * as NodeSqliteClient from "../src/sql/NodeSqliteClient.ts"
import { freePort } from "../test/support/process.ts"
import { onPostgres, postgresAdminUrl } from "./bench_options.ts"

/** Runs `f` over a connection of the benchmark's own to the database at `url` (never the service's). */
export const withSql = <A>(url: string, f: (sql: SqlClient.SqlClient) => Effect.Effect<A, unknown>) =>
  Effect.runPromise(
    Effect.scoped(
      Effect.gen(function* () {
        const sql: SqlClient.SqlClient = url.startsWith("sqlite:")
          ? yield* NodeSqliteClient.make({ filename: url.slice("sqlite:".length) })
          : yield* PgClient.make({ url: Redacted.make(url), maxConnections: 1 })
        return yield* f(sql)
      })
    ).pipe(Effect.provide(Reactivity.layer)) as Effect.Effect<A, unknown, never>
  )

/** Runs one statement on Postgres through @effect/sql-pg (the service's own driver). */
const postgres = (url: string, statement: string) => withSql(url, (sql) => Effect.asVoid(sql.unsafe(statement)))

/** A fresh database for one service start: a SQLite file in `dir`, or a new Postgres database. */
export const freshDatabase = async (dir: string, name: string) => {
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

/** The arguments of package.json's `start` script after `node` (it reads `exec node …`). */
const startWords = (JSON.parse(readFileSync(join(root, "package.json"), "utf8")).scripts.start as string).split(/\s+/)
const startArguments: ReadonlyArray<string> = startWords.slice(startWords.indexOf("node") + 1)

/**
 * Another process committing to a SQLite database about every millisecond until stopped (one row
 * of a table of its own): a busy marketplace's database moves all the time, and a poll then reads
 * storage rather than answering from what the service remembers (its commit marks:
 * docs/performance.md, "A repeated poll needs no statement"). None on Postgres, which gives no
 * marks: there every poll reads, and the scenario is the quiet one again.
 */
export const startCommitter = async (databaseUrl: string) => {
  if (!databaseUrl.startsWith("sqlite:")) return undefined
  const filename = databaseUrl.slice("sqlite:".length)
  const child = spawn(
    process.execPath,
    [
      "-e",
      `const { DatabaseSync } = require("node:sqlite");
      const db = new DatabaseSync(${JSON.stringify(filename)});
      db.exec("PRAGMA busy_timeout = 5000; CREATE TABLE IF NOT EXISTS bench_commits (n INTEGER NOT NULL); DELETE FROM bench_commits; INSERT INTO bench_commits VALUES (0)");
      const commit = db.prepare("UPDATE bench_commits SET n = n + 1");
      setInterval(() => commit.run(), 1);
      process.send("ready");
      process.on("disconnect", () => process.exit(0));`
    ],
    { stdio: ["ignore", "ignore", "inherit", "ipc"] }
  )
  await new Promise((resolve) => child.once("message", resolve))
  const commits = () =>
    withSql(databaseUrl, (sql) =>
      sql<{ n: number }>`SELECT n FROM bench_commits`.pipe(Effect.map((rows) => Number(rows[0]?.n ?? 0)))
    )
  return {
    stop: async () => {
      const exited = new Promise((resolve) => child.once("exit", resolve))
      child.disconnect()
      await exited
    },
    commits
  }
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

/**
 * Tracing stays on under load, as in a deployment: the service exports to an OpenTelemetry
 * collector — here a separate process that accepts and drops every export — with a 1% sampler, so
 * every request still gets its span, its trace id and its SQL spans, and one trace in a hundred is
 * sent (OTEL_TRACES_SAMPLER_ARG overrides the ratio).
 */
let collector: Promise<{ child: ChildProcess; url: string }> | undefined
const traceCollector = () =>
  (collector ??= startPlainServer(`(req, res) => {
    req.resume();
    req.on("end", () => { res.writeHead(200, { "content-type": "application/json" }); res.end("{}"); });
  }`))

export const stopCollector = async () => {
  if (collector !== undefined) (await collector).child.kill("SIGTERM")
}

export const startService = async (databaseUrl: string) => {
  const trace = await traceCollector()
  const port = await freePort()
  const url = `http://127.0.0.1:${port}`
  const spawnedAt = performance.now()
  // Started exactly as `npm start` starts it (its Node flags, scripts/node.mjs and its compile cache).
  const child = spawn(process.execPath, startArguments, {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      DATABASE_URL: databaseUrl,
      LOG_LEVEL: "Info",
      RATE_LIMIT: "off",
      OTEL_EXPORTER_OTLP_ENDPOINT: trace.url,
      OTEL_TRACES_SAMPLER: "parentbased_traceidratio",
      OTEL_TRACES_SAMPLER_ARG: process.env.OTEL_TRACES_SAMPLER_ARG ?? "0.01"
    },
    stdio: ["ignore", "ignore", "inherit"]
  })
  await waitUntilAnswering(`${url}/api/public/v1`, child)
  return { child, url, startupMs: performance.now() - spawnedAt }
}

export const stopService = async (child: ChildProcess) => {
  if (child.exitCode !== null) return
  child.kill("SIGTERM")
  await new Promise((r) => child.once("exit", r))
}

/** The ceiling: node:http answering each scenario's recorded status, headers and body from memory. */
export const startCeiling = (
  answers: Record<string, { status: number; body: string; headers: Record<string, string> }>
) =>
  startPlainServer(
    `(req, res) => {
      const key = req.method + " " + req.url.split("?")[0].replace(/tsk_[a-z2-7]+/, "{reference}");
      const a = (req.headers["if-none-match"] && answers[key + " 304"]) || answers[key] || { status: 404, body: "{}", headers: {} };
      req.resume();
      req.on("end", () => { res.writeHead(a.status, { "content-type": "application/json", ...a.headers }); res.end(a.body); });
    }`,
    `const answers = ${JSON.stringify(answers)};`
  )

/**
 * A bare node:http server in a process of its own (the ceiling, the trace collector): `handler` is
 * the source of its request listener, `prelude` source it can use.
 */
const startPlainServer = async (handler: string, prelude = "") => {
  const port = await freePort()
  const source = `${prelude}
    require("node:http").createServer(${handler}).listen(${port}, "127.0.0.1", () => process.send("ready"));`
  const child = spawn(process.execPath, ["-e", source], { stdio: ["ignore", "ignore", "inherit", "ipc"] })
  await new Promise((resolve) => child.once("message", resolve))
  child.disconnect()
  return { child, url: `http://127.0.0.1:${port}` }
}

/**
 * The stack's floor: the same recorded answers served through Effect's HttpApi and Node server
 * alone (scripts/bench_floor.ts), started with the service's own Node flags.
 */
export const startFloor = async (
  answers: Record<string, { status: number; body: string; headers: Record<string, string> }>
) => {
  const port = await freePort()
  const url = `http://127.0.0.1:${port}`
  const spawnedAt = performance.now()
  const child = spawn(process.execPath, [...startArguments.slice(0, -1), "scripts/bench_floor.ts"], {
    cwd: root,
    env: { ...process.env, PORT: String(port), BENCH_ANSWERS: JSON.stringify(answers) },
    stdio: ["ignore", "ignore", "inherit"]
  })
  await waitUntilAnswering(`${url}/api/public/v1/participants`, child)
  // The stack's own start-up (its modules, a router, a listening server): what start-up allows.
  return { child, url, startupMs: performance.now() - spawnedAt }
}

export const rssOf = (pid: number) => {
  const status = readFileSync(`/proc/${pid}/status`, "utf8")
  const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 0)
  return { rssMb: kb("VmRSS") / 1024, peakRssMb: kb("VmHWM") / 1024 }
}
