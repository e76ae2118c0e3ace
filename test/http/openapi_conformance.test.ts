// The OpenAPI document is what the service enforces and answers (issue 21): for every operation, a
// parameter or body the document's own schema accepts is not refused as malformed, one it refuses
// is answered with a 4xx envelope, and every answer's status and body are the ones the document
// lists for the operation. The schemas are read from the served /openapi.json, never from src/.
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js"
import addFormats from "ajv-formats"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { linkAccount, startIssuer, type TestIssuer, testAudience } from "../support/issuer.ts"
import {
  awaitTask,
  digitalDraft,
  json,
  type ServerOnDatabase,
  startOnFreshDatabase,
  submitTask,
  type TestServer,
  validDraft
} from "../support/server.ts"

interface Parameter {
  readonly name: string
  readonly in: "path" | "query" | "header"
  readonly schema: Record<string, unknown>
}
interface Operation {
  readonly operationId: string
  readonly parameters?: ReadonlyArray<Parameter>
  readonly requestBody?: { content: { "application/json": { schema: Record<string, unknown> } } }
  readonly responses: Record<string, { content?: { "application/json"?: { schema: Record<string, unknown> } } }>
}

let server: TestServer
let document: { paths: Record<string, Record<string, Operation>>; components: Record<string, unknown> }
const ajv = new Ajv2020({ strict: false, allErrors: true })
addFormats.default(ajv)
const documentId = "https://conformance.test/openapi.json"

const operations = () =>
  Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({ path, method: method.toUpperCase(), operation }))
  )

const operation = (operationId: string) => {
  const found = operations().find((o) => o.operation.operationId === operationId)
  if (found === undefined) throw new Error(`no operation ${operationId} in the document`)
  return found
}

/** A validator for a schema of the document (its `$ref`s resolve against the document). */
const validatorFor = (schema: Record<string, unknown>): ValidateFunction => {
  const ref = typeof schema.$ref === "string" ? `${documentId}${schema.$ref}` : undefined
  if (ref !== undefined) return ajv.getSchema(ref) ?? ajv.compile({ $ref: ref })
  return ajv.compile(schema)
}

const accepts = (schema: Record<string, unknown>, value: unknown) => validatorFor(schema)(value) === true

/** Holds an answer to the document: a listed status, and a body valid by the schema listed for it. */
const conforms = async (operationId: string, response: Response): Promise<{ status: number; body: unknown }> => {
  const { operation: op } = operation(operationId)
  const status = response.status
  const listed = op.responses[String(status)]
  expect(listed, `${operationId} answered ${status}, which the document does not list`).toBeDefined()
  const text = await response.text()
  const body = text === "" ? undefined : JSON.parse(text)
  const schema = listed?.content?.["application/json"]?.schema
  if (schema !== undefined) {
    const validate = validatorFor(schema)
    expect(validate(body), `${operationId} ${status}: ${JSON.stringify(validate.errors)}: ${text.slice(0, 300)}`).toBe(
      true
    )
  }
  return { status, body }
}

const parameter = (operationId: string, name: string) => {
  const found = operation(operationId).operation.parameters?.find((p) => p.name === name)
  if (found === undefined) throw new Error(`${operationId} documents no parameter ${name}`)
  return found
}

/** Text values a client might send as a query parameter or header, well-formed or not. */
const textCorpus = [
  "",
  "0",
  "1",
  "5",
  "05",
  "20",
  "30",
  "0.5",
  "59.999",
  "60",
  "60.0",
  "60.5",
  "61",
  "99",
  "100",
  "499",
  "500",
  "501",
  "1000",
  "-1",
  "+1",
  "1.5",
  "1.2345",
  "1e2",
  "abc",
  "true",
  "null",
  "9".repeat(30),
  "k".repeat(15),
  "k".repeat(16),
  "k".repeat(255),
  "k".repeat(256),
  "3f0c1d2e-8a4b-4c5d-9e6f-7a8b9c0d1e2f"
]

// A durable database (to link a participant's account in) and an issuer of access tokens, so the
// participant's moves can be held to the document too.
let issuer: TestIssuer
let env: ServerOnDatabase
const participantSubject = "user-conformance"
const participantSlug = "kwame-asante"

beforeAll(async () => {
  issuer = await startIssuer()
  env = await startOnFreshDatabase({ settings: { oauthIssuer: issuer.url, oauthAudience: testAudience } })
  server = env.server
  await linkAccount(env.database, participantSubject, participantSlug)
  document = await (await fetch(`${server.url}/openapi.json`)).json()
  ajv.addSchema({ ...document, $id: documentId })
})
afterAll(async () => {
  await env?.close()
  await issuer?.close()
})

/** A task named for the linked participant, offered to them (awaiting_participant). */
const offeredTask = async () => {
  const created = await submitTask(server.api("/tasks"), digitalDraft({ participant_slug: participantSlug }))
  await awaitTask(server.api(`/tasks/${created.reference}`), (task) => task.state === "awaiting_participant", {
    timeoutMs: 10_000
  })
  return created
}

const asParticipant = async () => ({ authorization: `Bearer ${await issuer.token({ sub: participantSubject })}` })

/**
 * The value a parameter's text stands for: a number's plain decimal text is that number when the
 * document types the parameter as one (how a number is written into a URL); any other text is
 * itself, which a numeric schema refuses.
 */
const parameterValue = (schema: Record<string, unknown>, text: string): unknown =>
  (schema.type === "integer" || schema.type === "number") && /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?$/.test(text)
    ? Number(text)
    : text

describe("query parameters and headers: what the schema accepts is accepted, what it refuses is refused", () => {
  const probe = async (operationId: string, name: string, send: (value: string) => Promise<Response>) => {
    const { schema } = parameter(operationId, name)
    let valid = 0
    let invalid = 0
    for (const value of textCorpus) {
      const response = await send(value)
      const { status, body } = await conforms(operationId, response)
      if (accepts(schema, parameterValue(schema, value))) {
        valid++
        expect(status, `${name}=${JSON.stringify(value)} is valid by the document`).toBeLessThan(400)
      } else {
        invalid++
        expect(status, `${name}=${JSON.stringify(value)} is invalid by the document`).toBe(400)
        expect((body as { error: { code: string } }).error.code).toBe("invalid_request")
      }
    }
    // The corpus exercises both sides of every schema.
    expect(valid).toBeGreaterThan(0)
    expect(invalid).toBeGreaterThan(0)
  }

  it("GET /participants?limit", () =>
    probe("listParticipants", "limit", (value) =>
      fetch(server.api(`/participants?limit=${encodeURIComponent(value)}`))
    ))

  it("GET /tasks/{reference}?wait (a task that exists; a long wait is cut short by If-None-Match on a stale ETag)", async () => {
    const { reference } = await submitTask(server.api("/tasks"), validDraft())
    await probe("getTask", "wait", (value) =>
      fetch(server.api(`/tasks/${reference}?wait=${encodeURIComponent(value)}`), {
        headers: { "if-none-match": '"stale"' }
      })
    )
  })

  it("POST /tasks idempotency-key (each value a fresh draft, so no key is reused)", async () => {
    let n = 0
    await probe("createTask", "idempotency-key", (value) =>
      fetch(
        server.api("/tasks"),
        json(validDraft({ action: `Photograph storefront number ${n++}` }), { "idempotency-key": value })
      )
    )
  })

  it("POST /tasks: the document's minimum length of an idempotency key, in the header and the body, is the service's (issue 33)", async () => {
    const header = parameter("createTask", "idempotency-key").schema
    expect(header.minLength).toBe(16)
    const draft = (document.components.schemas as Record<string, { properties: Record<string, unknown> }>).TaskDraft
    // The body's key is trimmed and may be null or blank (absent): the minimum is stated on the
    // trimmed value, so the member is judged by values, not by a minLength keyword.
    const member = draft!.properties.idempotency_key as Record<string, unknown>
    // Keys of their own: the header probe above has used "k".repeat(16).
    const fresh = crypto.randomUUID().replaceAll("-", "")
    for (const [value, valid] of [
      [fresh.slice(0, 15), false],
      [`   ${fresh.slice(16, 31)}   `, false],
      [fresh.slice(0, 16), true]
    ] as const) {
      expect(accepts(member, value)).toBe(valid)
      const answer = await conforms(
        "createTask",
        await fetch(server.api("/tasks"), json(validDraft({ idempotency_key: value })))
      )
      expect(answer.status, JSON.stringify(answer.body)).toBe(valid ? 201 : 400)
    }
  })

  it("GET /participants?cursor: an issued cursor is accepted; text the schema refuses is refused", async () => {
    const first = await conforms("listParticipants", await fetch(server.api("/participants?limit=2")))
    const cursor = (first.body as { next_cursor: string }).next_cursor
    const { schema } = parameter("listParticipants", "cursor")
    expect(accepts(schema, cursor)).toBe(true)
    const next = await conforms("listParticipants", await fetch(server.api(`/participants?limit=2&cursor=${cursor}`)))
    expect(next.status).toBe(200)
    // Text the pattern accepts is a position in the listing, issued or not: never refused (issue 35).
    const position = (text: string) => Buffer.from(`after:${text}`).toString("base64url")
    for (const value of [
      "YWZ0ZXI6",
      `YWZ0ZXI6${"_".repeat(192)}`,
      "YWZ0ZXI6AAAA",
      "YWZ0ZXI6-_-_x",
      position("zzzz"),
      position("' OR 1=1 --"),
      position("\u0000")
    ]) {
      expect(accepts(schema, value), value).toBe(true)
      const answer = await conforms(
        "listParticipants",
        await fetch(server.api(`/participants?limit=2&cursor=${value}`))
      )
      expect(answer.status, value).toBe(200)
      // With q, the listing is a search that reads storage past the cursor's position.
      const searched = await conforms(
        "listParticipants",
        await fetch(server.api(`/participants?q=photo&limit=2&cursor=${value}`))
      )
      expect(searched.status, value).toBe(200)
    }
    for (const value of [
      "",
      "a b",
      "x".repeat(201),
      "%%%",
      "abc",
      `YWZ0ZXI6${"A".repeat(193)}`,
      Buffer.from("before:zzz").toString("base64url")
    ]) {
      expect(accepts(schema, value)).toBe(false)
      const refused = await conforms(
        "listParticipants",
        await fetch(server.api(`/participants?cursor=${encodeURIComponent(value)}`))
      )
      expect(refused.status).toBe(400)
    }
  })
})

/**
 * Drafts written from the document's create schema (TaskDraft), by hand: what it accepts (null and
 * blank optional members, any letter case and surrounding blanks, a digital task without location,
 * unknown members) and what it refuses, with the member the refusal must name.
 */
const documentedDrafts = {
  valid: [
    validDraft({ execution_mode: "HYBRID", location: "  Berlin  " }),
    digitalDraft({ execution_mode: "DiGiTaL", location: null }),
    digitalDraft({ location: "", timing: null, principal: "", agent: "   " }),
    validDraft({
      constraints: null,
      participant_slug: "",
      contact_email: "",
      budget: null,
      webhook_url: "",
      idempotency_key: null,
      result_schema: null
    }),
    validDraft({ contact_email: "  ops@example.com ", budget: " USD 250 ", participant_slug: null }),
    validDraft({ action: `  ${"a".repeat(4000)}\n` }),
    validDraft({ webhook_url: null, unknown_member: { any: "thing" } }),
    validDraft({ webhook_url: "  HTTPS://Hooks.Example.com:08443/a/b?c=d&e=é  " }),
    validDraft({ webhook_url: "https://[2606:4700:4700::1111]/hooks" }),
    validDraft({ webhook_url: "https://8.8.8.8?x" }),
    validDraft({ webhook_url: "https://xn--mnchen-3ya.de./tasks" })
  ],
  invalid: [
    ["action", validDraft({ action: undefined })],
    ["action", validDraft({ action: null })],
    ["action", validDraft({ action: "  " })],
    ["action", validDraft({ action: "a".repeat(4001) })],
    ["action", validDraft({ action: "a\u0000b" })],
    ["execution_mode", validDraft({ execution_mode: "remote" })],
    ["execution_mode", validDraft({ execution_mode: null })],
    ["location", validDraft({ execution_mode: "Physical", location: null })],
    ["location", validDraft({ execution_mode: "hybrid", location: " " })],
    ["expected_result", validDraft({ expected_result: 3 })],
    ["acceptance_test", validDraft({ acceptance_test: "" })],
    ["contact_email", validDraft({ contact_email: "ops@example" })],
    ["participant_slug", validDraft({ participant_slug: "Jane Doe" })],
    ["timing", validDraft({ timing: ["soon"] })],
    ["result_schema", validDraft({ result_schema: "an object" })],
    ["webhook_url", validDraft({ webhook_url: "http://hooks.example.com/" })],
    ["webhook_url", validDraft({ webhook_url: "hooks.example.com/tasks" })],
    ["webhook_url", validDraft({ webhook_url: "https://user:pw@hooks.example.com/" })],
    ["webhook_url", validDraft({ webhook_url: "https://hooks.example.com/#events" })],
    ["webhook_url", validDraft({ webhook_url: "https://hooks.example.com/a b" })],
    ["webhook_url", validDraft({ webhook_url: "https://hooks.exämple.com/" })],
    ["webhook_url", validDraft({ webhook_url: "https://134744072/" })],
    ["webhook_url", validDraft({ webhook_url: "https://1.2.3.999/" })],
    ["webhook_url", validDraft({ webhook_url: "https://hooks.example.com:65536/" })]
  ] as ReadonlyArray<readonly [string, Record<string, unknown>]>
}

describe("request bodies: what the schema accepts is not refused as malformed, what it refuses is a 4xx", () => {
  const bodyCheck = async (
    operationId: string,
    bodies: ReadonlyArray<unknown>,
    send: (body: unknown) => Promise<Response>,
    isMalformedAnswer: (status: number, body: unknown) => boolean,
    // Where every other refusal comes after the body is judged, a body the document refuses must be
    // refused as malformed, not merely with some 4xx (the submit case: a 409 would hide a lost check).
    options: { readonly invalidIsMalformed?: boolean } = {}
  ) => {
    const { operation: op } = operation(operationId)
    const schema = op.requestBody?.content["application/json"].schema
    if (schema === undefined) throw new Error(`${operationId} documents no JSON body`)
    const seen = { valid: 0, invalid: 0 }
    for (const body of bodies) {
      const answer = await conforms(operationId, await send(body))
      if (accepts(schema, body)) {
        seen.valid++
        expect(isMalformedAnswer(answer.status, answer.body), `${JSON.stringify(body)} is valid by the document`).toBe(
          false
        )
      } else {
        seen.invalid++
        expect(answer.status, `${JSON.stringify(body)} is invalid by the document`).toBeGreaterThanOrEqual(400)
        expect(answer.status).toBeLessThan(500)
        if (options.invalidIsMalformed === true) {
          expect(isMalformedAnswer(answer.status, answer.body), `${JSON.stringify(body)} is refused as malformed`).toBe(
            true
          )
        }
      }
    }
    expect(seen.valid).toBeGreaterThan(0)
    expect(seen.invalid).toBeGreaterThan(0)
  }
  const isInvalidRequest = (status: number, body: unknown) =>
    status === 400 && (body as { error?: { code?: string } }).error?.code === "invalid_request"

  it("POST /search", () =>
    bodyCheck(
      "search",
      [
        { query: "photograph a storefront in Berlin" },
        { query: "transcribe an interview", limit: 1 },
        { query: "transcribe an interview", limit: 50 },
        { query: "x".repeat(4000) },
        { query: "label images", unknown_member: true },
        { query: "" },
        { query: "   " },
        { query: "x".repeat(4001) },
        { query: "label images", limit: 0 },
        { query: "label images", limit: 51 },
        { query: "label images", limit: 2.5 },
        { query: "label images", limit: "3" },
        { query: "label images", limit: null },
        { query: 42 },
        {}
      ],
      (body) => fetch(server.api("/search"), json(body)),
      isInvalidRequest
    ))

  it("POST /tasks/{reference}/review (on a task not yet submitted: a valid body reaches the state check, 409)", async () => {
    const { reference, token } = await submitTask(server.api("/tasks"), validDraft())
    await bodyCheck(
      "reviewTask",
      [
        { decision: "accept" },
        { decision: "accept", reason: "Looks right" },
        { decision: "accept", reason: null },
        { decision: "revise", reason: "Include the opening hours sign" },
        { decision: "reject", reason: "The photos are of another shop" },
        { decision: "revise" },
        { decision: "reject", reason: "  " },
        { decision: "revise", reason: null },
        { decision: "maybe" },
        { decision: "accept", reason: 7 },
        {}
      ],
      (body) => fetch(server.api(`/tasks/${reference}/review`), json(body, { authorization: `Bearer ${token}` })),
      isInvalidRequest
    )
  })

  it("POST /tasks/{reference}/cancel (each valid body on a task of its own)", async () => {
    await bodyCheck(
      "cancelTask",
      [{}, { reason: "Duplicate of another task" }, { reason: null }, { reason: 12 }, { reason: ["x"] }],
      async (body) => {
        const { reference, token } = await submitTask(server.api("/tasks"), validDraft())
        return fetch(server.api(`/tasks/${reference}/cancel`), json(body, { authorization: `Bearer ${token}` }))
      },
      isInvalidRequest
    )
  })

  it("POST /tasks/{reference}/decline (each valid body on a task of its own)", async () => {
    const headers = await asParticipant()
    await bodyCheck(
      "declineTask",
      [
        {},
        { reason: "Not my field" },
        { reason: null },
        { reason: "x".repeat(4000) },
        { reason: 12 },
        { reason: "x".repeat(4001) }
      ],
      async (body) => {
        const { reference } = await offeredTask()
        return fetch(server.api(`/tasks/${reference}/decline`), json(body, headers))
      },
      isInvalidRequest
    )
  })

  it("POST /tasks/{reference}/submit (on a task not yet started: a valid body reaches the state check, 409)", async () => {
    const headers = await asParticipant()
    const { reference } = await offeredTask()
    const artifact = { kind: "url", value: "https://example.com/report.pdf" }
    await bodyCheck(
      "submitTask",
      [
        { summary: "Found 3 bugs" },
        {
          summary: "Found 3 bugs",
          fields: { bugs: 3 },
          artifacts: [artifact, { ...artifact, description: "d".repeat(500) }]
        },
        { summary: "x".repeat(4000), artifacts: Array.from({ length: 50 }, () => artifact) },
        { summary: "Found 3 bugs", unknown_member: true },
        // An artifact's unknown member is ignored, as the body's are: the document must not call it invalid.
        { summary: "Found 3 bugs", artifacts: [{ ...artifact, checksum: "sha256:abc" }] },
        {},
        { summary: "  " },
        { summary: "x".repeat(4001) },
        { summary: 3 },
        { summary: "Found 3 bugs", fields: [] },
        { summary: "Found 3 bugs", artifacts: Array.from({ length: 51 }, () => artifact) },
        { summary: "Found 3 bugs", artifacts: [{ kind: "zip", value: "v" }] },
        { summary: "Found 3 bugs", artifacts: [{ kind: "url", value: " " }] },
        { summary: "Found 3 bugs", artifacts: [{ ...artifact, description: "d".repeat(501) }] }
      ],
      (body) => fetch(server.api(`/tasks/${reference}/submit`), json(body, headers)),
      isInvalidRequest,
      { invalidIsMalformed: true }
    )
    // An artifact's unknown member is ignored by the service (that body reaches the state check
    // above, 409, not a 400): the document must accept it too, though its check above is only a 4xx.
    const schema = operation("submitTask").operation.requestBody!.content["application/json"].schema
    expect(accepts(schema, { summary: "Found 3 bugs", artifacts: [{ ...artifact, checksum: "sha256:abc" }] })).toBe(
      true
    )
  })

  it("POST /tasks: a draft the schema refuses is refused (422); one it accepts is created (201)", async () => {
    let n = 0
    await bodyCheck(
      "createTask",
      [
        validDraft(),
        validDraft({ execution_mode: " Physical " }),
        validDraft({ execution_mode: "on site" }),
        validDraft({ action: 17 }),
        validDraft({ budget: ["EUR", 40] }),
        ...documentedDrafts.valid,
        ...documentedDrafts.invalid.map(([, body]) => body)
      ],
      (body) =>
        fetch(
          server.api("/tasks"),
          json({ ...(body as object), agent: `conformance-${n++}` }, { "idempotency-key": `conformance-key-${n}` })
        ),
      (status) => status !== 201
    )
  })
})

describe("POST /tasks: the document's create schema is the valid draft", () => {
  const schema = () => operation("createTask").operation.requestBody!.content["application/json"].schema
  let n = 0
  const submit = (body: Record<string, unknown>) =>
    fetch(
      server.api("/tasks"),
      json({ ...body, agent: body.agent ?? `schema-${n}` }, { "idempotency-key": `schema-draft-key-${n++}-0000` })
    )

  it("a draft the schema accepts is created (201)", async () => {
    for (const body of documentedDrafts.valid) {
      expect(accepts(schema(), body), JSON.stringify(body)).toBe(true)
      const answer = await conforms("createTask", await submit(body))
      expect(answer.status, `${JSON.stringify(body).slice(0, 200)}: ${JSON.stringify(answer.body)}`).toBe(201)
    }
  })

  it("a draft the schema refuses is refused (422), naming the member", async () => {
    for (const [field, body] of documentedDrafts.invalid) {
      expect(accepts(schema(), body), JSON.stringify(body).slice(0, 200)).toBe(false)
      const answer = await conforms("createTask", await submit(body))
      expect(answer.status, JSON.stringify(body).slice(0, 200)).toBe(422)
      const details = (answer.body as { error: { code: string; details: ReadonlyArray<{ field: string }> } }).error
      expect(details.code).toBe("preflight_failed")
      expect(
        details.details.map((d) => d.field),
        JSON.stringify(body).slice(0, 200)
      ).toContain(field)
    }
  })

  it("webhook_url: the document states the public-address rule it cannot write as a pattern, and the service holds it", async () => {
    const members = (document.components.schemas as Record<string, { properties: Record<string, unknown> }>).TaskDraft!
      .properties
    const member = members.webhook_url as { description: string }
    expect(member.description).toMatch(/https/)
    expect(member.description).toMatch(/public/)
    expect(member.description).toMatch(/localhost and private, loopback, link-local/)
    expect(member.description).toMatch(/WEBHOOK_ALLOW_PRIVATE=true/)
    // Written as the pattern allows, these are refused only for what the description says.
    for (const url of ["https://localhost/hooks", "https://10.0.0.1/", "https://[::1]/", "https://169.254.169.254/"]) {
      expect(accepts(member, url), url).toBe(true)
      const answer = await conforms("createTask", await submit(validDraft({ webhook_url: url })))
      expect(answer.status, url).toBe(422)
      const error = (answer.body as { error: { details: ReadonlyArray<{ field: string; message: string }> } }).error
      const named = error.details.find((d) => d.field === "webhook_url")
      expect(named?.message, url).toMatch(/events are sent only to public addresses/)
    }
  })

  it("preflight's body is any JSON object: each of these drafts is answered 200, its problems named", async () => {
    const preflight = operation("preflight").operation.requestBody!.content["application/json"].schema
    for (const [field, body] of documentedDrafts.invalid) {
      expect(accepts(preflight, body)).toBe(true)
      const answer = await conforms("preflight", await fetch(server.api("/preflight"), json(body)))
      expect(answer.status).toBe(200)
      const result = answer.body as { valid: boolean; issues: ReadonlyArray<{ field: string }> }
      expect(result.valid).toBe(false)
      expect(result.issues.map((i) => i.field)).toContain(field)
    }
    expect(accepts(preflight, [])).toBe(false)
    expect((await conforms("preflight", await fetch(server.api("/preflight"), json([])))).status).toBe(400)
  })
})

describe("every answer is one the document lists", () => {
  it("each GET operation without path parameters answers as documented", async () => {
    const gets = operations().filter(({ method, path }) => method === "GET" && !path.includes("{"))
    expect(gets.length).toBeGreaterThan(5)
    for (const { path, operation: op } of gets) {
      await conforms(op.operationId, await fetch(`${server.url}${path}`))
    }
  })

  it("GET /participants/{slug}: found and not found", async () => {
    expect((await conforms("getParticipant", await fetch(server.api("/participants/amara-okafor")))).status).toBe(200)
    expect((await conforms("getParticipant", await fetch(server.api("/participants/nobody-here")))).status).toBe(404)
  })

  it("POST /tasks answers 201 with the documented headers, and GET answers 200 then 304 with If-None-Match", async () => {
    const created = await fetch(server.api("/tasks"), json(validDraft(), { "idempotency-key": crypto.randomUUID() }))
    const createdHeaders = operation("createTask").operation.responses["201"] as { headers?: Record<string, unknown> }
    for (const name of ["location", "etag", "idempotent-replayed", "x-request-id"]) {
      expect(createdHeaders.headers, `201 documents ${name}`).toHaveProperty(name)
    }
    expect(created.headers.get("location")).toMatch(/\/tasks\/tsk_/)
    const { body } = await conforms("createTask", created)
    const reference = (body as { reference: string }).reference
    // The dispatcher moves the new task on (open → awaiting_participant): read until it rests.
    let status = 0
    for (let attempt = 0; attempt < 20 && status !== 304; attempt++) {
      const read = await fetch(server.api(`/tasks/${reference}`))
      const etag = read.headers.get("etag")
      expect(etag).not.toBeNull()
      await conforms("getTask", read)
      const again = await fetch(server.api(`/tasks/${reference}`), { headers: { "if-none-match": etag! } })
      status = (await conforms("getTask", again)).status
    }
    expect(status).toBe(304)
    const notModified = operation("getTask").operation.responses["304"] as { headers?: Record<string, unknown> }
    expect(notModified.headers).toHaveProperty("etag")
    expect(operation("getTask").operation.parameters?.map((p) => p.name)).toContain("if-none-match")
  })
})
