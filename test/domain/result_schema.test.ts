// The result_schema rules (domain/result_schema.ts): what a draft's schema may be, and how a
// result's fields are judged by it.
import { assert, describe, it } from "@effect/vitest"
import {
  canonicalJson,
  RESULT_SCHEMA_MAX_BYTES,
  RESULT_SCHEMA_MAX_DEPTH,
  resultFieldFailures,
  resultSchemaProblem
} from "../../src/domain/result_schema.ts"
import { validateDraft } from "../../src/domain/task_draft/validate.ts"

const complete = {
  action: "Count the chairs in room 4",
  execution_mode: "digital",
  expected_result: "the number of chairs",
  acceptance_test: "a whole number",
  principal: "p",
  agent: "a",
  timing: "by 2030-12-01T17:00:00Z"
}

/** `{"a": {"a": … {}}}` nested `depth` objects deep. */
const nested = (depth: number): Record<string, unknown> => {
  let value: Record<string, unknown> = {}
  for (let i = 1; i < depth; i++) value = { a: value }
  return value
}

describe("resultSchemaProblem", () => {
  it("accepts JSON Schemas, including formats, $defs and local $refs", () => {
    for (const schema of [
      {},
      { type: "object" },
      { type: "object", properties: { email: { type: "string", format: "email" } } },
      { $defs: { n: { type: "integer" } }, type: "object", properties: { n: { $ref: "#/$defs/n" } } },
      { $schema: "https://json-schema.org/draft/2020-12/schema", type: "object" }
    ]) {
      assert.isUndefined(resultSchemaProblem(schema), JSON.stringify(schema))
    }
  })

  it("refuses what is not an object, not valid, or too large, saying which", () => {
    assert.strictEqual(resultSchemaProblem(true)?.kind, "not_object")
    assert.strictEqual(resultSchemaProblem({ type: 12 })?.kind, "invalid")
    assert.strictEqual(resultSchemaProblem({ format: "shoe-size" })?.kind, "invalid")
    assert.strictEqual(resultSchemaProblem({ pattern: "(" })?.kind, "invalid")
    assert.strictEqual(resultSchemaProblem({ $schema: "http://json-schema.org/draft-07/schema#" })?.kind, "invalid")
    // A "__proto__" key (as JSON.parse makes it) is a key like any other: nothing is polluted.
    resultSchemaProblem(JSON.parse('{"type": "object", "__proto__": {"polluted": true}}'))
    assert.isUndefined((Object.prototype as Record<string, unknown>).polluted)
    assert.strictEqual(resultSchemaProblem({ description: "x".repeat(RESULT_SCHEMA_MAX_BYTES) })?.kind, "too_large")
    assert.strictEqual(resultSchemaProblem(nested(RESULT_SCHEMA_MAX_DEPTH + 1))?.kind, "too_large")
    // Deep enough to exhaust a recursive walk: still one answer, no exception.
    assert.strictEqual(resultSchemaProblem(nested(100_000))?.kind, "too_large")
  })

  it("schemas with one $id can be used one after another (Ajv forgets each once compiled)", () => {
    for (const type of ["string", "number", "boolean"]) {
      const schema = { $id: "https://example.com/result", type: "object", properties: { v: { type } } }
      assert.isUndefined(resultSchemaProblem(schema))
      assert.deepStrictEqual(
        resultFieldFailures(schema, { v: type === "string" ? "x" : 1 }).length,
        type === "boolean" ? 1 : 0
      )
    }
  })

  it("a nested $id is forgotten too: another task's schema may use it as its own", () => {
    const nested = { type: "object", properties: { p: { $id: "https://example.com/shared-part", type: "string" } } }
    assert.isUndefined(resultSchemaProblem(nested))
    assert.isUndefined(resultSchemaProblem({ $id: "https://example.com/shared-part", type: "object" }))
    assert.isUndefined(resultSchemaProblem({ ...nested, title: "again" }))
  })

  it("refuses a schema that refers to itself without end, and judges a recursive one that descends", () => {
    for (const looping of [
      { $ref: "#" },
      { anyOf: [{ $ref: "#" }] },
      { allOf: [{ $ref: "#/$defs/a" }], $defs: { a: { $ref: "#" } } }
    ]) {
      assert.match(resultSchemaProblem(looping)?.message ?? "", /refers to itself without end/)
    }
    const tree = { type: "object", properties: { n: { type: "integer" }, child: { $ref: "#" } } }
    assert.isUndefined(resultSchemaProblem(tree))
    assert.deepStrictEqual(resultFieldFailures(tree, { n: 1, child: { n: 2, child: {} } }), [])
    assert.strictEqual(resultFieldFailures(tree, { child: { n: "two" } })[0]?.pointer, "/fields/child/n")
  })

  it("a loop only some fields reach refuses those results as unchecked, never failing the service", () => {
    // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then, not a promise
    const sometimes = { if: { type: "object", required: ["again"] }, then: { $ref: "#" } }
    assert.isUndefined(resultSchemaProblem(sometimes))
    assert.deepStrictEqual(resultFieldFailures(sometimes, { other: 1 }), [])
    assert.deepStrictEqual(resultFieldFailures(sometimes, { again: true }), [
      {
        pointer: "/fields",
        code: "invalid",
        message: "cannot be checked: the task's result_schema refers to itself without end for these fields"
      }
    ])
  })

  it("the draft rules report it on result_schema and keep an accepted one as written", () => {
    const schema = { type: "object", required: ["count"], properties: { count: { type: "integer" } } }
    const ok = validateDraft({ ...complete, result_schema: schema })
    assert.isTrue(ok.valid)
    assert.strictEqual(ok.task.result_schema, schema)
    const bad = validateDraft({ ...complete, result_schema: { type: 12 } })
    assert.deepStrictEqual(
      bad.issues.map((i) => `${i.field}:${i.code}`),
      ["result_schema:invalid"]
    )
    assert.isUndefined(bad.task.result_schema)
  })
})

describe("canonicalJson", () => {
  it("sorts keys at every level, so two spellings of one schema are one key", () => {
    assert.strictEqual(canonicalJson({ b: [{ d: 1, c: 2 }], a: null }), '{"a":null,"b":[{"c":2,"d":1}]}')
    assert.strictEqual(canonicalJson({ x: 1, y: 2 }), canonicalJson({ y: 2, x: 1 }))
  })
})

describe("resultFieldFailures", () => {
  it("matches patterns in linear time: a backtracking pattern on a long input answers at once", () => {
    const schema = { type: "object", properties: { code: { type: "string", pattern: "^(a+)+$" } } }
    const started = performance.now()
    const failures = resultFieldFailures(schema, { code: `${"a".repeat(50_000)}!` })
    // JavaScript's own engine would take longer than the universe's age on this input.
    assert.isBelow(performance.now() - started, 2000)
    assert.strictEqual(failures.length, 1)
    assert.deepStrictEqual(resultFieldFailures(schema, { code: "aaaa" }), [])
  })

  it("applies each pattern of a schema as written (no two share a compiled pattern)", () => {
    const schema = {
      type: "object",
      properties: { digits: { type: "string", pattern: "^[0-9]+$" }, letters: { type: "string", pattern: "^[a-z]+$" } }
    }
    assert.deepStrictEqual(resultFieldFailures(schema, { digits: "123", letters: "abc" }), [])
    assert.deepStrictEqual(
      resultFieldFailures(schema, { digits: "abc", letters: "123" }).map((failure) => failure.pointer),
      ["/fields/digits", "/fields/letters"]
    )
  })

  it("refuses, at preflight, a pattern RE2 cannot run (lookaround, backreferences)", () => {
    assert.strictEqual(resultSchemaProblem({ properties: { a: { pattern: "(?=x)" } } })?.kind, "invalid")
    assert.strictEqual(resultSchemaProblem({ properties: { a: { pattern: "(a)\\1" } } })?.kind, "invalid")
  })

  const schema = {
    type: "object",
    properties: { count: { type: "integer", minimum: 0 }, note: { type: "string" } },
    required: ["count"],
    additionalProperties: false
  }

  it("passing fields have none", () => {
    assert.deepStrictEqual(resultFieldFailures(schema, { count: 3, note: "ok" }), [])
  })

  it("names each failing member once, as a JSON Pointer into the result", () => {
    assert.deepStrictEqual(resultFieldFailures(schema, { note: 5, extra: true }), [
      { pointer: "/fields/count", code: "required", message: "is required by the task's result_schema" },
      { pointer: "/fields/extra", code: "invalid", message: "must NOT have additional properties" },
      { pointer: "/fields/note", code: "invalid", message: "must be string" }
    ])
  })

  it("lists at most 50 failures", () => {
    const many = { type: "object", additionalProperties: { type: "string" } }
    const fields = Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`k${i}`, i]))
    assert.strictEqual(resultFieldFailures(many, fields).length, 50)
  })
})
