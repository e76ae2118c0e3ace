/**
 * Machine-checkable results: a task's `result_schema`, a JSON Schema (draft 2020-12) that the
 * result's `fields` must satisfy. Pure: the draft rules ask `resultSchemaProblem` whether a draft's
 * schema can be used, and a result submission asks `resultFieldFailures` what is wrong with its
 * fields. Both go through Ajv (its 2020-12 build), so a schema the draft rules accept is exactly
 * one the submission can check (docs/decisions/drafts.md).
 *
 * Ajv is configured to refuse rather than guess: strict mode (an unknown keyword or format is an
 * error, not silently ignored), no `loadSchema` (a `$ref` to anything outside the schema cannot be
 * resolved, so nothing is ever fetched), every failure reported (`allErrors`), formats from
 * ajv-formats, patterns on a linear-time engine (`linearTimeRegExp`). Compiling costs ~1 ms while checking costs microseconds, so compiled validators are
 * kept by the schema's canonical JSON (keys sorted: two spellings of one schema share one entry), at
 * most 256 of them, least recently used dropped first (src/read_cache.ts). Ajv's own registry forgets each
 * schema once compiled (`removeSchema`), so nothing else grows with the number of schemas seen.
 */
import { Ajv2020, type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js"
import type { RegExpEngine } from "ajv/dist/types/index.js"
import addFormats from "ajv-formats"
import * as Schema from "effect/Schema"
import { RE2JS } from "re2js"
import { immutableKey, versionedCache } from "../read_cache.ts"
import { pathDeeperThan } from "./json_depth.ts"

/** The most a result_schema may weigh: its JSON, in UTF-8 bytes. */
export const RESULT_SCHEMA_MAX_BYTES = 16_384
/** The deepest a result_schema may nest (objects and arrays): bounds the compiler's recursion. */
export const RESULT_SCHEMA_MAX_DEPTH = 32

/** The shape of a result_schema on the wire: a JSON object (a JSON Schema, checked by the draft rules). */
export const ResultSchema = Schema.Record(Schema.String, Schema.Unknown).annotate({
  identifier: "ResultSchema",
  description: `A JSON Schema (draft 2020-12) the result's fields (an object) must satisfy; a submission whose fields fail it is refused with 422 result_invalid. At most ${RESULT_SCHEMA_MAX_BYTES} bytes of JSON, nested at most ${RESULT_SCHEMA_MAX_DEPTH} deep; no remote $ref; unknown keywords and formats are refused (Ajv strict mode).`
})
export type ResultSchema = typeof ResultSchema.Type

/**
 * `pattern` and `patternProperties` run on RE2's linear-time engine (re2js, pure JavaScript), not
 * on JavaScript's backtracking one: the agent writes the pattern, the participant the text, and a
 * pattern such as `^(a+)+$` must not hold the process on a long input. RE2 has no lookaround or
 * backreferences; a schema using them is refused as invalid at preflight.
 */
const linearTimeRegExp: RegExpEngine = Object.assign(
  (pattern: string, flags: string) => {
    const compiled = RE2JS.compile(pattern)
    // Ajv keeps one compiled pattern per `String(rx)`: it must name the pattern.
    return { test: (text: string) => compiled.matcher(text).find(), toString: () => `/${pattern}/${flags}` }
  },
  { code: "re2js" }
)

const ajv = new Ajv2020({
  code: { regExp: linearTimeRegExp },
  strict: true,
  // Legitimate schemas trip these (a `required` name without a `properties` entry, a union type
  // without per-type keywords); they are style advice, not errors.
  strictRequired: false,
  strictTypes: false,
  strictTuples: false,
  allErrors: true,
  logger: false
})
addFormats.default(ajv)

/** What is wrong with a result_schema, or undefined when it can check results. */
export type ResultSchemaProblem =
  | { readonly kind: "not_object"; readonly message: string }
  | { readonly kind: "too_large"; readonly message: string }
  | { readonly kind: "invalid"; readonly message: string }

const isPlainObject = (value: unknown): value is Readonly<Record<string, unknown>> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/**
 * JSON with object keys sorted, written as a string (never rebuilding objects, so a `__proto__`
 * key stays a key): the cache key of a schema.
 */
export const canonicalJson = (value: unknown): string => {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`
  if (isPlainObject(value)) {
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key])}`)
      .join(",")}}`
  }
  return JSON.stringify(value) ?? "null"
}

// By the schema's canonical JSON, the whole of what a validator is compiled from (`immutableKey`).
const compiled = versionedCache<string, ValidateFunction | ResultSchemaProblem>({ budget: 256 })

const clip = (s: string, max = 300) => (s.length > max ? `${s.slice(0, max - 1)}…` : s)

/** Ajv's meta-validation errors, said with the path inside result_schema. */
const metaErrors = (errors: ReadonlyArray<ErrorObject>): string =>
  clip(
    [...new Set(errors.map((e) => `${e.instancePath === "" ? "at the top" : `at ${e.instancePath}`}: ${e.message}`))]
      .slice(0, 3)
      .join("; ")
  )

/** Values every schema must be able to judge: one of each JSON type. */
const probes: ReadonlyArray<unknown> = [{}, [], "", 0, true, null]

/** Whether validating with `validate` overflowed the stack: a `$ref` that leads back to itself without end. */
const loopsWithoutEnd = (error: unknown) => error instanceof RangeError

const compile = (schema: Readonly<Record<string, unknown>>): ValidateFunction | ResultSchemaProblem => {
  const invalid = (detail: string): ResultSchemaProblem => ({
    kind: "invalid",
    message: `result_schema is not a valid JSON Schema (draft 2020-12): ${detail}.`
  })
  // Ajv registers every `$id` a schema holds, nested ones too, on the instance all tasks share: what
  // this compile added is removed after it, so one task's ids never clash with another's.
  const registered = () => [...Object.keys(ajv.schemas), ...Object.keys(ajv.refs)]
  const before = new Set(registered())
  try {
    if (!ajv.validateSchema(schema)) return invalid(metaErrors(ajv.errors ?? []))
    const validate = ajv.compile(schema)
    // A schema that refers to itself without stepping into the value ({"$ref": "#"}) would
    // overflow the stack on every result: refused now, saying so, rather than failing later.
    for (const probe of probes) validate(probe)
    return validate
  } catch (error) {
    if (loopsWithoutEnd(error)) {
      return invalid(
        "it refers to itself without end (a $ref that leads back to where it started before any property or item is entered)"
      )
    }
    return invalid(clip(error instanceof Error ? error.message : String(error)))
  } finally {
    // The compiled function stays usable; Ajv forgets the schema and every $id in it.
    ajv.removeSchema(schema)
    for (const key of registered()) if (!before.has(key)) ajv.removeSchema(key)
  }
}

/**
 * The compiled validator of a result_schema, or what is wrong with it: not an object, too large,
 * too deep, or not a JSON Schema Ajv can compile (meta-validation, an unknown keyword or format, a
 * `$ref` it cannot resolve, a pattern that is not a regular expression).
 */
const validatorOf = (value: unknown): ValidateFunction | ResultSchemaProblem => {
  if (!isPlainObject(value)) {
    return {
      kind: "not_object",
      message: `result_schema must be a JSON Schema object (draft 2020-12) describing the result's fields, e.g. {"type": "object", "properties": {"count": {"type": "integer"}}, "required": ["count"]}; got ${
        Array.isArray(value) ? "an array" : `a ${typeof value}`
      }.`
    }
  }
  const tooLarge: ResultSchemaProblem = {
    kind: "too_large",
    message: `result_schema is too large: at most ${RESULT_SCHEMA_MAX_BYTES} bytes of JSON, nested at most ${RESULT_SCHEMA_MAX_DEPTH} deep.`
  }
  if (pathDeeperThan(value, RESULT_SCHEMA_MAX_DEPTH) !== undefined) return tooLarge
  const key = canonicalJson(value)
  const bytes = Buffer.byteLength(key)
  if (bytes > RESULT_SCHEMA_MAX_BYTES) {
    return { ...tooLarge, message: `${tooLarge.message.slice(0, -1)}; got ${bytes} bytes.` }
  }
  let validator = compiled.get(key, immutableKey)
  if (validator === undefined) {
    validator = compile(value)
    compiled.set(key, immutableKey, validator)
  }
  return validator
}

/** What is wrong with a draft's result_schema, or undefined when it is usable. */
export const resultSchemaProblem = (value: unknown): ResultSchemaProblem | undefined => {
  const v = validatorOf(value)
  return typeof v === "function" ? undefined : v
}

/** One way a result's fields fail the task's schema: where (a JSON Pointer into the result) and why. */
export interface FieldFailure {
  readonly pointer: string
  readonly code: "required" | "invalid"
  readonly message: string
}

/** At most this many failures are listed: a long array failing item by item says enough with the first. */
const MAX_FAILURES = 50

/** A member's name as one segment of a JSON Pointer (RFC 6901: `~` as `~0`, `/` as `~1`). */
export const escapePointer = (key: string) => key.replaceAll("~", "~0").replaceAll("/", "~1")

/**
 * How `fields` fail `schema` (a schema the draft rules accepted): each failure once, pointed at the
 * member concerned (`/fields/count`; a missing member at its own place). Empty when they pass.
 */
export const resultFieldFailures = (
  schema: Readonly<Record<string, unknown>>,
  fields: Readonly<Record<string, unknown>>
): ReadonlyArray<FieldFailure> => {
  const validate = validatorOf(schema)
  // A stored schema was accepted by the same rules; should one fail now, nothing can be checked
  // against it, and refusing every result would strand the task.
  if (typeof validate !== "function") return []
  let valid: boolean
  try {
    valid = validate(fields) as boolean
  } catch (error) {
    if (!loopsWithoutEnd(error)) throw error
    // A loop only some values reach (a member whose subschema leads back to itself): refused as
    // results that cannot be checked, never a failure of the service.
    return [
      {
        pointer: "/fields",
        code: "invalid",
        message: "cannot be checked: the task's result_schema refers to itself without end for these fields"
      }
    ]
  }
  if (valid) return []
  const seen = new Set<string>()
  const failures: Array<FieldFailure> = []
  for (const e of validate.errors ?? []) {
    if (failures.length === MAX_FAILURES) break
    const params = e.params as {
      readonly missingProperty?: string
      readonly additionalProperty?: string
      readonly unevaluatedProperty?: string
    }
    // required and dependentRequired name a missing member; (un)evaluated members a stray one:
    // each is pointed at the member itself.
    const missing = typeof params.missingProperty === "string" ? params.missingProperty : undefined
    const member = missing ?? params.additionalProperty ?? params.unevaluatedProperty
    const pointer = `/fields${e.instancePath}${member === undefined ? "" : `/${escapePointer(member)}`}`
    const message = missing === undefined ? `${e.message ?? "is invalid"}` : "is required by the task's result_schema"
    const key = `${pointer}\u0000${message}`
    if (seen.has(key)) continue
    seen.add(key)
    failures.push({ pointer, code: missing === undefined ? "invalid" : "required", message: clip(message) })
  }
  return failures
}
