/**
 * Prints the OpenAPI document (as served with the default settings), or with `--write` refreshes
 * the committed snapshot the tests compare against.
 */
import { writeFileSync } from "node:fs"
import { defaultSettings } from "../src/config/load.ts"
import { openApiDocument } from "../src/http/openapi.ts"

const text = `${JSON.stringify(openApiDocument(defaultSettings()), null, 2)}\n`
if (process.argv.includes("--write")) {
  writeFileSync(new URL("../test/http/__snapshots__/openapi.json", import.meta.url), text)
  process.stdout.write("wrote test/http/__snapshots__/openapi.json\n")
} else {
  process.stdout.write(text)
}
