/**
 * Create bodies for the fuzzer's stateful phase (scripts/fuzz_stateful.ts), built from the
 * document's TaskDraft schema: its required members, the ExecutionMode enum in any letter case, the
 * bounds and examples each member states, null and "" where the schema takes them, an unknown
 * member; sometimes spoiled (a member past its bound, of the wrong type, a required one missing or
 * blank). Ajv over the document (`draftIsValid`) gives the verdict the service's answers must agree with.
 */
import type { SandboxClock } from "./fuzz_deadlines.ts"
import { pointer, type Schema } from "./fuzz_document.ts"
import type { Run } from "./fuzz_run.ts"

/** A member's bound as its pattern states it (`[\s\S]{0,N}` after trimming). */
const boundOf = (schema: Schema): number | undefined => {
  const found = /\[\\s\\S\]\{0,(\d+)\}/.exec(JSON.stringify(schema).replaceAll("\\\\", "\\"))
  return found === null ? undefined : Number(found[1])
}

const nullable = (schema: Schema) => JSON.stringify(schema).includes('"type":"null"')

const examplesOf = (schema: Schema): ReadonlyArray<unknown> =>
  Array.isArray(schema.examples) ? (schema.examples as ReadonlyArray<unknown>) : []

/** The run's drafts, and the document's verdict on a draft and on an idempotency-key header. */
export const draftsOf = (run: Run) => {
  const { document, random, pick, validator, operation, clock } = run
  /** A deadline a few hours ahead of the sandbox's clock, which the deadline walk passes (scripts/fuzz_deadlines.ts). */
  const soon = (at: SandboxClock) => {
    const deadline = new Date(at.now() + pick([1, 2, 5, 9]) * 3600_000 + Math.floor(random() * 3600) * 1000)
    return `${pick(["by ", "before ", ""])}${deadline.toISOString().replace(/\.\d{3}Z$/, "Z")}`
  }
  const created = operation("createTask")
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
  const participants = run.participants
  const signedIn = run.signedIn
  let unique = 0
  /** A number not used before in the run (idempotency keys). */
  const nextUnique = () => unique++

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
        `key-${Date.now()}-${nextUnique()}-${Math.floor(random() * 1e9)}`,
        `k${" ".repeat(14)}${nextUnique()}`,
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
      return clock !== undefined && random() < 0.6
        ? soon(clock)
        : pick([null, "", "by 2030-12-01T17:00:00Z", "by 2001-01-01T00:00:00Z", "this week", ...examplesOf(schema)])
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
    if (signedIn.length > 0 && random() < 0.33) {
      body.participant_slug = pick(signedIn).slug
      // Half of theirs with a deadline ahead, which the deadline walk may pass once they hold it.
      if (clock !== undefined && random() < 0.5) body.timing = soon(clock)
    }
    const spoiled = random() < 0.35
    if (spoiled) {
      const name = pick(Object.keys(properties))
      if (required.includes(name) && random() < 0.3) delete body[name]
      else body[name] = invalidValue(name, properties[name] as Schema)
    }
    return { body, spoiled }
  }

  return { draft, draftIsValid, idempotencyKeyIsValid, nextUnique }
}

export type Drafts = ReturnType<typeof draftsOf>
