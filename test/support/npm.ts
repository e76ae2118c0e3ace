/**
 * The service started the way the README starts it: `npm start` (or `npm run dev`) in the project,
 * through npm, its shell and scripts/node.mjs — not `node src/main.ts` — so the tests see what a
 * user sees, npm's signal handling included. Each run gets a fresh SQLite file and a free port,
 * and a process group of its own: a test can ask whether any process of the tree is left, and
 * clean the whole tree up whatever happened.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { connect } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { freePort } from "./process.ts"

const root = new URL("../..", import.meta.url).pathname

export interface NpmService {
  /** The npm process: the one a user's Ctrl-C or `kill` reaches first. */
  readonly child: ChildProcess
  readonly port: number
  readonly url: string
  readonly output: () => string
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
  /** Whether any process of the tree (npm's process group) is still running. */
  readonly treeAlive: () => boolean
  /** SIGKILL to every process of the tree, and the database removed. */
  readonly dispose: () => void
}

/** Runs `npm <args>` (e.g. `["start"]`, `["run", "dev"]`) and resolves once GET /healthz answers 200. */
export const startWithNpm = async (args: ReadonlyArray<string>, readyTimeoutMs = 60_000): Promise<NpmService> => {
  const port = await freePort()
  const url = `http://127.0.0.1:${port}`
  const dir = mkdtempSync(join(tmpdir(), "tm-npm-"))
  const child = spawn("npm", args, {
    cwd: root,
    env: { ...process.env, PORT: String(port), DATABASE_URL: `sqlite:${join(dir, "marketplace.sqlite")}` },
    stdio: ["ignore", "pipe", "pipe"],
    // Its own process group (pgid = npm's pid), as a shell gives each job one.
    detached: true
  })
  let output = ""
  // A failed spawn or kill is reported, not left as an unhandled event.
  child.on("error", (error) => {
    output += `${error}\n`
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
  const pgid = child.pid
  if (pgid === undefined) {
    // Not started (npm missing from PATH, for one); never signal group 0, which is the test's own.
    const error = await new Promise((resolve) => child.once("error", resolve))
    rmSync(dir, { recursive: true, force: true })
    throw new Error(`npm ${args.join(" ")} could not be started: ${error}`)
  }
  const treeAlive = () => {
    try {
      process.kill(-pgid, 0)
      return true
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ESRCH") return false
      throw error
    }
  }
  const dispose = () => {
    try {
      process.kill(-pgid, "SIGKILL")
    } catch (error) {
      // ESRCH: nothing of the tree is left, as it should be.
      if ((error as NodeJS.ErrnoException).code !== "ESRCH") throw error
    }
    rmSync(dir, { recursive: true, force: true })
  }
  const service = { child, port, url, output: () => output, exited, treeAlive, dispose }
  const deadline = Date.now() + readyTimeoutMs
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      dispose()
      throw new Error(
        `npm ${args.join(" ")} exited before answering (${child.exitCode ?? child.signalCode}):\n${output}`
      )
    }
    try {
      if ((await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(5000) })).status === 200) return service
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      dispose()
      throw new Error(`npm ${args.join(" ")} did not answer within ${readyTimeoutMs} ms:\n${output}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

/** Whether something accepts TCP connections on the loopback port. */
export const listening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect({ host: "127.0.0.1", port })
    socket.once("connect", () => {
      socket.destroy()
      resolve(true)
    })
    socket.once("error", () => resolve(false))
  })

/** Polls `condition` every 50 ms until it holds or `timeoutMs` passes; tells which. */
export const eventually = async (condition: () => boolean | Promise<boolean>, timeoutMs: number) => {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    if (await condition()) return true
    if (Date.now() > deadline) return false
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}
