// The service's one logger (src/logging.ts): one flat JSON object per line — level, message, time,
// then the annotations and fields of the call — written in batches, with nothing lost when the
// logger closes. The request log line through it is read from a real process in
// test/process/logs.test.ts.
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { lineOf, loggerLayer } from "../src/logging.ts"

describe("the service's logger", () => {
  it.live("writes one flat JSON object per line, several lines in one write", () =>
    Effect.gen(function* () {
      const chunks: Array<string> = []
      const before = Date.now()
      const logged = Effect.gen(function* () {
        yield* Effect.logInfo("request", { method: "GET", path: '/a "quoted" \\ path\n', status: 200 })
        yield* Effect.logWarning("slow").pipe(Effect.annotateLogs({ reference: "tsk_1" }))
        // Nothing is written line by line.
        expect(chunks).toEqual([])
      }).pipe(Effect.provide(loggerLayer((chunk) => chunks.push(chunk))))
      yield* logged
      // Closing the logger writes what it held, in one write.
      expect(chunks).toHaveLength(1)
      const lines = chunks[0]!.split("\n")
      expect(lines.pop()).toBe("")
      const [first, second] = lines.map((line) => JSON.parse(line))
      expect(first).toEqual({
        level: "INFO",
        message: "request",
        time: first.time,
        method: "GET",
        path: '/a "quoted" \\ path\n',
        status: 200
      })
      expect(second).toEqual({ level: "WARN", message: "slow", time: second.time, reference: "tsk_1" })
      for (const entry of [first, second]) {
        expect(entry.time).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/)
        expect(Date.parse(entry.time)).toBeGreaterThanOrEqual(before)
      }
    })
  )

  it.live("writes what it holds within its window, without waiting for the logger to close", () =>
    Effect.gen(function* () {
      const chunks: Array<string> = []
      yield* Effect.gen(function* () {
        yield* Effect.logInfo("first")
        yield* Effect.sleep("100 millis")
        expect(chunks.join("")).toContain('"message":"first"')
        yield* Effect.logInfo("second")
      }).pipe(Effect.provide(loggerLayer((chunk) => chunks.push(chunk))))
      expect(chunks.join("")).toContain('"message":"second"')
    })
  )

  it("keeps a line's own fields over annotations, says errors by their message and adds the cause", () => {
    const line = JSON.parse(
      lineOf({
        level: "ERROR",
        message: ["request failed", { request_id: "r-1" }],
        date: new Date(0),
        annotations: { request_id: "annotated", error: new Error("boom") },
        cause: "Error: boom"
      })
    )
    expect(line).toEqual({
      level: "ERROR",
      message: "request failed",
      time: "1970-01-01T00:00:00.000Z",
      request_id: "r-1",
      error: "boom",
      cause: "Error: boom"
    })
  })

  it("starts every line with its level, message and time, which no annotation or field replaces", () => {
    const line = lineOf({
      level: "INFO",
      message: ["request", { message: "a field", time: "a field", status: 200 }],
      date: new Date(0),
      annotations: { level: "annotated", count: 1n, missing: undefined }
    })
    expect(line.startsWith('{"level":"INFO","message":"request","time":"1970-01-01T00:00:00.000Z"')).toBe(true)
    expect(JSON.parse(line)).toEqual({
      level: "INFO",
      message: "request",
      time: "1970-01-01T00:00:00.000Z",
      count: "1",
      status: 200
    })
  })
})
