// What a running server logs (docs/decisions/logs.md), read from a real process's stdout: every
// line is one JSON object; each request has its line (method, path without the query, status,
// duration, request id); tokens, bodies and query strings never appear.
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { exchange } from "../support/api_client.ts"
import { freshDatabase, type TestDatabase } from "../support/database.ts"
import { requestLine, type ServiceProcess, spawnService } from "../support/process.ts"
import { submitTask, validDraft } from "../support/server.ts"

let database: TestDatabase
let service: ServiceProcess

beforeAll(async () => {
  database = await freshDatabase()
  service = await spawnService({ databaseUrl: database.url, env: { LOG_LEVEL: "Info" } })
})

afterAll(async () => {
  await service?.stop("SIGKILL")
  await database?.drop()
})

describe("logs", () => {
  it("one JSON line per request, without tokens, bodies or query strings", async () => {
    const bodyMarker = "body-marker-7c1f"
    const queryMarker = "query-marker-93ab"
    const { reference, token } = await submitTask(
      service.api("/tasks"),
      validDraft({ action: `Photograph a shop (${bodyMarker})` })
    )
    const cancelAs = (token: string, payload: { reason?: string }, headers: Record<string, string> = {}) =>
      exchange(service, (c) => c.cancelTask({ params: { reference }, payload }), { token, headers })
    const cancelled = await cancelAs(token, { reason: bodyMarker }, { "x-request-id": "logs-test-1" })
    expect(cancelled.status).toBe(200)
    const wrongToken = await cancelAs(`tt_${queryMarker}`, {})
    expect(wrongToken.status).toBe(401)
    const listed = await exchange(service, (c) => c.listParticipants({ query: { q: queryMarker } }), {
      headers: { "x-request-id": "logs-test-last" }
    })
    expect(listed.status).toBe(200)

    // Lines are written once per event-loop turn: wait for the last request's line.
    await requestLine(service, "logs-test-last")
    const output = service.output()
    for (const secret of [token, bodyMarker, queryMarker]) expect(output).not.toContain(secret)
    const lines = output.split("\n").filter((line) => line.trim() !== "")
    const entries = lines.map((line) => JSON.parse(line) as Record<string, unknown>)
    const requests = entries.filter((entry) => entry.message === "request")
    expect(requests.map((r) => [r.method, r.path, r.status])).toEqual(
      expect.arrayContaining([
        ["POST", "/api/public/v1/tasks", 201],
        ["POST", `/api/public/v1/tasks/${reference}/cancel`, 200],
        ["POST", `/api/public/v1/tasks/${reference}/cancel`, 401],
        ["GET", "/api/public/v1/participants", 200]
      ])
    )
    const cancel = requests.find((r) => r.request_id === "logs-test-1")
    expect(cancel).toMatchObject({ level: "INFO", method: "POST", status: 200 })
    expect(cancel?.duration_ms).toBeTypeOf("number")
    expect(String(cancel?.time)).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/)
    for (const r of requests) expect(String(r.request_id)).toMatch(/^[A-Za-z0-9._:@/+=-]{1,128}$/)
  })
})

describe("a refused setting", () => {
  it("stops start-up with one line naming the variable, never its value, and exit status 1", async () => {
    const failure = await spawnService({
      databaseUrl: database.url,
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318", OTEL_EXPORTER_OTLP_HEADERS: "api-key-s3cret" }
    }).then(
      async (started) => {
        await started.stop("SIGKILL")
        return undefined
      },
      (error: Error) => error
    )
    // The whole output: no stack trace, no log line, no value.
    expect(failure?.message).toBe(
      "service exited before answering (1):\n" +
        "Invalid configuration: OTEL_EXPORTER_OTLP_HEADERS: expected name=value pairs separated by commas (values URL-encoded)\n"
    )
  })
})
