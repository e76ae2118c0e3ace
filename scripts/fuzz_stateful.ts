/**
 * The fuzzer's stateful phase (scripts/fuzz.ts; docs/testing.md, "Fuzzing"): tasks created from
 * the document, then walked along the document's links.
 *
 * Each round builds a create body from the document's TaskDraft schema (its required members, the
 * ExecutionMode enum in any letter case, the bounds and examples each member states, null and ""
 * where the schema takes them, an unknown member), sometimes spoiled (a member past its bound, of
 * the wrong type, a required one missing or blank). Ajv, over the document itself, says whether the
 * body is valid. The body goes to preflight and then to POST /tasks, and the answers must agree with
 * that verdict: a valid body is never refused as malformed (400), an invalid one is never taken
 * (201), nor called valid by preflight. From a 201 the phase follows the response's `links`
 * (reference, ETag as If-None-Match, the task token as the taskToken bearer) to getTask, cancelTask,
 * reviewTask and listDeliveries, with seeded valid and invalid inputs and right, wrong or no tokens.
 *
 * Every answer is held to the document: a 5xx other than 503 fails, as does a status the document
 * does not list for the operation, or a JSON body its schema for that status refuses.
 */
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js"
import addFormats from "ajv-formats"

interface Schema {
  readonly [key: string]: unknown
}
interface Operation {
  readonly operationId?: string
  readonly responses?: Record<string, { readonly content?: Record<string, { readonly schema?: Schema }> }>
}
export interface OpenApiDocument {
  readonly paths: Record<string, Record<string, Operation>>
  readonly components: { readonly schemas: Record<string, Schema> }
}

export interface StatefulFigures {
  requests: number
  tasksCreated: number
  drafts: { valid: number; invalid: number }
  /**
   * Drafts valid by the document's schema that POST /tasks refused with 422, by `field:code` of
   * each issue named: what the rules say beyond the schema (a public webhook host, a result schema
   * Ajv's strict mode takes, a deadline not yet passed, a participant that exists).
   */
  validButRefused: Record<string, number>
  statuses: Record<string, number>
  /** Each task's last state seen, counted over tasks. */
  statesReached: Record<string, number>
  failures: Array<string>
}

/** A seeded pseudo-random source (the same seed, the same run against the same service). */
export const seeded = (seed: number) => {
  let state = seed
  const random = () => {
    state = (state * 1103515245 + 12345) & 0x7fffffff
    return state / 0x7fffffff
  }
  const pick = <T>(xs: ReadonlyArray<T>): T => xs[Math.floor(random() * xs.length)] as T
  return { random, pick }
}

/**
 * A 503 (storage unavailable) is a documented answer, but not to an input: the request is sent
 * again after a moment, and if it is refused so again while /readyz says the storage is ready, the
 * 503 came from the input. Answers what to report, if anything.
 */
export const inputMade503 = async (base: string, url: string, init: RequestInit): Promise<string | undefined> => {
  await new Promise((resolve) => setTimeout(resolve, 200))
  const again = await fetch(url, init)
  await again.text()
  if (again.status !== 503) return undefined
  const ready = await fetch(`${base}/readyz`)
  await ready.text()
  return ready.status === 200 ? "503 again while /readyz is 200 (the input, not the storage)" : undefined
}

const pointer = (...parts: ReadonlyArray<string>) =>
  parts.map((part) => part.replaceAll("~", "~0").replaceAll("/", "~1")).join("/")

/** Ajv over the whole document: schemas are compiled where they stand, so their `$ref`s resolve. */
const validatorOf = (document: OpenApiDocument) => {
  const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: true })
  addFormats.default(ajv)
  ajv.addSchema({ ...document, $id: "openapi" })
  const compiled = new Map<string, ValidateFunction>()
  return (at: string): ValidateFunction => {
    let validate = compiled.get(at)
    if (validate === undefined) {
      validate = ajv.compile({ $ref: `openapi#/${at}` })
      compiled.set(at, validate)
    }
    return validate
  }
}

/** A member's bound as its pattern states it (`[\s\S]{0,N}` after trimming). */
const boundOf = (schema: Schema): number | undefined => {
  const found = /\[\\s\\S\]\{0,(\d+)\}/.exec(JSON.stringify(schema).replaceAll("\\\\", "\\"))
  return found === null ? undefined : Number(found[1])
}

const nullable = (schema: Schema) => JSON.stringify(schema).includes('"type":"null"')

const examplesOf = (schema: Schema): ReadonlyArray<unknown> =>
  Array.isArray(schema.examples) ? (schema.examples as ReadonlyArray<unknown>) : []

export const statefulPhase = async (options: {
  readonly base: string
  readonly document: OpenApiDocument
  readonly seconds: number
  /** Stop after this many rounds (a create or a followed link), if that comes first. */
  readonly rounds?: number
  readonly seed?: number
  /** Participants a draft may name (the sandbox's simulated ones reach the lifecycle). */
  readonly participants?: ReadonlyArray<string>
}): Promise<StatefulFigures> => {
  const { base, document } = options
  const { random, pick } = seeded(options.seed ?? 35)
  const validator = validatorOf(document)
  const figures: StatefulFigures = {
    requests: 0,
    tasksCreated: 0,
    drafts: { valid: 0, invalid: 0 },
    validButRefused: {},
    statuses: {},
    statesReached: {},
    failures: []
  }
  const fail = (what: string) => {
    if (figures.failures.length < 50) figures.failures.push(what)
  }

  const operations = new Map<string, { route: string; method: string; operation: Operation }>()
  for (const [route, methods] of Object.entries(document.paths))
    for (const [method, operation] of Object.entries(methods))
      if (operation.operationId !== undefined) operations.set(operation.operationId, { route, method, operation })
  const operation = (id: string) => {
    const found = operations.get(id)
    if (found === undefined) throw new Error(`the document has no operation ${id}`)
    return found
  }
  const created = operation("createTask")
  // The 201's links, as the document states them: which operation, and each parameter's runtime
  // expression ($response.body#/… or $response.header.…), resolved against each 201.
  interface Link {
    readonly operationId: string
    readonly parameters?: Record<string, string>
  }
  const linked = (created.operation.responses?.["201"] as { links?: Record<string, Link> } | undefined)?.links ?? {}
  const followed = new Set(["getTask", "cancelTask", "reviewTask", "listDeliveries"])
  const links = Object.keys(linked).filter((name) => followed.has(linked[name]?.operationId ?? ""))
  if (links.length === 0) throw new Error("the createTask 201 has no links this phase follows")
  const resolve = (expression: string, json: unknown, headers: Headers): string | undefined => {
    if (expression.startsWith("$response.header.")) return headers.get(expression.slice(17)) ?? undefined
    if (!expression.startsWith("$response.body#")) return undefined
    let at: unknown = json
    for (const part of expression
      .slice(16)
      .split("/")
      .filter((p) => p !== ""))
      at = (at as Record<string, unknown> | undefined)?.[part.replaceAll("~1", "/").replaceAll("~0", "~")]
    return typeof at === "string" ? at : undefined
  }

  /** One request, held to the document; answers the status and the parsed JSON body, if any. */
  const send = async (
    id: string,
    path: Record<string, string>,
    init: { query?: string; headers?: Record<string, string>; body?: unknown; raw?: string }
  ) => {
    const { route, method, operation: described } = operation(id)
    const url = `${base}${route.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(path[name] ?? ""))}${init.query ?? ""}`
    const headers: Record<string, string> = { ...init.headers }
    const body = init.raw ?? (init.body === undefined ? undefined : JSON.stringify(init.body))
    if (body !== undefined) headers["content-type"] = "application/json"
    const response = await fetch(url, {
      method: method.toUpperCase(),
      headers,
      ...(body === undefined ? {} : { body })
    })
    const text = await response.text()
    figures.requests++
    figures.statuses[response.status] = (figures.statuses[response.status] ?? 0) + 1
    const status = String(response.status)
    const line = `${method.toUpperCase()} ${route} ${(body ?? "").slice(0, 160)} → ${status} ${text.slice(0, 240)}`
    if (response.status >= 500 && response.status !== 503) fail(`5xx: ${line}`)
    if (response.status === 503) {
      const init = { method: method.toUpperCase(), headers, ...(body === undefined ? {} : { body }) }
      const said = await inputMade503(base, url, init)
      if (said !== undefined) fail(`${said}: ${line}`)
    }
    const declared = described.responses?.[status]
    if (declared === undefined && response.status !== 429) fail(`status not in the document: ${line}`)
    let json: unknown
    if (text !== "") {
      try {
        json = JSON.parse(text)
      } catch {
        fail(`not JSON: ${line}`)
      }
      const content = declared?.content?.["application/json"]
      if (declared !== undefined && content?.schema === undefined)
        fail(`a body where the document declares none: ${line}`)
      if (declared !== undefined && content?.schema !== undefined && json !== undefined) {
        const validate = validator(
          pointer("paths", route, method, "responses", status, "content", "application/json", "schema")
        )
        if (!validate(json)) fail(`body refused by the document's schema (${ajvSays(validate)}): ${line}`)
      }
    }
    return { status: response.status, json, headers: response.headers, line }
  }

  // Drafts, from the TaskDraft schema.
  const draftSchema = document.components.schemas.TaskDraft as Schema
  const properties = draftSchema.properties as Record<string, Schema>
  const required = (draftSchema.required as ReadonlyArray<string>) ?? []
  const modes = ((document.components.schemas.ExecutionMode as Schema).enum as ReadonlyArray<string>) ?? []
  const draftIsValid = validator(pointer("components", "schemas", "TaskDraft"))
  const anyCase = (word: string) => [...word].map((c) => (random() < 0.3 ? c.toUpperCase() : c)).join("")
  const padded = (word: string) => (random() < 0.2 ? `  ${word}\t` : word)
  const participants = options.participants ?? []
  let unique = 0

  // Values the document's schema takes, some at its edges: bounds in code points (an emoji is two
  // UTF-16 units), blanks JavaScript trims (no-break space, BOM), a lone surrogate, letter case.
  const edgy = (bound: number) => [
    "x",
    "Take a photo",
    "é ✓ 写真",
    "\u00a0x\u00a0",
    "x\u2028y",
    "x\ud800",
    "x\u0085",
    "a".repeat(bound),
    ` ${"b".repeat(bound)} `,
    "😀".repeat(bound)
  ]
  const validValue = (name: string, schema: Schema): unknown => {
    const bound = boundOf(schema) ?? 100
    const simulated = participants.filter((slug) => slug.startsWith("sim-"))
    if (name === "execution_mode") return padded(anyCase(pick(modes)))
    if (name === "participant_slug")
      return simulated.length > 0 && random() < 0.5
        ? pick(simulated)
        : pick([...participants, ...examplesOf(schema), null, "", "a".repeat(64)])
    if (name === "idempotency_key")
      return pick([
        `key-${Date.now()}-${unique++}-${Math.floor(random() * 1e9)}`,
        `k${" ".repeat(14)}${unique++}`,
        null
      ])
    if (name === "webhook_url")
      return pick([
        null,
        "",
        ...examplesOf(schema),
        "HTTPS://HOOKS.EXAMPLE.COM:8443/x?y=1",
        "https://xn--bcher-kva.example/",
        "https://example.com./",
        "https://10.0.0.1/hook",
        "https://[2001:db8::1]/hook",
        "https://localhost/hook"
      ])
    if (name === "contact_email")
      return pick([null, "", ...examplesOf(schema), "a.b+c@sub.example.co.uk", "ü@example.com", " ops@example.com "])
    if (name === "result_schema")
      return pick([
        null,
        { type: "object" },
        { type: "object", properties: { count: { type: "integer", minimum: 0 } }, required: ["count"] },
        // Taken by the document's schema (any object), refused by the rules its description states.
        { type: "object", frobnicate: 1 },
        { $ref: "https://schemas.example.com/x.json" },
        { type: "object", properties: { big: { const: "x".repeat(17_000) } } }
      ])
    if (name === "timing")
      return pick([null, "", "by 2030-12-01T17:00:00Z", "by 2001-01-01T00:00:00Z", "this week", ...examplesOf(schema)])
    const text = pick([...examplesOf(schema), ...edgy(bound)])
    return nullable(schema) && random() < 0.2 ? pick([null, "", "   "]) : padded(String(text))
  }
  const invalidValue = (name: string, schema: Schema): unknown => {
    const bound = boundOf(schema) ?? 100
    const common = [42, true, {}, ["x"], "a".repeat(bound + 1), "😀".repeat(bound + 1), "nul\u0000byte"]
    if (name === "execution_mode") return pick([...common, "remote", "digital-ish"])
    if (name === "participant_slug") return pick([...common, "Not_A_Slug", "a".repeat(65), "-x-"])
    if (name === "contact_email") return pick([...common, "not-an-email", "a@b", "a b@example.com"])
    if (name === "webhook_url")
      return pick([...common, "http://agent.example.com/x", "https://user:pw@example.com/", "ftp://x"])
    if (name === "idempotency_key") return pick([...common, "short", " 15-characters! "])
    if (name === "result_schema") return pick([42, "object", true, ["x"]])
    if (required.includes(name)) return pick([...common, "", "  ", null])
    return pick(common)
  }
  const draft = (): { body: unknown; spoiled: boolean } => {
    if (random() < 0.03) return { body: pick([[], "draft", 1, null]), spoiled: true }
    const body: Record<string, unknown> = {}
    for (const [name, schema] of Object.entries(properties))
      if (required.includes(name) || random() < 0.4) body[name] = validValue(name, schema)
    if (/^\s*(physical|hybrid)\s*$/i.test(String(body.execution_mode)) || random() < 0.3)
      body.location = validValue("location", properties.location as Schema)
    if (random() < 0.1) body[pick(["colour", "x_extra", "priority"])] = pick(["red", 1, null])
    const spoiled = random() < 0.35
    if (spoiled) {
      const name = pick(Object.keys(properties))
      if (required.includes(name) && random() < 0.3) delete body[name]
      else body[name] = invalidValue(name, properties[name] as Schema)
    }
    return { body, spoiled }
  }

  interface Task {
    reference: string
    token: string
    etag: string | undefined
    state: string
    /** Each link's path parameters, resolved against the task's 201. */
    readonly paths: Record<string, Record<string, string>>
  }
  const tasks: Array<Task> = []
  const states = new Map<string, string>()
  const bearer = (task: Task) => {
    const roll = random()
    if (roll < 0.8) return { authorization: `Bearer ${task.token}`, right: true }
    const other = tasks.find((t) => t.reference !== task.reference)
    if (roll < 0.9 && other !== undefined) return { authorization: `Bearer ${other.token}`, right: false }
    return { authorization: roll < 0.95 ? "Bearer tt_wrong" : undefined, right: false }
  }
  const withBearer = (authorization: string | undefined): Record<string, string> =>
    authorization === undefined ? {} : { authorization }

  const createOne = async () => {
    const { body } = draft()
    const valid = draftIsValid(body)
    if (valid) figures.drafts.valid++
    else figures.drafts.invalid++
    const shown = JSON.stringify(body).slice(0, 200)
    const preflight = await send("preflight", {}, { body })
    if (valid && preflight.status === 400)
      fail(`a draft valid by the document refused as malformed by preflight: ${shown}`)
    const verdict = (preflight.json as { valid?: boolean } | undefined)?.valid
    if (!valid && preflight.status === 200 && verdict === true)
      fail(`a draft invalid by the document (${ajvSays(draftIsValid)}) called valid by preflight: ${shown}`)
    const answer = await send("createTask", {}, { body })
    if (valid && answer.status === 400) fail(`a draft valid by the document refused as malformed: ${answer.line}`)
    if (valid && answer.status === 422) {
      const details = (answer.json as { error?: { details?: ReadonlyArray<{ field: string; code: string }> } })?.error
        ?.details
      for (const detail of details ?? [{ field: "-", code: "none named" }]) {
        const named = `${detail.field}:${detail.code}`
        figures.validButRefused[named] = (figures.validButRefused[named] ?? 0) + 1
      }
    }
    if (!valid && answer.status === 201)
      fail(`a draft invalid by the document (${ajvSays(draftIsValid)}) was taken: ${answer.line}`)
    if (answer.status === 201 && preflight.status === 200 && verdict === false)
      fail(`preflight refused a draft POST /tasks took: ${shown}`)
    if (answer.status !== 201) return
    const task = answer.json as { reference: string; task_token: string; state: string }
    figures.tasksCreated++
    const paths: Record<string, Record<string, string>> = {}
    let etag: string | undefined
    for (const name of links) {
      paths[name] = {}
      for (const [parameter, expression] of Object.entries(linked[name]?.parameters ?? {})) {
        const value = resolve(expression, answer.json, answer.headers)
        if (value === undefined)
          fail(`the ${name} link's ${parameter} (${expression}) names nothing in: ${answer.line}`)
        else if (parameter === "header.if-none-match") etag = value
        else (paths[name] as Record<string, string>)[parameter.replace(/^path\./, "")] = value
      }
    }
    tasks.push({ reference: task.reference, token: task.task_token, etag, state: task.state, paths })
    states.set(task.reference, task.state)
    if (tasks.length > 25) tasks.shift()
  }

  const reasons = (): unknown =>
    pick([undefined, null, "", "Not needed any more", "r".repeat(4000), "r".repeat(4001), 7, { why: 1 }])
  const follow = async (task: Task) => {
    // A submitted result is what a review is for: most reads of one are followed by one.
    const reviews = links.find((name) => linked[name]?.operationId === "reviewTask")
    const link = task.state === "submitted" && reviews !== undefined && random() < 0.6 ? reviews : pick(links)
    const id = linked[link]?.operationId as string
    const path = task.paths[link] ?? {}
    if (id === "getTask") {
      const wait = pick([undefined, "0", "0.05", "-1", "61", "soon"])
      const conditional = random() < 0.7 && task.etag !== undefined
      const answer = await send("getTask", random() < 0.95 ? path : { ...path, reference: `${path.reference}x` }, {
        query: wait === undefined ? "" : `?wait=${wait}`,
        headers: conditional ? { "if-none-match": task.etag as string } : {}
      })
      const waitValid = wait === undefined || (Number(wait) >= 0 && Number(wait) <= 60)
      if (waitValid && answer.status === 400) fail(`a valid wait refused: ${answer.line}`)
      if (!waitValid && (answer.status === 200 || answer.status === 304)) fail(`an invalid wait taken: ${answer.line}`)
      if (answer.status === 200) {
        const state = (answer.json as { state: string }).state
        task.state = state
        states.set(task.reference, state)
        task.etag = answer.headers.get("etag") ?? undefined
        if (task.etag === undefined) fail(`a 200 of getTask without its ETag: ${answer.line}`)
      }
      return
    }
    const credential = bearer(task)
    if (id === "listDeliveries") {
      const answer = await send("listDeliveries", path, { headers: withBearer(credential.authorization) })
      if (credential.right !== (answer.status === 200))
        fail(`deliveries answered ${answer.status} to a ${credential.right ? "right" : "wrong"} token: ${answer.line}`)
      return
    }
    const body: Record<string, unknown> = {}
    if (id === "reviewTask") {
      const decision = pick(["accept", "revise", "reject", "ACCEPT", "maybe", undefined])
      if (decision !== undefined) body.decision = decision
    }
    const reason = reasons()
    if (reason !== undefined) body.reason = reason
    if (random() < 0.1) body.extra = "ignored"
    const schemaPath = pointer("components", "schemas", id === "cancelTask" ? "CancelRequest" : "ReviewRequest")
    const valid = validator(schemaPath)(body)
    const answer = await send(id, path, { body, headers: withBearer(credential.authorization) })
    if (credential.right && valid && answer.status === 400)
      fail(`a body valid by the document refused as malformed: ${answer.line}`)
    if (!valid && answer.status === 200) fail(`a body invalid by the document taken: ${answer.line}`)
    if (!credential.right && answer.status === 200)
      fail(`taken with a ${credential.authorization ?? "missing"} token: ${answer.line}`)
    if (answer.status === 200) {
      task.state = (answer.json as { state: string }).state
      states.set(task.reference, task.state)
    }
  }

  const deadline = Date.now() + options.seconds * 1000
  for (let round = 0; Date.now() < deadline && round < (options.rounds ?? Number.POSITIVE_INFINITY); round++) {
    if (tasks.length === 0 || random() < 0.25) await createOne()
    else await follow(pick(tasks))
  }
  for (const state of states.values()) figures.statesReached[state] = (figures.statesReached[state] ?? 0) + 1
  return figures
}

const ajvSays = (validate: ValidateFunction) =>
  (validate.errors ?? [])
    .map((e) => `${e.instancePath || "/"} ${e.message ?? ""}`)
    .join("; ")
    .slice(0, 200)
