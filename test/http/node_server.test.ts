// The Node server's own refusals (src/http/server.ts, `makeNodeServer`) on a connection that is
// already answering: a refusal must never write a second status line into a response under way.

import type { Server, ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { connect, type Socket } from "node:net"
import { afterEach, describe, expect, it } from "@effect/vitest"
import { makeNodeServer } from "../../src/http/server.ts"
import { freePort } from "../support/process.ts"

let server: Server | undefined

afterEach(async () => {
  server?.closeAllConnections()
  await new Promise((resolve) => server?.close(resolve))
  server = undefined
})

/** A server whose one handler writes the response `answer` gives it. */
const serve = async (answer: (response: ServerResponse) => void) => {
  server = makeNodeServer("http://docs.invalid/docs")
  server.on("request", (_request, response) => answer(response))
  const port = await freePort()
  await new Promise<void>((resolve) => server!.listen(port, "127.0.0.1", resolve))
  return (server.address() as AddressInfo).port
}

/** A connection, with everything it received so far and whether the server closed it. */
const open = (port: number) => {
  const state = { received: "", closed: false, socket: undefined as unknown as Socket }
  state.socket = connect(port, "127.0.0.1")
  state.socket.on("data", (chunk) => {
    state.received += chunk.toString("utf8")
  })
  state.socket.on("close", () => {
    state.closed = true
  })
  state.socket.on("error", () => {})
  return state
}

const until = async (condition: () => boolean) => {
  for (let i = 0; i < 200 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 10))
  expect(condition()).toBe(true)
}

const statusLines = (text: string) => text.match(/HTTP\/1\.1 \d{3}/g) ?? []

/**
 * A request on a new connection, then, once `seen` has arrived of its answer, a malformed one on
 * the same connection: everything the connection received until the server closed it.
 */
const malformedAfter = async (port: number, seen: string) => {
  const connection = open(port)
  connection.socket.write("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
  await until(() => connection.received.includes(seen))
  connection.socket.write("NOT A REQUEST LINE\r\n\r\n")
  await until(() => connection.closed)
  return connection.received
}

describe("the Node server's refusals on a busy connection", () => {
  it("a malformed request behind a response under way closes the connection, adding no status line", async () => {
    const port = await serve((response) => {
      response.writeHead(200, { "content-type": "text/plain" })
      response.write("started;")
    })
    const received = await malformedAfter(port, "started;")
    expect(statusLines(received)).toEqual(["HTTP/1.1 200"])
    expect(received).not.toContain("invalid_request")
  })

  it("a malformed request after a finished response is refused in the envelope", async () => {
    const port = await serve((response) => {
      response.writeHead(200, { "content-type": "text/plain", "content-length": "5" })
      response.end("done;")
    })
    const received = await malformedAfter(port, "done;")
    expect(statusLines(received)).toEqual(["HTTP/1.1 200", "HTTP/1.1 400"])
    const body = received.slice(received.lastIndexOf("\r\n\r\n") + 4)
    expect(JSON.parse(body).error.code).toBe("invalid_request")
  })
})
