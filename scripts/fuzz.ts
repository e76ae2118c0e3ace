/**
 * A small fuzzer of a running service, read from its own /openapi.json, in two phases sharing the
 * `seconds` given (seeded, so a run can be repeated; docs/testing.md, "Fuzzing"):
 *
 * - stateless: random path, query, header and body values for every operation, sent raw;
 * - stateful (scripts/fuzz_stateful.ts): tasks created from the document's TaskDraft schema, then
 *   its links followed from each 201 to the task's operations, with valid and invalid inputs, and
 *   every answer's body held to the document's schema; signed-in participants walk their tasks over
 *   REST and the participant's MCP endpoint; in a sandbox, tasks' deadlines are passed.
 *
 * It reports the statuses seen, every 5xx (503 aside: storage unavailable is a documented answer,
 * unless the same request is refused so again while /readyz says the storage is ready),
 * every answer whose status the document does not list for its operation, and, in the stateful
 * phase, every body the document's schema refuses and every verdict that disagrees with the
 * document's (a valid draft refused as malformed, an invalid one taken). Exits 1 on any of those.
 * Schemathesis is the thorough tool; this is what runs where it cannot be installed.
 *
 *   npm run fuzz -- http://127.0.0.1:8080 120
 */

import { inputMade503 } from "./fuzz_checks.ts"
import type { OpenApiDocument } from "./fuzz_document.ts"
import { signInParticipants } from "./fuzz_participants.ts"
import { statefulPhase } from "./fuzz_stateful.ts"

interface Operation {
  readonly parameters?: ReadonlyArray<{ readonly name: string; readonly in: string }>
  readonly requestBody?: { readonly content?: Record<string, unknown> }
  readonly responses?: Record<string, unknown>
}

if (process.argv.includes("--help") || process.argv.includes("-h")) {
  process.stdout.write(`npm run fuzz -- [BASE_URL] [SECONDS]

Fuzzes a running service (default http://127.0.0.1:8080) for SECONDS (default 60), held to its
/openapi.json: half stateless (random requests to every operation), half stateful (tasks created
from the document and walked along the lifecycle; docs/testing.md, "Fuzzing").

DATABASE_URL   the service's database: two catalogue participants are invited by the operator's
               tool and sign in, then walk their tasks over REST and the participant's MCP
               endpoint. Unset: the participant's side is left out.
In a sandbox (SANDBOX=on) the clock is moved: offers lapse, review windows close, and tasks'
deadlines are passed on purpose (deadline_passed).

Prints a JSON summary (statuses, tasks created, states and outcomes reached, deadlines passed,
MCP calls, failures); exits 1 on any failure.
`)
  process.exit(0)
}
const base = process.argv[2] ?? "http://127.0.0.1:8080"
const seconds = Number(process.argv[3] ?? 60)
const document = (await (await fetch(`${base}/openapi.json`)).json()) as OpenApiDocument & {
  paths: Record<string, Record<string, Operation>>
}

let seed = 35
const random = () => {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff
  return seed / 0x7fffffff
}
const pick = <T>(xs: ReadonlyArray<T>): T => xs[Math.floor(random() * xs.length)] as T

const texts = ["", " ", "a", "0", "-1", "1e3", "61", "60", "0.5", "501", "abc", "YWZ0ZXI6", "\u0000", "é", "%"]
const text = () =>
  random() < 0.1 ? "x".repeat(5000) : random() < 0.2 ? String(Math.floor(random() * 1e6)) : pick(texts)
const pathValue = () =>
  encodeURIComponent(pick(["tsk_aaaaaaaaaaaaaaaaaaaaaaaaaa", "jane-doe", "x", "\u0000", "art_x", "a".repeat(300)]))
const members = ["action", "execution_mode", "location", "timing", "expected_result", "acceptance_test"]
  .concat(["result_schema", "webhook_url", "participant_slug", "contact_email", "idempotency_key", "reason"])
  .concat(["decision", "summary", "fields", "artifacts", "query", "__proto__", "constructor"])

const json = (depth = 0): unknown => {
  const kind = Math.floor(random() * (depth > 3 ? 4 : 7))
  if (kind === 0) return null
  if (kind === 1) return random() < 0.5
  if (kind === 2) return pick([0, -1, 1.5, 1e308, 2 ** 53, 61])
  if (kind === 3) return text()
  if (kind === 4) return Array.from({ length: Math.floor(random() * 4) }, () => json(depth + 1))
  const object: Record<string, unknown> = {}
  for (const name of members) if (random() < 0.3) object[name] = json(depth + 1)
  if (random() < 0.5) {
    Object.assign(object, {
      action: "Photograph the shop",
      execution_mode: pick(["digital", "PHYSICAL", "hybrid", "x"]),
      expected_result: "Photos",
      acceptance_test: "The sign is legible",
      location: pick(["Berlin", "", null])
    })
  }
  return object
}

// Participants a draft may name: a page of the catalogue, and a sandbox's simulated ones, which
// take their tasks along the lifecycle.
const slugs = async (query: string) =>
  (
    (
      (await (await fetch(`${base}/api/public/v1/participants?${query}`)).json()) as {
        data?: ReadonlyArray<{ slug: string }>
      }
    ).data ?? []
  ).map((participant) => participant.slug)
const participants = [
  ...(await slugs("limit=20")),
  ...(await slugs("q=sim&limit=10")).filter((slug) => slug.startsWith("sim-"))
]
// Two catalogue participants sign in as the document says (scripts/fuzz_participants.ts); the
// operator's invitation needs the service's database, named as the service names it.
const catalogue = participants.filter((slug) => !slug.startsWith("sim-")).slice(0, 2)
const databaseUrl = process.env.DATABASE_URL
if (databaseUrl === undefined)
  process.stderr.write("DATABASE_URL is unset: no participant signs in, so their operations are not fuzzed\n")
const signedIn =
  databaseUrl === undefined ? [] : await signInParticipants({ base, document, slugs: catalogue, databaseUrl })
// A sandbox's index names its clock (ServiceIndex.sandbox_tools): moved now and then, so offers lapse.
const index = (await (await fetch(`${base}/api/public/v1`)).json()) as { sandbox_tools?: { clock?: string } }
const clock = index.sandbox_tools?.clock
const operations = Object.entries(document.paths).flatMap(([route, methods]) =>
  Object.entries(methods).map(([method, operation]) => ({ route, method, operation }))
)
const statuses: Record<string, number> = {}
const failures: Array<string> = []
let requests = 0
const deadline = Date.now() + (seconds * 1000) / 2
while (Date.now() < deadline) {
  const { route, method, operation } = pick(operations)
  const query = new URLSearchParams()
  const headers: Record<string, string> = {}
  for (const p of operation.parameters ?? []) {
    if (p.in === "query" && random() < 0.7) query.append(p.name, text())
    if (p.in === "header" && random() < 0.5)
      headers[p.name] = pick(["", "k".repeat(16), "x", '"v1"', "*", "a".repeat(300)])
  }
  if (random() < 0.3) headers.authorization = pick(["Bearer tt_x", "Bearer ", "Basic x", `Bearer ${"a".repeat(2000)}`])
  // A signed-in participant's own token now and then, so random input reaches past the credential.
  if (signedIn.length > 0 && random() < 0.2) headers.authorization = `Bearer ${await pick(signedIn).token()}`
  let body: string | undefined
  if (method !== "get" && operation.requestBody !== undefined) {
    const type = Object.keys(operation.requestBody.content ?? {})[0] ?? "application/json"
    headers["content-type"] = random() < 0.9 ? type : pick(["text/plain", "application/json; charset=utf-8", ""])
    body = type !== "application/json" ? "bytes" : random() < 0.9 ? JSON.stringify(json()) : pick(["{", "", "[1,"])
  }
  const path = route.replace(/\{[^}]+\}/g, pathValue)
  const search = query.toString()
  const response = await fetch(`${base}${path}${search === "" ? "" : `?${search}`}`, {
    method: method.toUpperCase(),
    headers,
    ...(body === undefined ? {} : { body }),
    redirect: "manual"
  })
  const answer = await response.text()
  requests++
  if (response.status === 503) {
    const init = {
      method: method.toUpperCase(),
      headers,
      ...(body === undefined ? {} : { body }),
      redirect: "manual" as const
    }
    const said = await inputMade503(base, `${base}${path}${search === "" ? "" : `?${search}`}`, init)
    if (said !== undefined && failures.length < 50)
      failures.push(`${said}: ${method.toUpperCase()} ${path.slice(0, 120)}`)
  }
  statuses[response.status] = (statuses[response.status] ?? 0) + 1
  const listed = Object.keys(operation.responses ?? {})
  if (
    (response.status >= 500 && response.status !== 503) ||
    (!listed.includes(String(response.status)) && response.status !== 429)
  ) {
    if (failures.length < 50)
      failures.push(`${method.toUpperCase()} ${path.slice(0, 120)} → ${response.status} ${answer.slice(0, 200)}`)
  }
}
const stateful = await statefulPhase({
  base,
  document,
  seconds: seconds / 2,
  participants,
  signedIn,
  ...(clock === undefined ? {} : { clock })
})
const stateless = { requests, statuses, failures }
const signedInSlugs = signedIn.map((participant) => participant.slug)
process.stdout.write(`${JSON.stringify({ seconds, signedIn: signedInSlugs, stateless, stateful }, null, 2)}\n`)
process.exitCode = failures.length === 0 && stateful.failures.length === 0 ? 0 : 1
