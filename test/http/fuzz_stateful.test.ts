/**
 * The fuzzer's stateful phase (scripts/fuzz_stateful.ts) in a short seeded run against a sandbox
 * test server, so that it cannot rot: it creates tasks from the served document, follows the 201's
 * links with valid and invalid inputs, and finds nothing the document does not say. Then the same
 * run against a document that says less than the service does (a tighter draft, a status left out,
 * a response member it requires), which must be reported each way.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type OpenApiDocument, statefulPhase } from "../../scripts/fuzz_stateful.ts"
import { type ServerOnDatabase, startOnFreshDatabase } from "../support/server.ts"

// biome-ignore lint/suspicious/noExplicitAny: a document's members are edited by hand.
type Json = any

let env: ServerOnDatabase
let document: OpenApiDocument

beforeAll(async () => {
  env = await startOnFreshDatabase({ settings: { sandbox: true, timerSweepMs: 50 } })
  document = (await (await fetch(`${env.server.url}/openapi.json`)).json()) as OpenApiDocument
})
afterAll(async () => {
  await env?.close()
})

const participants = ["sim-delivers", "sim-declines", "sim-silent", "jane-doe"]

describe("the fuzzer's stateful phase", () => {
  it("creates tasks from the document and follows its links without a disagreement", async () => {
    const figures = await statefulPhase({
      base: env.server.url,
      document,
      seconds: 20,
      rounds: 250,
      seed: 35,
      participants
    })
    expect(figures.failures).toEqual([])
    expect(figures.tasksCreated).toBeGreaterThan(10)
    expect(figures.drafts.valid).toBeGreaterThan(10)
    expect(figures.drafts.invalid).toBeGreaterThan(10)
    // Both kinds of answer from the followed links: reads (200, 304) and refusals (400, 401, 409).
    for (const status of ["200", "201", "304", "400", "401"]) expect(figures.statuses[status]).toBeGreaterThan(0)
  }, 30_000)

  it("reports a draft the document refuses but the service takes, an unlisted status, a body off its schema and a link naming nothing", async () => {
    const stricter = structuredClone(document) as OpenApiDocument & {
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>
      components: {
        schemas: Record<string, { properties: Record<string, Record<string, unknown>>; required: Array<string> }>
      }
    }
    const schemas = stricter.components.schemas
    ;(schemas.TaskDraft?.properties.action as Record<string, unknown>).maxLength = 3
    schemas.CreatedTask?.required.push("not_a_member")
    for (const operation of Object.values(stricter.paths["/api/public/v1/tasks/{reference}"] ?? {}))
      delete operation.responses["304"]
    const links = (stricter as Json).paths["/api/public/v1/tasks"].post.responses["201"].links
    links.cancelTask.parameters.reference = "$response.body#/not_a_member"
    const figures = await statefulPhase({
      base: env.server.url,
      document: stricter,
      seconds: 20,
      rounds: 150,
      seed: 35,
      participants
    })
    const said = figures.failures.join("\n")
    expect(said).toContain("was taken")
    expect(said).toContain("body refused by the document's schema")
    expect(said).toContain("status not in the document: GET /api/public/v1/tasks/{reference}")
    expect(said).toContain("the cancelTask link's reference ($response.body#/not_a_member) names nothing")
  }, 30_000)
})
