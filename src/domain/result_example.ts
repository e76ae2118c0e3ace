/**
 * Example result fields made from a task's result_schema (JSON Schema 2020-12): what the sandbox's
 * simulated participants submit (services/simulator.ts). Pure.
 *
 * The values read as a person would write them — "Simulated shop name", a number in the middle of
 * its range, a real-looking date, address or link — and the schema's own `examples` and `default`
 * are preferred when they fit. `anyOf`/`oneOf` branches are tried in turn, `allOf` and `$ref`
 * (`#/...` inside the schema) are merged in simply. Whatever is made is checked at the end by the
 * validator that judges a submission (`resultFieldFailures`): a schema this cannot satisfy (a
 * `pattern` no example matches, `not`, `if`/`then`…) gives `undefined`, never fields the service
 * would refuse.
 */
import { canonicalJson, resultFieldFailures } from "./result_schema.ts"

type Node = Readonly<Record<string, unknown>>
/** A JSON Schema: an object, or `true` (anything) / `false` (nothing). */
type JsonSchema = boolean | Node
/** A value made for a schema; `undefined` when none could be. */
type Made = { readonly value: unknown } | undefined

interface Context {
  readonly root: Node
  /** How deep in the schema this value sits (objects, arrays, branches, references). */
  readonly depth: number
  /** Words naming the value (its member's name), for readable text. */
  readonly hint: string
  /** Which of several values to make: the items of an array differ from one another. */
  readonly variant: number
  /** Steps left: a hostile schema (a reference to itself in every branch) ends, unsatisfied. */
  readonly budget: { left: number }
}

/** Past this depth, optional members and array items are left out (recursive schemas end there). */
const optionalDepth = 6
const maxDepth = 32

const isNode = (value: unknown): value is Node => typeof value === "object" && value !== null && !Array.isArray(value)
const isSchema = (value: unknown): value is JsonSchema => typeof value === "boolean" || isNode(value)
const schemasOf = (value: unknown): ReadonlyArray<JsonSchema> => (Array.isArray(value) ? value.filter(isSchema) : [])
const stringsOf = (value: unknown): ReadonlyArray<string> =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : []
const numberOf = (value: unknown): number | undefined =>
  typeof value === "number" && Number.isFinite(value) ? value : undefined
const countOf = (value: unknown): number | undefined => {
  const n = numberOf(value)
  return n !== undefined && Number.isInteger(n) && n >= 0 ? n : undefined
}
/** An object from entries, every name an own member (`__proto__` included). */
const objectOf = (entries: Iterable<readonly [string, unknown]>): Record<string, unknown> => Object.fromEntries(entries)

const spend = (ctx: Context) => ctx.budget.left-- > 0

// ---- $ref and allOf, merged in ----------------------------------------------------------------

/** The schema a local reference (`#`, `#/$defs/name`, any JSON Pointer in the schema) names. */
const resolve = (root: Node, ref: string): JsonSchema | undefined => {
  if (!ref.startsWith("#")) return undefined
  if (ref === "#") return root
  if (!ref.startsWith("#/")) return undefined
  let current: unknown = root
  for (const token of ref.slice(2).split("/")) {
    let name: string
    try {
      name = decodeURIComponent(token).replaceAll("~1", "/").replaceAll("~0", "~")
    } catch {
      return undefined
    }
    if (isNode(current) && Object.hasOwn(current, name)) current = current[name]
    else if (Array.isArray(current) && /^\d+$/.test(name)) current = current[Number(name)]
    else return undefined
  }
  return isSchema(current) ? current : undefined
}

const typeNames = ["object", "array", "string", "integer", "number", "boolean", "null"] as const
type TypeName = (typeof typeNames)[number]
const isTypeName = (value: unknown): value is TypeName => typeNames.includes(value as TypeName)

const declaredTypes = (node: Node): ReadonlyArray<TypeName> | undefined =>
  typeof node.type === "string"
    ? [node.type].filter(isTypeName)
    : Array.isArray(node.type)
      ? node.type.filter(isTypeName)
      : undefined

/** The types both allow: an integer is a number. */
const commonTypes = (a: ReadonlyArray<TypeName>, b: ReadonlyArray<TypeName>): ReadonlyArray<TypeName> => {
  const allows = (types: ReadonlyArray<TypeName>, type: TypeName) =>
    types.includes(type) || (type === "integer" && types.includes("number"))
  return [...new Set([...a, ...b])].filter((type) => allows(a, type) && allows(b, type))
}

const lowerBounds = new Set(["minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties"])
const upperBounds = new Set(["maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties"])
const subschemaKeywords = new Set(["items", "additionalProperties", "contains", "propertyNames"])

/**
 * Both schemas at once, merged simply: members' schemas merged, required members and types
 * combined, the tighter bound kept, enums intersected. `false` when they cannot both hold (no
 * type in common, no enum value in common, two consts). Any other keyword both have keeps the
 * first one's value; the final check catches what that misses.
 */
const merge = (a: JsonSchema, b: JsonSchema): JsonSchema => {
  if (a === false || b === false) return false
  if (a === true) return b
  if (b === true) return a
  const merged = new Map(Object.entries(a))
  for (const [key, theirs] of Object.entries(b)) {
    if (!merged.has(key)) {
      merged.set(key, theirs)
      continue
    }
    const mine = merged.get(key)
    if (key === "properties" && isNode(mine) && isNode(theirs)) {
      const members = new Map(Object.entries(mine))
      for (const [name, schema] of Object.entries(theirs)) {
        const own = members.get(name)
        members.set(name, isSchema(own) && isSchema(schema) ? merge(own, schema) : schema)
      }
      merged.set(key, objectOf(members))
    } else if (key === "required") {
      merged.set(key, [...new Set([...stringsOf(mine), ...stringsOf(theirs)])])
    } else if (key === "type") {
      const types = commonTypes(declaredTypes(a) ?? [], declaredTypes(b) ?? [])
      if (types.length === 0) return false
      merged.set(key, types.length === 1 ? types[0] : types)
    } else if (lowerBounds.has(key) || upperBounds.has(key)) {
      const [x, y] = [numberOf(mine), numberOf(theirs)]
      if (x !== undefined && y !== undefined) merged.set(key, lowerBounds.has(key) ? Math.max(x, y) : Math.min(x, y))
    } else if (key === "enum" && Array.isArray(mine) && Array.isArray(theirs)) {
      const allowed = new Set(theirs.map(canonicalJson))
      const common = mine.filter((value) => allowed.has(canonicalJson(value)))
      if (common.length === 0) return false
      merged.set(key, common)
    } else if (key === "const") {
      if (canonicalJson(mine) !== canonicalJson(theirs)) return false
    } else if (subschemaKeywords.has(key) && isSchema(mine) && isSchema(theirs)) {
      merged.set(key, merge(mine, theirs))
    } else if ((key === "allOf" || key === "examples") && Array.isArray(mine) && Array.isArray(theirs)) {
      merged.set(key, [...mine, ...theirs])
    } else if (key === "$ref") {
      // Two references: the second is merged in later, through allOf.
      const allOf = merged.get("allOf")
      merged.set("allOf", [...(Array.isArray(allOf) ? allOf : []), { $ref: theirs }])
    }
  }
  return objectOf(merged)
}

/**
 * The schema with its `$ref` and `allOf` merged into it; `false` past `maxDepth` references within
 * references (a schema that is only a reference to itself).
 */
const flatten = (schema: JsonSchema, ctx: Context, hops = 0): JsonSchema => {
  if (typeof schema === "boolean") return schema
  if (hops > maxDepth || !spend(ctx)) return false
  const { $ref, allOf, ...rest } = schema
  let flat: JsonSchema = rest
  if (typeof $ref === "string") {
    const target = resolve(ctx.root, $ref)
    if (target === undefined) return false
    flat = merge(flatten(target, ctx, hops + 1), flat)
  }
  for (const part of schemasOf(allOf)) flat = merge(flat, flatten(part, ctx, hops + 1))
  // A merge may have brought in another reference (two `$ref`s met).
  return typeof flat === "object" && (Object.hasOwn(flat, "$ref") || Object.hasOwn(flat, "allOf"))
    ? flatten(flat, ctx, hops + 1)
    : flat
}

/**
 * Whether `value` satisfies `schema`, judged by the same validator as a submission: the schema is
 * wrapped as a member of an object beside the root's definitions, so its `#/$defs/…` references
 * resolve. A wrapper the validator cannot use says yes; the final check is the one that counts.
 *
 * Not for a schema naming an `$id` anywhere: the validator is shared, and compiling a nested `$id`
 * registers it for good, so the task's own schema (which declares it at its root) could no longer
 * be compiled. Such a value is taken unchecked, and the final check judges it.
 */
const fits = (ctx: Context, schema: JsonSchema, value: unknown): boolean => {
  const definitions = Object.entries(ctx.root).filter(([key]) => key === "$defs" || key === "definitions")
  const member =
    typeof schema === "boolean" ? schema : objectOf(Object.entries(schema).filter(([k]) => k !== "$schema"))
  const wrapper = objectOf([
    ...definitions,
    ["type", "object"],
    ["properties", { value: member }],
    ["required", ["value"]]
  ])
  if (canonicalJson(wrapper).includes('"$id":')) return true
  return accepts(wrapper, { value })
}

/**
 * Whether the validator accepts `fields`; no when it throws, as it does (stack exhausted) on a
 * schema that refers to itself without consuming the value (`{"anyOf": [{"$ref": "#"}]}`).
 */
const accepts = (schema: Node, fields: Readonly<Record<string, unknown>>): boolean => {
  try {
    return resultFieldFailures(schema, fields).length === 0
  } catch {
    return false
  }
}

// ---- values ----------------------------------------------------------------------------------

const child = (ctx: Context, hint: string, variant = ctx.variant): Context => ({
  ...ctx,
  depth: ctx.depth + 1,
  hint: hint.replace(/[_\-.]+/g, " ").trim(),
  variant
})

/** Readable text naming the value: "Simulated shop name", "Simulated shop name 2". */
const phrase = (ctx: Context): string =>
  `Simulated ${ctx.hint === "" ? "value" : ctx.hint}${ctx.variant === 0 ? "" : ` ${ctx.variant + 1}`}`

const pad2 = (n: number) => String(n).padStart(2, "0")

/** A value of each string format Ajv knows (ajv-formats), the n-th of several. */
const formatted: Readonly<Record<string, (n: number) => string>> = {
  "date-time": (n) => `2030-01-${pad2(15 + (n % 14))}T09:30:00Z`,
  "iso-date-time": (n) => `2030-01-${pad2(15 + (n % 14))}T09:30:00Z`,
  date: (n) => `2030-01-${pad2(15 + (n % 14))}`,
  time: (n) => `${pad2(9 + (n % 12))}:30:00Z`,
  "iso-time": (n) => `${pad2(9 + (n % 12))}:30:00Z`,
  duration: (n) => `PT${n + 1}H`,
  email: (n) => `sim-participant${n === 0 ? "" : `-${n + 1}`}@example.com`,
  "idn-email": (n) => `sim-participant${n === 0 ? "" : `-${n + 1}`}@example.com`,
  uri: (n) => `https://example.com/simulated/result/${n + 1}`,
  url: (n) => `https://example.com/simulated/result/${n + 1}`,
  iri: (n) => `https://example.com/simulated/result/${n + 1}`,
  "uri-reference": (n) => `https://example.com/simulated/result/${n + 1}`,
  "iri-reference": (n) => `https://example.com/simulated/result/${n + 1}`,
  "uri-template": (n) => `https://example.com/simulated/{id}/${n + 1}`,
  uuid: (n) => `6f0e2a44-1c3b-4d5e-8f70-${String(n + 1).padStart(12, "0")}`,
  hostname: (n) => `sim-${n + 1}.example.com`,
  "idn-hostname": (n) => `sim-${n + 1}.example.com`,
  ipv4: (n) => `192.0.2.${(n % 254) + 1}`,
  ipv6: (n) => `2001:db8::${(n % 65534) + 1}`,
  regex: () => "^simulated$",
  "json-pointer": (n) => `/simulated/${n}`,
  "json-pointer-uri-fragment": (n) => `#/simulated/${n}`,
  "relative-json-pointer": (n) => `${n}`,
  byte: () => "c2ltdWxhdGVk",
  binary: () => "simulated",
  password: (n) => `simulated-password-${n + 1}`
}

const codePoints = (text: string) => Array.from(text)

const makeString = (node: Node, ctx: Context): Made => {
  const min = countOf(node.minLength) ?? 0
  const max = countOf(node.maxLength) ?? Number.POSITIVE_INFINITY
  const format = typeof node.format === "string" ? formatted[node.format] : undefined
  let text: string
  if (format !== undefined) {
    text = format(ctx.variant)
  } else {
    // Long enough by repeating the phrase, short enough by cutting it.
    const words = phrase(ctx)
    const repeated = codePoints(words.length >= min ? words : `${words}. `.repeat(Math.ceil(min / words.length) + 1))
    text = repeated.slice(0, Math.min(max, Math.max(min, codePoints(words).length))).join("")
  }
  const length = codePoints(text).length
  if (length < min || length > max) return undefined
  // A pattern is not written to: the text is used only if it happens to match.
  if (typeof node.pattern === "string" && !fits(ctx, node, text)) return undefined
  return { value: text }
}

/**
 * A number within the bounds, a multiple of `multipleOf` as the validator judges it (`value /
 * multipleOf` a whole number, floating point and all): the middle of a range (3 for 1–5, 50 for
 * 0–100), else the lower bound, else 42 — searched outward from there.
 */
const makeNumber = (node: Node, integer: boolean, ctx: Context): Made => {
  const minimum = numberOf(node.minimum)
  const exclusiveMinimum = numberOf(node.exclusiveMinimum)
  const maximum = numberOf(node.maximum)
  const exclusiveMaximum = numberOf(node.exclusiveMaximum)
  const multipleOf = numberOf(node.multipleOf)
  const step = multipleOf !== undefined && multipleOf > 0 ? multipleOf : undefined
  const fitsBounds = (v: number) =>
    Number.isFinite(v) &&
    (minimum === undefined || v >= minimum) &&
    (exclusiveMinimum === undefined || v > exclusiveMinimum) &&
    (maximum === undefined || v <= maximum) &&
    (exclusiveMaximum === undefined || v < exclusiveMaximum) &&
    (!integer || Number.isInteger(v)) &&
    (step === undefined || Number.isInteger(v / step))
  const lows = [minimum, exclusiveMinimum].filter((n) => n !== undefined)
  const highs = [maximum, exclusiveMaximum].filter((n) => n !== undefined)
  const low = lows.length === 0 ? undefined : Math.max(...lows)
  const high = highs.length === 0 ? undefined : Math.min(...highs)
  const unit = step ?? 1
  const preferred =
    (low !== undefined && high !== undefined
      ? (low + high) / 2
      : low !== undefined
        ? low
        : high !== undefined
          ? Math.min(high, 42)
          : 42) +
    ctx.variant * unit
  // Floating point can make the middle 0.15000000000000002: shown as 0.15, if that still fits.
  const tidy = (n: number) => Number(n.toPrecision(15))
  if (step === undefined && fitsBounds(tidy(preferred))) return { value: tidy(preferred) }
  const base = Math.round(preferred / unit)
  for (let i = 0; i < 200; i++) {
    for (const k of i === 0 ? [base] : [base + i, base - i]) {
      const value = tidy(k * unit)
      if (fitsBounds(value)) return { value }
    }
  }
  return undefined
}

const makeObject = (node: Node, ctx: Context): Made => {
  const properties = isNode(node.properties) ? Object.entries(node.properties).filter(([, s]) => isSchema(s)) : []
  const required = new Set(stringsOf(node.required))
  const additional = isSchema(node.additionalProperties) ? node.additionalProperties : true
  const optionalToo = ctx.depth < optionalDepth
  const fields = new Map<string, unknown>()
  const add = (name: string, schema: JsonSchema, needed: boolean): boolean => {
    const made = make(schema, child(ctx, name))
    if (made !== undefined) fields.set(name, made.value)
    return made !== undefined || !needed
  }
  for (const [name, schema] of properties) {
    const needed = required.has(name)
    if ((needed || optionalToo) && !add(name, schema as JsonSchema, needed)) return undefined
  }
  // A member required without being described: whatever other members may be.
  for (const name of required) if (!fields.has(name) && !add(name, additional, true)) return undefined
  // Members another member's presence requires.
  const dependents = isNode(node.dependentRequired) ? node.dependentRequired : {}
  for (const [name, names] of Object.entries(dependents)) {
    if (!fields.has(name)) continue
    for (const other of stringsOf(names)) {
      const described = properties.find(([n]) => n === other)?.[1] as JsonSchema | undefined
      if (!fields.has(other) && !add(other, described ?? additional, true)) return undefined
    }
  }
  const minProperties = countOf(node.minProperties) ?? 0
  for (let i = 1; fields.size < minProperties; i++) {
    if (!add(`${ctx.hint === "" ? "field" : ctx.hint} ${i}`.replaceAll(" ", "_"), additional, true)) return undefined
  }
  const maxProperties = countOf(node.maxProperties) ?? Number.POSITIVE_INFINITY
  for (const name of [...fields.keys()].reverse()) {
    if (fields.size <= maxProperties) break
    if (!required.has(name)) fields.delete(name)
  }
  return fields.size <= maxProperties ? { value: objectOf(fields) } : undefined
}

const makeArray = (node: Node, ctx: Context): Made => {
  const prefix = schemasOf(node.prefixItems)
  const items = isSchema(node.items) ? node.items : true
  const contains = isSchema(node.contains) ? node.contains : undefined
  const min = Math.max(countOf(node.minItems) ?? 0, contains === undefined ? 0 : (countOf(node.minContains) ?? 1))
  const max = countOf(node.maxItems) ?? Number.POSITIVE_INFINITY
  // An item at least, where one may be: an empty list shows little of what was asked for.
  const wanted = Math.max(
    min,
    prefix.length,
    ctx.depth < optionalDepth && (prefix.length > 0 || items !== false) ? 1 : 0
  )
  const count = Math.min(wanted, max)
  if (count < min) return undefined
  const values: Array<unknown> = []
  for (let i = 0; i < count; i++) {
    const described = i < prefix.length ? prefix[i]! : items
    const schema = contains !== undefined && i === 0 ? merge(described, contains) : described
    const made = make(schema, child(ctx, ctx.hint, ctx.variant + i))
    if (made === undefined) {
      if (i < min) return undefined
      break
    }
    values.push(made.value)
  }
  return { value: values }
}

/** The types a schema without `type` may be, from its keywords; anything (text first) otherwise. */
const inferredTypes = (node: Node): ReadonlyArray<TypeName> => {
  const has = (...keys: Array<string>) => keys.some((key) => Object.hasOwn(node, key))
  if (has("properties", "required", "additionalProperties", "minProperties", "maxProperties", "patternProperties"))
    return ["object"]
  if (has("items", "prefixItems", "minItems", "maxItems", "contains", "uniqueItems")) return ["array"]
  if (has("minLength", "maxLength", "pattern", "format")) return ["string"]
  if (has("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf")) return ["number"]
  return ["string", "number", "boolean", "object", "array", "null"]
}

const byType = (type: TypeName, node: Node, ctx: Context): Made => {
  switch (type) {
    case "object":
      return makeObject(node, ctx)
    case "array":
      return makeArray(node, ctx)
    case "string":
      return makeString(node, ctx)
    case "integer":
      return makeNumber(node, true, ctx)
    case "number":
      return makeNumber(node, false, ctx)
    case "boolean":
      return { value: ctx.variant % 2 === 0 }
    case "null":
      return { value: null }
  }
}

/** A value for `schema`, or undefined when none could be made. */
const make = (schema: JsonSchema, ctx: Context): Made => {
  if (ctx.depth > maxDepth || !spend(ctx)) return undefined
  const node = flatten(schema, ctx)
  if (node === false) return undefined
  if (node === true) return { value: phrase(ctx) }
  // What the schema offers itself, when it fits: its examples, then its default.
  const offered = [...(Array.isArray(node.examples) ? node.examples : []), ...("default" in node ? [node.default] : [])]
  for (const value of offered) if (fits(ctx, node, value)) return { value }
  if (Object.hasOwn(node, "const")) return { value: node.const }
  if (Array.isArray(node.enum)) {
    const allowed = node.enum.filter((value) => fits(ctx, node, value))
    return allowed.length === 0 ? undefined : { value: allowed[ctx.variant % allowed.length] }
  }
  // Each branch in turn, with the keywords beside it: the first whose value the whole schema takes.
  for (const keyword of ["anyOf", "oneOf"] as const) {
    if (!Array.isArray(node[keyword])) continue
    const { [keyword]: branches, ...rest } = node
    let first: Made
    // A branch that allows only null is tried last: a value says more.
    const onlyNull = (branch: JsonSchema) => isNode(branch) && branch.type === "null"
    const ordered = [...schemasOf(branches)].sort((a, b) => Number(onlyNull(a)) - Number(onlyNull(b)))
    for (const branch of ordered) {
      const made = make(merge(rest, flatten(branch, ctx)), child(ctx, ctx.hint))
      if (made === undefined) continue
      if (fits(ctx, node, made.value)) return made
      first ??= made
    }
    return first
  }
  const declared = declaredTypes(node)
  // A nullable value is given a value, not null.
  const types =
    declared === undefined
      ? inferredTypes(node)
      : [...declared.filter((type) => type !== "null"), ...declared.filter((type) => type === "null")]
  for (const type of types) {
    const made = byType(type, node, ctx)
    if (made !== undefined) return made
  }
  return undefined
}

/**
 * Fields that satisfy `schema` (a task's result_schema), or undefined when none could be made
 * that the submission's own check accepts.
 */
export const exampleFields = (schema: Readonly<Record<string, unknown>>): Record<string, unknown> | undefined => {
  const ctx: Context = { root: schema, depth: 0, hint: "", variant: 0, budget: { left: 10_000 } }
  // The fields are an object, whatever else the schema allows.
  const made = make(merge(schema, { type: "object" }), ctx)
  if (made === undefined || !isNode(made.value)) return undefined
  const fields = made.value as Record<string, unknown>
  return accepts(schema, fields) ? fields : undefined
}
