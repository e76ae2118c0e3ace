// Example result fields made from a result_schema (domain/result_example.ts): what the sandbox's
// simulated participants submit. Every example is judged by the validator that judges a
// submission; a schema it cannot satisfy gives undefined.
import { assert, describe, it } from "@effect/vitest"
import { exampleFields } from "../../src/domain/result_example.ts"
import { resultFieldFailures, resultSchemaProblem } from "../../src/domain/result_schema.ts"

type Schema = Record<string, unknown>

/** The fields made for `schema`, asserted to be there and to pass the submission's check. */
const example = (schema: Schema): Record<string, unknown> => {
  assert.isUndefined(resultSchemaProblem(schema), `a usable schema: ${JSON.stringify(schema)}`)
  const fields = exampleFields(schema)
  assert.isDefined(fields, `fields for ${JSON.stringify(schema)}`)
  assert.deepStrictEqual(resultFieldFailures(schema, fields!), [], JSON.stringify(fields))
  return fields!
}

describe("exampleFields", () => {
  const satisfiable: ReadonlyArray<readonly [string, Schema]> = [
    ["any object", {}],
    ["an empty object schema", { type: "object" }],
    ["a nullable object", { type: ["object", "null"], properties: { a: { type: "string" } } }],
    [
      "every scalar type",
      {
        type: "object",
        properties: {
          name: { type: "string" },
          count: { type: "integer" },
          price: { type: "number" },
          done: { type: "boolean" },
          nothing: { type: "null" },
          either: { type: ["null", "string"] },
          anything: {},
          yes: true
        },
        required: ["name", "count", "price", "done", "nothing", "either", "anything", "yes"]
      }
    ],
    [
      "numbers at their bounds",
      {
        type: "object",
        properties: {
          rating: { type: "integer", minimum: 1, maximum: 5 },
          share: { type: "number", minimum: 0, maximum: 1 },
          positive: { type: "integer", exclusiveMinimum: 0 },
          negative: { type: "number", exclusiveMaximum: 0 },
          narrow: { type: "number", exclusiveMinimum: 0.1, exclusiveMaximum: 0.2 },
          cents: { type: "number", multipleOf: 0.01, minimum: 10, maximum: 11 },
          dozens: { type: "integer", multipleOf: 12, minimum: 100 },
          big: { type: "integer", minimum: 1_000_000 }
        },
        required: ["rating", "share", "positive", "negative", "narrow", "cents", "dozens", "big"]
      }
    ],
    [
      "strings of a length",
      {
        type: "object",
        properties: {
          long: { type: "string", minLength: 100 },
          short: { type: "string", maxLength: 4 },
          exact: { type: "string", minLength: 12, maxLength: 12 },
          empty: { type: "string", maxLength: 0 }
        },
        required: ["long", "short", "exact", "empty"]
      }
    ],
    [
      "string formats",
      {
        type: "object",
        properties: Object.fromEntries(
          ["date-time", "date", "time", "email", "uri", "url", "uuid", "hostname", "ipv4", "ipv6", "duration"].map(
            (format) => [format, { type: "string", format }]
          )
        ),
        required: ["date-time", "date", "time", "email", "uri", "url", "uuid", "hostname", "ipv4", "ipv6", "duration"]
      }
    ],
    [
      "nested objects and arrays",
      {
        type: "object",
        properties: {
          visit: {
            type: "object",
            properties: {
              address: {
                type: "object",
                properties: { street: { type: "string" }, city: { type: "string" } },
                required: ["street", "city"],
                additionalProperties: false
              },
              photos: {
                type: "array",
                items: { type: "object", properties: { url: { type: "string", format: "uri" } }, required: ["url"] },
                minItems: 3
              }
            },
            required: ["address", "photos"]
          }
        },
        required: ["visit"],
        additionalProperties: false
      }
    ],
    [
      "arrays: unique items, bounds, tuples, contains",
      {
        type: "object",
        properties: {
          tags: { type: "array", items: { type: "string" }, minItems: 4, uniqueItems: true },
          scores: {
            type: "array",
            items: { type: "integer", minimum: 0, maximum: 10 },
            minItems: 3,
            uniqueItems: true
          },
          none: { type: "array", maxItems: 0 },
          pair: { type: "array", prefixItems: [{ type: "string" }, { type: "integer" }], items: false, minItems: 2 },
          mixed: { type: "array", contains: { type: "integer" }, items: { type: ["string", "integer"] } }
        },
        required: ["tags", "scores", "none", "pair", "mixed"]
      }
    ],
    [
      "enum and const",
      {
        type: "object",
        properties: {
          status: { enum: ["open", "closed"] },
          level: { type: "integer", enum: [1, 2, 3] },
          kind: { const: "inspection" },
          size: { type: "string", enum: ["S", "M", "L"], minLength: 1, maxLength: 1 }
        },
        required: ["status", "level", "kind", "size"],
        additionalProperties: false
      }
    ],
    [
      "$ref to $defs, refs within refs, and siblings of $ref",
      {
        $defs: {
          money: { type: "object", properties: { amount: { $ref: "#/$defs/amount" }, currency: { enum: ["EUR"] } } },
          amount: { type: "number", minimum: 0 }
        },
        type: "object",
        properties: {
          price: { $ref: "#/$defs/money", required: ["amount", "currency"] },
          tip: { $ref: "#/$defs/amount", maximum: 5 }
        },
        required: ["price", "tip"]
      }
    ],
    [
      "a recursive $ref",
      {
        $defs: {
          node: {
            type: "object",
            properties: { name: { type: "string" }, children: { type: "array", items: { $ref: "#/$defs/node" } } },
            required: ["name", "children"]
          }
        },
        $ref: "#/$defs/node"
      }
    ],
    [
      "anyOf and oneOf: a branch that works",
      {
        type: "object",
        properties: {
          code: {
            anyOf: [
              { type: "string", pattern: "^[A-Z]{3}$" },
              { type: "integer", minimum: 100 }
            ]
          },
          shape: {
            oneOf: [
              {
                type: "object",
                properties: { kind: { const: "circle" }, radius: { type: "number" } },
                required: ["kind", "radius"]
              },
              {
                type: "object",
                properties: { kind: { const: "square" }, side: { type: "number" } },
                required: ["kind", "side"]
              }
            ]
          },
          optional: { oneOf: [{ type: "null" }, { type: "string", format: "date" }] }
        },
        required: ["code", "shape", "optional"]
      }
    ],
    [
      "allOf merged",
      {
        allOf: [
          { type: "object", properties: { a: { type: "string" } }, required: ["a"] },
          { properties: { b: { type: "integer", minimum: 10 } }, required: ["b"] },
          { properties: { a: { maxLength: 8 } } }
        ],
        unevaluatedProperties: false
      }
    ],
    [
      "a pattern an example or an enum satisfies",
      {
        type: "object",
        properties: {
          zip: { type: "string", pattern: "^[0-9]{5}$", examples: ["10115"] },
          country: { type: "string", pattern: "^[A-Z]{2}$", enum: ["de", "DE"] },
          loose: { type: "string", pattern: "\\S" }
        },
        required: ["zip", "country", "loose"]
      }
    ],
    [
      "required members without properties, and a minimum of members",
      {
        type: "object",
        required: ["note"],
        minProperties: 3,
        additionalProperties: { type: "integer" }
      }
    ],
    [
      "dependentRequired",
      {
        type: "object",
        properties: { card: { type: "string" }, billing: { type: "string" } },
        dependentRequired: { card: ["billing"] }
      }
    ],
    ["a schema with an $id", { $id: "https://example.com/result", type: "object", required: ["x"] }]
  ]

  for (const [name, schema] of satisfiable) {
    it(`satisfies ${name}`, () => {
      example(schema)
    })
  }

  it("writes readable values: named after the member, numbers in the middle of their range", () => {
    const fields = example({
      type: "object",
      properties: {
        shop_name: { type: "string" },
        rating: { type: "integer", minimum: 1, maximum: 5 },
        percent: { type: "number", minimum: 0, maximum: 100 },
        checked_at: { type: "string", format: "date-time" },
        contact: { type: "string", format: "email" },
        photos: { type: "array", items: { type: "string", format: "uri" }, minItems: 2, uniqueItems: true }
      },
      required: ["shop_name", "rating", "percent", "checked_at", "contact", "photos"]
    })
    assert.deepStrictEqual(fields, {
      shop_name: "Simulated shop name",
      rating: 3,
      percent: 50,
      checked_at: "2030-01-15T09:30:00Z",
      contact: "sim-participant@example.com",
      photos: ["https://example.com/simulated/result/1", "https://example.com/simulated/result/2"]
    })
  })

  it("fills optional members too, and nullable ones with a value", () => {
    const fields = example({
      type: "object",
      properties: {
        note: { type: "string" },
        count: { type: ["integer", "null"] },
        when: { oneOf: [{ type: "null" }, { type: "string", format: "date" }] }
      }
    })
    assert.deepStrictEqual(fields, { note: "Simulated note", count: 42, when: "2030-01-15" })
  })

  it("prefers the schema's examples and default when they are valid", () => {
    assert.deepStrictEqual(
      example({
        type: "object",
        properties: {
          city: { type: "string", examples: ["Berlin"] },
          count: { type: "integer", minimum: 10, examples: [3, 12], default: 11 },
          unit: { type: "string", default: "cm" }
        },
        required: ["city", "count", "unit"]
      }),
      { city: "Berlin", count: 12, unit: "cm" }
    )
    // A whole example at the top is taken as it is, when it fits.
    assert.deepStrictEqual(
      example({
        type: "object",
        properties: { total: { type: "integer" } },
        required: ["total"],
        examples: [{ total: "twelve" }, { total: 12 }]
      }),
      { total: 12 }
    )
  })

  it("takes the first enum value that fits, and the branch whose value the whole schema takes", () => {
    assert.deepStrictEqual(
      example({ type: "object", properties: { s: { enum: ["open", "closed"] } }, required: ["s"] }),
      {
        s: "open"
      }
    )
    const fields = example({
      type: "object",
      properties: { v: { anyOf: [{ type: "string", pattern: "^x+$" }, { type: "boolean" }] } },
      required: ["v"]
    })
    assert.deepStrictEqual(fields, { v: true })
  })

  const unsatisfiable: ReadonlyArray<readonly [string, Schema]> = [
    [
      "a pattern with no example",
      { type: "object", properties: { code: { type: "string", pattern: "^[A-Z]{3}$" } }, required: ["code"] }
    ],
    ["fields that are not an object", { type: "array" }],
    ["no value at all", { not: {} }],
    ["a required member that is false", { type: "object", properties: { a: false }, required: ["a"] }],
    [
      "a required member no other member may be",
      { type: "object", properties: {}, required: ["a"], additionalProperties: false }
    ],
    [
      "lengths that cross",
      { type: "object", properties: { a: { type: "string", minLength: 5, maxLength: 2 } }, required: ["a"] }
    ],
    [
      "bounds that cross",
      { type: "object", properties: { n: { type: "integer", minimum: 5, maximum: 4 } }, required: ["n"] }
    ],
    [
      "an integer between two whole numbers",
      {
        type: "object",
        properties: { n: { type: "integer", exclusiveMinimum: 1, exclusiveMaximum: 2 } },
        required: ["n"]
      }
    ],
    [
      "too few items allowed",
      { type: "object", properties: { a: { type: "array", minItems: 3, maxItems: 2 } }, required: ["a"] }
    ],
    [
      "allOf of types with nothing in common",
      { type: "object", properties: { a: { allOf: [{ type: "string" }, { type: "integer" }] } }, required: ["a"] }
    ],
    [
      "enums with nothing in common",
      { type: "object", properties: { a: { allOf: [{ enum: [1, 2] }, { enum: [3] }] } }, required: ["a"] }
    ],
    ["a reference to nowhere", { type: "object", properties: { a: { $ref: "#/$defs/missing" } }, required: ["a"] }],
    ["a schema that is only a reference to itself", { $ref: "#" }],
    ["a branch that refers to the whole schema", { anyOf: [{ $ref: "#" }] }],
    [
      "a condition it does not read",
      { type: "object", properties: { a: { type: "string" } }, required: ["a"], not: { required: ["a"] } }
    ]
  ]

  for (const [name, schema] of unsatisfiable) {
    it(`gives undefined for ${name}`, () => {
      assert.isUndefined(exampleFields(schema))
    })
  }
})
