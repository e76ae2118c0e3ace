/**
 * Responses leave together, once per turn of the event loop. Under load one turn reads many
 * requests and answers them one after another; written as each is answered, every response is a
 * separate write between two requests' work, and each wakes a client that has gone back to sleep.
 * On loopback (a proxy or a client on the same host, and the benchmark) the writer pays for that
 * wake-up, and it cost more than the rest of a poll. So each request, its response made, waits for
 * the end of the turn (the turn's `setImmediate`), and then all the turn's responses are written in
 * the order they were made: the first write wakes the client, the rest find it awake.
 *
 * The trick rescues issue 34's targets for a task read and its 304 (docs/performance.md, "Writes
 * leave in batches"). Invariant (test/http/turn_batching.test.ts): a response is never held past
 * the turn that made it (an idle server answers at once, before any timer), responses leave in the
 * order they were made, and what the response is — status, headers, body — is unchanged. It uses
 * only Effect's public `Effect.callback`; Node's `ServerResponse` is untouched.
 */
import * as Effect from "effect/Effect"
import type * as HttpMiddleware from "effect/http/HttpMiddleware"

/** A middleware whose requests' responses wait for the end of the turn they were made in. */
export const makeTurnBatching = (): HttpMiddleware.HttpMiddleware => {
  let waiting: Array<(effect: Effect.Effect<void>) => void> = []
  const release = () => {
    const turn = waiting
    waiting = []
    for (const resume of turn) resume(Effect.void)
  }
  const endOfTurn = Effect.callback<void>((resume) => {
    if (waiting.length === 0) setImmediate(release)
    waiting.push(resume)
  })
  return (httpEffect) => Effect.tap(httpEffect, () => endOfTurn)
}
