// Tracing (docs/decisions/tracing.md): with an OpenTelemetry collector configured, a request's
// server span continues the caller's traceparent and reaches the collector with its SQL spans
// under it, the request's log line carries the same trace id, the configured headers go to the
// collector, and credentials never appear in what is exported. Sampling follows the caller's
// sampled flag; with no collector, log lines carry no trace id.
import { createServer, type Server } from "node:http"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { asJsonObject, exchange } from "../support/api_client.ts"
import { freshDatabase, type TestDatabase } from "../support/database.ts"
import { freePort, requestLine, type ServiceProcess, spawnService, waitFor } from "../support/process.ts"
import { awaitTask, submitTask, validDraft } from "../support/server.ts"

interface Export {
  readonly path: string | undefined
  readonly apiKey: string | undefined
  readonly body: string
}
interface ExportedSpan {
  readonly name: string
  readonly traceId: string
  readonly spanId: string
  readonly parentSpanId?: string
  readonly kind: number
  readonly attributes?: ReadonlyArray<{ readonly key: string; readonly value: Record<string, unknown> }>
}

/** A span's attributes as plain values (OTLP JSON wraps each in stringValue, intValue, …). */
const attributesOf = (span: ExportedSpan) =>
  Object.fromEntries((span.attributes ?? []).map((a) => [a.key, Object.values(a.value)[0]]))

let database: TestDatabase
let collector: Server
const exports: Array<Export> = []
let service: ServiceProcess
let collectorUrl: string

beforeAll(async () => {
  database = await freshDatabase()
  collector = createServer((request, response) => {
    let body = ""
    request.on("data", (chunk) => {
      body += chunk
    })
    request.on("end", () => {
      exports.push({ path: request.url, apiKey: request.headers["x-api-key"] as string | undefined, body })
      response.writeHead(200, { "content-type": "application/json" }).end("{}")
    })
  })
  const port = await freePort()
  await new Promise<void>((resolve) => collector.listen(port, "127.0.0.1", resolve))
  collectorUrl = `http://127.0.0.1:${port}`
  service = await spawnService({
    databaseUrl: database.url,
    env: {
      LOG_LEVEL: "Info",
      OTEL_EXPORTER_OTLP_ENDPOINT: collectorUrl,
      OTEL_EXPORTER_OTLP_HEADERS: "x-api-key=collector-key-5e1d",
      OTEL_BSP_SCHEDULE_DELAY: "50"
    }
  })
})

afterAll(async () => {
  await service?.stop("SIGKILL")
  await new Promise((resolve) => collector?.close(resolve))
  await database?.drop()
})

interface ExportedResource {
  readonly resource?: { readonly attributes?: ReadonlyArray<{ key: string; value: { stringValue?: string } }> }
  readonly scopeSpans: ReadonlyArray<{ readonly spans: ReadonlyArray<ExportedSpan> }>
}

/** Every resource (a service's batch) in what was exported. */
const resourcesOf = (items: ReadonlyArray<Export>): Array<ExportedResource> =>
  items.flatMap((e) => (JSON.parse(e.body) as { resourceSpans: Array<ExportedResource> }).resourceSpans)

const spansOf = (items: ReadonlyArray<Export>): Array<ExportedSpan> =>
  resourcesOf(items).flatMap((r) => r.scopeSpans.flatMap((s) => s.spans))

/** The `service.name` of every resource that exported spans. */
const exportingServices = (items: ReadonlyArray<Export>): Set<string> =>
  new Set(
    resourcesOf(items).flatMap((r) =>
      (r.resource?.attributes ?? []).filter((a) => a.key === "service.name").map((a) => String(a.value.stringValue))
    )
  )

/** A span's chain of parents within the export, nearest first. */
const ancestors = (span: ExportedSpan): Array<ExportedSpan> => {
  const parent = spansOf(exports).find((p) => p.spanId === span.parentSpanId)
  return parent === undefined ? [] : [parent, ...ancestors(parent)]
}

/** Waits until an exported span satisfies `test`. */
const exported = (what: string, test: (span: ExportedSpan) => boolean) =>
  waitFor(service, what, () => spansOf(exports).find(test))

describe("tracing", () => {
  it("exports the request's spans under the caller's trace, and logs its trace id", async () => {
    const traceId = "4bf92f3577b34da6a3ce929d0e0e4736"
    const callerSpan = "00f067aa0ba902b7"
    const { reference, token } = await submitTask(service.api("/tasks"), validDraft(), {
      traceparent: `00-${traceId}-${callerSpan}-01`,
      "x-request-id": "tracing-1"
    })

    const server = await exported("the server span", (s) => s.traceId === traceId && s.parentSpanId === callerSpan)
    expect(server).toMatchObject({ name: "POST", kind: 2 })
    const children = spansOf(exports).filter((s) => s.traceId === traceId && s.parentSpanId !== callerSpan)
    expect(children.map((s) => s.name)).toContain("Tasks.submit")

    // A read's SQL statement is a client span (kind 3, named after the database) under its request
    // (beneath the operations and services it passed through).
    const readTrace = "3bf92f3577b34da6a3ce929d0e0e4735"
    const read = await exchange(service, (c) => c.getTask({ params: { reference }, query: { wait: 0 }, headers: {} }), {
      headers: { traceparent: `00-${readTrace}-${callerSpan}-01` }
    })
    expect(read.status).toBe(200)
    const readSpan = await exported(
      "the read's server span",
      (s) => s.traceId === readTrace && s.parentSpanId === callerSpan
    )
    expect(
      spansOf(exports).some(
        (s) => s.traceId === readTrace && s.kind === 3 && ancestors(s).some((a) => a.spanId === readSpan.spanId)
      )
    ).toBe(true)
    // One server span per request (the middleware's; Effect's own is off), with the HTTP attributes.
    expect(spansOf(exports).filter((s) => s.traceId === readTrace && s.kind === 2)).toHaveLength(1)
    expect(attributesOf(readSpan)).toMatchObject({
      "http.request.method": "GET",
      "http.route": "/api/public/v1/tasks/{reference}",
      "url.path": `/api/public/v1/tasks/${reference}`
    })
    expect(Number(attributesOf(readSpan)["http.response.status_code"])).toBe(200)
    // Neither the query string nor any header (which may carry a token) is a span attribute.
    expect(Object.keys(attributesOf(readSpan)).filter((key) => /query|header/.test(key))).toEqual([])
    expect(exports.every((e) => e.path === "/v1/traces" && e.apiKey === "collector-key-5e1d")).toBe(true)

    expect(await requestLine(service, "tracing-1")).toMatchObject({ trace_id: traceId, status: 201 })

    // A credential sent with a traced request is never exported.
    const cancelTrace = "5bf92f3577b34da6a3ce929d0e0e4737"
    const cancelled = await exchange(service, (c) => c.cancelTask({ params: { reference }, payload: {} }), {
      token,
      headers: { traceparent: `00-${cancelTrace}-${callerSpan}-01` }
    })
    expect(cancelled.status).toBe(200)
    await exported("the cancel's server span", (s) => s.traceId === cancelTrace && s.parentSpanId === callerSpan)
    expect(exports.map((e) => e.body).join("")).not.toContain(token)
    expect(service.output()).not.toContain("collector-key-5e1d")
  })

  it("names the operations and services a request passes through: three or more for a submission, two or more for a preflight and a read", async () => {
    const caller = "00f067aa0ba902b7"
    /** The `Service.method` spans of a trace, once its server span has been exported. */
    const namedIn = async (traceId: string) => {
      await exported(`the server span of ${traceId}`, (s) => s.traceId === traceId && s.parentSpanId === caller)
      return new Set(
        spansOf(exports)
          .filter((s) => s.traceId === traceId && /^[A-Z]\w+\.\w+$/.test(s.name))
          .map((s) => s.name)
      )
    }
    const submitTrace = "9af92f3577b34da6a3ce929d0e0e4741"
    const { reference } = await submitTask(service.api("/tasks"), validDraft(), {
      traceparent: `00-${submitTrace}-${caller}-01`
    })
    expect([...(await namedIn(submitTrace))]).toEqual(
      expect.arrayContaining(["AgentOperations.submit", "Tasks.submit", "TaskStore.insert"])
    )

    const preflightTrace = "9af92f3577b34da6a3ce929d0e0e4742"
    const preflight = await exchange(service, (c) => c.preflight({ payload: asJsonObject(validDraft()) }), {
      headers: { traceparent: `00-${preflightTrace}-${caller}-01` }
    })
    expect(preflight.status).toBe(200)
    expect([...(await namedIn(preflightTrace))]).toEqual(
      expect.arrayContaining(["AgentOperations.preflight", "Tasks.preflight"])
    )

    const readTrace = "9af92f3577b34da6a3ce929d0e0e4743"
    const read = await exchange(service, (c) => c.getTask({ params: { reference }, query: {}, headers: {} }), {
      headers: { traceparent: `00-${readTrace}-${caller}-01` }
    })
    expect(read.status).toBe(200)
    expect((await namedIn(readTrace)).size).toBeGreaterThanOrEqual(2)
    // The agent's read operation is the Tasks service's own method (it only forwards): one name per step.
    expect([...(await namedIn(readTrace))]).toEqual(
      expect.arrayContaining(["Tasks.versionOf", "TaskStore.versionOf", "Tasks.read", "TaskStore.findByReference"])
    )
  })

  it("exports a dispatcher sweep that moves a task as a trace of its own: the transition and its SQL under it", async () => {
    await submitTask(service.api("/tasks"), validDraft())
    const transition = await exported(
      "a sweep's transition",
      (s) => s.name === "Lifecycle.transition" && ancestors(s).at(-1)?.name === "Dispatcher.sweep"
    )
    const sweep = ancestors(transition).at(-1)!
    expect(sweep.parentSpanId ?? "").toBe("")
    expect(Number(attributesOf(sweep)["tasks.due"])).toBeGreaterThanOrEqual(1)
    await exported(
      "the transition's SQL",
      (s) => s.kind === 3 && ancestors(s).some((a) => a.spanId === transition.spanId)
    )
  })

  it("does not record a trace the caller did not sample", async () => {
    const unsampled = "6bf92f3577b34da6a3ce929d0e0e4738"
    const sampled = "7bf92f3577b34da6a3ce929d0e0e4739"
    const unknown = (headers: Record<string, string>) =>
      exchange(service, (c) => c.getTask({ params: { reference: `tsk_${"a".repeat(26)}` }, query: {}, headers: {} }), {
        headers
      })
    const first = await unknown({ traceparent: `00-${unsampled}-00f067aa0ba902b7-00`, "x-request-id": "unsampled-1" })
    expect(first.status).toBe(404)
    // Not recorded, but its log line still names the caller's trace.
    expect(await requestLine(service, "unsampled-1")).toMatchObject({ trace_id: unsampled, status: 404 })
    const second = await unknown({ traceparent: `00-${sampled}-00f067aa0ba902b7-01` })
    expect(second.status).toBe(404)
    // Spans are exported in the order they end: once the second request's span is in, the
    // first's would have been.
    await exported("the sampled request's span", (s) => s.traceId === sampled)
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(spansOf(exports).filter((s) => s.traceId === unsampled)).toEqual([])
  })
})

describe("a sampler that keeps nothing", () => {
  it("records no span, and every log line still carries a trace id of its own", async () => {
    const before = exports.length
    // A database of its own: no other process's dispatcher can move its task.
    const quietDatabase = await freshDatabase()
    const quiet = await spawnService({
      databaseUrl: quietDatabase.url,
      env: {
        LOG_LEVEL: "Info",
        OTEL_SERVICE_NAME: "quiet-service",
        OTEL_EXPORTER_OTLP_ENDPOINT: collectorUrl,
        OTEL_TRACES_SAMPLER: "always_off",
        OTEL_BSP_SCHEDULE_DELAY: "50"
      }
    })
    try {
      for (const id of ["quiet-1", "quiet-2"]) {
        const answer = await exchange(quiet, (c) => c.listParticipants({ query: { limit: 1 } }), {
          headers: { "x-request-id": id }
        })
        expect(answer.status).toBe(200)
      }
      const lines = [await requestLine(quiet, "quiet-1"), await requestLine(quiet, "quiet-2")]
      for (const line of lines) expect(line.trace_id).toMatch(/^[0-9a-f]{32}$/)
      expect(lines[0]!.trace_id).not.toBe(lines[1]!.trace_id)
      // The dispatcher's sweeps are sampled too: offering a task exports nothing either.
      const { reference } = await submitTask(quiet.api("/tasks"), validDraft())
      const offered = await awaitTask(
        quiet.api(`/tasks/${reference}`),
        (task) => task.state === "awaiting_participant",
        {
          timeoutMs: 5000
        }
      )
      expect(offered.state).toBe("awaiting_participant")
      await new Promise((resolve) => setTimeout(resolve, 300))
      expect(spansOf(exports.slice(before)).filter((s) => lines.some((l) => l.trace_id === s.traceId))).toEqual([])
      expect(exportingServices(exports.slice(before))).not.toContain("quiet-service")
    } finally {
      await quiet.stop("SIGKILL")
      await quietDatabase.drop()
    }
  })
})

describe("without a collector", () => {
  it("logs no trace id", async () => {
    const plain = await spawnService({ databaseUrl: database.url, env: { LOG_LEVEL: "Info" } })
    try {
      const answer = await exchange(plain, (c) => c.healthz(), { headers: { "x-request-id": "untraced-1" } })
      expect(answer.status).toBe(200)
      expect(await requestLine(plain, "untraced-1")).not.toHaveProperty("trace_id")
    } finally {
      await plain.stop("SIGKILL")
    }
  })
})
