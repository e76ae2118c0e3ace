// A dispatcher sweep that fails (storage down, most often) is logged, not swallowed: one warning
// while sweeps keep failing (not one per interval), and one line when they work again.
import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer, References } from "effect"
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
  Layer.provide(testConfig({ timerSweepMs: 10 })),
  Layer.provide(capture),
  Layer.provide(Layer.succeed(References.MinimumLogLevel, "Info"))
)

const messages = (level: string) => lines.filter((l) => l.level === level).map((l) => String(l.message))

describe("the dispatcher's failed sweeps", () => {
  it.live("are logged once while they keep failing, and once when they work again", () =>
    Effect.scoped(
      Effect.gen(function* () {
        yield* Layer.build(services)
        yield* Effect.sleep("300 millis")
        const failedSweeps = storage.dueCalls
        assert.isAtLeast(failedSweeps, 5, "the sweep kept retrying at its interval")
        assert.deepStrictEqual(messages("Warn").filter((m) => m.includes("sweep failed")).length, 1)
        storage.down = false
        yield* Effect.sleep("100 millis")
        assert.include(messages("Info").join("\n"), "the dispatcher's sweeps work again")
        assert.isAbove(storage.dueCalls, failedSweeps)
      })
    )
  )
})
