/**
 * Writes the generated docs: docs/configuration.md, from the variable table (src/config/reference.ts).
 * `--check` writes nothing and exits 1 when the committed file differs.
 */
import { readFileSync, writeFileSync } from "node:fs"
import { configurationReference } from "../src/config/reference.ts"

const target = new URL("../docs/configuration.md", import.meta.url)
const text = configurationReference()
if (process.argv.includes("--check")) {
  const same = readFileSync(target, "utf8") === text
  process.stdout.write(
    same ? "docs/configuration.md is up to date\n" : "docs/configuration.md differs: run npm run docs\n"
  )
  process.exitCode = same ? 0 : 1
} else {
  writeFileSync(target, text)
  process.stdout.write("wrote docs/configuration.md\n")
}
