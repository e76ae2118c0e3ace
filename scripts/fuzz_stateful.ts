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
 * With participants signed in (scripts/fuzz_participants.ts), drafts name them, and each walks the
 * tasks offered to them along the participant's operations, found by operationId in the document
 * (myTasks, acceptTask, declineTask, startTask, uploadArtifact, submitTask; bodies from the
 * operations' request schemas and the task's result_schema), with their own token, the other
 * participant's, a garbage one or none; the agent reviews what they submit (accept, revise,
 * reject); in a sandbox the clock is moved now and then, so offers lapse and review windows close.
 *
 * Every answer is held to the document: a 5xx other than 503 fails, as does a status the document
 * does not list for the operation, or a JSON body its schema for that status refuses.
 */
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js"
import addFormats from "ajv-formats"
import type { SignedInParticipant } from "./fuzz_participants.ts"

interface Schema {
  readonly [key: string]: unknown
}
interface Operation {
  readonly operationId?: string
  readonly responses?: Record<
    string,
    {
      readonly content?: Record<string, { readonly schema?: Schema }>
      readonly headers?: Record<
        string,
        { readonly $ref?: string; readonly required?: boolean; readonly schema?: Schema }
      >
    }
  >
}
export interface OpenApiDocument {
  readonly paths: Record<string, Record<string, Operation>>
  readonly components: { readonly schemas: Record<string, Schema>; readonly securitySchemes?: Record<string, unknown> }
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
  /** Tasks seen in each state (a task counts once for each state it was seen in). */
  statesReached: Record<string, number>
  /** Tasks seen ended, by `state:outcome reason`. */
  outcomes: Record<string, number>
  /** Moves made (a 2xx), by `operationId→state it left the task in`; uploads as `uploadArtifact`. */
  moves: Record<string, number>
  /** Answers of the participant's operations, by `operationId status`. */
  participantStatuses: Record<string, number>
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
  /** Participants signed in (scripts/fuzz_participants.ts): drafts name them, and they walk their tasks. */
  readonly signedIn?: ReadonlyArray<SignedInParticipant>
  /** The sandbox's clock (the index's sandbox.clock), moved now and then when given. */
  readonly clock?: string
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
    outcomes: {},
    moves: {},
    participantStatuses: {},
    failures: []
  }
  // At most three examples of each kind of failure (what it says, on which operation), so that one
  // kind found often does not hide the others.
  const kinds = new Map<string, number>()
  const fail = (what: string) => {
    const kind = `${what.split(": ", 1)[0]} ${/(POST|GET) \/\S*/.exec(what)?.[0] ?? ""}`
    const seen = kinds.get(kind) ?? 0
    kinds.set(kind, seen + 1)
    if (seen < 3 && figures.failures.length < 200) figures.failures.push(what)
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
    init: {
      query?: string
      headers?: Record<string, string>
      body?: unknown
      raw?: string
      bytes?: Uint8Array<ArrayBuffer>
      contentType?: string
    }
  ) => {
    const { route, method, operation: described } = operation(id)
    const url = `${base}${route.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(path[name] ?? ""))}${init.query ?? ""}`
    const headers: Record<string, string> = { ...init.headers }
    const body = init.raw ?? (init.body === undefined ? undefined : JSON.stringify(init.body))
    if (body !== undefined) headers["content-type"] = "application/json"
    if (init.bytes !== undefined) headers["content-type"] = init.contentType ?? "application/octet-stream"
    const sent = init.bytes ?? body
    const response = await fetch(url, {
      method: method.toUpperCase(),
      headers,
      ...(sent === undefined ? {} : { body: sent })
    })
    const bytes = new Uint8Array(await response.arrayBuffer())
    const text = new TextDecoder().decode(bytes)
    figures.requests++
    figures.statuses[response.status] = (figures.statuses[response.status] ?? 0) + 1
    const status = String(response.status)
    const shown = body ?? (init.bytes === undefined ? "" : `(${init.bytes.length} bytes)${init.query ?? ""}`)
    const line = `${method.toUpperCase()} ${route} ${shown.slice(0, 160)} → ${status} ${text.slice(0, 240)}`
    if (response.status >= 500 && response.status !== 503) fail(`5xx: ${line}`)
    if (response.status === 503) {
      const init = { method: method.toUpperCase(), headers, ...(sent === undefined ? {} : { body: sent }) }
      const said = await inputMade503(base, url, init)
      if (said !== undefined) fail(`${said}: ${line}`)
    }
    const declared = described.responses?.[status]
    if (declared === undefined && response.status !== 429) fail(`status not in the document: ${line}`)
    // The response's headers the document declares: present when required, and of their schema
    // (an integer header's text an integer).
    for (const [name, header] of Object.entries(declared?.headers ?? {})) {
      const at =
        header.$ref !== undefined
          ? [...header.$ref.slice(2).split("/"), "schema"]
          : ["paths", route, method, "responses", status, "headers", name, "schema"]
      const value = response.headers.get(name)
      const resolved = header.$ref === undefined ? header : undefined
      if (value === null) {
        if (resolved?.required === true) fail(`the ${name} header the document requires is missing: ${line}`)
        continue
      }
      const validate = validator(pointer(...at))
      const typed =
        (validate.schema as { type?: string } | undefined)?.type === "integer"
          ? /^-?\d+$/.test(value)
            ? Number(value)
            : value
          : value
      if (!validate(typed))
        fail(`the ${name} header ${JSON.stringify(value.slice(0, 60))} refused by the document's schema: ${line}`)
    }
    let json: unknown
    const media = Object.keys(declared?.content ?? {})
    const binary = media.length > 0 && !media.includes("application/json")
    // A media range (`*/*`, `image/*`) covers the types it names.
    const served = (response.headers.get("content-type") ?? "").split(";", 1)[0]?.trim().toLowerCase() ?? ""
    const covers = (range: string) =>
      range === "*/*" || range === served || (range.endsWith("/*") && served.startsWith(range.slice(0, -1)))
    if (binary && !media.some(covers))
      fail(`a ${response.headers.get("content-type")} body where the document declares ${media.join(", ")}: ${line}`)
    if (text !== "" && !binary) {
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
    return { status: response.status, json, bytes, headers: response.headers, line }
  }

  // Drafts, from the TaskDraft schema.
  const draftSchema = document.components.schemas.TaskDraft as Schema
  const properties = draftSchema.properties as Record<string, Schema>
  const required = (draftSchema.required as ReadonlyArray<string>) ?? []
  const modes = ((document.components.schemas.ExecutionMode as Schema).enum as ReadonlyArray<string>) ?? []
  const draftIsValid = validator(pointer("components", "schemas", "TaskDraft"))
  const idempotencyKeyIsValid = (() => {
    const parameters =
      (created.operation as { parameters?: ReadonlyArray<{ name: string; in: string }> }).parameters ?? []
    const at = parameters.findIndex((p) => p.in === "header" && p.name === "idempotency-key")
    if (at < 0) return (_: string) => true
    const validate = validator(pointer("paths", created.route, created.method, "parameters", String(at), "schema"))
    return (value: string) => validate(value) === true
  })()
  const anyCase = (word: string) => [...word].map((c) => (random() < 0.3 ? c.toUpperCase() : c)).join("")
  const padded = (word: string) => (random() < 0.2 ? `  ${word}\t` : word)
  const participants = options.participants ?? []
  const signedIn = options.signedIn ?? []
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
      return signedIn.length > 0 && random() < 0.5
        ? pick(signedIn).slug
        : simulated.length > 0 && random() < 0.5
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
        {
          type: "object",
          properties: {
            ok: { type: "boolean" },
            kind: { enum: ["photo", "note"] },
            note: { type: "string", maxLength: 20 },
            tags: { type: "array", items: { type: "string" }, maxItems: 3 },
            price: { type: "number", exclusiveMinimum: 0 }
          },
          required: ["ok", "kind"],
          additionalProperties: false
        },
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
    // A third of the drafts name a participant who signed in, who then walks the task.
    if (signedIn.length > 0 && random() < 0.33) body.participant_slug = pick(signedIn).slug
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
    /** The participant it is offered to or held by, as last seen. */
    participant: string | null
    /** The brief's result_schema, as last seen. */
    resultSchema: unknown
    /** Files uploaded to it: their ids, uploaders and sizes. */
    readonly uploads: Array<{ readonly id: string; readonly by: string; readonly size: number }>
    /** Files a submitted result carries (the agent may download them). */
    readonly attached: Set<string>
    readonly seen: Set<string>
    outcome: string | undefined
    /** Each link's path parameters, resolved against the task's 201. */
    readonly paths: Record<string, Record<string, string>>
  }
  const tasks: Array<Task> = []
  const known = new Map<string, Task>()
  /** What a Task body (validated by `send`) says of the task: its state, participant, outcome. */
  const observe = (task: Task, json: unknown) => {
    const body = json as {
      state?: string
      participant_slug?: string | null
      brief?: { result_schema?: unknown }
      outcome?: { reason?: string } | null
    }
    if (typeof body?.state !== "string") return
    task.state = body.state
    task.seen.add(body.state)
    if (body.participant_slug !== undefined) task.participant = body.participant_slug
    if (body.brief !== undefined) task.resultSchema = body.brief.result_schema
    const reason = body.outcome?.reason
    if (reason !== undefined && task.outcome === undefined) {
      task.outcome = `${body.state}:${reason}`
      figures.outcomes[task.outcome] = (figures.outcomes[task.outcome] ?? 0) + 1
    }
  }
  const moved = (id: string, json: unknown) => {
    const state = (json as { state?: string } | undefined)?.state
    const move = state === undefined ? id : `${id}→${state}`
    figures.moves[move] = (figures.moves[move] ?? 0) + 1
  }
  const bearer = async (task: Task) => {
    const roll = random()
    if (roll < 0.8) return { authorization: `Bearer ${task.token}`, right: true }
    const other = tasks.find((t) => t.reference !== task.reference)
    if (roll < 0.9 && other !== undefined) return { authorization: `Bearer ${other.token}`, right: false }
    // A participant's access token: a participant cannot act as the agent.
    if (roll < 0.94 && signedIn.length > 0)
      return { authorization: `Bearer ${await pick(signedIn).token()}`, right: false }
    return { authorization: roll < 0.97 ? "Bearer tt_wrong" : undefined, right: false }
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
    // The idempotency-key header, now and then, valid or not by its parameter's schema; a body
    // naming another key (idempotency_key) is a mismatch (400), not a malformed request.
    const keyRoll = random()
    const key =
      keyRoll < 0.12
        ? `fuzz-${unique++}-${Math.floor(random() * 1e9)}-${Date.now()}`
        : keyRoll < 0.15
          ? pick(["short", "k".repeat(256), "", " ".repeat(20)])
          : undefined
    // A header's value is what HTTP carries: without the blanks around it (RFC 9110, 5.5).
    const keyValid = key === undefined || idempotencyKeyIsValid(key.replace(/^[ \t]+|[ \t]+$/g, ""))
    const bodyKey = (body as { idempotency_key?: unknown } | null)?.idempotency_key
    const mismatch =
      key !== undefined && typeof bodyKey === "string" && bodyKey.trim() !== "" && bodyKey.trim() !== key.trim()
    const headers = key === undefined ? {} : { "idempotency-key": key }
    const answer = await send("createTask", {}, { body, headers })
    if (!keyValid && answer.status === 201)
      fail(`an idempotency-key header invalid by the document (${JSON.stringify(key)}) taken: ${answer.line}`)
    if (valid && keyValid && !mismatch && answer.status === 400)
      fail(`a draft valid by the document refused as malformed: ${answer.line}`)
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
    const created = answer.json as { reference: string; task_token: string; state: string }
    figures.tasksCreated++
    // Replayed with its key (the header's, or the body's idempotency_key): the same task again,
    // said to be a replay; with the same key and another draft, refused.
    const keyed = key !== undefined || (typeof bodyKey === "string" && bodyKey.trim() !== "")
    if (keyed && random() < 0.3) {
      const again = await send("createTask", {}, { body, headers })
      const replayed = again.json as { reference?: string } | undefined
      if (again.status !== 201 || replayed?.reference !== created.reference)
        fail(`a replay with the same idempotency key did not answer the same task: ${again.line}`)
      else if (again.headers.get("idempotent-replayed") !== "true")
        fail(`a replay with the same idempotency key is not said to be one: ${again.line}`)
      else moved("createTask replayed", undefined)
    } else if (keyed && random() < 0.2) {
      const other = { ...(body as Record<string, unknown>), action: "Another task under the same key" }
      const again = await send("createTask", {}, { body: other, headers })
      if (again.status === 201) fail(`another draft under a used idempotency key was taken: ${again.line}`)
    }
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
    const task: Task = {
      reference: created.reference,
      token: created.task_token,
      etag,
      state: created.state,
      participant: null,
      resultSchema: undefined,
      uploads: [],
      attached: new Set(),
      seen: new Set(),
      outcome: undefined,
      paths
    }
    observe(task, answer.json)
    tasks.push(task)
    known.set(task.reference, task)
    if (tasks.length > 40) tasks.shift()
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
        observe(task, answer.json)
        task.etag = answer.headers.get("etag") ?? undefined
        if (task.etag === undefined) fail(`a 200 of getTask without its ETag: ${answer.line}`)
      }
      return
    }
    const credential = await bearer(task)
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
      observe(task, answer.json)
      moved(id, answer.json)
    } else if (answer.status === 409) await refresh(task)
  }

  /** After a 409 (the task moved on: a timer, the clock, the other party), read it as it is now. */
  const refresh = async (task: Task) => {
    const answer = await send("getTask", { reference: task.reference }, {})
    if (answer.status === 200) observe(task, answer.json)
  }

  // The participant's side: their operations, as the document names them.
  const participantIds = ["myTasks", "acceptTask", "declineTask", "startTask", "uploadArtifact", "submitTask"]
  const participantOps = signedIn.length > 0 ? participantIds.map((id) => ({ id, ...operation(id) })) : []
  /** The JSON schema of an operation's request body, if it declares one. */
  const requestSchemaOf = (id: string): ValidateFunction | undefined => {
    const { route, method, operation: described } = operation(id)
    const content = (described as { requestBody?: { content?: Record<string, { schema?: unknown }> } }).requestBody
      ?.content?.["application/json"]
    return content?.schema === undefined
      ? undefined
      : validator(pointer("paths", route, method, "requestBody", "content", "application/json", "schema"))
  }
  // An upload's name and bytes as the document describes them.
  const uploads = (() => {
    if (participantOps.length === 0) return { name: () => true, minBytes: 0 }
    const { route, method, operation: described } = operation("uploadArtifact")
    const { parameters = [], requestBody } = described as {
      parameters?: ReadonlyArray<{ name: string; in: string }>
      requestBody?: { content?: Record<string, { schema?: { minLength?: number } }> }
    }
    const at = parameters.findIndex((p) => p.name === "name" && p.in === "query")
    const name = validator(pointer("paths", route, method, "parameters", String(at), "schema"))
    const body = Object.values(requestBody?.content ?? {})[0]?.schema
    return { name: (value: string) => name(value), minBytes: body?.minLength ?? 0 }
  })()
  // What each move leaves the task in, when taken: the lifecycle as /capabilities states it.
  const leadsTo: Record<string, ReadonlyArray<string>> = {
    acceptTask: ["accepted"],
    startTask: ["in_flight"],
    submitTask: ["submitted"],
    declineTask: ["declined", "matching", "awaiting_participant"]
  }
  const resultAjv = new Ajv2020({ strict: false, allErrors: false, validateFormats: true })
  addFormats.default(resultAjv)
  /** A value of a (small) JSON schema, as a participant fills a result's fields; Ajv judges it after. */
  const instanceOf = (schema: unknown, depth = 0): unknown => {
    const s = (schema ?? {}) as Record<string, unknown>
    if (Array.isArray(s.enum)) return pick(s.enum)
    if ("const" in s) return s.const
    if (s.type === "object" || (s.type === undefined && s.properties !== undefined)) {
      const out: Record<string, unknown> = {}
      const props = (s.properties ?? {}) as Record<string, unknown>
      const needed = (s.required ?? []) as ReadonlyArray<string>
      for (const [name, sub] of Object.entries(props))
        if (needed.includes(name) || random() < 0.5) out[name] = depth > 4 ? null : instanceOf(sub, depth + 1)
      return out
    }
    if (s.type === "integer") return Math.max(Number(s.minimum ?? 0), Math.floor(random() * 100))
    if (s.type === "number") return Math.round(random() * 1000) / 10 + 0.1
    if (s.type === "boolean") return random() < 0.5
    if (s.type === "array")
      return Array.from({ length: Math.floor(random() * 3) }, () => instanceOf(s.items, depth + 1))
    if (s.type === "string") return pick(["x", "ok", "é ✓", "a".repeat(Number(s.maxLength ?? 30))])
    return pick(["any", 1, null])
  }
  const spoilFields = (fields: unknown): unknown => {
    const roll = random()
    if (roll < 0.2) return pick(["fields", 7, ["x"], null])
    const out = { ...(typeof fields === "object" && fields !== null ? fields : {}) } as Record<string, unknown>
    const names = Object.keys(out)
    if (roll < 0.5 && names.length > 0) delete out[pick(names)]
    else if (roll < 0.8 && names.length > 0) out[pick(names)] = pick([{ nested: true }, "text", -1, 1.5, null])
    else out.unexpected = "member"
    return out
  }
  const summaries = ["Photographed the sign; it is legible.", " Done \u00a0", "é ✓ 写真", "s".repeat(4000)]
  const artifactsFor = (task: Task, by: string): { artifacts: Array<unknown>; ownFiles: boolean } => {
    const artifacts: Array<unknown> = []
    let ownFiles = true
    const mine = task.uploads.filter((upload) => upload.by === by)
    for (let i = Math.floor(random() * 3); i > 0; i--) {
      const roll = random()
      if (roll < 0.4 && mine.length > 0) {
        // Each file once (submitTask's description): the same one twice is refused.
        const id = pick(mine).id
        if (artifacts.some((a) => (a as { id?: string }).id === id)) ownFiles = false
        artifacts.push({ kind: "file", id, description: "evidence" })
      } else if (roll < 0.6) artifacts.push({ kind: "url", value: "https://example.com/photo.jpg" })
      else if (roll < 0.8) artifacts.push({ kind: "text", value: "The sign reads OPEN." })
      else {
        // A file this participant did not upload to this task, or that does not exist.
        const elsewhere = [...known.values()].flatMap((t) => (t === task ? [] : t.uploads))
        const other = task.uploads.find((upload) => upload.by !== by) ?? elsewhere[0]
        artifacts.push({ kind: "file", id: other?.id ?? "art_doesnotexist" })
        ownFiles = false
      }
    }
    return { artifacts, ownFiles }
  }
  const fileNames = ["photo.jpg", "notes.txt", "ü ✓ 写真.png", "../../etc/passwd", "a\u0001b.txt", "x".repeat(300), ""]
  const fileBytes = (): Uint8Array<ArrayBuffer> =>
    pick([
      new TextEncoder().encode("The sign reads OPEN."),
      Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]),
      new Uint8Array(0),
      new Uint8Array(2048).map((_, i) => (i * 31) & 0xff)
    ])

  // Mostly the move a task's state calls for; sometimes any move, which the lifecycle must refuse.
  const next: Record<string, ReadonlyArray<string>> = {
    awaiting_participant: ["acceptTask", "acceptTask", "declineTask"],
    accepted: ["startTask", "startTask", "uploadArtifact", "declineTask"],
    in_flight: ["submitTask", "submitTask", "uploadArtifact"]
  }
  /** One participant's round: read their tasks, or make a move on one, with their token or another. */
  const participantRound = async () => {
    const me = pick(signedIn)
    const others = signedIn.filter((p) => p.slug !== me.slug)
    const roll = random()
    const kind = roll < 0.75 ? "own" : roll < 0.88 && others.length > 0 ? "other" : roll < 0.94 ? "none" : "garbage"
    const owner = kind === "own" ? me : kind === "other" ? pick(others) : undefined
    const token =
      owner !== undefined
        ? await owner.token()
        : kind === "garbage"
          ? // …or an agent's task token: an agent cannot act as a participant.
            pick(["eyJhbGciOiJub25lIn0.e30.", "tt_x", "x".repeat(600), pick(tasks).token])
          : undefined
    const headers = withBearer(token === undefined ? undefined : `Bearer ${token}`)
    const holder = owner?.slug ?? "nobody"
    const theirs = [...known.values()].filter((t) => t.participant === me.slug)
    // Mostly a task waiting for them: an ended one only shows that every move on it is refused.
    const waiting = theirs.filter((t) => t.state in next)
    // With nothing to do, they read their list (offers appear there), as a participant would.
    if (waiting.length === 0 || random() < 0.15) {
      if (random() < 0.2) {
        // Who the token says they are: the participant it was got for, or a refusal without one.
        const answer = await send("me", {}, { headers })
        const slug = (answer.json as { participant?: { slug?: string } } | undefined)?.participant?.slug
        if ((owner !== undefined) !== (answer.status === 200))
          fail(`me answered ${answer.status} to ${holder}'s token: ${answer.line}`)
        if (answer.status === 200 && slug !== owner?.slug)
          fail(`me answered ${slug} to ${holder}'s token: ${answer.line}`)
        figures.participantStatuses[`me ${answer.status}`] =
          (figures.participantStatuses[`me ${answer.status}`] ?? 0) + 1
        return
      }
      const answer = await send("myTasks", {}, { headers })
      figures.participantStatuses[`myTasks ${answer.status}`] =
        (figures.participantStatuses[`myTasks ${answer.status}`] ?? 0) + 1
      if ((owner !== undefined) !== (answer.status === 200))
        fail(`myTasks answered ${answer.status} to ${holder}'s token: ${answer.line}`)
      if (answer.status === 200) {
        const caller = owner?.slug
        for (const listed of (answer.json as { data: ReadonlyArray<{ reference: string; participant_slug: string }> })
          .data) {
          if (caller !== undefined && listed.participant_slug !== caller)
            fail(`myTasks of ${caller} lists a task of ${listed.participant_slug}: ${listed.reference}`)
          const task = known.get(listed.reference)
          if (task !== undefined) observe(task, listed)
        }
      }
      return
    }
    const task = pick(random() < 0.85 ? waiting : theirs)
    if (random() < 0.25) return await asideRound(task, me)
    if (random() < 0.08 && task.state in next) return await race(task, me)
    const id =
      next[task.state] !== undefined && random() < 0.85
        ? pick(next[task.state] as ReadonlyArray<string>)
        : pick(participantIds.slice(1))
    const reference = random() < 0.97 ? task.reference : pick([`${task.reference}x`, "tsk_", "%00"])
    const path = { reference }
    let valid = true
    let expectTaken = kind === "own" && reference === task.reference
    let answer: Awaited<ReturnType<typeof send>>
    if (id === "uploadArtifact") {
      const name = pick(fileNames)
      const bytes = fileBytes()
      const query = random() < 0.9 ? `?${new URLSearchParams({ name })}` : ""
      // Valid by the document: the name by its parameter's schema, the bytes by the body's minLength.
      valid = query !== "" && uploads.name(name) === true && bytes.length >= uploads.minBytes
      expectTaken &&= valid && (task.state === "accepted" || task.state === "in_flight")
      answer = await send(id, path, { query, headers, bytes })
      if (answer.status === 201) {
        const file = answer.json as { id: string; uploader: string; reference: string }
        task.uploads.push({ id: file.id, by: me.slug, size: bytes.length })
        if (file.uploader !== me.slug || file.reference !== task.reference)
          fail(`an upload by ${me.slug} to ${task.reference} answered as another's: ${answer.line}`)
      }
    } else {
      let body: unknown
      let fieldsValid = true
      let ownFiles = true
      if (id === "declineTask") {
        body = pick([
          {},
          { reason: "Out of my area" },
          { reason: null },
          { reason: "r".repeat(4001) },
          { reason: 7 },
          []
        ])
      } else if (id === "submitTask") {
        const resultSchema = task.resultSchema
        let fields: unknown = instanceOf(resultSchema ?? { type: "object" })
        if (random() < 0.3) fields = spoilFields(fields)
        const made = artifactsFor(task, me.slug)
        ownFiles = made.ownFiles
        const submission: Record<string, unknown> = { summary: pick(summaries) }
        if (random() < 0.15) submission.summary = pick(["", "   ", 42, "s".repeat(4001)])
        if (random() < 0.05) delete submission.summary
        if (resultSchema !== undefined && resultSchema !== null) submission.fields = fields
        else if (random() < 0.5) submission.fields = fields
        if (made.artifacts.length > 0 || random() < 0.1) submission.artifacts = made.artifacts
        if (random() < 0.05) submission.artifacts = [{ kind: "photo", value: "x" }]
        if (random() < 0.05) submission.note = "an unknown member"
        body = submission
        if (resultSchema !== undefined && resultSchema !== null && typeof resultSchema === "object") {
          try {
            fieldsValid = resultAjv.validate(resultSchema as object, submission.fields ?? {}) === true
          } catch {
            fieldsValid = false
          }
        }
      }
      const schema = requestSchemaOf(id)
      if (schema !== undefined) valid = body !== undefined && schema(body) === true
      const state = task.state
      const allowed = id === "declineTask" ? state === "awaiting_participant" : next[state]?.includes(id) === true
      expectTaken &&= valid && fieldsValid && ownFiles && allowed
      answer = await send(id, path, body === undefined ? { headers } : { body, headers })
      if (answer.status === 200 && id === "submitTask")
        for (const artifact of (body as { artifacts?: ReadonlyArray<{ kind?: string; id?: string }> }).artifacts ?? [])
          if (artifact.kind === "file" && artifact.id !== undefined) task.attached.add(artifact.id)
      if (answer.status === 200 && !fieldsValid)
        fail(`a result whose fields the task's result_schema refuses was taken: ${answer.line}`)
      if (answer.status === 200 && !ownFiles)
        fail(`a result naming a file its participant did not upload to the task was taken: ${answer.line}`)
      if (answer.status === 200 && !(leadsTo[id] ?? []).includes((answer.json as { state: string }).state))
        fail(`${id} left the task ${(answer.json as { state: string }).state}: ${answer.line}`)
      const code = (answer.json as { error?: { code?: string } } | undefined)?.error?.code
      if (kind === "own" && valid && fieldsValid && answer.status === 422 && code === "result_invalid")
        fail(`fields the task's result_schema takes refused as result_invalid: ${answer.line}`)
      if (kind === "own" && valid && ownFiles && answer.status === 422 && code === "artifact_invalid")
        fail(`files the participant uploaded to the task refused as artifact_invalid: ${answer.line}`)
    }
    figures.participantStatuses[`${id} ${answer.status}`] =
      (figures.participantStatuses[`${id} ${answer.status}`] ?? 0) + 1
    const took = answer.status >= 200 && answer.status < 300
    if (!valid && took) fail(`a request invalid by the document taken: ${answer.line}`)
    if (valid && kind === "own" && answer.status === 400)
      fail(`a request valid by the document refused as malformed: ${answer.line}`)
    if (kind !== "own" && took) fail(`${id} on ${me.slug}'s task taken from ${holder}: ${answer.line}`)
    if ((kind === "none" || kind === "garbage") && answer.status !== 401)
      fail(`${id} without a valid token answered ${answer.status}: ${answer.line}`)
    if (kind === "own" && (answer.status === 401 || answer.status === 403) && reference === task.reference)
      fail(`${id} refused ${me.slug} on their own task: ${answer.line}`)
    if (expectTaken && !took && answer.status !== 409 && answer.status !== 422)
      fail(`${id} by the holder in state ${task.state} answered ${answer.status}: ${answer.line}`)
    if (took && answer.status === 200) {
      observe(task, answer.json)
      moved(id, answer.json)
      // A move changes the task, so the ETag the agent holds from before it no longer matches.
      if (task.etag !== undefined && random() < 0.3) {
        const read = await send("getTask", { reference: task.reference }, { headers: { "if-none-match": task.etag } })
        if (read.status === 304) fail(`a read with the ETag from before ${id} answered 304: ${read.line}`)
        if (read.status === 200) {
          observe(task, read.json)
          task.etag = read.headers.get("etag") ?? undefined
        }
      }
    } else if (took) moved(id, undefined)
    else if (answer.status === 409) await refresh(task)
  }

  /**
   * Two moves on one task at once, each valid on its own and each ruling the other out (the
   * participant's two answers to an offer, the agent's cancel against the participant's start, two
   * results): of two concurrent moves at most one is taken (docs/lifecycle.md), the other refused as
   * out of turn, and a read afterwards shows the winner's state.
   */
  const race = async (task: Task, me: SignedInParticipant) => {
    const token = { authorization: `Bearer ${await me.token()}` }
    const agent = { authorization: `Bearer ${task.token}` }
    const result = { summary: "Done.", fields: instanceOf(task.resultSchema ?? { type: "object" }) }
    const moves: Record<string, ReadonlyArray<readonly [string, () => Promise<Awaited<ReturnType<typeof send>>>]>> = {
      // (Not accept against cancel: cancel is allowed after an accept too, so both may be taken.)
      awaiting_participant: [
        ["acceptTask", () => send("acceptTask", { reference: task.reference }, { headers: token })],
        ["declineTask", () => send("declineTask", { reference: task.reference }, { body: {}, headers: token })]
      ],
      accepted: [
        ["startTask", () => send("startTask", { reference: task.reference }, { headers: token })],
        ["cancelTask", () => send("cancelTask", { reference: task.reference }, { body: {}, headers: agent })]
      ],
      in_flight: [
        ["submitTask", () => send("submitTask", { reference: task.reference }, { body: result, headers: token })],
        ["submitTask", () => send("submitTask", { reference: task.reference }, { body: result, headers: token })]
      ]
    }
    const pair = moves[task.state]
    if (pair === undefined) return
    const answers = await Promise.all(pair.map(([, move]) => move()))
    const taken = answers.filter((answer) => answer.status === 200)
    const names = pair.map(([id]) => id).join(" and ")
    figures.participantStatuses[`race ${taken.length} of 2`] =
      (figures.participantStatuses[`race ${taken.length} of 2`] ?? 0) + 1
    if (taken.length > 1)
      fail(`${names} at once on one task were both taken: ${answers.map((a) => a.line).join(" | ")}`)
    for (const answer of answers)
      if (answer.status !== 200 && answer.status !== 409 && answer.status !== 422)
        fail(`${names} at once answered ${answer.status}: ${answer.line}`)
    const winner = taken[0]
    const read = await send("getTask", { reference: task.reference }, {})
    if (read.status === 200) observe(task, read.json)
    if (winner !== undefined) {
      const [id] = pair[answers.indexOf(winner)] as readonly [string, unknown]
      moved(id, winner.json)
      const said = (winner.json as { state: string }).state
      // The winner's state, or one a timer or the simulated side may have moved it on to since.
      if (read.status === 200 && task.state !== said && !(said === "submitted" && task.state === "settled"))
        fail(`${names} at once: the winner answered ${said}, a read after shows ${task.state}: ${winner.line}`)
    }
  }

  /**
   * What is not a move, on a participant's task: its conversation (postMessage, listMessages) and
   * its files (downloadArtifact), by the participant, another one, the agent (its task token), a
   * garbage token or none. Who may do what is the operations' descriptions in the document.
   */
  const asideRound = async (task: Task, me: SignedInParticipant) => {
    const others = signedIn.filter((p) => p.slug !== me.slug)
    const id = pick(
      task.uploads.length > 0 ? ["postMessage", "listMessages", "downloadArtifact"] : ["postMessage", "listMessages"]
    )
    const roll = random()
    const kind =
      roll < 0.55
        ? "own"
        : roll < 0.7 && others.length > 0
          ? "other"
          : roll < 0.85
            ? "agent"
            : roll < 0.93
              ? "none"
              : "garbage"
    const authorization =
      kind === "own"
        ? `Bearer ${await me.token()}`
        : kind === "other"
          ? `Bearer ${await pick(others).token()}`
          : kind === "agent"
            ? `Bearer ${task.token}`
            : kind === "garbage"
              ? "Bearer tt_x"
              : undefined
    const headers = withBearer(authorization)
    const ended = ["settled", "declined", "cancelled"].includes(task.state)
    // A participant who declined or let the offer lapse no longer reads or writes the thread.
    const gone = task.outcome === "declined:participant_declined" || task.outcome === "declined:accept_timeout"
    let answer: Awaited<ReturnType<typeof send>>
    if (id === "downloadArtifact") {
      const upload = pick(task.uploads)
      answer = await send(id, { reference: task.reference, id: upload.id }, { headers })
      const mayRead = (kind === "own" && upload.by === me.slug) || (kind === "agent" && task.attached.has(upload.id))
      if (mayRead && answer.status !== 200)
        fail(
          `${id} of a file ${kind === "own" ? "its uploader" : "the agent"} may read answered ${answer.status}: ${answer.line}`
        )
      if (!mayRead && answer.status === 200)
        fail(`${id} answered 200 to ${kind === "own" ? "another uploader" : kind}: ${answer.line}`)
      if (answer.status === 200 && answer.bytes.length !== upload.size)
        fail(`${id} answered ${answer.bytes.length} bytes of a ${upload.size}-byte file: ${answer.line}`)
    } else if (id === "listMessages") {
      answer = await send(id, { reference: task.reference }, { headers })
      const mayRead = kind === "agent" || (kind === "own" && !gone)
      if (mayRead && answer.status !== 200) fail(`${id} by ${kind} answered ${answer.status}: ${answer.line}`)
      if (!mayRead && answer.status === 200 && kind !== "own") fail(`${id} answered 200 to ${kind}: ${answer.line}`)
    } else {
      const body = pick<unknown>([
        { body: "Which entrance?" },
        { body: " The left one \u00a0" },
        { body: "m".repeat(4000) },
        { body: "m".repeat(4001) },
        { body: "   " },
        { body: 7 },
        {},
        { body: "é ✓ 写真", extra: 1 }
      ])
      const valid = requestSchemaOf(id)?.(body) === true
      answer = await send(id, { reference: task.reference }, { body, headers })
      const mayWrite = (kind === "agent" || (kind === "own" && !gone)) && !ended && task.participant !== null
      if (!valid && answer.status === 201) fail(`a message invalid by the document taken: ${answer.line}`)
      if (valid && mayWrite && answer.status !== 201 && answer.status !== 409)
        fail(`${id} by ${kind} answered ${answer.status}: ${answer.line}`)
      if ((kind === "other" || kind === "none" || kind === "garbage") && answer.status === 201)
        fail(`${id} taken from ${kind}: ${answer.line}`)
      if (answer.status === 201) moved(id, undefined)
    }
    if ((kind === "none" || kind === "garbage") && answer.status !== 401)
      fail(`${id} without a valid token answered ${answer.status}: ${answer.line}`)
    figures.participantStatuses[`${id} ${answer.status}`] =
      (figures.participantStatuses[`${id} ${answer.status}`] ?? 0) + 1
  }

  /** Moves the sandbox's clock: offers lapse, review windows close, deadlines pass. */
  const moveClock = async (clock: string) => {
    const response = await fetch(clock, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ advance: pick(["PT25H", "PT73H", "PT6H"]) })
    })
    await response.text()
    figures.requests++
    if (response.status !== 200) fail(`the sandbox clock answered ${response.status}`)
    else moved("sandbox clock", undefined)
  }

  const deadline = Date.now() + options.seconds * 1000
  for (let round = 0; Date.now() < deadline && round < (options.rounds ?? Number.POSITIVE_INFINITY); round++) {
    const roll = random()
    if (options.clock !== undefined && roll < 0.003) await moveClock(options.clock)
    else if (tasks.length === 0 || roll < 0.25) await createOne()
    else if (participantOps.length > 0 && roll < 0.6) await participantRound()
    else {
      // A submitted result waits for its agent: half the agent's rounds go to one, if any.
      const submitted = [...known.values()].filter((task) => task.state === "submitted")
      await follow(pick(submitted.length > 0 && random() < 0.5 ? submitted : tasks))
    }
  }
  for (const task of known.values())
    for (const state of task.seen) figures.statesReached[state] = (figures.statesReached[state] ?? 0) + 1
  return figures
}

const ajvSays = (validate: ValidateFunction) =>
  (validate.errors ?? [])
    .map((e) => `${e.instancePath || "/"} ${e.message ?? ""}`)
    .join("; ")
    .slice(0, 200)
