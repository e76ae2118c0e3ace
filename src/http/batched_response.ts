/**
 * Node's `ServerResponse`, except that a response's last write waits for the end of the event
 * loop's turn and then leaves with every other response finished in that turn, in the order they
 * were finished.
 *
 * Under load one turn of the loop reads many requests and answers them one after another. Written
 * as each is answered, every response is a separate write between two requests' work, and each
 * write finds its client asleep and wakes it: on loopback (a proxy or a client on the same host,
 * and this project's benchmark) waking a sleeping process is paid by the writer, and it cost more
 * than the rest of a poll (docs/performance.md, "Writes leave in batches"). Written together at
 * the end of the turn, the first write wakes the client and the rest find it awake. A response
 * waits at most for the requests read in the same turn; an idle server's answers leave at once
 * (the next `setImmediate`, before any timer or socket).
 *
 * Only `end` is held: headers, interim responses and a streamed body's earlier chunks are written
 * as they come, and `end`'s callback (Effect awaits it for large bodies) is called as Node calls it.
 * What `end` would have thrown (a body that does not match its content-length) destroys that
 * response's connection instead, so the client sees the failure and the batch goes on.
 *
 * This is the one method of a library's class the service overrides, through the extension point
 * Node documents for it (`createServer`'s `ServerResponse` option, "useful for extending the
 * original ServerResponse"). The public alternative — each request's fiber waiting for the end of
 * the turn before Effect writes its response — measured 4–14 % slower on polls, reads and `q`
 * (docs/performance.md, "Writes leave in batches").
 */
import { type IncomingMessage, ServerResponse } from "node:http"

export class BatchedResponse<Request extends IncomingMessage = IncomingMessage> extends ServerResponse<Request> {
  override end(...args: Array<unknown>): this {
    if (held.length === 0) setImmediate(release)
    held.push({ response: this as BatchedResponse, args })
    return this
  }

  /** The `end` that was held, now. */
  endHeld(args: Array<unknown>) {
    try {
      ;(super.end as (...args: Array<unknown>) => this).apply(this, args)
    } catch (error) {
      this.destroy(error instanceof Error ? error : new Error(String(error)))
    }
  }
}

let held: Array<{ readonly response: BatchedResponse; readonly args: Array<unknown> }> = []

const release = () => {
  const batch = held
  held = []
  for (const { response, args } of batch) response.endHeld(args)
}
