// How deep a caller's JSON nests (src/domain/json_depth.ts): the path to the first level past the
// limit, found without recursion, so no depth of input exhausts the stack.
import { describe, expect, it } from "vitest"
import { pathDeeperThan } from "../../src/domain/json_depth.ts"

/** `depth` levels: objects with member `a`, or arrays of one item. */
const nested = (depth: number, kind: "object" | "array"): unknown => {
  let value: unknown = 1
  for (let i = 0; i < depth; i++) value = kind === "object" ? { a: value } : [value]
  return value
}

describe("pathDeeperThan", () => {
  it("scalars and values within the limit pass; the value itself counts as the first level", () => {
    for (const value of [null, 1, "deep", true]) expect(pathDeeperThan(value, 1)).toBeUndefined()
    expect(pathDeeperThan({}, 1)).toBeUndefined()
    expect(pathDeeperThan({ a: {} }, 1)).toEqual(["a"])
    expect(pathDeeperThan(nested(64, "object"), 64)).toBeUndefined()
    expect(pathDeeperThan(nested(64, "array"), 64)).toBeUndefined()
  })

  it("names the path to the first object or array past the limit, array items by index", () => {
    expect(pathDeeperThan(nested(65, "object"), 64)).toEqual(Array.from({ length: 64 }, () => "a"))
    expect(pathDeeperThan({ ok: [1, 2], fields: { list: [0, [[]]] } }, 4)).toEqual(["fields", "list", "1", "0"])
    // A string holding JSON is text, however deep the JSON in it.
    expect(pathDeeperThan({ text: "[".repeat(10_000) }, 2)).toBeUndefined()
  })

  it("a million levels, of objects or arrays, are found without overflowing the stack", () => {
    for (const kind of ["object", "array"] as const) {
      const path = pathDeeperThan({ fields: nested(1_000_000, kind) }, 64)
      expect(path).toHaveLength(64)
      expect(path?.[0]).toBe("fields")
    }
  })

  it("a wide value is scanned whole: the one deep member among many is found", () => {
    const wide: Record<string, unknown> = {}
    for (let i = 0; i < 10_000; i++) wide[`m${i}`] = { n: i }
    wide.m5000 = nested(70, "array")
    expect(pathDeeperThan(wide, 64)?.[0]).toBe("m5000")
  })
})
