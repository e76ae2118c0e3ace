/**
 * The fuzzer's stateful phase (scripts/fuzz_stateful.ts) in a short seeded run against a sandbox
 * test server, so that it cannot rot: it creates tasks from the served document, follows the 201's
 * links with valid and invalid inputs, signs two participants in through the embedded authorization
 * server (scripts/fuzz_participants.ts) who walk their tasks along the participant's operations and
 * over the participant's MCP endpoint (scripts/fuzz_mcp_walk.ts), passes tasks' deadlines with the
 * sandbox's clock (scripts/fuzz_deadlines.ts), and finds nothing the document does not say. Then the same run against a document that says less
 * than the service does (a tighter draft, statuses left out, response members it requires, a
 * stricter upload name), which must be reported each way.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { OpenApiDocument } from "../../scripts/fuzz_document.ts"
import { type SignedInParticipant, signInParticipants } from "../../scripts/fuzz_participants.ts"
import { statefulPhase } from "../../scripts/fuzz_stateful.ts"
import { type ServerOnDatabase, startOnFreshDatabase } from "../support/server.ts"

// biome-ignore lint/suspicious/noExplicitAny: a document's members are edited by hand.
type Json = any

let env: ServerOnDatabase
let document: OpenApiDocument
let signedIn: ReadonlyArray<SignedInParticipant>
let clock: string

beforeAll(async () => {
  // Rate limiting on, far above what the run sends: every answer carries the ratelimit-* headers
  // the document declares as integers, which HTTP carries as text.
  env = await startOnFreshDatabase({
    settings: {
      sandbox: true,
      timerSweepMs: 50,
      rateLimit: { readsPerWindow: 1_000_000, writesPerWindow: 1_000_000, windowMs: 60_000 }
    }
  })
  document = (await (await fetch(`${env.server.url}/openapi.json`)).json()) as OpenApiDocument
  signedIn = await signInParticipants({
    base: env.server.url,
    document,
    slugs: ["kwame-asante", "sofia-rossi"],
    databaseUrl: env.database.url
  })
  clock = (await (await fetch(env.server.api(""))).json()).sandbox_tools.clock
}, 30_000)
afterAll(async () => {
  await env?.close()
})

const participants = ["sim-delivers", "sim-declines", "sim-silent", "jane-doe"]

describe("the fuzzer's stateful phase", () => {
  it("creates tasks from the document and follows its links without a disagreement", async () => {
    const figures = await statefulPhase({
      base: env.server.url,
      document,
      // 800 rounds (7-15 s): the participants' moves share them with the MCP endpoint's calls and
      // the deadlines passed, which decline offers before they are accepted.
      seconds: 20,
      rounds: 800,
      seed: 35,
      participants,
      signedIn,
      clock
    })
    expect(figures.failures).toEqual([])
    expect(figures.tasksCreated).toBeGreaterThan(10)
    expect(figures.drafts.valid).toBeGreaterThan(10)
    expect(figures.drafts.invalid).toBeGreaterThan(10)
    // Both kinds of answer from the followed links: reads (200, 304) and refusals (400, 401, 409).
    for (const status of ["200", "201", "304", "400", "401"]) expect(figures.statuses[status]).toBeGreaterThan(0)
    // The participants' side: their moves taken, the lifecycle walked to a result and its review,
    // and the other participant's token, a garbage one or none refused.
    for (const move of ["acceptTask→accepted", "startTask→in_flight", "submitTask→submitted", "uploadArtifact"])
      expect(figures.moves[move], move).toBeGreaterThan(0)
    expect(Object.keys(figures.moves).filter((move) => move.startsWith("reviewTask→"))).not.toEqual([])
    expect(figures.participantStatuses["myTasks 200"]).toBeGreaterThan(0)
    const answered = Object.keys(figures.participantStatuses)
    for (const refusal of [" 401", " 403"])
      expect(answered.filter((answer) => answer.endsWith(refusal))).not.toEqual([])
    expect(figures.statesReached.submitted).toBeGreaterThan(0)
    // Deadlines passed on purpose (scripts/fuzz_deadlines.ts): a task declined with deadline_passed
    // by the service, seen as its outcome, and a later move on it refused.
    expect(figures.outcomeReasons.deadline_passed).toBeGreaterThan(0)
    expect(figures.deadlines["declined with deadline_passed"]).toBeGreaterThan(0)
    expect(figures.deadlines["later moves refused"]).toBeGreaterThan(0)
    // The participant's MCP endpoint (scripts/fuzz_mcp_walk.ts): moves made over it that REST then
    // agrees with, hostile arguments refused as tool errors or invalid params, another's task
    // refused, foreign tokens 401 and another's session 404.
    const mcp = (suffix: RegExp) =>
      Object.entries(figures.mcp)
        .filter(([what]) => suffix.test(what))
        .reduce((sum, [, n]) => sum + n, 0)
    expect(mcp(/ agrees with REST$/)).toBeGreaterThan(0)
    expect(mcp(/ refused invalid_request$| rpc -32602$/)).toBeGreaterThan(0)
    expect(figures.mcp["another's task refused"]).toBeGreaterThan(0)
    expect(figures.mcp["foreign token 401"]).toBeGreaterThan(0)
    expect(figures.mcp["another's session 404"]).toBeGreaterThan(0)
  }, 30_000)

  it("reports a draft the document refuses but the service takes, an unlisted status, a body off its schema, a link naming nothing, and the same on the participant's operations", async () => {
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
      // A response header the service sends, given a type it does not have.
    ;(stricter as Json).paths["/api/public/v1/tasks"].post.responses["201"].headers.location.schema = {
      type: "integer"
    }
    const links = (stricter as Json).paths["/api/public/v1/tasks"].post.responses["201"].links
    links.cancelTask.parameters.reference = "$response.body#/not_a_member"
    // The participant's side: a move's answer left out, their list answered without a member it
    // requires, a result and a message the service takes called invalid.
    delete (stricter as Json).paths["/api/public/v1/tasks/{reference}/accept"].post.responses["200"]
    schemas.TaskList?.required.push("not_a_member")
    ;(schemas.ResultSubmission?.properties.summary as Record<string, unknown>).maxLength = 3
    ;(schemas.MessageRequest?.properties.body as Record<string, unknown>).maxLength = 3
    const figures = await statefulPhase({
      base: env.server.url,
      document: stricter,
      // Up to 1,500 rounds within 20 s: the dispatcher's offers land a moment after each task is
      // made, and 400 rounds could end (in ~3 s on Postgres under load) before a participant's
      // submission was tried, the move the last assertions need.
      seconds: 20,
      rounds: 1500,
      seed: 35,
      participants,
      signedIn
    })
    const said = figures.failures.join("\n")
    expect(said).toContain("was taken")
    expect(said).toContain("body refused by the document's schema")
    expect(said).toContain("status not in the document: GET /api/public/v1/tasks/{reference}")
    expect(said).toContain("the cancelTask link's reference ($response.body#/not_a_member) names nothing")
    expect(said).toContain("the location header")
    expect(said).toContain("status not in the document: POST /api/public/v1/tasks/{reference}/accept")
    expect(said).toMatch(
      /body refused by the document's schema \([^)]*not_a_member[^)]*\): GET \/api\/public\/v1\/me\/tasks/
    )
    expect(said).toContain("a request invalid by the document taken: POST /api/public/v1/tasks/{reference}/submit")
    expect(said).toContain("a message invalid by the document taken: POST /api/public/v1/tasks/{reference}/messages")
  }, 30_000)
})
