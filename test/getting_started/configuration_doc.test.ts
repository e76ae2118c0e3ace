// docs/configuration.md is written from the variable table (`npm run docs`, src/config/reference.ts):
// the committed file is what the script writes now, so a variable added, renamed or given another
// default or bound without the doc being written again fails here.
import { readFileSync } from "node:fs"
import { describe, expect, it } from "@effect/vitest"
import { configurationReference } from "../../src/config/reference.ts"
import { variables } from "../../src/config/variables.ts"

const committed = readFileSync(new URL("../../docs/configuration.md", import.meta.url), "utf8")

describe("docs/configuration.md", () => {
  it("is what `npm run docs` writes from the variable table", () => {
    expect(committed, "docs/configuration.md is out of date: run `npm run docs`").toBe(configurationReference())
  })

  it("has one row per variable, with its default and what it accepts", () => {
    const rows = committed.split("\n").filter((line) => line.startsWith("| `"))
    expect(rows.map((row) => /^\| `([A-Z0-9_]+)`/.exec(row)?.[1]).sort()).toEqual(Object.keys(variables).sort())
    expect(rows.find((row) => row.startsWith("| `OFFER_TIMEOUT`"))).toContain(
      "| `1d` | a duration from 100ms to 365d |"
    )
    expect(rows.find((row) => row.startsWith("| `ARTIFACT_MAX_FILES`"))).toContain(
      "| `10` | a whole number of files from 1 to 50 |"
    )
  })
})
