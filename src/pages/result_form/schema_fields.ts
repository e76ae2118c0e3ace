/**
 * From a task's `result_schema` to the result form's fields (`formFieldsOf`): which control stands
 * for each property, its label, hint and the rules HTML can check; what the controls cannot stand
 * for becomes a JSON box. Also the control names and labels (`controlNameOf`, `readableName`).
 */
import type { ResultSchema } from "../../domain/result_schema.ts"
import type { BooleanField, ChoiceOption, FormField, JsonField, TextField } from "./fields.ts"

/** A JSON object, as a schema or a result's `fields` is one. */
export type JsonObject = Readonly<Record<string, unknown>>

/** Whether a JSON value is an object (not an array, not null). */
export const isObject = (value: unknown): value is JsonObject =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/** Keywords that say nothing about what is valid: any schema may carry them. */
const annotations = new Set([
  "$schema",
  "$id",
  "$anchor",
  "$dynamicAnchor",
  "$comment",
  "$defs",
  "$vocabulary",
  "title",
  "description",
  "examples",
  "default",
  "deprecated",
  "readOnly",
  "writeOnly",
  "contentMediaType",
  "contentEncoding"
])

/** What each control can stand for: a schema using any other keyword becomes JSON. */
const keywordsOf = {
  string: new Set(["type", "minLength", "maxLength", "pattern", "format"]),
  number: new Set(["type", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "format"]),
  boolean: new Set(["type"]),
  // The checks beside an enum are the service's to make.
  choice: new Set(["type", "enum", "const", "minLength", "maxLength", "pattern", "format", "minimum", "maximum"]),
  array: new Set(["type", "items", "minItems", "maxItems", "uniqueItems"]),
  object: new Set([
    "type",
    "properties",
    "required",
    "additionalProperties",
    "unevaluatedProperties",
    "patternProperties",
    "propertyNames",
    "minProperties",
    "maxProperties",
    "dependentRequired"
  ])
} as const

const onlyKeywords = (schema: JsonObject, allowed: ReadonlySet<string>) =>
  Object.keys(schema).every((keyword) => allowed.has(keyword) || annotations.has(keyword))

type JsonType = "string" | "number" | "integer" | "boolean" | "object" | "array" | "null"

/**
 * The one type a schema gives its value (`null` beside it aside: an empty control leaves the
 * member out, it never sends null), or undefined when it gives none or several.
 */
const typeOf = (schema: JsonObject): JsonType | undefined => {
  const type = schema.type
  if (typeof type === "string") return type as JsonType
  if (!Array.isArray(type)) return undefined
  const types = type.filter((t) => t !== "null")
  if (types.length === 2 && types.includes("integer") && types.includes("number")) return "number"
  return types.length === 1 ? (types[0] as JsonType) : undefined
}

/** The values an `enum` or `const` allows, when each is a string, number, boolean or null. */
const membersOf = (schema: JsonObject): ReadonlyArray<string | number | boolean | null> | undefined => {
  const members = Object.hasOwn(schema, "const") ? [schema.const] : Array.isArray(schema.enum) ? schema.enum : undefined
  if (members === undefined || members.length === 0) return undefined
  const scalar = (m: unknown): m is string | number | boolean | null =>
    m === null || typeof m === "string" || typeof m === "boolean" || (typeof m === "number" && Number.isFinite(m))
  return members.every(scalar) ? members : undefined
}

/** The options of an enum, or undefined when two would post the same value. */
const optionsOf = (
  members: ReadonlyArray<string | number | boolean | null>
): ReadonlyArray<ChoiceOption> | undefined => {
  const options = members.map((member) => ({
    value: typeof member === "string" ? member : JSON.stringify(member),
    label: member === null ? "None" : String(member),
    member
  }))
  return new Set(options.map((o) => o.value)).size === options.length ? options : undefined
}

/** At most this many options are radio buttons; more are a select. */
const RADIO_MAX = 5

/** A property name as words: `photo_count`, `photoCount` and `photo-count` → "Photo count"; acronyms kept ("Photo URL"). */
export const readableName = (key: string): string => {
  const words = key
    .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, "$1 $2")
    .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, "$1 $2")
    .split(/[\s_-]+/u)
    .filter((word) => word !== "")
    .map((word) => (word.length > 1 && word === word.toUpperCase() ? word : word.toLowerCase()))
  if (words.length === 0) return key === "" ? "(unnamed)" : key
  const sentence = words.join(" ")
  return sentence.charAt(0).toUpperCase() + sentence.slice(1)
}

const encodeKey = (key: string) => key.replace(/[%.*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)

/** The control name of the property at `path` (see fields.ts's header). */
export const controlNameOf = (path: ReadonlyArray<string>): string => ["fields", ...path.map(encodeKey)].join(".")

/** An element id for a control name: `rf-` and the name, with what an id cannot hold (space) encoded. */
const idOf = (name: string) => `rf-${encodeURIComponent(name)}`

/** A text area rather than a line: no limit or a long one, and a name or description that speaks of prose. */
const PROSE_MIN_LENGTH = 200
const proseWords =
  /\b(?:notes?|comments?|descriptions?|details?|explanations?|explain|reasons?|messages?|feedback|observations?|remarks?|report|summary|story|text|content|answers?|instructions?|steps|findings?)\b/i
const isProse = (words: string, maxLength: number | undefined) =>
  maxLength === undefined ? proseWords.test(words) : maxLength > PROSE_MIN_LENGTH && proseWords.test(words)

const inputOfFormat: Readonly<Record<string, TextField["input"]>> = {
  date: "date",
  "date-time": "datetime-local",
  "iso-date-time": "datetime-local",
  time: "time",
  "iso-time": "time",
  email: "email",
  uri: "url",
  url: "url"
}

/**
 * The browser's `pattern` for a JSON Schema `pattern`, or undefined when the browser would read it
 * otherwise. JSON Schema finds the pattern anywhere in the text, HTML matches the whole value
 * (`^(?:…)$`, with the `v` flag): the pattern is wrapped so the browser finds it anywhere too. A
 * pattern the `v` flag refuses (RE2 syntax JavaScript lacks: `\pL`, `(?i)`, `\z`; a class `v` reads
 * differently: `[\w.-]`), or one it would read otherwise (a POSIX class), is left to the service.
 */
export const browserPatternOf = (pattern: string): string | undefined => {
  // RE2's POSIX classes (`[[:alpha:]]`) compile under `v` as a class of the letters `:alph`.
  if (/\[:\^?[a-z]+:\]/.test(pattern)) return undefined
  const unanchored = `[\\s\\S]*(?:${pattern})[\\s\\S]*`
  try {
    new RegExp(`^(?:${unanchored})$`, "v")
    // The pattern must also stand alone: `a)|(b` compiles once wrapped, but is no pattern of its own.
    new RegExp(pattern, "v")
    return unanchored
  } catch {
    return undefined
  }
}

const finite = (value: unknown): number | undefined =>
  typeof value === "number" && Number.isFinite(value) ? value : undefined
const count = (value: unknown): number | undefined =>
  typeof value === "number" && Number.isSafeInteger(value) && value >= 0 ? value : undefined

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`

const sentences = (...parts: ReadonlyArray<string | undefined | false>): string | undefined => {
  const said = parts.filter((part): part is string => typeof part === "string" && part.trim() !== "")
  return said.length === 0 ? undefined : said.map((part) => part.trim()).join(" ")
}

const exampleOf = (schema: JsonObject): string | undefined => {
  if (!Array.isArray(schema.examples) || schema.examples.length === 0) return undefined
  const example = schema.examples[0]
  return `For example: ${typeof example === "string" ? example : JSON.stringify(example)}.`
}

const lengthRule = (min: number | undefined, max: number | undefined, unit: string, units: string) =>
  min !== undefined && min > 0 && max !== undefined
    ? min === max
      ? `Exactly ${plural(min, unit, units)}.`
      : `From ${min} to ${plural(max, unit, units)}.`
    : max !== undefined
      ? `At most ${plural(max, unit, units)}.`
      : min !== undefined && min > 0
        ? `At least ${plural(min, unit, units)}.`
        : undefined

/** Whether `n` is a whole multiple of `step` (within floating point's error: `0.3` of `0.1`). */
const isMultiple = (n: number, step: number) => {
  const ratio = n / step
  return Math.abs(ratio - Math.round(ratio)) < 1e-9
}

interface Place {
  readonly path: ReadonlyArray<string>
  readonly label: string
  readonly required: boolean
  /** Every object around it is required. */
  readonly inRequired: boolean
}

const baseOf = (place: Place, schema: JsonObject, ...rules: ReadonlyArray<string | undefined | false>) => {
  const name = controlNameOf(place.path)
  return {
    name,
    id: idOf(name),
    path: place.path,
    label: typeof schema.title === "string" && schema.title.trim() !== "" ? schema.title.trim() : place.label,
    hint: sentences(typeof schema.description === "string" && schema.description, ...rules, exampleOf(schema)),
    required: place.required,
    enforced: place.required && place.inRequired
  }
}

/** A value the controls cannot stand for, typed as JSON. */
const jsonField = (place: Place, schema: JsonObject, holds: "value" | "object" = "value"): JsonField => {
  const type = holds === "object" ? "object" : typeOf(schema)
  const said =
    type === "array"
      ? "a list in [ ]"
      : type === "object"
        ? "an object in { }"
        : type === "string"
          ? '"text" in double quotes'
          : '"text" in double quotes, a number, true or false, a [list] or an {object}'
  return {
    ...baseOf(place, schema, `As JSON: ${said}.`),
    kind: "json",
    holds,
    listed: []
  }
}

const stringField = (place: Place, schema: JsonObject): FormField => {
  const format = typeof schema.format === "string" ? schema.format : undefined
  const input = (format !== undefined && inputOfFormat[format]) || "text"
  const minLength = count(schema.minLength)
  const maxLength = count(schema.maxLength)
  const pattern = typeof schema.pattern === "string" ? browserPatternOf(schema.pattern) : undefined
  const words = `${place.path.at(-1) ?? ""} ${schema.title ?? ""} ${schema.description ?? ""}`.replace(/_/g, " ")
  const multiline = input === "text" && schema.pattern === undefined && isProse(words, maxLength)
  const zone = format === "date-time" ? "Date and time in UTC." : format === "time" ? "Time in UTC." : undefined
  return {
    ...baseOf(place, schema, zone, lengthRule(minLength, maxLength, "character", "characters")),
    kind: "text",
    input,
    multiline,
    format,
    minLength,
    maxLength,
    pattern
  }
}

const numberField = (place: Place, schema: JsonObject, integer: boolean): FormField => {
  const bound = (inclusive: unknown, exclusive: unknown, side: "min" | "max") => {
    const limits: Array<number> = []
    const at = finite(inclusive)
    const past = finite(exclusive)
    const whole = side === "min" ? Math.ceil : Math.floor
    if (at !== undefined) limits.push(integer ? whole(at) : at)
    // HTML has no exclusive bound: an integer's is the next whole number; a number's is its bound
    // (the page lets the bound itself through, the service does not).
    if (past !== undefined) limits.push(integer ? (side === "min" ? Math.floor(past) + 1 : Math.ceil(past) - 1) : past)
    if (limits.length === 0) return undefined
    return side === "min" ? Math.max(...limits) : Math.min(...limits)
  }
  const min = bound(schema.minimum, schema.exclusiveMinimum, "min")
  const max = bound(schema.maximum, schema.exclusiveMaximum, "max")
  const multipleOf = finite(schema.multipleOf)
  // The browser counts steps from `min`: the schema's multiples only when `min` is one of them.
  const stepFits =
    multipleOf !== undefined &&
    multipleOf > 0 &&
    (!integer || Number.isInteger(multipleOf)) &&
    (min === undefined || isMultiple(min, multipleOf))
  const step = stepFits ? String(multipleOf) : integer ? "1" : "any"
  const exclusiveMin = finite(schema.exclusiveMinimum)
  const exclusiveMax = finite(schema.exclusiveMaximum)
  const lower = !integer && exclusiveMin !== undefined && min === exclusiveMin ? `more than ${exclusiveMin}` : undefined
  const upper = !integer && exclusiveMax !== undefined && max === exclusiveMax ? `less than ${exclusiveMax}` : undefined
  const range =
    min !== undefined && max !== undefined
      ? lower === undefined && upper === undefined
        ? `from ${min} to ${max}`
        : `${lower ?? `at least ${min}`} and ${upper ?? `at most ${max}`}`
      : min !== undefined
        ? (lower ?? `at least ${min}`)
        : max !== undefined
          ? (upper ?? `at most ${max}`)
          : undefined
  const kind = integer ? "A whole number" : "A number"
  return {
    ...baseOf(
      place,
      schema,
      range === undefined && multipleOf === undefined
        ? integer && `${kind}.`
        : `${kind}${range === undefined ? "" : ` ${range}`}${multipleOf === undefined ? "" : `, a multiple of ${multipleOf}`}.`
    ),
    kind: "number",
    integer,
    min,
    max,
    step
  }
}

/** Yes and No, posted as `true` and `false`. */
const yesNo: ReadonlyArray<ChoiceOption> = [
  { value: "true", label: "Yes", member: true },
  { value: "false", label: "No", member: false }
]

const choiceField = (place: Place, schema: JsonObject, options: ReadonlyArray<ChoiceOption>): FormField => ({
  ...baseOf(place, schema),
  kind: "choice",
  options,
  control: options.length <= RADIO_MAX ? "radio" : "select"
})

const arrayField = (place: Place, schema: JsonObject): FormField => {
  const items = schema.items
  const minItems = count(schema.minItems)
  const maxItems = count(schema.maxItems)
  if (!isObject(items)) return jsonField(place, schema)
  const itemType = typeOf(items)
  const members = membersOf(items)
  const options = members?.every((m) => typeof m === "string") ? optionsOf(members) : undefined
  if (options !== undefined && onlyKeywords(items, keywordsOf.choice)) {
    return {
      ...baseOf(place, schema, lengthRule(minItems, maxItems, "choice", "choices")?.replace(/^From/, "Choose from")),
      kind: "choices",
      options
    }
  }
  if (members !== undefined) return jsonField(place, schema)
  const item =
    itemType === "string" && onlyKeywords(items, keywordsOf.string)
      ? "string"
      : (itemType === "number" || itemType === "integer") && onlyKeywords(items, keywordsOf.number)
        ? itemType
        : undefined
  if (item === undefined) return jsonField(place, schema)
  const what =
    item === "string" ? "One per line." : item === "integer" ? "Whole numbers, one per line." : "Numbers, one per line."
  return {
    ...baseOf(place, schema, what, lengthRule(minItems, maxItems, "line", "lines")),
    kind: "list",
    item,
    minItems
  }
}

/** Whether an object schema's `additionalProperties` (or `unevaluatedProperties`) lets members in that it does not list. */
const admitsOthers = (value: unknown) =>
  value !== undefined && value !== false && value !== true && !isEmptyObject(value)
const isEmptyObject = (value: unknown) => isObject(value) && Object.keys(value).length === 0

/**
 * An object's fields: one per listed property, and a JSON box for members it does not list when
 * it expects some (additionalProperties or patternProperties with a schema, or no properties at
 * all). Undefined when a form cannot stand for it (a required member it does not list).
 */
const objectFields = (place: Place, schema: JsonObject): ReadonlyArray<FormField> | undefined => {
  const properties = isObject(schema.properties) ? schema.properties : {}
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((r) => typeof r === "string") : [])
  for (const name of required) if (!Object.hasOwn(properties, name)) return undefined
  const inRequired = place.inRequired && (place.path.length === 0 || place.required)
  const fields: Array<FormField> = []
  for (const key of Object.keys(properties)) {
    const sub = properties[key]
    // `false`: the member must not be there, so nothing asks for it.
    if (sub === false) continue
    const child: Place = {
      path: [...place.path, key],
      label: readableName(key),
      required: required.has(key),
      inRequired
    }
    fields.push(fieldOf(child, isObject(sub) ? sub : {}))
  }
  const listed = fields.map((field) => field.path.at(-1)!)
  if (
    listed.length === 0 ||
    admitsOthers(schema.additionalProperties) ||
    admitsOthers(schema.unevaluatedProperties) ||
    isObject(schema.patternProperties)
  ) {
    const name = `${controlNameOf(place.path)}.*`
    fields.push({
      name,
      id: idOf(name),
      path: place.path,
      label:
        listed.length > 0 ? "Other fields (JSON)" : place.path.length === 0 ? "Fields (JSON)" : `${place.label} (JSON)`,
      hint: 'As a JSON object: {"name": value, …}.',
      required: false,
      enforced: false,
      kind: "json",
      holds: "members",
      listed
    })
  }
  return fields
}

const fieldOf = (place: Place, schema: JsonObject): FormField => {
  const type = typeOf(schema)
  const members = membersOf(schema)
  if (members !== undefined) {
    if (members.length === 1 && members[0] === true && onlyKeywords(schema, keywordsOf.choice)) {
      return { ...baseOf(place, schema), kind: "boolean" } satisfies BooleanField
    }
    const isBooleans = members.length === 2 && members.includes(true) && members.includes(false)
    if (isBooleans && onlyKeywords(schema, keywordsOf.choice)) return choiceField(place, schema, yesNo)
    const options = optionsOf(members)
    return options !== undefined && onlyKeywords(schema, keywordsOf.choice)
      ? choiceField(place, schema, options)
      : jsonField(place, schema)
  }
  switch (type) {
    case "string":
      return onlyKeywords(schema, keywordsOf.string) ? stringField(place, schema) : jsonField(place, schema)
    case "number":
    case "integer":
      return onlyKeywords(schema, keywordsOf.number)
        ? numberField(place, schema, type === "integer")
        : jsonField(place, schema)
    case "boolean":
      return onlyKeywords(schema, keywordsOf.boolean) ? choiceField(place, schema, yesNo) : jsonField(place, schema)
    case "array":
      return onlyKeywords(schema, keywordsOf.array) ? arrayField(place, schema) : jsonField(place, schema)
    case "object":
    case undefined: {
      const isObjectSchema = type === "object" || (type === undefined && isObject(schema.properties))
      if (!isObjectSchema || !onlyKeywords(schema, keywordsOf.object)) return jsonField(place, schema)
      // Nothing listed: the whole object is typed as JSON (a fieldset around one box says nothing more).
      const properties = isObject(schema.properties) ? schema.properties : {}
      if (Object.values(properties).every((sub) => sub === false)) return jsonField(place, schema, "object")
      const fields = objectFields(place, schema)
      return fields === undefined
        ? jsonField(place, schema, "object")
        : { ...baseOf(place, schema, objectRule(fields, place.required && place.inRequired)), kind: "group", fields }
    }
    default:
      return jsonField(place, schema)
  }
}

/** What an optional object's hint adds: which of its members become required once any is filled in. */
const objectRule = (fields: ReadonlyArray<FormField>, enforced: boolean) => {
  const inner = fields.filter((field) => field.required).map((field) => field.label)
  if (enforced || inner.length === 0) return undefined
  return `Optional; if you fill in any of it, ${inner.length === 1 ? `${inner[0]} is` : `${inner.slice(0, -1).join(", ")} and ${inner.at(-1)} are`} required.`
}

const rootPlace: Place = { path: [], label: "Fields", required: true, inRequired: true }

/**
 * The form's fields for a task's result_schema, in the schema's order. Undefined (a task without
 * one): a single optional box, "Other fields (JSON)", for any JSON object, so structured fields
 * can still be sent.
 */
export const formFieldsOf = (schema: ResultSchema | undefined): ReadonlyArray<FormField> => {
  const root = schema ?? { type: "object" }
  const type = typeOf(root)
  const isObjectSchema = type === "object" || (type === undefined && isObject(root.properties))
  const fields = isObjectSchema && onlyKeywords(root, keywordsOf.object) ? objectFields(rootPlace, root) : undefined
  if (fields !== undefined) {
    if (schema !== undefined) return fields
    return fields.map((field) => ({ ...field, label: "Other fields (JSON)" }))
  }
  // The whole of `fields` as one JSON object (labelled so, whatever the schema's title).
  const whole = jsonField(rootPlace, root, "object")
  const required = Array.isArray(root.required) && root.required.length > 0
  return [{ ...whole, label: "Fields (JSON)", required, enforced: required }]
}
