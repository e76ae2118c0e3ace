/**
 * A participant: a human available for hire, as the published contract describes them.
 */
import * as Schema from "effect/Schema"
import { ExecutionMode, participantSlugPattern } from "./task_draft.ts"

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
