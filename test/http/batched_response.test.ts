/**
 * The Node adapter's responses (src/http/batched_response.ts): a response's `end` is held until
 * the end of the event loop's turn, then every response finished in that turn leaves, in order.
 * The whole HTTP suite runs through it; these tests pin what it adds and what it must not lose.
 */
import { createServer, type IncomingMessage, request, type Server, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { afterEach, describe, expect, it } from "vitest"
import { BatchedResponse } from "../../src/http/batched_response.ts"

let server: Server | undefined

afterEach(async () => {
  server?.closeAllConnections()
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined))
  server = undefined
})

/** A server with batched responses whose handler gets every request; its base URL. */
const listen = async (handler: (req: IncomingMessage, res: ServerResponse) => void) => {
  server = createServer({ ServerResponse: BatchedResponse, keepAlive: false }, handler)
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

/** GET `url` on a connection of its own: the status and body, or the error if the connection failed. */
const get = (url: string) =>
  new Promise<{ status: number; body: string } | { error: string }>((resolve) => {
    const req = request(url, { agent: false }, (res) => {
      let body = ""
      res.setEncoding("utf8")
      res.on("data", (chunk) => (body += chunk))
      res.on("end", () => resolve({ status: res.statusCode!, body }))
      res.on("error", (error) => resolve({ error: error.message }))
    })
    req.on("error", (error) => resolve({ error: error.message }))
    req.end()
  })

describe("batched responses", () => {
  it("holds a finished response until the end of the turn, then sends it and calls its callback", async () => {
    const seen: Array<string> = []
    const url = await listen((_req, res) => {
      const socket = res.socket!
      const written = () => socket.bytesWritten
      res.writeHead(200, { "content-type": "text/plain" })
      res.end("done", () => seen.push("callback"))
      // Still in the turn that finished it: nothing has been written yet.
      seen.push(`after end: written=${written()} ended=${res.writableEnded}`)
      queueMicrotask(() => seen.push(`microtask: written=${written()}`))
      setImmediate(() => seen.push(`a later immediate: written=${written() > 0} ended=${res.writableEnded}`))
    })
    expect(await get(url)).toEqual({ status: 200, body: "done" })
    expect(seen).toEqual([
      "after end: written=0 ended=false",
      "microtask: written=0",
      "callback",
      "a later immediate: written=true ended=true"
    ])
  })

  it("sends the responses finished in one turn together, each with its own body, in order", async () => {
    const waiting: Array<ServerResponse> = []
    const order: Array<number> = []
    let writtenInTheTurn: Array<number | undefined> = []
    const url = await listen((_req, res) => {
      waiting.push(res)
      if (waiting.length < 3) return
      // Three responses finished in one turn: none leaves before the turn ends, all leave then.
      waiting.forEach((r, i) => {
        r.on("finish", () => order.push(i))
        r.end(`answer ${i}`)
      })
      writtenInTheTurn = waiting.map((r) => r.socket?.bytesWritten)
    })
    const answers = await Promise.all([get(url), get(url), get(url)])
    expect(answers.map((a) => ("body" in a ? a.body : a.error)).sort()).toEqual(["answer 0", "answer 1", "answer 2"])
    expect(writtenInTheTurn).toEqual([0, 0, 0])
    expect(order).toEqual([0, 1, 2])
  })

  it("a response whose end would throw closes its own connection, and the rest of the batch leaves", async () => {
    const waiting: Array<ServerResponse> = []
    const url = await listen((_req, res) => {
      waiting.push(res)
      if (waiting.length < 2) return
      for (const r of waiting) {
        if (r.req.url === "/bad") {
          // Node throws for a body longer than the content-length promised, when the body is written.
          r.strictContentLength = true
          r.writeHead(200, { "content-length": "2" })
          r.end("far too long")
        } else {
          r.end("fine")
        }
      }
    })
    const [bad, good] = await Promise.all([get(`${url}/bad`), get(`${url}/good`)])
    expect(bad).toHaveProperty("error")
    expect(good).toEqual({ status: 200, body: "fine" })
  })

  it("a response whose client has gone when the batch leaves is dropped without harming the others", async () => {
    const url = await listen((req, res) => {
      if (req.url === "/gone") {
        // The connection is destroyed after end but before the batch leaves.
        res.end("never read")
        res.destroy()
        return
      }
      res.end("still answered")
    })
    const [gone, kept] = await Promise.all([get(`${url}/gone`), get(`${url}/kept`)])
    expect(gone).toHaveProperty("error")
    expect(kept).toEqual({ status: 200, body: "still answered" })
  })
})
