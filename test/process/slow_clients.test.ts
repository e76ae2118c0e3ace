/**
 * Slow clients (DECISIONS §11): node:http's headers, request and keep-alive timeouts, set from the
 * environment of a real process (HEADERS_TIMEOUT, REQUEST_TIMEOUT, KEEP_ALIVE_TIMEOUT) and probed
 * with raw sockets. A client that dribbles its headers or stalls its body gets 408
 * `request_timeout` in the JSON envelope and is disconnected; an idle kept-alive connection is
 * closed without a word; everybody else is served as before.
 */
import { randomUUID } from "node:crypto"
import { connect, type Socket } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { TaskDraft } from "../../src/domain/task_draft/schema.ts"
import { asPayload, exchange } from "../support/api_client.ts"
import { freshDatabase, type TestDatabase } from "../support/database.ts"
import { type ServiceProcess, spawnService } from "../support/process.ts"
import { expectEnvelope, validDraft } from "../support/server.ts"

const headersTimeoutMs = 1000
const requestTimeoutMs = 2000
const keepAliveTimeoutMs = 1000
const env = { HEADERS_TIMEOUT: "1s", REQUEST_TIMEOUT: "2s", KEEP_ALIVE_TIMEOUT: "1s" }

let database: TestDatabase
let service: ServiceProcess
beforeAll(async () => {
  database = await freshDatabase()
  service = await spawnService({ databaseUrl: database.url, env })
})
afterAll(async () => {
  await service?.stop("SIGTERM")
  await database?.drop()
})

/** A raw TCP connection to the service that records what arrives, and when. */
interface Connection {
  readonly socket: Socket
  readonly openedAt: number
  /** Everything received so far. */
  readonly received: () => string
  /** Resolves once `predicate` holds for what was received (ms since opened), or rejects after `timeoutMs`. */
  readonly receivedWhen: (predicate: (text: string) => boolean, timeoutMs?: number) => Promise<number>
  /** Resolves with the ms since opened when the server closed the connection. */
  readonly closed: Promise<number>
}

const open = async (): Promise<Connection> => {
  const { port } = new URL(service.url)
  const socket = connect(Number(port), "127.0.0.1")
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", resolve)
    socket.once("error", reject)
  })
  const openedAt = Date.now()
  let text = ""
  const waiters = new Set<() => void>()
  socket.on("data", (chunk) => {
    text += chunk
    for (const wake of waiters) wake()
  })
  // A reset counts as closed too; the test then looks at what arrived before it.
  socket.on("error", () => {})
  const closed = new Promise<number>((resolve) => socket.once("close", () => resolve(Date.now() - openedAt)))
  const receivedWhen = (predicate: (text: string) => boolean, timeoutMs = 10_000) =>
    new Promise<number>((resolve, reject) => {
      const check = () => {
        if (!predicate(text)) return
        waiters.delete(check)
        clearTimeout(timer)
        resolve(Date.now() - openedAt)
      }
      const timer = setTimeout(() => {
        waiters.delete(check)
        reject(new Error(`nothing matching arrived within ${timeoutMs} ms; received ${JSON.stringify(text)}`))
      }, timeoutMs)
      waiters.add(check)
      check()
    })
  return { socket, openedAt, received: () => text, receivedWhen, closed }
}

/** One complete HTTP/1.1 response (content-length framed) at the start of `text`, if it has arrived. */
const parseResponse = (text: string) => {
  const end = text.indexOf("\r\n\r\n")
  if (end < 0) return undefined
  const [statusLine = "", ...lines] = text.slice(0, end).split("\r\n")
  const headers = new Headers(
    lines.map((line) => [line.slice(0, line.indexOf(":")).trim(), line.slice(line.indexOf(":") + 1).trim()])
  )
  const length = Number(headers.get("content-length") ?? Number.NaN)
  const body = text.slice(end + 4)
  if (!(Buffer.byteLength(body) >= length)) return undefined
  return { status: Number(statusLine.split(" ")[1]), statusLine, headers, body, rest: body.slice(length) }
}

const responseArrived = (text: string) => parseResponse(text) !== undefined

const expectTimeoutEnvelope = async (text: string) => {
  const response = parseResponse(text)
  expect(response, `a whole response, got ${JSON.stringify(text)}`).toBeDefined()
  if (response === undefined) return
  expect(response.statusLine).toBe("HTTP/1.1 408 Request Timeout")
  expect(response.headers.get("connection")).toBe("close")
  expect(response.rest).toBe("")
  const error = await expectEnvelope(
    new Response(response.body, { status: response.status, headers: response.headers }),
    408,
    "request_timeout"
  )
  expect(error.hint).toBe("Send the request line and headers within 1 s and the whole request within 2 s.")
}

/**
 * Waits for the 408 on `connection`: it arrives between `limitMs` (less 100 ms) and `latestMs`
 * after the connection opened, is the timeout envelope, and the server closes the connection
 * within a second of it.
 */
const expectCutOff = async (connection: Connection, limitMs: number, latestMs: number) => {
  const answeredAt = await connection.receivedWhen(responseArrived)
  expect(answeredAt).toBeGreaterThanOrEqual(limitMs - 100)
  expect(answeredAt).toBeLessThan(latestMs)
  await expectTimeoutEnvelope(connection.received())
  expect((await connection.closed) - answeredAt).toBeLessThan(1000)
}

/** Runs `f` on a fresh connection, destroyed afterwards whatever happens. */
const withConnection = async (f: (connection: Connection) => Promise<void>) => {
  const connection = await open()
  try {
    await f(connection)
  } finally {
    connection.socket.destroy()
  }
}

describe("slow clients", () => {
  it("headers dribbled slowly and never finished: 408 request_timeout after HEADERS_TIMEOUT, then closed", async () => {
    const connection = await open()
    connection.socket.write("GET /healthz HTTP/1.1\r\nhost: 127.0.0.1\r\n")
    // A slowloris: one more header line every 150 ms, for ever.
    let sent = 0
    const dribble = setInterval(() => {
      if (connection.socket.writable) connection.socket.write(`x-slow-${sent++}: a\r\n`)
    }, 150)
    try {
      // Node checks every quarter of the headers timeout: due at 1.0–1.25 s.
      await expectCutOff(connection, headersTimeoutMs, 2 * headersTimeoutMs + 500)
      // It was still sending when it was cut off: the limit is on the whole header block, not on silence.
      expect(sent).toBeGreaterThanOrEqual(4)
    } finally {
      clearInterval(dribble)
      connection.socket.destroy()
    }
  })

  it("a connection that never sends a byte: 408 request_timeout after HEADERS_TIMEOUT, then closed", async () => {
    await withConnection(async (connection) => {
      await expectCutOff(connection, headersTimeoutMs, 2 * headersTimeoutMs + 500)
    })
  })

  it("a body that stalls after complete headers (the handler is waiting for it): 408 request_timeout after REQUEST_TIMEOUT, then closed", async () => {
    await withConnection(async (connection) => {
      // The headers are complete (so HEADERS_TIMEOUT is met) and /preflight starts reading the body…
      connection.socket.write(
        "POST /api/public/v1/preflight HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n"
      )
      // …of which 11 of 100 bytes ever arrive.
      connection.socket.write('{"action":"')
      // Not at the headers timeout: the request timeout, counted from the connection, governs the body.
      await expectCutOff(connection, requestTimeoutMs, 2 * requestTimeoutMs)
    })
  })

  it("a chunked body that stalls: 408 request_timeout after REQUEST_TIMEOUT, then closed", async () => {
    await withConnection(async (connection) => {
      connection.socket.write(
        'POST /api/public/v1/preflight HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\nb\r\n{"action":"\r\n'
      )
      await expectCutOff(connection, requestTimeoutMs, 2 * requestTimeoutMs)
    })
  })

  it("an idle kept-alive connection is closed after KEEP_ALIVE_TIMEOUT, with nothing sent", async () => {
    await withConnection(async (connection) => {
      connection.socket.write("GET /healthz HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n")
      const answeredAt = await connection.receivedWhen(responseArrived)
      const response = parseResponse(connection.received())
      expect(response?.status).toBe(200)
      expect(response?.headers.get("connection")).toBe("keep-alive")
      expect(response?.headers.get("keep-alive")).toBe("timeout=1")
      const answer = connection.received()
      const idleFor = (await connection.closed) - answeredAt
      // Node keeps the socket its keepAliveTimeoutBuffer (1 s) past the announced timeout: ~2 s.
      expect(idleFor).toBeGreaterThanOrEqual(keepAliveTimeoutMs - 100)
      expect(idleFor).toBeLessThan(2 * (keepAliveTimeoutMs + 1000))
      // Closed, not answered: no 408 on a connection that was merely idle.
      expect(connection.received()).toBe(answer)
    })
  })

  it("a kept-alive connection that starts a second request and dribbles it: 408 after HEADERS_TIMEOUT", async () => {
    await withConnection(async (connection) => {
      connection.socket.write("GET /healthz HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n")
      await connection.receivedWhen(responseArrived)
      const first = connection.received()
      expect(parseResponse(first)?.status).toBe(200)
      const startedAt = Date.now()
      connection.socket.write("GET /healthz HTTP/1.1\r\n")
      await connection.receivedWhen((text) => responseArrived(text.slice(first.length)))
      const answeredAfter = Date.now() - startedAt
      expect(answeredAfter).toBeGreaterThanOrEqual(headersTimeoutMs - 100)
      expect(answeredAfter).toBeLessThan(2 * headersTimeoutMs + 500)
      await expectTimeoutEnvelope(connection.received().slice(first.length))
      await connection.closed
    })
  })

  it("a slow but timely body is served, and a fresh connection afterwards is answered at once", async () => {
    const connection = await open()
    try {
      const body = JSON.stringify({
        action: "Check the opening hours of the Bäckerei Sonne",
        execution_mode: "digital"
      })
      connection.socket.write(
        `POST /api/public/v1/preflight HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\nconnection: close\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n`
      )
      // The body in three pieces over ~1.5 s: past the headers timeout, within the request timeout.
      const bytes = Buffer.from(body)
      const third = Math.ceil(bytes.length / 3)
      for (let i = 0; i < 3; i++) {
        await new Promise((r) => setTimeout(r, 500))
        connection.socket.write(bytes.subarray(i * third, (i + 1) * third))
      }
      await connection.receivedWhen(responseArrived)
      const response = parseResponse(connection.received())
      expect(response?.status).toBe(200)
      expect(JSON.parse(response?.body ?? "{}")).toMatchObject({ valid: expect.any(Boolean) })
    } finally {
      connection.socket.destroy()
    }

    const startedAt = Date.now()
    const fresh = await exchange(service, (c) => c.healthz())
    expect(fresh.status).toBe(200)
    expect(await fresh.json()).toEqual({ object: "health", status: "ok" })
    expect(Date.now() - startedAt).toBeLessThan(1000)
  })

  it("a long poll longer than REQUEST_TIMEOUT is not cut: the limit is on receiving the request", async () => {
    const created = await exchange(service, (c) =>
      c.createTask({ payload: asPayload(TaskDraft, validDraft()), headers: { "idempotency-key": randomUUID() } })
    )
    expect(created.status).toBe(201)
    const { reference } = await created.json()
    // Let the dispatcher settle the task (offered or declined), so nothing changes during the wait.
    let etag: string | null = null
    for (let i = 0; i < 50; i++) {
      const read = await exchange(service, (c) => c.getTask({ params: { reference }, query: {}, headers: {} }))
      etag = read.headers.get("etag")
      if (!["open", "matching"].includes((await read.json()).state)) break
      await new Promise((r) => setTimeout(r, 100))
    }
    expect(etag).not.toBeNull()
    const startedAt = Date.now()
    const polled = await exchange(service, (c) =>
      c.getTask({ params: { reference }, query: { wait: 3 }, headers: { "if-none-match": etag ?? "" } })
    )
    expect(polled.status).toBe(304)
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(requestTimeoutMs + 500)
  })
})

describe("slow-client settings", () => {
  it.each([
    ["HEADERS_TIMEOUT", "soon"],
    ["REQUEST_TIMEOUT", "0"],
    ["KEEP_ALIVE_TIMEOUT", "2h"]
  ])("%s=%s stops start-up with a message naming the variable", async (name, value) => {
    const failure = await spawnService({ databaseUrl: database.url, env: { [name]: value } }).then(
      async (started) => {
        await started.stop("SIGKILL")
        return undefined
      },
      (error: Error) => error
    )
    expect(failure?.message).toContain("service exited before answering (1)")
    expect(failure?.message).toContain(`Invalid configuration: ${name}: expected a duration`)
  })
})
