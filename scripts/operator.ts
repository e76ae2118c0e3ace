/**
 * The operator's command-line tool: `npm run operator -- <command>` (`help` lists the commands).
 * It reads the server's configuration (DATABASE_URL, …) and works through the same services.
 * Exit status: 0 done, 1 failed, 2 the command line was not understood.
 */
import { parseArguments, usage } from "../src/operator/arguments.ts"

const invocation = parseArguments(process.argv.slice(2))
if (invocation._tag === "Help") {
  process.stdout.write(usage())
  process.exitCode = 0
} else if (invocation._tag === "UsageProblem") {
  process.stderr.write(`error: ${invocation.problem} (see the usage below)\n`)
  process.stdout.write(usage())
  process.exitCode = 2
} else {
  // Loaded only for a command that runs: help and usage errors answer without loading Effect.
  const [{ Effect }, { runCommand }] = await Promise.all([import("effect"), import("../src/operator/commands.ts")])
  process.exitCode = await Effect.runPromise(runCommand(invocation))
}
