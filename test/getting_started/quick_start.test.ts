// The README's quick start, run as pasted (docs/decisions/getting-started.md): the first ```sh
// block under "## Quick start" is taken from README.md byte for byte and run by bash against the
// service started with `npm start` on a fresh database. The only thing the test chooses is the
// server's address, through the `BASE` variable the block itself reads.
import { spawn } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { type NpmService, startWithNpm } from "../support/npm.ts"
import { freePort, outputsOf } from "../support/process.ts"

const root = new URL("../..", import.meta.url).pathname
const readme = readFileSync(join(root, "README.md"), "utf8")

/** The text of the first ```sh block under the "## Quick start" heading (before the next heading). */
const quickStartBlock = (markdown: string): string => {
  const lines = markdown.split("\n")
  const heading = lines.indexOf("## Quick start")
  if (heading < 0) throw new Error('README.md has no "## Quick start" heading')
  const opening = lines.findIndex((line, i) => i > heading && (line === "```sh" || line.startsWith("#")))
  if (opening < 0 || lines[opening] !== "```sh") throw new Error('no ```sh block under "## Quick start"')
  const closing = lines.indexOf("```", opening + 1)
  if (closing < 0) throw new Error("the quick start's ```sh block is not closed")
  return `${lines.slice(opening + 1, closing).join("\n")}\n`
}

interface Run {
  readonly status: number | null
  readonly stdout: string
  readonly stderr: string
}

/**
 * Pipes the block to bash's standard input, as a paste types it, in a fresh directory.
 * `-e -u -o pipefail` make any failing command fail the run, even one whose failure a paste would
 * only print (the block's text is unchanged).
 */
const runBlock = (block: string, base: string) => {
  const dir = mkdtempSync(join(tmpdir(), "tm-quick-start-"))
  const child = spawn("bash", ["-e", "-u", "-o", "pipefail"], {
    cwd: dir,
    // TMPDIR: the block's `mktemp -d` lands in the test's directory, removed afterwards.
    env: { ...process.env, BASE: base, TMPDIR: dir },
    stdio: ["pipe", "pipe", "pipe"]
  })
  const { stdout, stderr } = outputsOf(child)
  child.stdin.end(block)
  return new Promise<Run>((resolve) =>
    child.once("close", (status) => {
      rmSync(dir, { recursive: true, force: true })
      resolve({ status, stdout: stdout(), stderr: stderr() })
    })
  )
}

/** Finds each step's pattern after the previous step's match (the block's order); the matches by step. */
const inOrder = (text: string, steps: Record<string, RegExp>) => {
  const found: Record<string, RegExpExecArray> = {}
  let from = 0
  for (const [step, pattern] of Object.entries(steps)) {
    const global = new RegExp(pattern.source, `${pattern.flags}g`)
    global.lastIndex = from
    const match = global.exec(text)
    if (match === null) throw new Error(`quick start, ${step}: no ${pattern} in what followed:\n${text.slice(from)}`)
    found[step] = match
    from = global.lastIndex
  }
  return found
}

describe("the README's quick start block", () => {
  it("has one quick start block, every request `curl -fsS`, nothing a fresh machine lacks", () => {
    const block = quickStartBlock(readme)
    // The server's address comes from BASE, the one input the test gives the block.
    expect(block).toMatch(/^BASE=\$\{BASE:-http:\/\/127\.0\.0\.1:8080\};/)
    const commands = block.split("\n").map((line) => line.replace(/(^|\s)#.*$/, ""))
    // A fresh Debian with Node and npm has neither; their mention in a comment is fine.
    expect(commands.filter((line) => /\b(uuidgen|jq)\b/.test(line))).toEqual([])
    expect(commands.filter((line) => /^curl /.test(line) && !line.startsWith("curl -fsS "))).toEqual([])
  })
})

describe("the README's quick start, as pasted", () => {
  let service: NpmService

  beforeAll(async () => {
    service = await startWithNpm(["start"])
  }, 90_000)

  afterAll(() => service?.dispose())

  it("discovers, preflights, submits, reads back, gets a 304 and replays the same task", async () => {
    const run = await runBlock(quickStartBlock(readme), service.url)
    const context = `stdout:\n${run.stdout}\nstderr:\n${run.stderr}`
    expect(run.status, context).toBe(0)
    // Nothing went wrong on the side: no "command not found", no curl error.
    expect(run.stderr, context).toBe("")
    const step = inOrder(run.stdout, {
      index: /^\{"object":"service",.*"cold_start":/m,
      participants: /^\{"object":"list","count":\d+,"data":\[\{"object":"participant"/m,
      preflight: /^\{"object":"preflight","valid":true,"state":"draft"/m,
      created: /^HTTP\/1\.1 201 Created\r$/m,
      location: /^location: http:\/\/127\.0\.0\.1:\d+\/api\/public\/v1\/tasks\/(tsk_[a-z2-7]{26})\r$/m,
      captured: /^reference=(tsk_[a-z2-7]{26}) task_token=tt_[A-Za-z0-9_-]{43}$/m,
      readBack: /^HTTP\/1\.1 200 OK\r$/m,
      readTask: /^\{"object":"task","reference":"(tsk_[a-z2-7]{26})","state":"awaiting_participant"/m,
      notModified: /^304$/m,
      replayed: /^HTTP\/1\.1 201 Created\r\nidempotent-replayed: true\r$/m,
      replayedReference: /^(tsk_[a-z2-7]{26})$/m
    })
    const reference = step.captured![1]
    expect(step.location![1]).toBe(reference)
    expect(step.readTask![1]).toBe(reference)
    expect(step.replayedReference![1]).toBe(reference)
    // The task the block made is in the service, as the block read it.
    const task = await (await fetch(`${service.url}/api/public/v1/tasks/${reference}`)).json()
    expect(task).toMatchObject({ reference, agent: "readme-quick-start", state: "awaiting_participant" })
  })

  it("stops at a failing step with curl's error, so a broken quick start fails this test (no server at BASE)", async () => {
    const run = await runBlock(quickStartBlock(readme), `http://127.0.0.1:${await freePort()}`)
    expect(run.status).not.toBe(0)
    expect(run.stderr).toMatch(/curl: \(7\)/)
    expect(run.stdout).not.toContain("201 Created")
  })
})
