#!/usr/bin/env node
/**
 * Runs a script with Node ≥ 22.19 (what Effect 4.1, vitest 5 and TypeScript type stripping need).
 *
 * Plain JavaScript on purpose, so it runs on any Node: when this Node is recent enough the script
 * runs in-process; otherwise Node 24 is installed once from the npm registry's `node` package into
 * a cache directory outside the repository (never committed) and the script runs under it.
 *
 * Usage: node scripts/node.mjs [node flags…] <script.ts|.js> [args…]
 *
 * package.json's `start` and `dev` run it with `exec`, so that the signals npm forwards to its
 * script's process reach this one rather than the shell npm runs the script with
 * (docs/decisions/getting-started.md).
 */
import { execFileSync, spawn } from "node:child_process"
import { existsSync, mkdirSync, writeFileSync } from "node:fs"
import { homedir } from "node:os"
import { join, resolve } from "node:path"
import { pathToFileURL } from "node:url"

const [major, minor] = process.versions.node.split(".").map(Number)
const recentEnough = major > 22 || (major === 22 && minor >= 19)
const argv = process.argv.slice(2)
const flagCount = argv.findIndex((arg) => !arg.startsWith("-"))
const [script, ...args] = argv.slice(flagCount)
if (flagCount < 0 || script === undefined) {
  process.stderr.write("usage: node scripts/node.mjs [node flags…] <script> [args…]\n")
  process.exit(2)
}

// V8's compile cache keeps compiled code of the modules between runs (start-up is mostly loading
// Effect's modules); a cache that cannot be written is skipped by Node, never an error.
const compileCache = join(process.env.XDG_CACHE_HOME || join(homedir(), ".cache"), "task-marketplace", "compile-cache")

if (recentEnough && flagCount === 0) {
  if (process.env.NODE_COMPILE_CACHE === undefined) {
    const { enableCompileCache } = await import("node:module")
    enableCompileCache?.(compileCache)
  }
  process.argv = [process.argv[0], resolve(script), ...args]
  await import(pathToFileURL(resolve(script)).href)
} else {
  const node = recentEnough ? process.execPath : await installedNode24()
  // Flags given to this Node (e.g. heap sizes in `npm start`) apply to the Node that runs the script.
  // The script runs directly under that Node, so the compile cache is given to it by its variable.
  const child = spawn(node, [...process.execArgv, ...argv], {
    stdio: "inherit",
    env: { ...process.env, NODE_COMPILE_CACHE: process.env.NODE_COMPILE_CACHE ?? compileCache }
  })
  // A signal sent to this process alone (npm forwards SIGINT and SIGTERM to its script's process
  // only) is passed on, so the script shuts down as if it had been signalled itself.
  const forwarded = ["SIGINT", "SIGTERM", "SIGHUP"]
  const forward = (signal) => child.kill(signal)
  for (const signal of forwarded) process.on(signal, forward)
  child.on("exit", (code, signal) => {
    if (signal === null) process.exit(code ?? 1)
    // End the way the script ended: without our handlers, the same signal ends this process too.
    for (const name of forwarded) process.off(name, forward)
    process.kill(process.pid, signal)
  })
}

async function installedNode24() {
  const dir = join(process.env.XDG_CACHE_HOME || join(homedir(), ".cache"), "task-marketplace", "node24")
  const node = join(dir, "node_modules", ".bin", "node")
  if (!existsSync(node)) {
    process.stderr.write(`Node ${process.versions.node} is older than 22.19; installing Node 24 into ${dir} (once).\n`)
    mkdirSync(dir, { recursive: true })
    writeFileSync(join(dir, "package.json"), `${JSON.stringify({ private: true, allowScripts: { node: true } })}\n`)
    execFileSync("npm", ["install", "--no-audit", "--no-fund", "node@24"], { cwd: dir, stdio: "inherit" })
  }
  return node
}
