/**
 * The operator tool as an operator runs it (`node scripts/operator.ts …`, what `npm run -s operator --`
 * runs) in its own process, configured by its environment; logs left at their default (off).
 */
import { execFile } from "node:child_process"

const root = new URL("../..", import.meta.url).pathname

export interface OperatorRun {
  readonly code: number
  readonly stdout: string
  readonly stderr: string
}

/** Runs one command with `settings` (DATABASE_URL, PUBLIC_BASE_URL, …) on top of the test's environment. */
export const runOperator = (settings: Record<string, string>, ...args: ReadonlyArray<string>) =>
  new Promise<OperatorRun>((resolve) => {
    // The tool's address and log level are what each test says, never this process's.
    const { LOG_LEVEL: _, PUBLIC_BASE_URL: __, ...env } = process.env
    execFile(
      process.execPath,
      ["scripts/operator.ts", ...args],
      { cwd: root, env: { ...env, ...settings }, timeout: 60_000 },
      (error, stdout, stderr) =>
        resolve({ code: error === null ? 0 : typeof error.code === "number" ? error.code : -1, stdout, stderr })
    )
  })
