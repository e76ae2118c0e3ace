/**
 * Responses are written at the end of the event loop's turn, all together (src/http/turn.ts). The
 * whole HTTP suite is answered through it; these tests pin what it adds and what it must not lose.
 */
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import { describe, expect, it } from "vitest"
import { atEndOfTurn } from "../../src/http/turn.ts"

const endOfTurn = () => new Promise((resolve) => setImmediate(resolve))

describe("values held until the end of the turn", () => {
  it("gives nothing during the turn, then every value held in it, in the order they were held", async () => {
    const given: Array<number> = []
    for (const i of [1, 2, 3]) Effect.runFork(Effect.map(atEndOfTurn(i), (value) => given.push(value)))
    await Promise.resolve()
    expect(given).toEqual([])
    await endOfTurn()
    expect(given).toEqual([1, 2, 3])
  })

  it("a value held in a later turn waits for the end of that turn, not the first", async () => {
    const given: Array<string> = []
    Effect.runFork(Effect.map(atEndOfTurn("first"), (value) => given.push(value)))
    await endOfTurn()
    Effect.runFork(Effect.map(atEndOfTurn("second"), (value) => given.push(value)))
    expect(given).toEqual(["first"])
    await endOfTurn()
    expect(given).toEqual(["first", "second"])
  })

  it("a fiber interrupted while it waits is left out, and the rest of its batch is given", async () => {
    const given: Array<number> = []
    const fibers = [1, 2, 3].map((i) => Effect.runFork(Effect.map(atEndOfTurn(i), (value) => given.push(value))))
    Effect.runFork(Fiber.interrupt(fibers[1]!))
    await endOfTurn()
    expect(given).toEqual([1, 3])
  })
})
