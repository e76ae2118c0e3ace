/**
 * A participant: a human available for hire, as the published contract describes them.
 */
import * as Schema from "effect/Schema"
import * as SchemaIssue from "effect/SchemaIssue"
import * as SchemaTransformation from "effect/SchemaTransformation"
import { ExecutionMode, executionModes } from "./task_draft/execution_mode.ts"
import { participantSlugPattern } from "./task_draft/fields.ts"

export const ParticipantSlug = Schema.String.check(
  Schema.isPattern(participantSlugPattern, {
    message:
      "expected lower-case letters and digits in words joined by single hyphens (^[a-z0-9]+(?:-[a-z0-9]+)*$), at most 64 characters"
  }),
  Schema.isMaxLength(64)
).annotate({
  description:
    "Identifier used in the participant path and in participant_slug: ^[a-z0-9]+(?:-[a-z0-9]+)*$, at most 64 characters.",
  examples: ["amara-okafor"]
})

/** The stored record: everything but `url`, which is built from the configured base URL. */
export const ParticipantRecord = Schema.Struct({
  slug: ParticipantSlug,
  name: Schema.String,
  discipline: Schema.String,
  location: Schema.String,
  task_type: ExecutionMode,
  tags: Schema.Array(Schema.String),
  capabilities: Schema.Array(Schema.String),
  returns: Schema.String,
  boundary: Schema.NullOr(Schema.String)
})
export type ParticipantRecord = typeof ParticipantRecord.Type

export const Participant = Schema.Struct({
  object: Schema.Literal("participant"),
  ...ParticipantRecord.fields,
  returns: Schema.String.annotate({ description: "The evidence the participant delivers." }),
  url: Schema.String.annotate({ format: "uri", description: "Address of this participant resource." })
}).annotate({ identifier: "Participant", description: "A human available for hire." })
export type Participant = typeof Participant.Type

/**
 * The text `q` is matched against: name, discipline, location, task type and tags, lower-cased.
 * Fields are joined with a separator no query can contain, so a match never spans two fields.
 */
export const searchTextOf = (p: ParticipantRecord): string =>
  [p.name, p.discipline, p.location, p.task_type, ...p.tags]
    .map((s) => s.normalize("NFC").toLowerCase())
    .join(searchTextSeparator)

export const searchTextSeparator = "\u001f"

/** Normalises a `q` value the same way the search text was built. */
export const normaliseQuery = (q: string): string =>
  // NFC, so that composed and decomposed accents match alike.
  q.normalize("NFC").trim().toLowerCase()

/**
 * No field contains the separator or NUL, so a query containing either matches nothing: never two
 * fields at once, and never a pattern a database would cut short at the NUL.
 */
export const canMatchAnything = (normalisedQuery: string): boolean =>
  !normalisedQuery.includes(searchTextSeparator) && !normalisedQuery.includes("\u0000")

// -------------------------------------------------------------------------------------------------
// A participant's own profile, as they edit it (the console's profile page, the sign-up page)
// -------------------------------------------------------------------------------------------------

/**
 * What a person may write in each member of their profile, counted in code points after trimming
 * (an emoji is one character). Generous for what the directory holds (the sample catalogue's
 * longest name is 20 characters, its longest `returns` 92) and small enough that a profile stays a
 * profile: every listing and search carries it.
 */
export const profileLimits = {
  name: 100,
  discipline: 100,
  location: 100,
  /** How many tags, and the length of each. */
  tags: 20,
  tag: 40,
  /** How many capabilities, and the length of each. */
  capabilities: 20,
  capability: 200,
  returns: 1000,
  boundary: 1000
} as const

// One line: no control character at all. Several lines (returns, boundary): line breaks and tabs,
// no other control character. Postgres cannot store U+0000, and U+001F separates the fields of the
// search text (`searchTextSeparator`).
const oneLine = /^\P{Cc}*$/u
const lines = /^[^\p{Cc}]*(?:[\t\n\r][^\p{Cc}]*)*$/u

const textOf = (what: string, max: number, multiline: boolean) =>
  Schema.String.annotate({ message: `${what} must be text` })
    .pipe(Schema.decodeTo(Schema.String, SchemaTransformation.trim()))
    .check(
      Schema.isMaxCodePoints(max, { message: `${what} must be at most ${max} characters` }),
      Schema.isPattern(multiline ? lines : oneLine, {
        message: multiline
          ? `${what} must not contain control characters other than line breaks and tabs`
          : `${what} must be one line, without control characters`
      })
    )

/** One line of text that says something. */
const filledLine = (what: string, max: number) =>
  textOf(what, max, false).check(Schema.isPattern(/\S/u, { message: `${what} must not be blank` }))

/** A list of short texts, none blank. */
const listOf = (item: string, count: number, max: number, what: string) =>
  Schema.Array(filledLine(item, max))
    .annotate({ message: `${what} must be a list of texts` })
    .check(Schema.isMaxLength(count, { message: `${what}: at most ${count}` }))

/** Text that may be empty: none is null. */
const optionalText = (what: string, max: number) =>
  Schema.NullOr(textOf(what, max, true)).pipe(
    Schema.decodeTo(
      Schema.NullOr(Schema.String),
      SchemaTransformation.transform({ decode: (text) => (text === "" ? null : text), encode: (text) => text })
    )
  )

/**
 * A participant's profile as they edit it: every member but the slug (which names them and never
 * changes). Trimmed; name, discipline and location must say something (discovery lists them and
 * matching places people by their location); tags and capabilities may be empty, but no entry of
 * them blank; `returns` may be empty; a blank boundary is none. Each message names the member and
 * reads as a sentence beside its field.
 */
export const ProfileEdit = Schema.Struct({
  name: filledLine("name", profileLimits.name),
  discipline: filledLine("discipline", profileLimits.discipline),
  location: filledLine("location", profileLimits.location),
  task_type: ExecutionMode.annotate({ message: `task type must be one of ${executionModes.join(", ")}` }),
  tags: listOf("each tag", profileLimits.tags, profileLimits.tag, "tags"),
  capabilities: listOf("each capability", profileLimits.capabilities, profileLimits.capability, "capabilities"),
  returns: textOf("returns", profileLimits.returns, true),
  boundary: optionalText("boundary", profileLimits.boundary)
}).annotate({ identifier: "ProfileEdit" })
export type ProfileEdit = typeof ProfileEdit.Type

/** The first problem of each member of a profile that does not decode, by member (`name`, `tags`, …). */
export type ProfileProblems = Readonly<Partial<Record<keyof ProfileEdit | "profile", string>>>

const decodeProfileEdit = Schema.decodeUnknownResult(ProfileEdit)
const formatIssues = SchemaIssue.makeFormatterStandardSchemaV1()

/**
 * A profile as typed, or what is wrong with each of its members (every member checked, the first
 * problem of each kept): what a form shows beside its fields.
 */
export const readProfileEdit = (
  input: unknown
):
  | { readonly _tag: "Valid"; readonly edit: ProfileEdit }
  | { readonly _tag: "Invalid"; readonly problems: ProfileProblems } => {
  const result = decodeProfileEdit(input, { errors: "all" })
  if (result._tag === "Success") return { _tag: "Valid", edit: result.success }
  const problems: Record<string, string> = {}
  for (const issue of formatIssues(result.failure.issue).issues) {
    const first = issue.path?.[0]
    const field =
      typeof first === "object" && first !== null ? String(first.key) : first === undefined ? "profile" : String(first)
    problems[field] ??= issue.message === "Missing key" ? `${field.replace("_", " ")} is required` : issue.message
  }
  return { _tag: "Invalid", problems }
}

/** The record of a participant with this slug and profile (only the profile's own members: never another slug). */
export const recordOf = (slug: string, edit: ProfileEdit): ParticipantRecord => ({
  slug,
  name: edit.name,
  discipline: edit.discipline,
  location: edit.location,
  task_type: edit.task_type,
  tags: edit.tags,
  capabilities: edit.capabilities,
  returns: edit.returns,
  boundary: edit.boundary
})

/** A slug's longest stem: room is left for a suffix that tells two people of one name apart (`-99999`). */
const slugStemLength = 56

/**
 * The slug a name suggests: its letters and digits in lower case, accents dropped (`Inès Moreau` →
 * `ines-moreau`), words joined by single hyphens, at most `slugStemLength` characters; a name with
 * no letter or digit of the Latin alphabet suggests `participant`. The caller makes it unique
 * (`slugWithSuffix`).
 */
export const slugStemOf = (name: string): string => {
  const stem = name
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/ß/g, "ss")
    .replace(/[^a-z0-9]+/g, "-")
    .slice(0, slugStemLength)
    .replace(/^-+|-+$/g, "")
  return stem === "" ? "participant" : stem
}

/** The `n`th slug of a stem: the stem itself first, then `<stem>-2`, `<stem>-3`, … */
export const slugWithSuffix = (stem: string, n: number): string => (n <= 1 ? stem : `${stem}-${n}`)

/**
 * What matching reads: everyone in the directory, and the slugs of those who are not taking offers
 * (they stay listed, but matching skips them). The same object until either changes.
 */
export interface MatchingDirectory {
  /** In slug order: the same array as `everyone` until the directory changes. */
  readonly everyone: ReadonlyArray<ParticipantRecord>
  readonly unavailable: ReadonlySet<string>
}
