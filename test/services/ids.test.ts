// Task references (src/services/ids.ts): `tsk_` and 26 base32 characters (130 random bits), drawn
// from a pool the CSPRNG refills: across many refills every reference is well-formed and new, and
// every character of the alphabet turns up in every position.
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { Ids, referencePattern } from "../../src/services/ids.ts"

describe("task references", () => {
  it("are well-formed and distinct across many refills of the pool", async () => {
    const references = await Effect.runPromise(
      Effect.gen(function* () {
        const ids = yield* Ids
        return yield* Effect.replicateEffect(ids.taskReference, 5000)
      }).pipe(Effect.provide(Ids.layer))
    )
    for (const reference of references) expect(reference).toMatch(referencePattern)
    expect(new Set(references).size).toBe(references.length)
    // Every position takes all 32 characters.
    for (let position = 4; position < 30; position++) {
      expect(new Set(references.map((r) => r[position])).size, `position ${position}`).toBe(32)
    }
  })
})
