/**
 * The service as a separate OS process (`node src/main.ts`), for what only a real process shows:
 * several processes sharing one database, SIGTERM draining, SIGKILL under load, restarts.
 */
import { type ChildProcess, type ChildProcessWithoutNullStreams, spawn } from "node:child_process"
import { createServer } from "node:net"

export interface ServiceProcess {
  readonly url: string
  readonly api: (path: string) => string
  readonly child: ChildProcess
  /** Everything the process wrote to stdout and stderr so far. */
  readonly output: () => string
  /** Resolves with the exit code (or signal) once the process has exited. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
  readonly stop: (signal?: NodeJS.Signals) => Promise<{ code: number | null; signal: NodeJS.Signals | null }>
}

const listensOn = (port: number) =>
  new Promise<number | undefined>((resolve) => {
    const server = createServer()
    server.once("error", () => resolve(undefined))
    server.listen(port, "127.0.0.1", () => {
      const address = server.address()
      server.close(() => resolve(typeof address === "object" && address !== null ? address.port : undefined))
    })
  })

/**
 * A loopback port nobody listens on. Under vitest each worker takes its ports from a block of its own
 * below the kernel's ephemeral range (32768 and up): a port picked by `listen(0)` comes from that range
 * and, in the moment before the server binds it, may be taken as the source port of any outgoing
 * connection (a database client, a fetch), which failed a run with EADDRINUSE.
 */
let next = Math.floor(Math.random() * 1000)

export const freePort = async (): Promise<number> => {
  const worker = Number(process.env.VITEST_POOL_ID)
  if (Number.isInteger(worker) && worker > 0) {
    const base = 20_000 + (worker % 12) * 1000
    for (let i = 0; i < 1000; i++) {
      // Each call starts after the last port handed out, so two servers started together differ.
      const offset = next++ % 1000
      const port = await listensOn(base + offset)
      if (port !== undefined) return port
    }
  }
  const port = await listensOn(0)
  if (port === undefined) throw new Error("no free port")
  return port
}

/** What a child process wrote to its standard output and error so far. */
export const outputsOf = (child: Pick<ChildProcessWithoutNullStreams, "stdout" | "stderr">) => {
  let stdout = ""
  let stderr = ""
  child.stdout.on("data", (chunk) => {
    stdout += chunk
  })
  child.stderr.on("data", (chunk) => {
    stderr += chunk
  })
  return { stdout: () => stdout, stderr: () => stderr }
}

const root = new URL("../..", import.meta.url).pathname

export interface SpawnOptions {
  readonly databaseUrl: string
  readonly port?: number
  readonly env?: Record<string, string>
  /** How long to wait for the first answered request. */
  readonly readyTimeoutMs?: number
}

/** Starts `node src/main.ts` and resolves once GET /healthz answers 200. */
export const spawnService = async (options: SpawnOptions): Promise<ServiceProcess> => {
  const port = options.port ?? (await freePort())
  const url = `http://127.0.0.1:${port}`
  let output = ""
  const child = spawn(process.execPath, ["src/main.ts"], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      DATABASE_URL: options.databaseUrl,
      LOG_LEVEL: "Warn",
      // Test suites run with the limits off unless they test them (DECISIONS §11).
      RATE_LIMIT: "off",
      ...options.env
    },
    stdio: ["ignore", "pipe", "pipe"]
  })
  child.stdout?.on("data", (chunk) => {
    output += chunk
  })
  child.stderr?.on("data", (chunk) => {
    output += chunk
  })
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal }))
  )
  const deadline = Date.now() + (options.readyTimeoutMs ?? 30_000)
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`service exited before answering (${child.exitCode ?? child.signalCode}):\n${output}`)
    }
    try {
      // A connection made during start-up must be answered or refused, never left hanging.
      if ((await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(5000) })).status === 200) break
    } catch (error) {
      if (error instanceof Error && error.name === "TimeoutError") {
        child.kill("SIGKILL")
        throw new Error(`a request made during start-up was accepted but never answered:\n${output}`)
      }
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill("SIGKILL")
      throw new Error(`service did not answer within the deadline:\n${output}`)
    }
    await new Promise((r) => setTimeout(r, 20))
  }
  return {
    url,
    api: (path) => `${url}/api/public/v1${path}`,
    child,
    output: () => output,
    exited,
    stop: (signal = "SIGTERM") => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal)
      return exited
    }
  }
}

/** A response read whole: status, headers, text, parsed JSON (if any), and a fresh Response for expectEnvelope. */
export interface Answer {
  readonly status: number
  readonly headers: Headers
  readonly text: string
  // biome-ignore lint/suspicious/noExplicitAny: test assertions read arbitrary members of the JSON
  readonly body: any
  readonly response: Response
}

export const call = async (url: string, init?: RequestInit): Promise<Answer> => answerOf(await fetch(url, init))

/** A response read whole, as `call` answers it (api_client.ts's `typedCall` answers a typed call so). */
export const answerOf = async (response: Response): Promise<Answer> => {
  const text = await response.text()
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    body = undefined
  }
  // The text was consumed; hand expectEnvelope a fresh Response with the same status and headers.
  const nullBody = [101, 204, 205, 304].includes(response.status)
  return {
    status: response.status,
    headers: response.headers,
    text,
    body,
    response: new Response(nullBody ? null : text, response)
  }
}

/** Polls `find` until it gives a value, or fails after `timeoutMs` with `what` and the process's output. */
export const waitFor = async <A>(
  service: ServiceProcess,
  what: string,
  find: () => A | undefined,
  timeoutMs = 5000
): Promise<A> => {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const found = find()
    if (found !== undefined) return found
    if (Date.now() > deadline) throw new Error(`${what} did not arrive:\n${service.output()}`)
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

/** The request log line (JSON) of the request sent with this `x-request-id`, once written. */
export const requestLine = (service: ServiceProcess, requestId: string): Promise<Record<string, unknown>> =>
  waitFor(service, `the log line of request ${requestId}`, () => {
    const line = service
      .output()
      .split("\n")
      .find((l) => l.includes(`"request_id":${JSON.stringify(requestId)}`))
    return line === undefined ? undefined : (JSON.parse(line) as Record<string, unknown>)
  })
