// The typed client the REST tests go through (test/support/api_client.ts): what it sends is what a
// test wrote and nothing more, and an answer the description does not declare fails the test.
import { createServer, type IncomingHttpHeaders, type Server } from "node:http"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { TaskDraft } from "../../src/domain/task_draft/schema.ts"
import { asPayload, exchange } from "../support/api_client.ts"
import { validDraft } from "../support/server.ts"

/** A server that records each request's headers and answers every one 200 `{}`. */
let fake: Server
let url: string
const seen: Array<IncomingHttpHeaders> = []
beforeAll(async () => {
  fake = createServer((request, response) => {
    seen.push(request.headers)
    response.writeHead(200, { "content-type": "application/json" })
    response.end("{}")
  })
  await new Promise<void>((resolve) => fake.listen(0, "127.0.0.1", resolve))
  url = `http://127.0.0.1:${(fake.address() as { port: number }).port}`
})
afterAll(() => new Promise((resolve) => fake.close(resolve)))

describe("the typed client", () => {
  it("sends no trace context of its own, and the headers it is given", async () => {
    seen.length = 0
    await exchange({ url }, (c) => c.healthz(), { token: "tt_x", headers: { "user-agent": "typed-test/1" } }).catch(
      () => undefined
    )
    expect(seen).toHaveLength(1)
    expect(seen[0]).not.toHaveProperty("traceparent")
    expect(seen[0]).not.toHaveProperty("b3")
    expect(seen[0]?.authorization).toBe("Bearer tt_x")
    expect(seen[0]?.["user-agent"]).toBe("typed-test/1")
  })

  it("rejects an answer the description does not declare (a 200 that is not a task)", async () => {
    await expect(
      exchange({ url }, (c) => c.getTask({ params: { reference: "tsk_x" }, query: {}, headers: {} }))
    ).rejects.toThrow(/the typed client failed \(200: \{\}\)/)
  })

  it("takes a payload only as written: one it would trim, fold or drop members of is refused", () => {
    expect(asPayload(TaskDraft, validDraft())).toMatchObject({ execution_mode: "physical" })
    expect(() => asPayload(TaskDraft, validDraft({ execution_mode: "PHYSICAL" }))).toThrow(/send it raw/)
    expect(() => asPayload(TaskDraft, validDraft({ action: "  padded  " }))).toThrow(/send it raw/)
    expect(() => asPayload(TaskDraft, validDraft({ unknown_member: 1 }))).toThrow(/send it raw/)
    expect(() => asPayload(TaskDraft, validDraft({ action: "  " }))).toThrow()
  })
})
