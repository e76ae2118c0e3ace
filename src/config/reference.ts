/**
 * The configuration reference (docs/configuration.md), rendered from the variable table: each
 * variable's default is its own default encoded as the variable would be written, and what it
 * accepts is the message its schema refuses a value with, so neither can drift from the code.
 * `npm run docs` writes it; a test fails when the committed file differs.
 */
import * as Exit from "effect/Exit"
import * as Schema from "effect/Schema"
import * as SchemaIssue from "effect/SchemaIssue"
import { topics, variableDocs } from "./variable_docs.ts"
import { type Declared, variables } from "./variables.ts"

const issues = SchemaIssue.makeFormatterStandardSchemaV1()

/** Values no variable takes: one too small for any bound, one that is no value at all. */
const probes = ["0ms", "\u0001"]

/** What the variable accepts, from its schema's own refusal ("expected …"); any text when it refuses nothing. */
const acceptsOf = ({ schema }: Declared): string => {
  for (const probe of probes) {
    const exit = Schema.decodeUnknownExit(schema)(probe)
    if (Exit.isFailure(exit)) {
      const error = exit.cause.reasons.find((reason) => reason._tag === "Fail")?.error
      const message = Schema.isSchemaError(error) ? issues(error.issue).issues[0]?.message : undefined
      if (message !== undefined) return message.replace(/^expected /, "")
    }
  }
  return "any text"
}

const code = (text: string) => `\`${text}\``

/** The default as the variable is written (`24h` is written `1d`), or the words for a made one. */
const defaultOf = (name: string, { schema, fallback }: Declared, unset: string | undefined): string => {
  if (fallback !== undefined) return code(String(Schema.encodeSync(schema)(fallback)))
  if (unset === undefined) throw new Error(`${name} has no default of its own: its doc must say what applies`)
  return unset
}

/** Text for a table cell: no line break, `|` escaped, and `<` escaped where it is not in code (`sqlite:<path>`). */
const cell = (text: string) =>
  text
    .replaceAll("|", "\\|")
    .replaceAll("\n", " ")
    .split("`")
    .map((part, i) => (i % 2 === 0 ? part.replaceAll("<", "\\<") : part))
    .join("`")

export const configurationReference = (): string => {
  const names = Object.keys(variables) as Array<keyof typeof variables>
  const sections = (Object.keys(topics) as Array<keyof typeof topics>).flatMap((topic) => {
    const rows = names
      .filter((name) => variableDocs[name].topic === topic)
      .map((name) => {
        const doc = variableDocs[name]
        const declared = variables[name].declared
        return `| ${code(name)} | ${cell(defaultOf(name, declared, doc.unset))} | ${cell(acceptsOf(declared))} | ${cell(doc.about)} |`
      })
    return rows.length === 0
      ? []
      : [`## ${topics[topic]}`, "", "| variable | default | accepts | |", "| --- | --- | --- | --- |", ...rows, ""]
  })
  return [
    "# Configuration",
    "",
    "<!-- Written by `npm run docs` from src/config/variables.ts and src/config/variable_docs.ts: edit those, then run it. -->",
    "",
    "The service reads its settings once, at start-up, from the environment. A value it cannot use stops",
    "start-up with one line naming the variable and what it accepts, never the value (it may be a",
    "secret). An empty or blank variable is unset: its default applies. Durations are written `90`",
    "(seconds), `500ms`, `30s`, `15m`, `24h` or `3d`; switches `on`/`off` (or `true`/`false`, `1`/`0`,",
    "`yes`/`no`). The operator tool (`npm run operator`) reads the same variables.",
    "",
    ...sections
  ].join("\n")
}
