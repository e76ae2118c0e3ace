// The layout's rules (docs/architecture.md), held to the source as it is: which folder of src/ may
// import which, and how long a file of src/, scripts/ or test/support/ may grow. Read from the files'
// own import statements, so a change that breaks a rule fails here, not in a reviewer's reading.
import { readdirSync, readFileSync } from "node:fs"
import { dirname, join, relative, resolve } from "node:path"
import { assert, describe, it } from "@effect/vitest"

const src = resolve(import.meta.dirname, "../src")

/** The .ts files under `dir`, relative to `from` (src/ unless said). */
const sourceFiles = (dir: string, from = src): Array<string> =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourceFiles(join(dir, entry.name), from)
      : entry.name.endsWith(".ts")
        ? [relative(from, join(dir, entry.name))]
        : []
  )

interface Import {
  readonly file: string
  /** A file of src/ (relative to it) for a relative import, else the module named ("effect/Schema"). */
  readonly target: string
}

/** Every static `import … from` and `export … from` of a file, types included (a type import is a dependency too). */
const importsOf = (file: string): Array<Import> =>
  [...readFileSync(join(src, file), "utf8").matchAll(/^\s*(?:import|export)\s[^;]*?\sfrom\s+"([^"]+)"/gm)].map(
    ([, specifier]) => ({
      file,
      target: specifier!.startsWith(".") ? relative(src, resolve(src, dirname(file), specifier!)) : specifier!
    })
  )

const files = sourceFiles(src)
const imports = files.flatMap(importsOf)
const folderOf = (path: string) => (path.includes("/") ? path.split("/")[0]! : "")
const isLocal = (target: string) => target.endsWith(".ts") && !target.startsWith("..")

/** The imports from files of `from` that break `allowed`, as "file -> target" lines (empty when none). */
const broken = (from: string, allowed: (target: string) => boolean) =>
  imports.filter((i) => folderOf(i.file) === from && !allowed(i.target)).map((i) => `${i.file} -> ${i.target}`)

describe("the layout of src/", () => {
  it("reads the imports it judges (the rules below cannot pass on nothing)", () => {
    assert.isAbove(files.length, 100)
    assert.isAbove(imports.filter((i) => folderOf(i.file) === "domain" && isLocal(i.target)).length, 50)
    assert.include(
      imports.map((i) => `${i.file} -> ${i.target}`),
      "domain/words.ts -> domain/stemmer.ts"
    )
  })

  it("domain/ imports only domain/, the read-cache module and libraries — no HTTP, SQL or Node module", () => {
    const violations = broken("domain", (target) =>
      isLocal(target)
        ? folderOf(target) === "domain" || target === "read_cache.ts"
        : !/^(?:node:|effect\/(?:http|unstable|Sql)|@effect\/)/.test(target)
    )
    assert.deepStrictEqual(violations, [])
  })

  it("services/ imports nothing from api/ or http/", () => {
    assert.deepStrictEqual(
      broken("services", (target) => !["api", "http"].includes(folderOf(target))),
      []
    )
  })

  it("http/ imports nothing from mcp/, oauth/ or console/", () => {
    assert.deepStrictEqual(
      broken("http", (target) => !["mcp", "oauth", "console"].includes(folderOf(target))),
      []
    )
  })

  it("the console goes through the operations: nothing from http/ or services/", () => {
    assert.deepStrictEqual(
      broken("console", (target) => !["http", "services"].includes(folderOf(target))),
      []
    )
  })

  it("no source file of src/, scripts/ or test/support/ is over 650 lines", () => {
    const repository = resolve(src, "..")
    const measured = ["src", "scripts", "test/support"].flatMap((folder) =>
      sourceFiles(join(repository, folder), repository)
    )
    for (const file of ["src/app.ts", "scripts/fuzz_stateful.ts", "scripts/bench.ts", "test/support/server.ts"])
      assert.include(measured, file)
    const long = measured
      .map((file) => ({ file, lines: readFileSync(join(repository, file), "utf8").split("\n").length }))
      .filter(({ lines }) => lines > 650)
    assert.deepStrictEqual(long, [])
  })
})
