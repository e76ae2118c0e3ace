// The read caches (src/read_cache.ts) held to their definitions: whatever is asked, a cache answers
// only what recomputing would answer, and it keeps exactly what its bounds allow. Every cache of the
// service is one of these kinds; the sites' own tests check what they key by and when the
// version moves (a poll after another process's write, a listing after an import).
import { assert, describe, it } from "@effect/vitest"
import * as Arbitrary from "effect/Arbitrary"
import * as Schema from "effect/Schema"
import { cachedPerObject, immutableKey, madeOnce, memoized, versionedCache } from "../src/read_cache.ts"

const propOptions = { arbitrary: { runs: Number(process.env.PROP_RUNS ?? 300) } }

const small = (max: number) => Arbitrary.schema(Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: max })))

/** Few keys and versions, so that keys meet again at the same and at other versions. */
const keys = 3
const versions = 3

const operation = Arbitrary.all({
  // get: look up; set: keep a freshly made value; read: what a site does (look up, else make and keep).
  op: Arbitrary.schema(Schema.Literals(["get", "set", "read"])),
  key: small(keys - 1),
  version: small(versions - 1)
})

interface Made {
  readonly key: number
  readonly version: number
  readonly weight: number
}

describe("versionedCache", () => {
  it.prop(
    "every answer is what recomputing gives for that key at that version; it keeps what a plain least-recently-used list within the budget keeps",
    {
      budget: small(6),
      largestWeight: small(7),
      // The weight of the value made for each (key, version): recomputing gives the same value.
      weights: Arbitrary.array(small(3), { minLength: keys * versions, maxLength: keys * versions }),
      operations: Arbitrary.array(operation, { minLength: 50, maxLength: 200 })
    },
    ({ budget, largestWeight, operations, weights }) => {
      // The oracle: a new value each time, worked out from the key and the version alone.
      const recompute = (key: number, version: number): Made => ({
        key,
        version,
        weight: weights[key * versions + version]!
      })
      const cache = versionedCache<number, Made>({ budget, weightOf: (made) => made.weight, largestWeight })
      // The model of what is kept: least recently used first.
      let kept: Array<Made> = []
      const modelGet = (key: number, version: number) => {
        const entry = kept.find((made) => made.key === key)
        if (entry?.version !== version) return undefined
        kept = [...kept.filter((made) => made !== entry), entry]
        return entry
      }
      const modelSet = (made: Made) => {
        kept = kept.filter((other) => other.key !== made.key)
        if (made.weight > Math.min(largestWeight, budget)) return
        kept.push(made)
        while (kept.reduce((sum, other) => sum + other.weight, 0) > budget) kept.shift()
      }
      for (const [step, { key, op, version }] of operations.entries()) {
        const at = `step ${step}: ${op} key ${key} at version ${version}`
        if (op === "set") {
          const made = recompute(key, version)
          cache.set(key, version, made)
          modelSet(made)
          continue
        }
        const answer = cache.get(key, version)
        const expected = modelGet(key, version)
        if (answer === undefined) assert.isUndefined(expected, `${at}: a miss where the model keeps a value`)
        else {
          assert.isDefined(expected, `${at}: a hit where the model keeps nothing`)
          assert.deepStrictEqual(answer, recompute(key, version), `${at}: not what recomputing gives`)
        }
        if (op === "read" && answer === undefined) {
          const made = recompute(key, version)
          cache.set(key, version, made)
          modelSet(made)
        }
      }
    },
    propOptions
  )

  it("serves a value only at the version it was made for", () => {
    const cache = versionedCache<string, string>({ budget: 10 })
    cache.set("tsk_a", 1, "body at 1")
    assert.strictEqual(cache.get("tsk_a", 1), "body at 1")
    assert.isUndefined(cache.get("tsk_a", 2))
    assert.isUndefined(cache.get("tsk_b", 1))
    // A value made at another version takes the key's place: the older one is not served again.
    cache.set("tsk_a", 2, "body at 2")
    assert.isUndefined(cache.get("tsk_a", 1))
    assert.strictEqual(cache.get("tsk_a", 2), "body at 2")
    // A key that is all its value is made from has one version.
    cache.set("a text", immutableKey, "its terms")
    assert.strictEqual(cache.get("a text", immutableKey), "its terms")
  })

  it("tells null, a value (no such task), from a miss", () => {
    const cache = versionedCache<string, number | null>({ budget: 10 })
    assert.isUndefined(cache.get("tsk_gone", 7))
    cache.set("tsk_gone", 7, null)
    assert.isNull(cache.get("tsk_gone", 7))
  })

  it("lets the least recently used go first, a use counting as recent", () => {
    const cache = versionedCache<string, string>({ budget: 3 })
    for (const key of ["a", "b", "c"]) cache.set(key, 1, key)
    assert.strictEqual(cache.get("a", 1), "a")
    cache.set("d", 1, "d")
    assert.isUndefined(cache.get("b", 1), "b, used longest ago, is let go")
    assert.deepStrictEqual(
      ["a", "c", "d"].map((key) => cache.get(key, 1)),
      ["a", "c", "d"]
    )
    // A miss (another version) does not count as a use: "a" is now the least recently used.
    assert.isUndefined(cache.get("a", 2))
    cache.set("e", 1, "e")
    assert.isUndefined(cache.get("a", 1))
    assert.deepStrictEqual(
      ["c", "d", "e"].map((key) => cache.get(key, 1)),
      ["c", "d", "e"]
    )
    // Used again after another was set, the key used last is the most recent once more.
    const pair = versionedCache<string, string>({ budget: 2 })
    pair.set("a", 1, "a")
    assert.strictEqual(pair.get("a", 1), "a")
    pair.set("b", 1, "b")
    assert.strictEqual(pair.get("a", 1), "a")
    pair.set("c", 1, "c")
    assert.isUndefined(pair.get("b", 1), "b, used longest ago, is let go")
    assert.strictEqual(pair.get("a", 1), "a")
  })

  it("keeps values within a budget of weight, as many light ones as it holds", () => {
    const cache = versionedCache<string, string>({ budget: 10, weightOf: (body) => body.length })
    cache.set("heavy", 1, "x".repeat(6))
    cache.set("light", 1, "y".repeat(4))
    assert.strictEqual(cache.get("heavy", 1)?.length, 6)
    // 6 + 4 + 3 is past 10: the least recently used, "light", goes; 6 + 3 fits.
    cache.set("third", 1, "zzz")
    assert.isUndefined(cache.get("light", 1))
    assert.strictEqual(cache.get("heavy", 1)?.length, 6)
    assert.strictEqual(cache.get("third", 1), "zzz")
    // 6 + 3 + 2 is past 10: "heavy", now the least recently used, goes.
    cache.set("fourth", 1, "ww")
    assert.isUndefined(cache.get("heavy", 1))
    // Five light ones make 3 + 2 + 5 = 10: all kept.
    for (const key of ["a", "b", "c", "d", "e"]) cache.set(key, 1, "v")
    assert.deepStrictEqual(
      ["third", "fourth", "a", "b", "c", "d", "e"].map((key) => cache.get(key, 1)),
      ["zzz", "ww", "v", "v", "v", "v", "v"]
    )
  })

  it("does not keep a value over its largest weight, nor what its key held before", () => {
    const cache = versionedCache<string, string>({ budget: 16, weightOf: (body) => body.length, largestWeight: 4 })
    cache.set("other", 1, "kept")
    cache.set("task", 1, "old")
    cache.set("task", 2, "too large")
    assert.isUndefined(cache.get("task", 2))
    assert.isUndefined(cache.get("task", 1), "the older value is stale: its key moved on")
    assert.strictEqual(cache.get("other", 1), "kept", "nothing else is let go for it")
    cache.set("task", 3, "fits")
    assert.strictEqual(cache.get("task", 3), "fits")
    // Without a largest weight, the budget is the largest.
    const plain = versionedCache<string, string>({ budget: 3, weightOf: (body) => body.length })
    plain.set("a", 1, "ab")
    plain.set("b", 1, "four")
    assert.isUndefined(plain.get("b", 1))
    assert.strictEqual(plain.get("a", 1), "ab", "a value over the budget does not empty the cache")
  })
})

describe("cachedPerObject", () => {
  it("makes a value once per object, by identity, not by equal contents", () => {
    let made = 0
    const lengthOf = cachedPerObject((xs: ReadonlyArray<number>) => {
      made++
      return { length: xs.length }
    })
    const one = [1, 2, 3]
    const first = lengthOf(one)
    assert.strictEqual(lengthOf(one), first)
    assert.strictEqual(made, 1)
    const equal = [1, 2, 3]
    assert.notStrictEqual(lengthOf(equal), first)
    assert.deepStrictEqual(lengthOf(equal), first)
    assert.strictEqual(made, 2)
  })

  it.prop(
    "answers what making gives, making again only after its bound let everything go",
    {
      maxObjects: Arbitrary.schema(Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 5 }))),
      picks: Arbitrary.array(small(7), { minLength: 1, maxLength: 100 })
    },
    ({ maxObjects, picks }) => {
      const objects = Array.from({ length: 8 }, (_, i) => ({ i }))
      const makes: Array<number> = []
      const cached = cachedPerObject((object: { readonly i: number }) => {
        makes.push(object.i)
        return { madeFrom: object.i }
      }, maxObjects)
      // The model: the objects made since the last letting go.
      let kept = new Set<number>()
      const expectedMakes: Array<number> = []
      for (const pick of picks) {
        assert.deepStrictEqual(cached(objects[pick]!), { madeFrom: pick })
        if (kept.has(pick)) continue
        expectedMakes.push(pick)
        if (kept.size === maxObjects) kept = new Set()
        kept.add(pick)
      }
      assert.deepStrictEqual(makes, expectedMakes)
    },
    propOptions
  )

  it("past its bound lets everything kept go at once", () => {
    const objects = [{}, {}, {}, {}]
    let made = 0
    const cached = cachedPerObject(() => ({ made: ++made }), 3)
    const firsts = objects.slice(0, 3).map(cached)
    assert.deepStrictEqual(objects.slice(0, 3).map(cached), firsts)
    assert.strictEqual(made, 3)
    cached(objects[3]!)
    assert.strictEqual(made, 4)
    assert.notStrictEqual(cached(objects[0]!), firsts[0])
    assert.strictEqual(made, 5)
  })
})

describe("memoized", () => {
  it.prop(
    "answers what making gives, making again only after its bound let everything go",
    {
      maxKeys: Arbitrary.schema(Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 5 }))),
      picks: Arbitrary.array(small(7), { minLength: 1, maxLength: 100 })
    },
    ({ maxKeys, picks }) => {
      const makes: Array<number> = []
      const cached = memoized((key: string) => {
        makes.push(Number(key))
        return `made from ${key}`
      }, maxKeys)
      // The model: the keys made since the last letting go.
      let kept = new Set<number>()
      const expectedMakes: Array<number> = []
      for (const pick of picks) {
        // A fresh string each time: keys are compared by value.
        assert.strictEqual(cached(String(pick)), `made from ${pick}`)
        if (kept.has(pick)) continue
        expectedMakes.push(pick)
        if (kept.size === maxKeys) kept = new Set()
        kept.add(pick)
      }
      assert.deepStrictEqual(makes, expectedMakes)
    },
    propOptions
  )

  it("keeps a null value as any other", () => {
    let made = 0
    const cached = memoized((_: number) => {
      made++
      return null
    })
    assert.strictEqual(cached(1), null)
    assert.strictEqual(cached(1), null)
    assert.strictEqual(made, 1)
  })
})

describe("madeOnce", () => {
  it("makes its value on the first call, not before, and never again", () => {
    let made = 0
    const value = madeOnce(() => ({ made: ++made }))
    assert.strictEqual(made, 0)
    const first = value()
    assert.strictEqual(value(), first)
    assert.strictEqual(made, 1)
  })
})
