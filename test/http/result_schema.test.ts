// Machine-checkable results (issue 24): a draft's `result_schema`, a JSON Schema (2020-12) for the
// result's fields. Preflight and submission report a schema that is not an object, not valid or
// too large as an issue on result_schema; an accepted one is kept in the task's brief; a result
// whose fields fail it is refused with 422 result_invalid naming each field, over REST and over
// the participant's MCP tool alike, and nothing changes. Fields nested deeper than the service takes
// (64 levels) are refused with 400 invalid_request on both, logging no error. Runs on SQLite and on
// Postgres.
import { randomUUID } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { maxJsonDepth } from "../../src/api/parameters.ts"
import { ResultSubmission } from "../../src/api/resources.ts"
import { RESULT_SCHEMA_MAX_BYTES } from "../../src/domain/result_schema.ts"
import { TaskDraft } from "../../src/domain/task_draft/schema.ts"
import { type ApiClient, asJsonObject, asPayload, exchange } from "../support/api_client.ts"
import { linkAccount, startIssuer, type TestIssuer, testAudience } from "../support/issuer.ts"
import { captureLogs } from "../support/logs.ts"
import { postMcp } from "../support/mcp.ts"
import { digitalDraft, expectEnvelope, json, type ServerOnDatabase, startOnFreshDatabase } from "../support/server.ts"

// biome-ignore lint/suspicious/noExplicitAny: JSON bodies are inspected member by member.
type Json = any

let issuer: TestIssuer
let env: ServerOnDatabase
const logs = captureLogs()

beforeAll(async () => {
  issuer = await startIssuer()
  env = await startOnFreshDatabase({
    settings: { oauthIssuer: issuer.url, oauthAudience: testAudience, timerSweepMs: 50 },
    logs: logs.layer
  })
})
afterAll(async () => {
  await env?.close()
  await issuer?.close()
})

/** A typed call's status and JSON body, as sent. */
const answer = async (response: Response) => ({ status: response.status, body: (await response.json()) as Json })

const readTask = async (reference: string) =>
  answer(await exchange(env.server, (c) => c.getTask({ params: { reference }, query: {}, headers: {} })))

const capabilities = async () => answer(await exchange(env.server, (c) => c.capabilities()))

const createTask = async (draft: Record<string, unknown>) =>
  answer(
    await exchange(env.server, (c) =>
      c.createTask({ payload: asPayload(TaskDraft, draft), headers: { "idempotency-key": randomUUID() } })
    )
  )

/** What the agent asks for: a count of bugs (at least one) and the device, nothing else. */
const bugReport = {
  type: "object",
  properties: {
    bugs_found: { type: "integer", minimum: 1, title: "Bugs found" },
    device: { type: "string", minLength: 1 },
    report_url: { type: "string", format: "uri" }
  },
  required: ["bugs_found", "device"],
  additionalProperties: false
}

const preflight = async (draft: Record<string, unknown>) =>
  answer(await exchange(env.server, (c) => c.preflight({ payload: asJsonObject(draft) })))

describe("preflight and submission judge result_schema", () => {
  const refused: ReadonlyArray<readonly [string, unknown, string, RegExp]> = [
    ["a string", "an object with bugs_found", "invalid", /must be a JSON Schema object.*got a string/],
    ["an array", [{ type: "object" }], "invalid", /got an array/],
    ["a number", 12, "invalid", /got a number/],
    [
      "not a valid schema ({type: 12})",
      { type: 12 },
      "invalid",
      /not a valid JSON Schema \(draft 2020-12\): at \/type/
    ],
    [
      "an unknown type name",
      { type: "object", properties: { n: { type: "integr" } } },
      "invalid",
      /\/properties\/n\/type/
    ],
    ["an unknown keyword (strict)", { type: "object", x_widget: "slider" }, "invalid", /unknown keyword/],
    ["a remote $ref", { $ref: "https://example.com/schema.json" }, "invalid", /can't resolve reference/],
    [
      "too large",
      { type: "object", description: "x".repeat(RESULT_SCHEMA_MAX_BYTES) },
      "too_long",
      /too large: at most 16384 bytes/
    ]
  ]

  for (const [what, schema, code, message] of refused) {
    it(`${what}: an ${code} issue on result_schema, in preflight and in submission (422, nothing stored)`, async () => {
      const draft = digitalDraft({ result_schema: schema })
      const checked = await preflight(draft)
      expect(checked.status).toBe(200)
      expect(checked.body.valid).toBe(false)
      expect(checked.body.issues).toEqual([{ field: "result_schema", code, message: expect.stringMatching(message) }])
      expect(checked.body.task.result_schema).toBeUndefined()

      // Raw: a result_schema the document refuses, which the typed client would not send.
      const submitted = await fetch(env.server.api("/tasks"), json(draft, { "idempotency-key": randomUUID() }))
      const error = await expectEnvelope(submitted, 422, "preflight_failed")
      expect(error.details).toEqual(checked.body.issues)
    })
  }

  it("null means absent; a valid schema is accepted, kept in the task and shown in its brief", async () => {
    expect((await preflight(digitalDraft({ result_schema: null }))).body).toMatchObject({ valid: true, issues: [] })
    const checked = await preflight(digitalDraft({ result_schema: bugReport }))
    expect(checked.body).toMatchObject({ valid: true, issues: [] })
    expect(checked.body.task.result_schema).toEqual(bugReport)

    const created = await createTask(digitalDraft({ result_schema: bugReport }))
    expect(created.status).toBe(201)
    expect(created.body.brief.result_schema).toEqual(bugReport)
    // Property order is kept as written (a form generated from it lists them in that order).
    expect(Object.keys(created.body.brief.result_schema.properties)).toEqual(["bugs_found", "device", "report_url"])
    expect((await readTask(created.body.reference)).body.brief.result_schema).toEqual(bugReport)
  })

  it("a task without result_schema has none in its brief", async () => {
    const created = await createTask(digitalDraft())
    expect(created.status).toBe(201)
    expect(Object.hasOwn(created.body.brief, "result_schema")).toBe(false)
  })

  it("/capabilities states the limit and lists result_schema as optional", async () => {
    const caps = (await capabilities()).body
    expect(caps.draft.limits.result_schema).toBe(RESULT_SCHEMA_MAX_BYTES)
    expect(caps.draft.optional).toContain("result_schema")
    expect(caps.draft.required).not.toContain("result_schema")
    expect(caps.errors.result_invalid).toMatchObject({ status: 422 })
  })
})

// --- the participant's side --------------------------------------------------------------------

const slug = "kwame-asante"

interface Person {
  readonly restToken: string
  readonly mcpToken: string
}

const personOf = async (): Promise<Person> => {
  const subject = `user-${slug}-${randomUUID().slice(0, 8)}`
  await linkAccount(env.database, subject, slug)
  return {
    restToken: await issuer.token({ sub: subject }),
    mcpToken: await issuer.token({ sub: subject, aud: `${env.server.url}/mcp/participant` })
  }
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` })

/** A task naming the participant, with `schema` as its result_schema, accepted and started by them. */
const taskInFlight = async (person: Person, schema: unknown = bugReport) => {
  const created = await createTask(digitalDraft({ participant_slug: slug, result_schema: schema }))
  expect(created.status).toBe(201)
  const reference: string = created.body.reference
  for (let i = 0; i < 200; i++) {
    if ((await readTask(reference)).body.state === "awaiting_participant") break
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
  for (const [move, send] of [
    ["accept", (c: ApiClient) => c.acceptTask({ params: { reference } })],
    ["start", (c: ApiClient) => c.startTask({ params: { reference } })]
  ] as const) {
    const moved = await exchange(env.server, send, { token: person.restToken })
    expect(moved.status, move).toBe(200)
  }
  const task = (await readTask(reference)).body
  expect(task.state).toBe("in_flight")
  return { reference, task }
}

const submitOverRest = (person: Person, reference: string, result: unknown) =>
  exchange(env.server, (c) => c.submitTask({ params: { reference }, payload: asPayload(ResultSubmission, result) }), {
    token: person.restToken
  })

/** Raw: JSON text written by hand (nested deeper than the service takes), which no client derived from the document sends. */
const submitTextOverRest = (person: Person, reference: string, text: string) =>
  fetch(env.server.api(`/tasks/${reference}/submit`), json(text, bearer(person.restToken)))

/** Fields wrong in every way the schema can say: a count too small, the device missing, a stray member. */
const badResult = {
  summary: "Tested the checkout",
  fields: { bugs_found: 0, report_url: "not a url", colour: "red" }
}
const badDetails = [
  { field: "/fields/colour", code: "invalid", message: "must NOT have additional properties" },
  { field: "/fields/device", code: "required", message: "is required by the task's result_schema" },
  { field: "/fields/bugs_found", code: "invalid", message: "must be >= 1" },
  { field: "/fields/report_url", code: "invalid", message: 'must match format "uri"' }
]

describe("a result is checked against the task's result_schema", () => {
  it("REST: fields failing it are refused with 422 result_invalid naming each field; nothing changes", async () => {
    const person = await personOf()
    const { reference, task } = await taskInFlight(person)
    const error = await expectEnvelope(await submitOverRest(person, reference, badResult), 422, "result_invalid")
    expect(error.details).toHaveLength(badDetails.length)
    expect(error.details).toEqual(expect.arrayContaining(badDetails))
    for (const { field } of badDetails) expect(error.message).toContain(field)
    // No fields at all: each required one is named.
    const none = await expectEnvelope(
      await submitOverRest(person, reference, { summary: "Done" }),
      422,
      "result_invalid"
    )
    expect((none.details ?? []).map((d: Json) => d.field)).toEqual(["/fields/bugs_found", "/fields/device"])
    expect((await readTask(reference)).body).toEqual(task)
  })

  it("REST: fields valid by it are accepted", async () => {
    const person = await personOf()
    const { reference } = await taskInFlight(person)
    const result = {
      summary: "Found 2 bugs",
      fields: { bugs_found: 2, device: "Pixel 8", report_url: "https://example.com/r" }
    }
    const response = await submitOverRest(person, reference, result)
    expect(response.status).toBe(200)
    const submitted: Json = await response.json()
    expect(submitted.state).toBe("submitted")
    expect(submitted.result).toMatchObject(result)
  })

  it("a result out of turn is 409 whatever its fields", async () => {
    const person = await personOf()
    const { reference } = await taskInFlight(person)
    const good = { summary: "Found 1 bug", fields: { bugs_found: 1, device: "iPhone" } }
    expect((await submitOverRest(person, reference, good)).status).toBe(200)
    await expectEnvelope(await submitOverRest(person, reference, badResult), 409, "invalid_transition")
  })

  it("keys needing escapes are named as JSON Pointers", async () => {
    const person = await personOf()
    const schema = { type: "object", properties: { "a/b~c": { type: "number" } }, required: ["a/b~c"] }
    const { reference } = await taskInFlight(person, schema)
    const wrongType = await submitOverRest(person, reference, { summary: "x", fields: { "a/b~c": "seven" } })
    expect((await expectEnvelope(wrongType, 422, "result_invalid")).details).toEqual([
      { field: "/fields/a~1b~0c", code: "invalid", message: "must be number" }
    ])
  })

  it("MCP submit_result: refused with exactly REST's envelope; a passing result accepted", async () => {
    const person = await personOf()
    const { reference, task } = await taskInFlight(person)
    const client = new Client({ name: "assistant", version: "1.0.0" })
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${env.server.url}/mcp/participant`), {
        requestInit: { headers: bearer(person.mcpToken) }
      })
    )
    try {
      const call = async (args: Record<string, unknown>) =>
        (await client.callTool({ name: "submit_result", arguments: { reference, ...args } })) as {
          structuredContent?: Json
          isError?: boolean
        }
      const refused = await call(badResult)
      expect(refused.isError).toBe(true)
      const overRest = await submitOverRest(person, reference, badResult)
      expect(overRest.status).toBe(422)
      expect(refused.structuredContent).toEqual(await overRest.json())
      expect(refused.structuredContent.error.code).toBe("result_invalid")
      expect((await readTask(reference)).body).toEqual(task)

      const accepted = await call({ summary: "Found 3 bugs", fields: { bugs_found: 3, device: "Pixel 8" } })
      expect(accepted.isError).toBeUndefined()
      expect(accepted.structuredContent.state).toBe("submitted")
      expect(accepted.structuredContent.brief.result_schema).toEqual(bugReport)
    } finally {
      await client.close()
    }
  })
})

describe("result fields nested too deep", () => {
  /** `depth` objects, one inside the next, as JSON text. */
  const nestedObjects = (depth: number) => `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`
  const errorsLogged = () => logs.lines.filter((line) => line.level === "Error" || line.level === "Fatal")
  const tooDeep = {
    field: "fields",
    code: "invalid",
    message: `is nested deeper than ${maxJsonDepth} levels of objects and arrays (the request body counting as the first)`
  }

  it("REST: 4,400 levels (the audit's request) are 400 invalid_request naming fields; nothing changes, no error logged", async () => {
    const person = await personOf()
    const { reference, task } = await taskInFlight(person, { type: "object" })
    const logged = errorsLogged().length
    const body = `{"summary":"Done","fields":{"a":${nestedObjects(4400)}}}`
    const refused = await expectEnvelope(await submitTextOverRest(person, reference, body), 400, "invalid_request")
    expect(refused.details).toEqual([tooDeep])
    expect(errorsLogged()).toHaveLength(logged)
    expect((await readTask(reference)).body).toEqual(task)
  })

  it(`REST: a body ${maxJsonDepth} levels deep is taken, one more is refused`, async () => {
    const person = await personOf()
    const { reference, task } = await taskInFlight(person, { type: "object" })
    // The body is the first level, fields the second: fields holds maxJsonDepth - 1 objects in all.
    const atLimit = `{"summary":"Done","fields":${nestedObjects(maxJsonDepth - 1)}}`
    const overLimit = `{"summary":"Done","fields":${nestedObjects(maxJsonDepth)}}`
    await expectEnvelope(await submitTextOverRest(person, reference, overLimit), 400, "invalid_request")
    expect((await readTask(reference)).body).toEqual(task)
    const taken = await submitTextOverRest(person, reference, atLimit)
    expect(taken.status).toBe(200)
    expect(((await taken.json()) as Json).result.fields).toEqual(JSON.parse(atLimit).fields)
  })

  it("MCP submit_result: the same fields are refused with REST's words; nothing changes, no error logged", async () => {
    const person = await personOf()
    const { reference, task } = await taskInFlight(person, { type: "object" })
    const client = new Client({ name: "assistant", version: "1.0.0" })
    const transport = new StreamableHTTPClientTransport(new URL(`${env.server.url}/mcp/participant`), {
      requestInit: { headers: bearer(person.mcpToken) }
    })
    await client.connect(transport)
    try {
      const logged = errorsLogged().length
      // Sent by hand: the SDK's own JSON.stringify cannot write 4,400 levels from inside its call.
      const response = await postMcp(
        `${env.server.url}/mcp/participant`,
        `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"submit_result","arguments":{"reference":"${reference}","summary":"Done","fields":{"a":${nestedObjects(4400)}}}}}`,
        { ...bearer(person.mcpToken), "mcp-session-id": transport.sessionId!, "mcp-protocol-version": "2025-11-25" }
      )
      expect(response.status).toBe(200)
      const text = await response.text()
      const message = JSON.parse(text.startsWith("{") ? text : text.replace(/^[\s\S]*?^data: /m, "").split("\n")[0]!)
      const result = message.result as { structuredContent?: Json; isError?: boolean }
      expect(result.isError).toBe(true)
      expect(result.structuredContent.error.code).toBe("invalid_request")
      expect(result.structuredContent.error.details).toEqual([
        { ...tooDeep, message: tooDeep.message.replace("the request body", "the tool's arguments") }
      ])
      expect(errorsLogged()).toHaveLength(logged)
      expect((await readTask(reference)).body).toEqual(task)
    } finally {
      await client.close()
    }
  })

  it("/capabilities states the limit", async () => {
    expect((await capabilities()).body.limits.max_json_depth).toBe(maxJsonDepth)
  })
})
