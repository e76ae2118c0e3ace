/**
 * How deep a caller's JSON nests, found without recursion: JSON.parse takes any depth, but much
 * of what runs after it (JSON.stringify when a row is written, structural comparisons, Ajv)
 * recurses, and a value thousands of levels deep exhausts the stack there
 * (docs/decisions/json-depth.md). The limits themselves are the callers': `maxJsonDepth` for a
 * request (api/parameters.ts), `RESULT_SCHEMA_MAX_DEPTH` for a result_schema.
 */

/** A member of an object (its key) or an item of an array (its index, as text). */
export type JsonPath = ReadonlyArray<string>

interface Level {
  readonly value: object
  readonly depth: number
  readonly key: string
  readonly parent: Level | undefined
}

/**
 * The path to the first object or array nested deeper than `max` levels, `value` itself counting
 * as the first when it is one; undefined when nothing is. Iterative (an explicit stack), so no
 * depth of input can exhaust the call stack, and it looks at each object and array once.
 */
export const pathDeeperThan = (value: unknown, max: number): JsonPath | undefined => {
  if (typeof value !== "object" || value === null) return undefined
  const stack: Array<Level> = [{ value, depth: 1, key: "", parent: undefined }]
  while (stack.length > 0) {
    const level = stack.pop()!
    if (level.depth > max) {
      const path: Array<string> = []
      for (let at: Level | undefined = level; at?.parent !== undefined; at = at.parent) path.push(at.key)
      return path.reverse()
    }
    for (const [key, child] of Object.entries(level.value)) {
      if (typeof child === "object" && child !== null) {
        stack.push({ value: child, depth: level.depth + 1, key, parent: level })
      }
    }
  }
  return undefined
}
