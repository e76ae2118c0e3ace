// The per-request log line (docs/decisions/logs.md): one JSON object per line with method, path,
// status, duration, request id and time; lines are batched into one write per event-loop turn.
import { describe, expect, it } from "@effect/vitest"
import { makeRequestLog } from "../../src/http/request_log.ts"

const line = {
  method: "GET",
  path: "/api/public/v1/tasks/tsk_aaaaaaaaaaaaaaaaaaaaaaaaaa",
  status: 200,
  durationMs: 0.123456,
  requestId: "req-1"
}

describe("request log", () => {
  it("writes one JSON object per line, batched per event-loop turn", async () => {
    const chunks: Array<string> = []
    const log = makeRequestLog((chunk) => chunks.push(chunk))
    const before = Date.now()
    log.write(line)
    log.write({ ...line, method: "POST", path: '/a "quoted" \\ path\n', status: 422, requestId: "req-2" })
    expect(chunks).toEqual([])
    await new Promise((resolve) => setImmediate(resolve))
    expect(chunks).toHaveLength(1)
    const lines = chunks[0]!.split("\n")
    expect(lines.pop()).toBe("")
    const [first, second] = lines.map((l) => JSON.parse(l))
    expect(first).toEqual({
      level: "INFO",
      message: "request",
      time: first.time,
      method: "GET",
      path: line.path,
      status: 200,
      duration_ms: 0.12,
      request_id: "req-1"
    })
    expect(second.path).toBe('/a "quoted" \\ path\n')
    expect(second.status).toBe(422)
    for (const entry of [first, second]) {
      expect(entry.time).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/)
      expect(Date.parse(entry.time)).toBeGreaterThanOrEqual(before)
      expect(Date.parse(entry.time)).toBeLessThanOrEqual(Date.now())
    }
  })

  it("gives each line the time it was written", async () => {
    const chunks: Array<string> = []
    const log = makeRequestLog((chunk) => chunks.push(chunk))
    log.write(line)
    await new Promise((resolve) => setTimeout(resolve, 20))
    const between = Date.now()
    log.write(line)
    log.flush()
    const times = chunks
      .join("")
      .trim()
      .split("\n")
      .map((l) => Date.parse(JSON.parse(l).time))
    expect(times[0]).toBeLessThan(between)
    expect(times[1]).toBeGreaterThanOrEqual(between)
  })
})
