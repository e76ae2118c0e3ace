/**
 * Responses leave in batches, once per turn of the event loop: a response's writing waits for the
 * end of the turn in which it was answered, then every response answered in that turn is written,
 * one after another, in the order they were answered.
 *
 * Under load one turn of the loop reads many requests and answers them one after another. Written
 * as each is answered, every response is a separate write between two requests' work, and each
 * write finds its client asleep and wakes it: on loopback (a proxy or a client on the same host,
 * and this project's benchmark) waking a sleeping process is paid by the writer, and it cost more
 * than the rest of a poll (docs/performance.md, "Writes leave in batches"). Written together at
 * the end of the turn, the first write wakes the client and the rest find it awake. A response
 * waits at most for the requests read in the same turn; an idle server's answer leaves at once
 * (the next `setImmediate`).
 *
 * The wait is the request fiber's own (`Effect.callback`): resumed at the end of the turn, each
 * fiber goes on to write its response as Effect's server always does.
 */
import * as Effect from "effect/Effect"

let waiting: Array<() => void> = []

const release = () => {
  const batch = waiting
  waiting = []
  for (const resume of batch) resume()
}

/** `value`, once the current turn of the event loop has ended, after every value held before it in the turn. */
export const atEndOfTurn = <A>(value: A): Effect.Effect<A> =>
  Effect.callback<A>((resume) => {
    if (waiting.length === 0) setImmediate(release)
    waiting.push(() => resume(Effect.succeed(value)))
  })
