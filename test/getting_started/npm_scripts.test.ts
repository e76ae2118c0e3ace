// `npm start` and `npm run dev` stop when signalled (docs/decisions/getting-started.md): the
// signal goes to the npm process alone, as `kill <pid>` or a supervisor sends it, or to the whole
// process group, as Ctrl-C in a terminal sends it. Within a few seconds the port is closed, every
// process of the tree has exited, and npm's exit status is 0 (the server drains and exits 0).
// On a Node older than 22.19 (this suite's machine has Node 20) the tree is npm → scripts/node.mjs
// → Node 24; on a recent Node, `npm start` runs the server in node.mjs's process and `npm run dev`
// still goes through a child (`--watch`).
import { spawn } from "node:child_process"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { eventually, listening, startWithNpm } from "../support/npm.ts"

const root = new URL("../..", import.meta.url).pathname
const withinMs = 5000

const cases = [
  { command: "npm start", args: ["start"], signal: "SIGTERM", to: "npm" },
  { command: "npm start", args: ["start"], signal: "SIGINT", to: "npm" },
  { command: "npm start", args: ["start"], signal: "SIGINT", to: "group (Ctrl-C)" },
  { command: "npm run dev", args: ["run", "dev"], signal: "SIGTERM", to: "npm" },
  { command: "npm run dev", args: ["run", "dev"], signal: "SIGINT", to: "group (Ctrl-C)" }
] as const

describe("npm scripts stop when signalled", () => {
  it.each(cases)(
    "$command, $signal to $to",
    async ({ args, signal, to }) => {
      const service = await startWithNpm(args)
      try {
        if (to !== "npm") process.kill(-service.child.pid!, signal)
        else service.child.kill(signal)
        const timedOut = new Promise<"still running">((resolve) => setTimeout(() => resolve("still running"), withinMs))
        const exit = await Promise.race([service.exited, timedOut])
        const context = `npm's output:\n${service.output()}`
        expect(exit, context).toEqual({ code: 0, signal: null })
        expect(await eventually(async () => !(await listening(service.port)), withinMs), context).toBe(true)
        expect(await eventually(() => !service.treeAlive(), withinMs), context).toBe(true)
      } finally {
        service.dispose()
      }
    },
    // Starting npm, node.mjs and Node 24 takes seconds on a busy machine; stopping is what is timed.
    90_000
  )
})

describe("scripts/node.mjs running a script under another Node", () => {
  // A flag after node.mjs makes it start a child Node whatever this Node's version (as `--watch` does).
  const runChild = async (source: string) => {
    const dir = mkdtempSync(join(tmpdir(), "tm-node-mjs-"))
    try {
      writeFileSync(join(dir, "script.mjs"), source)
      const child = spawn(process.execPath, ["scripts/node.mjs", "--no-warnings", join(dir, "script.mjs")], {
        cwd: root,
        stdio: "ignore"
      })
      return await new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
        child.once("exit", (code, signal) => resolve({ code, signal }))
      )
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }

  it("exits with the child's exit code", async () => {
    expect(await runChild("process.exit(3)\n")).toEqual({ code: 3, signal: null })
  })

  it("ends by the signal that ended the child, even one it forwards", async () => {
    expect(await runChild('process.kill(process.pid, "SIGHUP")\n')).toEqual({ code: null, signal: "SIGHUP" })
  })
})
