/**
 * A participant file for `participants import`: a JSON array of participant records, the shape of
 * `data/sample-participants.json`. The whole file is checked before anything is written, and the
 * first problem is reported by file, record and field, so an import is all or nothing.
 */
import { readFile } from "node:fs/promises"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as SchemaIssue from "effect/SchemaIssue"
import type { ParticipantRecord } from "../domain/participant.ts"
import { executionModes } from "../domain/task_draft/execution_mode.ts"
import { decodeParticipants } from "../services/sample_catalogue.ts"

export class InvalidParticipantFile extends Data.TaggedError("InvalidParticipantFile")<{
  readonly file: string
  readonly problem: string
}> {
  override get message() {
    return `${this.file}: ${this.problem}`
  }
}

const formatIssues = SchemaIssue.makeFormatterStandardSchemaV1()

const shown = (value: unknown) => {
  const text = JSON.stringify(value) ?? String(value)
  return text.length > 60 ? `${text.slice(0, 57)}...` : text
}

/** "record 3 (\"amara-okafor\")", counting from 1 as a reader of the file does. */
const recordName = (records: ReadonlyArray<unknown>, index: number) => {
  const slug = (records[index] as { slug?: unknown } | null)?.slug
  return `record ${index + 1}${typeof slug === "string" && slug !== "" ? ` (${shown(slug)})` : ""}`
}

const valueAt = (root: unknown, path: ReadonlyArray<PropertyKey>) =>
  path.reduce<unknown>((value, key) => (value as Record<PropertyKey, unknown> | null)?.[key], root)

/** The first problem of the decoded JSON, or the records. */
export const checkParticipants = (
  input: unknown
): Effect.Effect<ReadonlyArray<ParticipantRecord>, { readonly problem: string }> =>
  Effect.gen(function* () {
    if (!Array.isArray(input)) {
      return yield* Effect.fail({
        problem: `expected a JSON array of participant records, got ${input === null ? "null" : typeof input}`
      })
    }
    const records = yield* decodeParticipants(input).pipe(
      Effect.mapError((error) => {
        const first = formatIssues(error.issue).issues[0]
        const path = (first?.path ?? []).map((p) => (typeof p === "object" && p !== null ? p.key : p))
        const [index, ...field] = path
        const where = typeof index === "number" ? recordName(input, index) : "the file"
        const member = field
          .map((key, i) => (typeof key === "number" ? `[${key}]` : `${i === 0 ? "" : "."}${String(key)}`))
          .join("")
        const value = valueAt(input, path)
        const message =
          field[0] === "task_type" && field.length === 1 && value !== undefined
            ? `expected one of ${executionModes.join(", ")}, got ${shown(value)}`
            : value === undefined
              ? first?.message === "Missing key"
                ? "is missing"
                : (first?.message ?? "is invalid").toLowerCase()
              : `${(first?.message ?? "invalid").replace(/^Expected/, "expected")}, got ${shown(value)}`
        return { problem: `${where}${member === "" ? "" : `, ${member}`}: ${message}` }
      })
    )
    const seen = new Map<string, number>()
    for (const [index, record] of records.entries()) {
      const fail = (problem: string) => Effect.fail({ problem: `${recordName(input, index)}, ${problem}` })
      const earlier = seen.get(record.slug)
      if (earlier !== undefined) return yield* fail(`slug: ${shown(record.slug)} is also record ${earlier + 1}`)
      seen.set(record.slug, index)
      // Postgres cannot store U+0000 in text; refuse it here rather than fail half-way.
      const withNul = Object.entries(record).find(([, v]) =>
        (Array.isArray(v) ? v : [v]).some((s) => typeof s === "string" && s.includes("\u0000"))
      )
      if (withNul !== undefined) return yield* fail(`${withNul[0]}: must not contain U+0000`)
    }
    return records
  })

const unreadable = (error: unknown) => {
  const code = (error as NodeJS.ErrnoException).code
  switch (code) {
    case "ENOENT":
      return "no such file"
    case "EACCES":
    case "EPERM":
      return "permission denied"
    case "EISDIR":
      return "it is a directory"
    default:
      return code ?? String(error)
  }
}

/** Reads and checks a participant file; nothing is written here. */
export const readParticipantFile = (file: string) =>
  Effect.gen(function* () {
    const text = yield* Effect.tryPromise({
      try: () => readFile(file, "utf8"),
      catch: (error) => new InvalidParticipantFile({ file, problem: `cannot be read: ${unreadable(error)}` })
    })
    const json = yield* Effect.try({
      try: () => JSON.parse(text) as unknown,
      catch: (error) => new InvalidParticipantFile({ file, problem: `is not valid JSON (${(error as Error).message})` })
    })
    return yield* checkParticipants(json).pipe(
      Effect.mapError(({ problem }) => new InvalidParticipantFile({ file, problem }))
    )
  })
