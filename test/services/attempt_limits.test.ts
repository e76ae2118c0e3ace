// Attempt limits' sweep over the active test backend (SQLite or Postgres): counters whose window
// ended long ago are deleted, running ones are kept, and a swept key counts afresh. Counting itself
// is tested with the logins (logins.test.ts). Time is the test clock, moved instead of waited for.
import { assert, describe, it } from "@effect/vitest"
import { Cause, Effect, Exit, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { TestClock } from "effect/testing"
import { AttemptLimits, longestWindowMs } from "../../src/services/attempt_limits.ts"
import { TestSqlLayer } from "../support/database.ts"

const T0 = Date.parse("2026-11-27T10:00:00.000Z")
const minute = 60_000
const hour = 60 * minute

const services = AttemptLimits.layer.pipe(Layer.provideMerge(TestSqlLayer))

/** Runs `body` on the test clock set to T0, over a fresh database. */
const withLimits = <A, E>(body: Effect.Effect<A, E, AttemptLimits | SqlClient.SqlClient>) =>
  Effect.scoped(
    Effect.gen(function* () {
      yield* TestClock.setTime(T0)
      return yield* Effect.provide(body, yield* Layer.build(services))
    })
  )

const keys = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  return (yield* sql<{ key: string }>`SELECT key FROM sign_in_attempts ORDER BY key`).map((row) => row.key)
})

describe("AttemptLimits.sweep", () => {
  it.effect("deletes the counters whose window started a day ago or more, and keeps the others", () =>
    withLimits(
      Effect.gen(function* () {
        const limits = yield* AttemptLimits
        yield* limits.take("address:old", 20, 15 * minute)
        yield* limits.fail("account:old", 15 * minute)
        yield* limits.take("registration:running", 10, hour)
        yield* TestClock.adjust(10 * hour)
        yield* limits.fail("account:later", 15 * minute)
        // Counted at T0 and again once its window ended: the counter is the new window's.
        yield* TestClock.adjust(13 * hour)
        yield* limits.take("registration:running", 10, hour)
        assert.strictEqual(yield* limits.sweep, 0)

        yield* TestClock.adjust(hour - 1)
        assert.strictEqual(yield* limits.sweep, 0, "a day less a millisecond after T0")
        yield* TestClock.adjust(1)
        assert.strictEqual(yield* limits.sweep, 2)
        assert.deepStrictEqual(yield* keys, ["account:later", "registration:running"])
        assert.strictEqual(yield* limits.sweep, 0)

        // A swept key counts afresh, as it would once its window had ended.
        assert.deepStrictEqual(yield* limits.take("address:old", 20, 15 * minute), { _tag: "Open", remaining: 19 })
        yield* TestClock.adjust(longestWindowMs)
        assert.strictEqual(yield* limits.sweep, 3)
        assert.deepStrictEqual(yield* keys, [])
      })
    )
  )

  it.effect("a window longer than the sweep keeps counters is refused as a defect, counting nothing", () =>
    withLimits(
      Effect.gen(function* () {
        const limits = yield* AttemptLimits
        for (const attempt of [
          Effect.asVoid(limits.take("k", 3, longestWindowMs + 1)),
          Effect.asVoid(limits.fail("k", longestWindowMs + 1)),
          Effect.asVoid(limits.check("k", 3, longestWindowMs + 1))
        ]) {
          const exit = yield* Effect.exit(attempt)
          assert.isTrue(Exit.isFailure(exit) && Cause.hasDies(exit.cause))
        }
        assert.deepStrictEqual(yield* keys, [])
        assert.deepStrictEqual(yield* limits.take("k", 3, longestWindowMs), { _tag: "Open", remaining: 2 })
      })
    )
  )
})
