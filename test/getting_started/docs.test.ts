// The project's own docs stand on their own in a clone (docs/decisions/getting-started.md): the
// README's first screen shows how to start the service and run the tests, every relative link in
// the docs names a file of the project, nothing cites the workspace outside it, and each file stays
// short enough to be kept true: the README at most 10 KiB, each file under docs/ at most 40 KB.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs"
import { dirname, join } from "node:path"
import { describe, expect, it } from "@effect/vitest"

const root = new URL("../..", import.meta.url).pathname
// The workspace beside the project's working copy, spelled so that this file does not cite it.
const outside = ["..", "shared"].join("/")

/** Every file under `dir` (relative to the root), node_modules left out. */
const filesUnder = (dir: string): ReadonlyArray<string> =>
  readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return entry.name === "node_modules" ? [] : filesUnder(path)
    return [path]
  })

const markdown = ["README.md", ...filesUnder("docs").filter((path) => path.endsWith(".md"))]

/** The docs by topic, which the README's "Where to read next" lists. */
const topics = [
  "docs/configuration.md",
  "docs/architecture.md",
  "docs/lifecycle.md",
  "docs/mcp.md",
  "docs/webhooks.md",
  "docs/mail.md",
  "docs/sandbox.md",
  "docs/accounts.md",
  "docs/console.md",
  "docs/operator.md",
  "docs/deployment.md",
  "docs/testing.md",
  "docs/performance.md"
]

/** The relative link targets of a Markdown file, without their fragments. */
const relativeLinks = (file: string) =>
  [...readFileSync(join(root, file), "utf8").matchAll(/\]\(([^)\s]+)\)/g)]
    .map((match) => match[1]!.split("#")[0]!)
    .filter((target) => target !== "" && !/^[a-z]+:/.test(target))

describe("the project's docs", () => {
  it("show `npm start` and `npm test` on the README's first screen", () => {
    const firstScreen = readFileSync(join(root, "README.md"), "utf8").split("\n").slice(0, 60).join("\n")
    expect(firstScreen).toMatch(/^npm ci && npm start\b/m)
    expect(firstScreen).toMatch(/^npm test\b/m)
    expect(firstScreen).toContain("## Quick start")
  })

  it("link only to files that exist in the project", () => {
    expect(markdown).toEqual(expect.arrayContaining([...topics, "docs/decisions/README.md", "docs/spec/DECISIONS.md"]))
    const broken = markdown.flatMap((file) =>
      relativeLinks(file)
        .filter((target) => !existsSync(join(root, dirname(file), target)))
        .map((target) => `${file}: ${target}`)
    )
    expect(broken).toEqual([])
    for (const spec of ["docs/spec/marketplace-api-v1.txt", "docs/spec/DECISIONS.md"]) {
      expect(existsSync(join(root, spec)), spec).toBe(true)
    }
  })

  it("lead from the README to every topic, and from the records' index to every record", () => {
    expect(relativeLinks("README.md")).toEqual(expect.arrayContaining(topics))
    const records = readdirSync(join(root, "docs/decisions")).filter(
      (name) => name.endsWith(".md") && name !== "README.md"
    )
    expect(records.length).toBeGreaterThan(0)
    expect(relativeLinks("docs/decisions/README.md")).toEqual(expect.arrayContaining(records))
  })

  it("stay short: the README at most 10 KiB, each file under docs/ at most 40 KB", () => {
    expect(statSync(join(root, "README.md")).size).toBeLessThanOrEqual(10_240)
    const long = markdown
      .filter((file) => file.startsWith("docs/"))
      .filter((file) => statSync(join(root, file)).size > 40_000)
    expect(long).toEqual([])
  })

  it("never cite the workspace outside the project, which a clone does not have", () => {
    const files = [
      "README.md",
      "package.json",
      "flake.nix",
      ...[".ci", "docs", "scripts", "src", "test"].flatMap(filesUnder)
    ]
    const citing = files.filter((path) => readFileSync(join(root, path), "utf8").includes(outside))
    expect(citing).toEqual([])
  })
})
