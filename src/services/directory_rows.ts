/**
 * The participant directory's rows: what `participants` holds and how a row becomes a record. The
 * statements are in participant_directory.ts (reads and writes by slug), directory_copy.ts (the
 * copy in memory) and directory_search.ts (the search paths).
 */
import * as Schema from "effect/Schema"
import { ParticipantRecord } from "../domain/participant.ts"
import type { ExecutionMode } from "../domain/task_draft/execution_mode.ts"

/** The columns of a participant record, as every statement reads them. */
export const participantColumns = "slug, name, discipline, location, task_type, tags, capabilities, returns, boundary"

/** A participant row as either backend returns it: tags and capabilities are JSON text. */
export const StoredParticipant = Schema.Struct({
  ...ParticipantRecord.fields,
  tags: Schema.fromJsonString(ParticipantRecord.fields.tags),
  capabilities: Schema.fromJsonString(ParticipantRecord.fields.capabilities)
})

/** A participant row with its stored search text, as the snapshot reads it. */
export const IndexedParticipant = Schema.Struct({ ...StoredParticipant.fields, search_text: Schema.String })

/**
 * A row of a listing page read by SQL, read without Schema: decoding each row costs several times
 * this, on the listing of directories too large to list from memory (docs/decisions/rows-and-time.md). The stored text was written from a decoded record.
 */
export interface ParticipantRow {
  readonly slug: string
  readonly name: string
  readonly discipline: string
  readonly location: string
  readonly task_type: ExecutionMode
  readonly tags: string
  readonly capabilities: string
  readonly returns: string
  readonly boundary: string | null
}

/** The record a listing row holds. */
export const fromRow = (row: ParticipantRow): ParticipantRecord => ({
  slug: row.slug,
  name: row.name,
  discipline: row.discipline,
  location: row.location,
  task_type: row.task_type,
  tags: JSON.parse(row.tags),
  capabilities: JSON.parse(row.capabilities),
  returns: row.returns,
  boundary: row.boundary
})
