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
 * SQL before the service starts (see `scale` below).
 *
 * `--relevance` measures search against the project's judged set instead (scripts/bench_relevance.ts).
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
import type { SqlClient } from "effect/sql"
import * as NodeSqliteClient from "../src/sql/NodeSqliteClient.ts"
import { generateDirectory, insertParticipants } from "../test/support/directory.ts"
import { freePort } from "../test/support/process.ts"
import { relevanceMain } from "./bench_relevance.ts"

const option = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`)
  return i >= 0 ? Number(process.argv[i + 1]) : fallback
}
const runs = option("runs", 3)
const duration = option("duration", 5)
const connections = option("connections", 50)
const asJson = process.argv.includes("--json")
const onPostgres = process.argv.includes("--pg")
const atScale = process.argv.includes("--scale")
const relevance = process.argv.includes("--relevance")
const postgresAdminUrl = process.env.BENCH_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres"

/** Runs `f` over a connection of the benchmark's own to the database at `url` (never the service's). */
const withSql = <A>(url: string, f: (sql: SqlClient.SqlClient) => Effect.Effect<A, unknown>) =>
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

/** The arguments of package.json's `start` script after `node` (it reads `exec node …`). */
const startWords = (JSON.parse(readFileSync(join(root, "package.json"), "utf8")).scripts.start as string).split(/\s+/)
const startArguments: ReadonlyArray<string> = startWords.slice(startWords.indexOf("node") + 1)

interface Scenario {
  readonly name: string
  readonly method: "GET" | "POST"
  readonly path: string
  readonly headers?: Record<string, string>
  readonly body?: string
  /** A fresh idempotency key per request (distinct submissions). */
  readonly freshKey?: boolean
  /** Paths taken in turn, one per request, instead of `path` (reads spread over many rows). */
  readonly paths?: ReadonlyArray<string>
  /** A body made per request (an MCP submission carries its idempotency key in the body). */
  readonly freshBody?: () => string
  /** Whether the node:http ceiling and the stack floor are measured too (REST scenarios only). */
  readonly bounded?: false
}

/**
 * Another process committing to a SQLite database about every millisecond until stopped (one row
 * of a table of its own): a busy marketplace's database moves all the time, and a poll then reads
 * storage rather than answering from what the service remembers (its commit marks:
 * docs/performance.md, "A repeated poll needs no statement"). None on Postgres, which gives no
 * marks: there every poll reads, and the scenario is the quiet one again.
 */
const startCommitter = async (databaseUrl: string) => {
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

const stopCollector = async () => {
  if (collector !== undefined) (await collector).child.kill("SIGTERM")
}

const startService = async (databaseUrl: string) => {
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

const stopService = async (child: ChildProcess) => {
  if (child.exitCode !== null) return
  child.kill("SIGTERM")
  await new Promise((r) => child.once("exit", r))
}

/** The ceiling: node:http answering each scenario's recorded status, headers and body from memory. */
const startCeiling = (answers: Record<string, { status: number; body: string; headers: Record<string, string> }>) =>
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
const startFloor = async (
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

const load = (url: string, scenario: Scenario, clients = connections): Promise<Measured> =>
  new Promise((resolve, reject) => {
    autocannon(
      {
        url: `${url}${scenario.path}`,
        connections: clients,
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
              : {}),
            ...(scenario.paths === undefined ? {} : { setupRequest: nextPath(scenario.paths) }),
            ...(scenario.freshBody === undefined
              ? {}
              : {
                  setupRequest: (request: object) => ({ ...request, body: scenario.freshBody!() })
                })
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

/** A setupRequest taking `paths` in turn. */
const nextPath = (paths: ReadonlyArray<string>) => {
  let i = 0
  return (request: object) => ({ ...request, path: paths[i++ % paths.length] })
}

/** What every report starts with: the backend, Node, and how the load was driven. */
const reportHeader = () => ({
  database: onPostgres ? "postgres" : "sqlite",
  node: process.versions.node,
  runs,
  duration_s: duration,
  connections,
  tracing: `on: OTLP export to a local collector, ${Number(process.env.OTEL_TRACES_SAMPLER_ARG ?? "0.01") * 100}% of traces sampled`
})

/** Prints the report: as JSON with --json, else a heading, a Markdown table and closing lines. */
const emit = (
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

const rssOf = (pid: number) => {
  const status = readFileSync(`/proc/${pid}/status`, "utf8")
  const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 0)
  return { rssMb: kb("VmRSS") / 1024, peakRssMb: kb("VmHWM") / 1024 }
}

const draft = {
  action: "Photograph the storefront of Bäckerei Sonne at Torstraße 12 and its opening-hours sign",
  execution_mode: "physical",
  location: "Berlin, Germany",
  timing: "2030-12-01T17:00:00Z",
  expected_result: "Five geotagged photos and a JSON checklist with the opening hours",
  acceptance_test: "The photos show the shop sign and the opening hours legibly",
  principal: "ACME Retail Research GmbH",
  agent: "bench/1.0"
}

/** A task done online: every participant who works online can serve it, so all of them are ranked. */
const digitalDraft = {
  action: "Transcribe a handwritten recipe card into structured JSON with ingredients and steps",
  execution_mode: "digital",
  expected_result: "A JSON document with the ingredients, quantities and steps of the recipe",
  acceptance_test: "Every ingredient and step on the card appears in the JSON",
  principal: "ACME Retail Research GmbH",
  agent: "bench/1.0"
}

// --scale ---------------------------------------------------------------------------------------

/** One real task, submitted and cancelled through the API: the row every stored copy repeats. */
const templateTask = async (url: string) => {
  const created = await fetch(`${url}/api/public/v1/tasks`, {
    method: "POST",
    headers: { "content-type": "application/json", "idempotency-key": randomUUID() },
    body: JSON.stringify(draft)
  })
  if (created.status !== 201) throw new Error(`POST /tasks answered ${created.status}: ${await created.text()}`)
  const { reference, task_token } = (await created.json()) as { reference: string; task_token: string }
  // Cancelled: a settled task arms no timer, so a million copies give the dispatcher nothing to do.
  const cancelled = await fetch(`${url}/api/public/v1/tasks/${reference}/cancel`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${task_token}` },
    body: JSON.stringify({ reason: "benchmark template" })
  })
  if (cancelled.status !== 200) throw new Error(`cancel answered ${cancelled.status}: ${await cancelled.text()}`)
  return reference
}

const base32Alphabet = "abcdefghijklmnopqrstuvwxyz234567"
/** Multiplying by an odd constant modulo 2^32 is a bijection: distinct copies, spread over the keys. */
const spread = 2654435761

/**
 * The reference of the i-th copy, as SQL over the column `i` (the same expression on SQLite and
 * Postgres): `tsk_`, seven base32 digits of i's hash, a fixed tail — valid, distinct, and spread
 * across the primary key the way random references are.
 */
const referenceSql = () => {
  const hash = `((i * ${spread}) % 4294967296)`
  const digits = Array.from(
    { length: 7 },
    (_, k) => `substr('${base32Alphabet}', CAST(((${hash} >> ${5 * k}) & 31) + 1 AS INTEGER), 1)`
  )
  return `'tsk_' || ${digits.join(" || ")} || '${"a".repeat(19)}'`
}

/** The same reference, computed here. */
const referenceAt = (i: number) => {
  const hash = (BigInt(i) * BigInt(spread)) % 4294967296n
  let digits = ""
  for (let k = 0; k < 7; k++) digits += base32Alphabet[Number((hash >> BigInt(5 * k)) & 31n)]
  return `tsk_${digits}${"a".repeat(19)}`
}

/**
 * Stores `count - 1` copies of the template task (so `count` in all), each with its own reference
 * and idempotency key, in statements of 100,000 rows generated by the database itself. Every
 * column of `tasks` is copied, whatever columns later migrations add.
 */
const copyTasks = (sql: SqlClient.SqlClient, template: string, count: number) =>
  Effect.gen(function* () {
    const columns = (yield* sql.onDialectOrElse({
      sqlite: () => sql<{ name: string }>`SELECT name FROM pragma_table_info('tasks')`,
      orElse: () => sql<{ name: string }>`
        SELECT column_name AS name FROM information_schema.columns
        WHERE table_schema = current_schema() AND table_name = 'tasks' ORDER BY ordinal_position
      `
    })).map((row) => row.name)
    const values = columns.map((name) =>
      name === "reference" ? referenceSql() : name === "idempotency_key" ? `'bench-scale-key-' || i` : name
    )
    yield* sql`CREATE TEMP TABLE bench_template AS SELECT * FROM tasks WHERE reference = ${template}`
    const insert = `INSERT INTO tasks (${columns.join(", ")}) SELECT ${values.join(", ")}`
    for (let from = 1; from < count; from += 100_000) {
      const to = Math.min(count - 1, from + 99_999)
      yield* sql.onDialectOrElse({
        sqlite: () =>
          sql.unsafe(
            `WITH RECURSIVE series(i) AS (SELECT ${from} UNION ALL SELECT i + 1 FROM series WHERE i < ${to}) ${insert} FROM bench_template, series`
          ),
        orElse: () => sql.unsafe(`${insert} FROM bench_template, generate_series(${from}, ${to}) AS series(i)`)
      })
    }
    yield* sql`DROP TABLE bench_template`
  })

/**
 * The first page of a listing, asked anew by every request: each path names a distinct cursor
 * that sorts before every slug (`after:!<n>`; "!" comes before every character a slug may hold),
 * so the page is the same but the listing is not a repeat. The service keeps the pages of repeated
 * listings (`keptPage` in src/services/participant_directory.ts); this measures the search itself.
 * More distinct listings than the service keeps, taken in turn, so none of them is kept.
 */
const distinctFirstPages = (path: string) =>
  Array.from({ length: 20_000 }, (_, i) => `${path}&cursor=${Buffer.from(`after:!${i}`).toString("base64url")}`)

/** Sizes the benchmark loads, and the participant search terms it measures. */
const scale = {
  smallTasks: 10_000,
  largeTasks: 1_000_000,
  participants: 100_000,
  /** Distinct references each task read cycles through (the cache sees a spread of rows). */
  sampledReferences: 1000,
  /** Pages have the default size (100), but one: the same common term, ten per page. */
  terms: [
    { term: "photo", kind: "common" },
    { term: "photo", kind: "common", limit: 10 },
    { term: "amara okafor", kind: "rare" },
    { term: "zzqx", kind: "no match" },
    { term: "ux", kind: "2 characters" },
    { term: "xq", kind: "2 characters, no match" }
  ]
} as const

interface Loaded {
  readonly url: string
  readonly drop: () => Promise<void>
  readonly references: ReadonlyArray<string>
  readonly loadSeconds: { readonly tasks: number; readonly participants: number }
  readonly sizeMb: number
}

/**
 * A fresh database with `tasks` stored tasks (and, when asked, the generated participants),
 * loaded while no service runs: the service migrates it and stores the template task, stops, the
 * rows go in through the benchmark's own connection, and the service is started again afterwards.
 */
const loadDatabase = async (dir: string, name: string, tasks: number, participants: number): Promise<Loaded> => {
  const database = await freshDatabase(dir, name)
  cleanup.push(database.drop)
  const first = await startService(database.url)
  cleanup.push(() => stopService(first.child))
  const template = await templateTask(first.url)
  await stopService(first.child)
  const seconds = <E>(effect: Effect.Effect<unknown, E>) =>
    Effect.gen(function* () {
      const started = performance.now()
      yield* effect
      return (performance.now() - started) / 1000
    })
  const sqlite = database.url.startsWith("sqlite:")
  const loadSeconds = await withSql(database.url, (sql) =>
    Effect.gen(function* () {
      // A throw-away database: no journal to write, nothing to sync, a large cache for the load.
      if (sqlite) {
        yield* sql`PRAGMA journal_mode = DELETE`
        yield* sql`PRAGMA synchronous = OFF`
        yield* sql`PRAGMA cache_size = -1000000`
      }
      const tasksSeconds = yield* seconds(copyTasks(sql, template, tasks))
      const directory = participants > 0 ? generateDirectory(participants, 2026) : []
      const participantsSeconds = yield* seconds(insertParticipants(sql, directory))
      // On Postgres, what autovacuum would do soon after such a load: statistics and the visibility map.
      if (!sqlite) yield* sql.unsafe("VACUUM ANALYZE")
      return { tasks: tasksSeconds, participants: participantsSeconds }
    })
  )
  const references = Array.from({ length: scale.sampledReferences }, () =>
    referenceAt(1 + Math.floor(Math.random() * (tasks - 1)))
  )
  const sizeMb = await withSql(database.url, (sql) =>
    Effect.gen(function* () {
      const found = yield* sql<{ n: number | bigint | string }>`
        SELECT count(*) AS n FROM tasks WHERE ${sql.in("reference", references)}
      `
      if (Number(found[0]?.n) !== new Set(references).size) throw new Error("a sampled reference is not stored")
      const size = yield* sql.onDialectOrElse({
        sqlite: () =>
          sql<{ bytes: number }>`SELECT page_count * page_size AS bytes FROM pragma_page_count(), pragma_page_size()`,
        orElse: () => sql<{ bytes: number | string }>`SELECT pg_database_size(current_database()) AS bytes`
      })
      return Math.round(Number(size[0]?.bytes) / 1e6)
    })
  )
  return { url: database.url, drop: database.drop, references, loadSeconds, sizeMb }
}

/** Undone in reverse order when --scale ends, whether it succeeded or not: services, databases. */
const cleanup: Array<() => Promise<unknown>> = []

const scaleMain = async () => {
  try {
    await measureAtScale()
  } finally {
    for (const step of cleanup.reverse()) await step().catch(() => {})
  }
}

const measureAtScale = async () => {
  const started = performance.now()
  const dir = mkdtempSync(join(tmpdir(), "tm-bench-scale-"))
  cleanup.push(async () => rmSync(dir, { recursive: true, force: true }))
  const small = await loadDatabase(dir, "small", scale.smallTasks, 0)
  const large = await loadDatabase(dir, "large", scale.largeTasks, scale.participants)
  const matches = await withSql(large.url, (sql) =>
    Effect.forEach(scale.terms, ({ term }) =>
      sql<{ n: number | bigint | string }>`
        SELECT count(*) AS n FROM participants WHERE search_text LIKE ${`%${term}%`}
      `.pipe(Effect.map((rows) => Number(rows[0]?.n)))
    )
  )
  const participantsStored = await withSql(large.url, (sql) =>
    sql<{ n: number | bigint | string }>`SELECT count(*) AS n FROM participants`.pipe(
      Effect.map((rows) => Number(rows[0]?.n))
    )
  )
  const smallService = await startService(small.url)
  cleanup.push(() => stopService(smallService.child))
  const largeService = await startService(large.url)
  cleanup.push(() => stopService(largeService.child))
  const taskPaths = (references: ReadonlyArray<string>) => references.map((r) => `/api/public/v1/tasks/${r}`)
  const busy = "GET task, another process committing meanwhile"
  const scenarios: ReadonlyArray<{
    readonly scenario: Scenario
    readonly url: string
    readonly stored: string
    /** The database another process commits to while the scenario runs. */
    readonly committing?: string
  }> = [
    {
      scenario: { name: "GET task", method: "GET", path: "", paths: taskPaths(small.references) },
      url: smallService.url,
      stored: `${scale.smallTasks.toLocaleString("en")} tasks`
    },
    {
      scenario: { name: "GET task", method: "GET", path: "", paths: taskPaths(large.references) },
      url: largeService.url,
      stored: `${scale.largeTasks.toLocaleString("en")} tasks`
    },
    {
      scenario: { name: busy, method: "GET", path: "", paths: taskPaths(small.references) },
      url: smallService.url,
      stored: `${scale.smallTasks.toLocaleString("en")} tasks`,
      committing: small.url
    },
    {
      scenario: { name: busy, method: "GET", path: "", paths: taskPaths(large.references) },
      url: largeService.url,
      stored: `${scale.largeTasks.toLocaleString("en")} tasks`,
      committing: large.url
    },
    ...scale.terms.map((entry, i) => ({
      scenario: {
        name:
          `GET participants?q=${entry.term}${"limit" in entry ? `&limit=${entry.limit}` : ""} ` +
          `(${entry.kind}, ${matches[i]!.toLocaleString("en")} matches)`,
        method: "GET" as const,
        path: "",
        paths: distinctFirstPages(
          `/api/public/v1/participants?q=${encodeURIComponent(entry.term)}` +
            ("limit" in entry ? `&limit=${entry.limit}` : "")
        )
      },
      url: largeService.url,
      stored: `${participantsStored.toLocaleString("en")} participants`
    })),
    // Preflight matches the task against the whole directory: a task on site in one city, and
    // one done online, which every participant working online can serve.
    ...[
      { kind: "physical, Berlin", body: draft },
      { kind: "digital", body: digitalDraft }
    ].map(({ kind, body }) => ({
      scenario: {
        name: `POST preflight (${kind})`,
        method: "POST" as const,
        path: "/api/public/v1/preflight",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body)
      },
      url: largeService.url,
      stored: `${participantsStored.toLocaleString("en")} participants`
    }))
  ]
  // Each scenario alone (one client: the latency of a request, no queue) and under load
  // (`connections` clients). Runs interleave the scenarios, every other run in reverse order, so
  // a noisy moment and the order spread over all of them. After a load, one more request waits
  // out what autocannon left queued on that server (slow searches keep it busy for seconds).
  const loaded = scenarios.map(() => [] as Array<Measured>)
  const alone = scenarios.map(() => [] as Array<Measured>)
  const drain = (url: string, scenario: Scenario) =>
    fetch(`${url}${scenario.paths?.[0] ?? scenario.path}`, {
      method: scenario.method,
      headers: scenario.headers ?? {},
      ...(scenario.body === undefined ? {} : { body: scenario.body })
    }).then((response) => response.arrayBuffer())
  for (let run = 0; run < runs; run++) {
    const order = [...scenarios.keys()]
    for (const i of run % 2 === 0 ? order : order.reverse()) {
      const { scenario, url, committing } = scenarios[i]!
      const committer = committing === undefined ? undefined : await startCommitter(committing)
      try {
        await drain(url, scenario)
        alone[i]!.push(await load(url, scenario, 1))
        loaded[i]!.push(await load(url, scenario))
        await drain(url, scenario)
      } finally {
        await committer?.stop()
      }
      // The scenario measured what it says only if the other process did commit meanwhile.
      if (committer !== undefined && (await committer.commits()) < duration * 100) {
        throw new Error(`the committing process made too few commits during ${scenario.name}`)
      }
    }
  }
  await stopService(smallService.child)
  await stopService(largeService.child)

  const results = scenarios.map(({ scenario, stored }, i) => ({
    scenario: scenario.name,
    stored,
    rps: Math.round(median(loaded[i]!.map((m) => m.rps))),
    p50_ms: median(loaded[i]!.map((m) => m.p50)),
    p99_ms: median(loaded[i]!.map((m) => m.p99)),
    alone_rps: Math.round(median(alone[i]!.map((m) => m.rps))),
    // One client sends its requests one after another: the mean latency is exact, where
    // autocannon's percentiles are whole milliseconds.
    alone_mean_ms: Math.round(100_000 / median(alone[i]!.map((m) => m.rps))) / 100,
    alone_p50_ms: median(alone[i]!.map((m) => m.p50)),
    alone_p99_ms: median(alone[i]!.map((m) => m.p99)),
    errors: Math.max(...[...loaded[i]!, ...alone[i]!].map((m) => m.non2xx)) > 0 ? "non-2xx seen" : ""
  }))
  const [atSmall, atLarge, busyAtSmall, busyAtLarge] = results
  const ratio = (large: number, small: number) => Math.round((large / small) * 100) / 100
  const report = {
    ...reportHeader(),
    load_s: {
      tasks: Math.round(large.loadSeconds.tasks),
      participants: Math.round(large.loadSeconds.participants)
    },
    database_mb: { small: small.sizeMb, large: large.sizeMb },
    task_read_at_large_vs_small: {
      rps: ratio(atLarge!.rps, atSmall!.rps),
      p50: ratio(atLarge!.p50_ms, atSmall!.p50_ms),
      alone_mean: ratio(atLarge!.alone_mean_ms, atSmall!.alone_mean_ms)
    },
    task_read_at_large_vs_small_committing: {
      rps: ratio(busyAtLarge!.rps, busyAtSmall!.rps),
      p50: ratio(busyAtLarge!.p50_ms, busyAtSmall!.p50_ms),
      alone_mean: ratio(busyAtLarge!.alone_mean_ms, busyAtSmall!.alone_mean_ms)
    },
    total_s: Math.round((performance.now() - started) / 1000),
    results
  }
  emit(
    report,
    `${report.database}, Node ${report.node}, at scale; ${runs} runs × ${duration} s, with ${connections} connections ` +
      "and with one; medians.",
    ["scenario", "stored", "1 client: mean ms", "p50 ms", "p99 ms", `${connections}: req/s`, "p50 ms", "p99 ms"],
    results.map((r) => [
      r.scenario + (r.errors ? ` (${r.errors})` : ""),
      r.stored,
      r.alone_mean_ms,
      r.alone_p50_ms,
      r.alone_p99_ms,
      r.rps,
      r.p50_ms,
      r.p99_ms
    ]),
    [
      `task read among ${scale.largeTasks.toLocaleString("en")} vs ${scale.smallTasks.toLocaleString("en")} stored tasks: ` +
        `req/s ×${report.task_read_at_large_vs_small.rps}, p50 ×${report.task_read_at_large_vs_small.p50} ` +
        `(one client: mean latency ×${report.task_read_at_large_vs_small.alone_mean}); ` +
        `another process committing meanwhile: req/s ×${report.task_read_at_large_vs_small_committing.rps}, ` +
        `p50 ×${report.task_read_at_large_vs_small_committing.p50} ` +
        `(one client ×${report.task_read_at_large_vs_small_committing.alone_mean}); target: within 20%`,
      `loaded ${scale.largeTasks.toLocaleString("en")} tasks in ${report.load_s.tasks} s and ` +
        `${scale.participants.toLocaleString("en")} participants in ${report.load_s.participants} s; ` +
        `databases ${report.database_mb.small} MB and ${report.database_mb.large} MB; whole run ${report.total_s} s`
    ]
  )
}

/**
 * An MCP session on the service (initialize, then initialized), and how to call a tool in it: the
 * JSON-RPC body of a tools/call and the headers every request of the session sends. A tool result
 * is a 200 whether the tool succeeded or refused, so each scenario's call is checked once first.
 */
const openMcpSession = async (url: string) => {
  const base = { "content-type": "application/json", accept: "application/json, text/event-stream" }
  const opened = await fetch(`${url}/mcp`, {
    method: "POST",
    headers: base,
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "bench", version: "1" } }
    })
  })
  await opened.text()
  const headers = {
    ...base,
    "mcp-session-id": opened.headers.get("mcp-session-id")!,
    "mcp-protocol-version": opened.headers.get("mcp-protocol-version")!
  }
  await fetch(`${url}/mcp`, {
    method: "POST",
    headers,
    body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })
  })
  let id = 1
  const call = (name: string, args: Record<string, unknown>) =>
    JSON.stringify({ jsonrpc: "2.0", id: id++, method: "tools/call", params: { name, arguments: args } })
  /** Calls a tool once; fails the benchmark when it refuses (a refusal too is a 200). */
  const check = async (name: string, args: Record<string, unknown>) => {
    const answer = await fetch(`${url}/mcp`, { method: "POST", headers, body: call(name, args) })
    const text = await answer.text()
    if (answer.status !== 200 || text.includes('"isError":true')) throw new Error(`MCP ${name}: ${text.slice(0, 300)}`)
  }
  return { headers, call, check }
}

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
