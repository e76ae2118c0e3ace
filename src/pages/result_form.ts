/**
 * The result form's own fields, generated from a task's `result_schema` (JSON Schema 2020-12): what
 * the participant console's Work page shows between the summary and the evidence. Pure: the
 * schema in, the fields out (`formFieldsOf`); the fields as HTML controls with what the person typed
 * and the problems beside each (`renderFormFields`); a submitted form read back into the JSON
 * `fields` object the schema describes (`readFormFields`); a service failure's JSON Pointer led to
 * the control it concerns (`controlForPointer`); a previous result as the form's values
 * (`formValuesOf`, for a revision).
 *
 * The page checks what HTML can say (`required`, `min`, `max`, `step`, `minlength`, `maxlength`, a
 * `pattern` only where the browser reads it as the service does); the service checks everything
 * again with the schema itself (src/domain/result_schema.ts), and its messages come back beside the
 * controls through `controlForPointer`. What the mapping cannot express becomes a JSON text box for
 * that property, so every schema the draft rules accept can still be answered from the page
 * (docs/decisions.md, "The result form").
 *
 * Control names: `fields`, then each property key after a `.` (a key's own `%`, `.` and `*`
 * percent-encoded, so a name reads one way only): `fields.address.city`. An object's box for
 * properties it does not list is `<object>.*` (`fields.*`); a whole `fields` answered as JSON is
 * `fields`. No other control of the page should have a name starting with `fields`.
 */
import type { ResultSchema } from "../domain/result_schema.ts"
import { type Html, html } from "./html.ts"

// ---------------------------------------------------------------------------------------------
// The fields

interface FieldBase {
  /** The control's name (the group's, for a nested object): see the module's header. */
  readonly name: string
  /** The element id of its control (of its fieldset, for a group of radios, checkboxes or fields). */
  readonly id: string
  /** The property keys from the root of `fields` to this one (empty for the whole of `fields`). */
  readonly path: ReadonlyArray<string>
  /** The schema's `title`, else the property name made readable (`photo_count` → "Photo count"). */
  readonly label: string
  /** The schema's `description` and `examples`, and what the schema asks in words; shown under the label. */
  readonly hint: string | undefined
  /** Named in its object's `required`. */
  readonly required: boolean
  /**
   * Required here and in every object around it: the page asks for it (`required`, "(required)").
   * A required member of an optional object is required only once that object is given at all; a
   * checkbox is never asked for (unchecked is `false`, an answer), unless only `true` will do.
   */
  readonly enforced: boolean
}

/** A text input or a text area. */
export interface TextField extends FieldBase {
  readonly kind: "text"
  readonly input: "text" | "email" | "url" | "date" | "datetime-local" | "time"
  /** A text area: prose (see `isProse`). */
  readonly multiline: boolean
  /** The schema's `format` (date-time and time get seconds and a zone added on reading). */
  readonly format: string | undefined
  readonly minLength: number | undefined
  readonly maxLength: number | undefined
  /** The browser's `pattern`: the schema's, unanchored as JSON Schema reads it; only when the browser can read it. */
  readonly pattern: string | undefined
}

/** `type=number`. */
export interface NumberField extends FieldBase {
  readonly kind: "number"
  readonly integer: boolean
  readonly min: number | undefined
  readonly max: number | undefined
  /** `1` for an integer, the schema's `multipleOf` where the browser counts it the same, else `any`. */
  readonly step: string
}

/** A checkbox: checked is `true`, unchecked `false` (unless the schema only accepts `true`). */
export interface BooleanField extends FieldBase {
  readonly kind: "boolean"
  /** The schema only accepts `true` (`const: true`): unchecked is left out, and required means checked. */
  readonly onlyTrue: boolean
}

/** One value of an `enum` or `const`. */
export interface ChoiceOption {
  /** What the control posts: the string itself, or the JSON text of a number, boolean or null. */
  readonly value: string
  readonly label: string
  /** The JSON value it stands for. */
  readonly member: string | number | boolean | null
}

/** One value of an `enum` or a `const`: radio buttons when there are few, else a select. */
export interface ChoiceField extends FieldBase {
  readonly kind: "choice"
  readonly options: ReadonlyArray<ChoiceOption>
  readonly control: "radio" | "select"
}

/** An array of values from an `enum` of strings: checkboxes. */
export interface ChoicesField extends FieldBase {
  readonly kind: "choices"
  readonly options: ReadonlyArray<ChoiceOption>
}

/** An array of strings or numbers: a text area, one item a line. */
export interface ListField extends FieldBase {
  readonly kind: "list"
  readonly item: "string" | "number" | "integer"
  /** The schema's `minItems`: the page refuses an empty box only when it is at least 1. */
  readonly minItems: number | undefined
}

/** A nested object: a fieldset with its own fields. */
export interface GroupField extends FieldBase {
  readonly kind: "group"
  readonly fields: ReadonlyArray<FormField>
}

/**
 * JSON typed by the person: for a value the mapping cannot express (`value`, any JSON; `object`, a
 * JSON object — at the root, the whole of `fields`), or for the members of an object that it does
 * not list (`members`: a JSON object merged into that object).
 */
export interface JsonField extends FieldBase {
  readonly kind: "json"
  readonly holds: "value" | "object" | "members"
  /** For `members`: the keys its object lists (they have their own controls, so this box refuses them). */
  readonly listed: ReadonlyArray<string>
}

export type FormField =
  | TextField
  | NumberField
  | BooleanField
  | ChoiceField
  | ChoicesField
  | ListField
  | GroupField
  | JsonField

/** The values a form holds: every value posted under a control name, in order (none: empty). */
export type FormValues = (name: string) => ReadonlyArray<string>

/** A form nobody has filled in yet. */
export const noValues: FormValues = () => []

// ---------------------------------------------------------------------------------------------
// From a schema to fields

type JsonObject = Readonly<Record<string, unknown>>

const isObject = (value: unknown): value is JsonObject =>
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

/** The control name of the property at `path` (see the module's header). */
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

/** A checkbox whose both states are answers: the page asks nothing of it, required or not. */
const booleanField = (place: Place, schema: JsonObject): BooleanField => ({
  ...baseOf(place, schema),
  enforced: false,
  kind: "boolean",
  onlyTrue: false
})

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
      return { ...baseOf(place, schema), kind: "boolean", onlyTrue: true }
    }
    const isBooleans = members.length === 2 && members.includes(true) && members.includes(false)
    if (isBooleans && onlyKeywords(schema, keywordsOf.choice)) return booleanField(place, schema)
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
      return onlyKeywords(schema, keywordsOf.boolean) ? booleanField(place, schema) : jsonField(place, schema)
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

// ---------------------------------------------------------------------------------------------
// Rendering

const hintId = (field: FormField) => `${field.id}-hint`
const errorId = (field: FormField) => `${field.id}-error`

const describedBy = (field: FormField, problem: string | undefined) => {
  const ids = [field.hint !== undefined && hintId(field), problem !== undefined && errorId(field)].filter(
    (id): id is string => typeof id === "string"
  )
  return ids.length === 0 ? undefined : html` aria-describedby="${ids.join(" ")}"`
}

const invalid = (problem: string | undefined) => problem !== undefined && html` aria-invalid="true"`

const requiredMark = (field: FormField) => field.enforced && html` <span class="req">(required)</span>`

const hintOf = (field: FormField) =>
  field.hint !== undefined &&
  html`<p class="hint prose" id="${hintId(field)}">${field.hint}</p>
`

const errorOf = (field: FormField, problem: string | undefined) =>
  problem !== undefined &&
  html`<p class="field-error" id="${errorId(field)}"><span class="visually-hidden">Error: </span>${problem}</p>
`

const attribute = (name: string, value: string | number | undefined) => value !== undefined && html` ${name}="${value}"`

const flag = (name: string, on: boolean) => on && html` ${name}`

/** A control with its label, hint and error, in that order (the error just above the control). */
const labelled = (field: FormField, problem: string | undefined, control: Html) => html`<div class="field">
<label for="${field.id}">${field.label}${requiredMark(field)}</label>
${hintOf(field)}${errorOf(field, problem)}${control}
</div>
`

/** Radio buttons or checkboxes in a fieldset, its legend the field's label. */
const group = (
  field: FormField,
  problem: string | undefined,
  choices: ReadonlyArray<Html>
) => html`<fieldset class="field choices" id="${field.id}"${describedBy(field, problem)}>
<legend>${field.label}${requiredMark(field)}</legend>
${hintOf(field)}${errorOf(field, problem)}${choices}</fieldset>
`

/** A text area's text: after a line break, which the HTML parser drops, so a leading one of the text stays. */
const textareaText = (text: string) => html`
${text}`

const choiceRow = (id: string, input: Html, label: string | Html) =>
  html`<div class="choice">${input}<label for="${id}">${label}</label></div>
`

const renderField = (
  field: FormField,
  values: FormValues,
  problems: ReadonlyMap<string, string>
): Html | ReadonlyArray<Html> => {
  const problem = problems.get(field.name)
  const given = values(field.name)
  const first = given[0] ?? ""
  const aria = html`${describedBy(field, problem)}${invalid(problem)}`
  switch (field.kind) {
    case "text": {
      const common = html`id="${field.id}" name="${field.name}"${flag("required", field.enforced)}${attribute("minlength", field.minLength)}${attribute("maxlength", field.maxLength)}`
      // The browser's date-time and time controls step by the minute unless told that seconds count.
      const step = /\d{2}:\d{2}:\d{2}/.test(first) ? attribute("step", 1) : undefined
      return labelled(
        field,
        problem,
        field.multiline
          ? html`<textarea ${common} rows="5"${aria}>${textareaText(first)}</textarea>`
          : html`<input ${common} type="${field.input}"${attribute("pattern", field.pattern)}${step}${
              field.input === "email" || field.input === "url"
                ? html` autocapitalize="none" spellcheck="false"`
                : undefined
            } autocomplete="off"${aria} value="${first}">`
      )
    }
    case "number": {
      // A phone's digits-only keyboard has no minus key: only for values that cannot be negative.
      const nonNegative = field.min !== undefined && field.min >= 0
      const mode = nonNegative ? (field.integer ? "numeric" : "decimal") : undefined
      return labelled(
        field,
        problem,
        html`<input id="${field.id}" name="${field.name}" type="number" step="${field.step}"${attribute("min", field.min)}${attribute("max", field.max)}${attribute("inputmode", mode)}${flag("required", field.enforced)} autocomplete="off"${aria} value="${first}">`
      )
    }
    case "boolean":
      return html`<div class="field">
${choiceRow(
  field.id,
  html`<input type="checkbox" id="${field.id}" name="${field.name}" value="true"${flag("checked", first === "true")}${flag("required", field.enforced)}${aria}>`,
  html`${field.label}${requiredMark(field)}`
)}${hintOf(field)}${errorOf(field, problem)}</div>
`
    case "choice": {
      if (field.control === "select") {
        const options = field.options.map(
          (option) =>
            html`<option value="${option.value}"${flag("selected", given.includes(option.value))}>${option.label}</option>`
        )
        return labelled(
          field,
          problem,
          html`<select id="${field.id}" name="${field.name}"${flag("required", field.enforced)}${aria}>
<option value="">${field.enforced ? "Choose…" : "No answer"}</option>
${options}</select>`
        )
      }
      const radio = (id: string, value: string, label: string, checked: boolean) =>
        choiceRow(
          id,
          html`<input type="radio" id="${id}" name="${field.name}" value="${value}"${flag("checked", checked)}${flag("required", field.enforced)}${invalid(problem)}>`,
          label
        )
      const chosen = field.options.some((option) => given.includes(option.value))
      return group(field, problem, [
        ...field.options.map((option, i) =>
          radio(`${field.id}-${i}`, option.value, option.label, given.includes(option.value))
        ),
        // An optional choice can be taken back: without script, a chosen radio button cannot be unchosen.
        ...(field.enforced ? [] : [radio(`${field.id}-none`, "", "No answer", !chosen)])
      ])
    }
    case "choices":
      return group(
        field,
        problem,
        field.options.map((option, i) =>
          choiceRow(
            `${field.id}-${i}`,
            html`<input type="checkbox" id="${field.id}-${i}" name="${field.name}" value="${option.value}"${flag("checked", given.includes(option.value))}${invalid(problem)}>`,
            option.label
          )
        )
      )
    case "list":
      return labelled(
        field,
        problem,
        html`<textarea id="${field.id}" name="${field.name}" rows="4"${flag("required", field.enforced && (field.minItems ?? 0) > 0)} autocomplete="off"${aria}>${textareaText(first)}</textarea>`
      )
    case "group":
      return html`<fieldset class="group" id="${field.id}"${describedBy(field, problem)}>
<legend>${field.label}${requiredMark(field)}</legend>
${hintOf(field)}${errorOf(field, problem)}${field.fields.map((inner) => renderField(inner, values, problems))}</fieldset>
`
    case "json":
      return labelled(
        field,
        problem,
        html`<textarea class="code" id="${field.id}" name="${field.name}" rows="6" spellcheck="false" autocapitalize="none" autocomplete="off"${flag("required", field.enforced)}${aria}>${textareaText(first)}</textarea>`
      )
  }
}

/**
 * The fields as HTML controls, with the values the person typed (`values`, by control name) and the
 * problem to show beside each (`problems`, by control name: from `readFormFields`, or a service
 * failure led there by `controlForPointer`). Each is labelled, hinted (`aria-describedby`) and
 * marked invalid where it has a problem; the caller puts them inside its form.
 */
export const renderFormFields = (
  fields: ReadonlyArray<FormField>,
  values: FormValues,
  problems: ReadonlyMap<string, string>
): Html => html`${fields.map((field) => renderField(field, values, problems))}`

// ---------------------------------------------------------------------------------------------
// Reading a submitted form

/** A value read from a control, and whether the person gave it (an unchecked box gives `false`, not an answer). */
interface Read {
  readonly value: unknown
  readonly given: boolean
}

const absent: Read = { value: undefined, given: false }

const setMember = (target: Record<string, unknown>, key: string, value: unknown) => {
  // A key such as `__proto__` stays a member.
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true })
}

const localDateTime = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?$/
const localTime = /^\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?$/

/** What the browser's date-time and time controls give, as the schema's format reads it (seconds; UTC where a zone is needed). */
const asFormat = (text: string, format: string | undefined) => {
  const withSeconds = (t: string) => (/T\d{2}:\d{2}$|^\d{2}:\d{2}$/.test(t) ? `${t}:00` : t)
  switch (format) {
    case "date-time":
      return localDateTime.test(text) ? `${withSeconds(text)}Z` : text
    case "iso-date-time":
      return localDateTime.test(text) ? withSeconds(text) : text
    case "time":
      return localTime.test(text) ? `${withSeconds(text)}Z` : text
    case "iso-time":
      return localTime.test(text) ? withSeconds(text) : text
    default:
      return text
  }
}

/** Text as the person meant it: the browser's CRLF as LF, surrounding spaces (a phone keyboard's) dropped. */
const cleanText = (text: string) => text.replace(/\r\n?/g, "\n").trim()

const parseNumber = (text: string): number | undefined => {
  if (!/^[+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?$/i.test(text)) return undefined
  const n = Number(text)
  return Number.isFinite(n) ? n : undefined
}

type Problems = Map<string, string>

const readField = (field: FormField, form: FormValues, problems: Problems): Read => {
  const first = form(field.name)[0]
  const text = first === undefined ? "" : cleanText(first)
  switch (field.kind) {
    case "text":
      return text === "" ? absent : { value: asFormat(text, field.format), given: true }
    case "number": {
      if (text === "") return absent
      const n = parseNumber(text)
      if (n === undefined) {
        problems.set(field.name, field.integer ? "Enter a whole number, like 12." : "Enter a number, like 12 or 3.5.")
        return absent
      }
      return { value: n, given: true }
    }
    case "boolean": {
      const checked = form(field.name).includes("true")
      if (checked) return { value: true, given: true }
      return field.onlyTrue ? absent : { value: false, given: false }
    }
    case "choice": {
      if (text === "") return absent
      const option = field.options.find((o) => o.value === first || o.value === text)
      if (option === undefined) {
        problems.set(field.name, "Choose one of the options.")
        return absent
      }
      return { value: option.member, given: true }
    }
    case "choices": {
      const chosen = form(field.name).filter((value) => value !== "")
      const members: Array<unknown> = []
      for (const value of chosen) {
        const option = field.options.find((o) => o.value === value)
        if (option === undefined) {
          problems.set(field.name, "Choose among the options shown.")
          return absent
        }
        if (!members.includes(option.member)) members.push(option.member)
      }
      return members.length === 0 ? { value: [], given: false } : { value: members, given: true }
    }
    case "list": {
      const lines = text
        .split("\n")
        .map((line) => line.trim())
        .filter((line) => line !== "")
      if (field.item === "string")
        return lines.length === 0 ? { value: [], given: false } : { value: lines, given: true }
      const items: Array<number> = []
      for (const [i, line] of lines.entries()) {
        const n = parseNumber(line)
        if (n === undefined) {
          problems.set(field.name, `Line ${i + 1} (“${clip(line)}”) is not a number: write one number a line.`)
          return absent
        }
        items.push(n)
      }
      return items.length === 0 ? { value: [], given: false } : { value: items, given: true }
    }
    case "group": {
      const object: Record<string, unknown> = {}
      let given = false
      for (const inner of field.fields) {
        const read = readField(inner, form, problems)
        given ||= read.given
        merge(object, inner, read, problems)
      }
      return { value: object, given }
    }
    case "json": {
      if (text === "") return absent
      let value: unknown
      try {
        value = JSON.parse(text)
      } catch (error) {
        problems.set(
          field.name,
          `This is not valid JSON: ${error instanceof Error ? clip(error.message, 120) : "it does not parse"}.`
        )
        return absent
      }
      if (field.holds !== "value" && !isObject(value)) {
        problems.set(field.name, 'Write a JSON object: {"name": value, …}.')
        return absent
      }
      return { value, given: true }
    }
  }
}

const clip = (text: string, max = 40) => (text.length > max ? `${text.slice(0, max - 1)}…` : text)

/**
 * Puts what `field` read into its object: its member when given (or when it always has a value: a
 * required list, a checkbox), the members of a `members` box alongside the listed ones.
 */
const merge = (object: Record<string, unknown>, field: FormField, read: Read, problems: Problems) => {
  if (field.kind === "json" && field.holds === "members") {
    if (!read.given) return
    const members = read.value as JsonObject
    const taken = Object.keys(members).filter((key) => field.listed.includes(key))
    if (taken.length > 0) {
      problems.set(
        field.name,
        `${taken.map((key) => `“${clip(key)}”`).join(", ")} ${taken.length === 1 ? "has its own field" : "have their own fields"} above: fill ${taken.length === 1 ? "it" : "them"} in there.`
      )
      return
    }
    for (const key of Object.keys(members)) setMember(object, key, members[key])
    return
  }
  const key = field.path.at(-1)
  if (key === undefined) {
    // The whole of `fields`, typed as one JSON object.
    if (read.given) for (const [k, value] of Object.entries(read.value as JsonObject)) setMember(object, k, value)
    return
  }
  const keep =
    read.given ||
    (read.value !== undefined &&
      (field.kind === "boolean" ||
        (field.required && (field.kind === "list" || field.kind === "choices" || field.kind === "group"))))
  if (keep) setMember(object, key, read.value)
}

/**
 * What a submitted form says, as the JSON `fields` object the schema describes, and problems (by
 * control name) for values that cannot even be read: a number that is not one, JSON that does not
 * parse, an option that was not offered. Empty controls are left out; an unchecked box is `false`
 * (left out when the schema accepts only `true`); an optional object nobody filled in is left out,
 * a required one is there (`{}` at least); an empty list is `[]` when required, else left out.
 * Everything else — required members, lengths, bounds, patterns, formats — is the service's to
 * judge with the schema itself.
 */
export const readFormFields = (
  fields: ReadonlyArray<FormField>,
  form: (name: string) => ReadonlyArray<string>
): { fields: Record<string, unknown>; problems: ReadonlyMap<string, string> } => {
  const problems: Problems = new Map()
  const object: Record<string, unknown> = {}
  for (const field of fields) merge(object, field, readField(field, form, problems), problems)
  return { fields: object, problems }
}

// ---------------------------------------------------------------------------------------------
// Service failures and previous results

const unescapePointer = (segment: string) => segment.replaceAll("~1", "/").replaceAll("~0", "~")

const walk = function* (fields: ReadonlyArray<FormField>): Generator<FormField> {
  for (const field of fields) {
    yield field
    if (field.kind === "group") yield* walk(field.fields)
  }
}

/**
 * The control a service `details` entry points at (`/fields/address/city` → `fields.address.city`),
 * to show its message beside that control: the field at the pointer, else the nearest field holding
 * it (an array's item, a member inside a JSON box, a member an object does not list → its
 * "Other fields" box). Undefined when none does (show the message above the form).
 */
export const controlForPointer = (fields: ReadonlyArray<FormField>, pointer: string): string | undefined => {
  if (pointer !== "/fields" && !pointer.startsWith("/fields/")) return undefined
  const path = pointer === "/fields" ? [] : pointer.slice("/fields/".length).split("/").map(unescapePointer)
  const all = [...walk(fields)]
  const isMembers = (field: FormField) => field.kind === "json" && field.holds === "members"
  for (let length = path.length; length >= 0; length--) {
    const at = all.filter((field) => field.path.length === length && field.path.every((key, i) => key === path[i]))
    // Below an object: a member it does not list belongs in its "Other fields" box.
    const others = length < path.length ? at.find(isMembers) : undefined
    const own = at.find((field) => !isMembers(field))
    if (others !== undefined) return others.name
    if (own !== undefined) return own.name
  }
  return undefined
}

/** Whole minutes without their `:00` seconds, as the browser's controls show them unless told to step by the second. */
const minutes = (text: string) => text.replace(/(\d{2}:\d{2}):00$/, "$1")

/** A date-time with a zone, as the browser's local date-time control shows it in UTC. */
const utcDateTime = (text: string): string | undefined => {
  if (!/^\d{4}-\d{2}-\d{2}T/i.test(text) || Number.isNaN(Date.parse(text))) return undefined
  return minutes(new Date(text).toISOString().slice(0, 19))
}

const valueText = (field: FormField, value: unknown): ReadonlyArray<string> => {
  switch (field.kind) {
    case "text": {
      if (typeof value !== "string") return []
      if (field.format === "date-time") return [utcDateTime(value) ?? value]
      if (field.format === "time") return [minutes(value.replace(/(?:z|[+-]00:?00)$/i, ""))]
      if (field.input === "datetime-local" || field.input === "time") return [minutes(value)]
      return [value]
    }
    case "number":
      return typeof value === "number" ? [String(value)] : []
    case "boolean":
      return value === true ? ["true"] : []
    case "choice":
      return field.options.filter((o) => o.member === value).map((o) => o.value)
    case "choices":
      return Array.isArray(value) ? field.options.filter((o) => value.includes(o.member)).map((o) => o.value) : []
    case "list":
      return Array.isArray(value) ? [value.map(String).join("\n")] : []
    case "group":
      return []
    case "json":
      return value === undefined ? [] : [JSON.stringify(value, null, 2)]
  }
}

/**
 * A result's `fields` as the form's values (to fill the form in again for a revision): the
 * inverse of `readFormFields` for what the controls can show.
 */
export const formValuesOf = (
  fields: ReadonlyArray<FormField>,
  result: Readonly<Record<string, unknown>>
): FormValues => {
  const values = new Map<string, ReadonlyArray<string>>()
  const fill = (level: ReadonlyArray<FormField>, object: JsonObject) => {
    const listed = new Set(level.map((field) => field.path.at(-1)))
    for (const field of level) {
      if (field.kind === "json" && (field.holds === "members" || field.path.length === 0)) {
        const others =
          field.holds === "members"
            ? Object.fromEntries(Object.entries(object).filter(([key]) => !listed.has(key)))
            : object
        if (Object.keys(others).length > 0) values.set(field.name, [JSON.stringify(others, null, 2)])
        continue
      }
      const key = field.path.at(-1)
      if (key === undefined || !Object.hasOwn(object, key)) continue
      const value = object[key]
      if (field.kind === "group") {
        if (isObject(value)) fill(field.fields, value)
      } else {
        values.set(field.name, valueText(field, value))
      }
    }
  }
  fill(fields, result)
  return (name) => values.get(name) ?? []
}
