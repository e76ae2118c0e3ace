/**
 * A value of a JSON schema, as a careful client makes one, for the walks of the fuzzer's stateful
 * phase: a result's fields from a task's `result_schema` (scripts/fuzz_participant_walk.ts) and a
 * tool's arguments from its `inputSchema` (scripts/fuzz_mcp_walk.ts). Drawn from the run's seeded
 * source, so a seed makes the same values; Ajv judges them after, so the service's answer to them is
 * checked, never assumed.
 */
import type { Run } from "./fuzz_run.ts"

type JsonSchema = Readonly<Record<string, unknown>>

/** A `$ref` into the root's own `$defs`, followed. */
const resolved = (schema: JsonSchema, root: JsonSchema): JsonSchema => {
  const ref = schema.$ref
  if (typeof ref !== "string" || !ref.startsWith("#/$defs/")) return schema
  return resolved(((root.$defs ?? {}) as Record<string, JsonSchema>)[ref.slice(8)] ?? {}, root)
}

/** A value of `schema` (its `$ref`s into `root`'s `$defs`): members it requires, others now and then. */
export const schemaValue = (
  source: Pick<Run, "random" | "pick">,
  schema: unknown,
  root: JsonSchema = (schema ?? {}) as JsonSchema,
  depth = 0
): unknown => {
  const { random, pick } = source
  const s = resolved((schema ?? {}) as JsonSchema, root)
  const branches = (s.anyOf ?? s.oneOf) as ReadonlyArray<JsonSchema> | undefined
  if (branches !== undefined) {
    const some = branches.filter((b) => resolved(b, root).type !== "null")
    return schemaValue(source, pick(some.length > 0 ? some : branches), root, depth)
  }
  if (Array.isArray(s.enum)) return pick(s.enum)
  if ("const" in s) return s.const
  const type = Array.isArray(s.type) ? (s.type.find((t) => t !== "null") ?? "null") : s.type
  if (type === "object" || (type === undefined && s.properties !== undefined)) {
    const out: Record<string, unknown> = {}
    const needed = (s.required ?? []) as ReadonlyArray<string>
    for (const [name, sub] of Object.entries((s.properties ?? {}) as Record<string, unknown>))
      if (needed.includes(name) || (depth < 3 && random() < 0.5)) out[name] = schemaValue(source, sub, root, depth + 1)
    return out
  }
  if (type === "array")
    return depth > 3
      ? []
      : Array.from({ length: Math.floor(random() * 3) }, () => schemaValue(source, s.items, root, depth + 1))
  if (type === "integer") return Math.max(Number(s.minimum ?? 0), Math.floor(random() * 100))
  if (type === "number") return Math.round(random() * 1000) / 10 + 0.1
  if (type === "boolean") return random() < 0.5
  if (type === "null") return null
  if (type === "string") {
    if (s.format === "uri") return "https://example.com/x"
    const most = Number(s.maxLength ?? 200)
    return pick(["x", "ok, done", "é ✓", "a".repeat(Math.min(most, 30))])
      .padEnd(Number(s.minLength ?? 1), "x")
      .slice(0, most)
  }
  return pick(["any", 1, null])
}
