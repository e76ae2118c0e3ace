// Responses leave together, once per turn of the event loop (src/http/turn_batching.ts): a
// response waits for the end of the turn it was made in and no longer, the turn's responses leave
// in the order they were made, and each is exactly what the handler made.
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import { makeTurnBatching } from "../../src/http/turn_batching.ts"

const answer = (i: number) => HttpServerResponse.text(`answer ${i}`, { status: 200 + i, headers: { "x-i": String(i) } })

/** Runs the handlers through the middleware, all started in one turn; the order they left in. */
const serve = (count: number) => {
  const batching = makeTurnBatching()
  const left: Array<number> = []
  const done = Array.from({ length: count }, (_, i) =>
    Effect.runPromise(batching(Effect.succeed(answer(i))) as Effect.Effect<HttpServerResponse.HttpServerResponse>).then(
      (response) => {
        left.push(i)
        return response
      }
    )
  )
  return { left, done: Promise.all(done) }
}

describe("responses leave once per turn", () => {
  it("holds each response until the turn ends, then lets them all go in the order they were made", async () => {
    let leftWithinTheTurn: Array<number> | undefined
    // Runs at the end of this turn, before the turn's responses are let go.
    setImmediate(() => {
      leftWithinTheTurn = [...left]
    })
    const { left, done } = serve(20)
    const responses = await done
    // Made at once, but held: nothing left within the turn.
    expect(leftWithinTheTurn).toEqual([])
    expect(left).toEqual(Array.from({ length: 20 }, (_, i) => i))
    responses.forEach((response, i) => {
      expect(response.status).toBe(200 + i)
      expect(response.headers["x-i"]).toBe(String(i))
      expect(response.body._tag === "Uint8Array" && new TextDecoder().decode(response.body.body)).toBe(`answer ${i}`)
    })
  })

  it("holds a response no longer than the turn: an idle server's answer leaves in the next turn", async () => {
    const { left, done } = serve(1)
    // Two turns of the loop's check phase: the turn's release, and Effect's resumption of the fiber.
    await new Promise((resolve) => setImmediate(() => setImmediate(resolve)))
    expect(left).toEqual([0])
    await done
  })

  it("batches each turn on its own: a later turn's responses do not wait for an earlier batch", async () => {
    const first = serve(3)
    await first.done
    const second = serve(3)
    await second.done
    expect(second.left).toEqual([0, 1, 2])
  })
})
