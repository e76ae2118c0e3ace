/**
 * A webhook receiver for tests: an HTTP server on a loopback port that records every request it
 * gets and answers as the test says (a status, or never). Events are verified with the
 * `standardwebhooks` package, as an agent's receiver would.
 */
import { createServer, type IncomingHttpHeaders } from "node:http"
import type { AddressInfo } from "node:net"
import { Webhook } from "standardwebhooks"

export interface Received {
  readonly headers: IncomingHttpHeaders
  readonly body: string
  readonly path: string
}

export interface Receiver {
  /** The receiver's address, e.g. http://127.0.0.1:41234/hooks */
  readonly url: string
  readonly received: Array<Received>
  /**
   * How the `n`-th request (from 0) is answered: a status (a 3xx redirects to `/hooks/elsewhere`),
   * "hang" (never answered) or "endless" (200, then a body that never ends).
   */
  answer: (n: number) => Answer
  /** Resolves once `count` requests have arrived, or fails after `timeoutMs`. */
  readonly waitFor: (count: number, timeoutMs?: number) => Promise<ReadonlyArray<Received>>
  readonly close: () => Promise<void>
}

export type Answer = number | "hang" | "endless"

export const startReceiver = async (answer: (n: number) => Answer = () => 204): Promise<Receiver> => {
  const received: Array<Received> = []
  const receiver: Receiver = {
    url: "",
    received,
    answer,
    waitFor: async (count, timeoutMs = 15_000) => {
      const deadline = Date.now() + timeoutMs
      while (received.length < count) {
        if (Date.now() > deadline) {
          throw new Error(`the receiver got ${received.length} of ${count} requests within ${timeoutMs} ms`)
        }
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
      return received.slice(0, count)
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
  const server = createServer((request, response) => {
    const chunks: Array<Buffer> = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.on("end", () => {
      const n = received.length
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString("utf8"), path: request.url ?? "" })
      const status = receiver.answer(n)
      if (status === "hang") return
      if (status === "endless") {
        response.writeHead(200, { "content-type": "text/plain" })
        const chunk = Buffer.alloc(16 * 1024, "x")
        const timer = setInterval(() => response.write(chunk), 5)
        response.on("close", () => clearInterval(timer))
        return
      }
      const headers = status >= 300 && status < 400 ? { location: "/hooks/elsewhere" } : {}
      response.writeHead(status, { "content-type": "text/plain", ...headers }).end(status < 300 ? "" : "not now")
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  ;(receiver as { url: string }).url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`
  return receiver
}

/** The event of a request, verified with the task's secret (throws when the signature is wrong). */
// biome-ignore lint/suspicious/noExplicitAny: events are inspected member by member
export const verified = (secret: string, request: Received): any =>
  new Webhook(secret).verify(request.body, request.headers as Record<string, string>)
