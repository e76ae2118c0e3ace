// A dispatcher sweep that fails (storage down, most often) is logged, not swallowed: one warning a
// minute while sweeps keep failing (not one per interval), and one line when they work again.
// Time is the test clock's: the sweeps of a minute run in no time.
import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer, References } from "effect"
import { TestClock } from "effect/testing"
import { StorageUnavailable } from "../../src/domain/errors.ts"
import { captureLogs } from "../support/logs.ts"
import { serverServicesWith } from "../support/services.ts"
import { testConfig } from "../support/settings.ts"
import { taskStoreReplacing } from "../support/stores.ts"

/** Whether the store's look-up of due tasks fails. */
const storage = { down: true, dueCalls: 0 }

const FlakyStore = taskStoreReplacing((store) => ({
  due: (now, limit) =>
    Effect.suspend(() => {
      storage.dueCalls++
      return storage.down
        ? Effect.fail(new StorageUnavailable({ cause: "the database is down (test)" }))
        : store.due(now, limit)
    })
}))

const { lines, layer: capture } = captureLogs()

const services = serverServicesWith(FlakyStore).pipe(
  Layer.provide(testConfig({ timerSweepMs: 1000 })),
  Layer.provide(capture),
  Layer.provide(Layer.succeed(References.MinimumLogLevel, "Info"))
)

const messages = (level: string) => lines.filter((l) => l.level === level).map((l) => String(l.message))

describe("the dispatcher's failed sweeps", () => {
  it.effect("are logged once a minute while they keep failing, and once when they work again", () =>
    Effect.scoped(
      Effect.gen(function* () {
        // The test clock starts at 1970; the service's time is now.
        yield* TestClock.setTime(Date.parse("2026-11-28T12:00:00Z"))
        yield* Layer.build(services)
        const warnings = () => messages("Warn").filter((m) => m.includes("sweep failed")).length
        // Thirty intervals of the test clock: thirty sweeps, in no time.
        yield* TestClock.adjust("30 seconds")
        assert.isAtLeast(storage.dueCalls, 30, "the sweep kept retrying at its interval")
        assert.deepStrictEqual(warnings(), 1)
        // Still failing a minute later: one warning more, not one per sweep.
        yield* TestClock.adjust("1 minute")
        assert.deepStrictEqual(warnings(), 2)
        const failedSweeps = storage.dueCalls
        storage.down = false
        yield* TestClock.adjust("1 second")
        assert.include(messages("Info").join("\n"), "the dispatcher's sweeps work again")
        assert.isAbove(storage.dueCalls, failedSweeps)
      })
    )
  )
})
