/**
 * A reference no task can have, on every operation that names one, on both backends: never a 5xx.
 * A NUL (which Postgres text cannot hold) once reached the database behind the task token's check
 * and came back 503 storage_unavailable; the fuzzer's stateful run found it (docs/testing.md,
 * "Fuzzing"). Raw: these paths are wire forms no typed call makes.
 */
import { randomUUID } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { expectEnvelope, json, startServer, submitTask, type TestServer, validDraft } from "../support/server.ts"

let server: TestServer
let token: string

beforeAll(async () => {
  server = await startServer()
  ;({ token } = await submitTask(server.api("/tasks"), validDraft(), { "idempotency-key": randomUUID() }))
})
afterAll(async () => {
  await server?.close()
})

const odd = ["%00", "tsk_%00", `tsk_${"a".repeat(25)}%00`, "%E2%80%8B", "TSK_" + "A".repeat(26), "x".repeat(300)]

describe("a reference no task can have", () => {
  it.each(odd)("%s: every operation naming it answers 404 task_not_found, with a task token too", async (reference) => {
    const bearer = { authorization: `Bearer ${token}` }
    const requests: Array<[string, RequestInit]> = [
      [`/tasks/${reference}`, {}],
      [`/tasks/${reference}/cancel`, json({}, bearer)],
      [`/tasks/${reference}/review`, json({ decision: "accept" }, bearer)],
      [`/tasks/${reference}/deliveries`, { headers: bearer }],
      [`/tasks/${reference}/messages`, { headers: bearer }],
      [`/tasks/${reference}/messages`, json({ body: "Is the shop open on Sundays?" }, bearer)]
    ]
    for (const [path, init] of requests) {
      const response = await fetch(server.api(path), init)
      expect(response.status, `${init.method ?? "GET"} ${path}`).toBeLessThan(500)
      await expectEnvelope(response, 404, "task_not_found")
    }
  })
})
