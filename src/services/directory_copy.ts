/**
 * The participant directory's copy in memory (directory_snapshot.ts), read again only when the
 * directory's version moved, and who is not taking offers, read again only when its own version
 * moved: what matching reads for every preflight, search and offer.
 */
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import type * as SqlClient from "effect/sql/SqlClient"
import * as SqlSchema from "effect/sql/SqlSchema"
import type { MatchingDirectory } from "../domain/participant.ts"
import { IntegerColumn } from "../sql/columns.ts"
import type { CommitMarks } from "../sql/commit_marks.ts"
import { IndexedParticipant, participantColumns } from "./directory_rows.ts"
import { makeSnapshot, type Snapshot } from "./directory_snapshot.ts"
import { decodeEach, storageCallFor, undecodableRow } from "./storage.ts"

/**
 * The copy over one SqlClient: `current` (the snapshot, as of the directory's version), and
 * `everyone` and `matching` as the service serves them.
 */
export const directoryCopy = (sql: SqlClient.SqlClient, commitMarks: typeof CommitMarks.Service) => {
  const asStorageCall = storageCallFor(sql)
  const columns = sql.literal(participantColumns)

  /**
   * Every participant, as of a version of the directory, in slug order, with its stored search
   * text. Matching reads the whole directory for each preflight, search and offer, while the
   * directory changes only on imports and profile edits: so it is read once per version (a
   * one-row read tells whether it moved, in any process) and shared. Who is not taking offers
   * has a version of its own in the same row: a participant switching off costs every process a
   * read of that small set, never of the directory.
   */
  let snapshot: Snapshot | undefined
  let availability: { readonly version: number; readonly unavailable: ReadonlySet<string> } | undefined
  let matchingView: MatchingDirectory | undefined

  const versions = SqlSchema.findOneOption({
    Request: Schema.Void,
    Result: Schema.Struct({ version: IntegerColumn, availability_version: IntegerColumn }),
    execute: () => sql`SELECT version, availability_version FROM directory_state WHERE id = 1`
  })(undefined).pipe(
    Effect.map((row) => (row._tag === "Some" ? row.value : { version: 0, availability_version: 0 })),
    Effect.catchTag("SchemaError", undecodableRow("directory_state", "id 1"))
  )
  const unavailableSlugs = SqlSchema.findAll({
    Request: Schema.Void,
    Result: Schema.Struct({ slug: Schema.String }),
    execute: () => sql`SELECT slug FROM unavailable_participants`
  })(undefined).pipe(
    Effect.map((rows) => new Set(rows.map((row) => row.slug))),
    Effect.catchTag("SchemaError", undecodableRow("unavailable_participants", "slug"))
  )
  const decodeIndexed = decodeEach(
    IndexedParticipant,
    "participants",
    (row) => `slug ${(row as { slug?: unknown }).slug}`
  )

  // With the snapshot, the commit mark taken before its version was last read (kept together,
  // set in one step): while the mark stands no process has committed anything, so the snapshot
  // is current without reading the version.
  let checkedAt: number | undefined

  // Matching reads this for every preflight, search and offer: the common answer (nothing
  // committed since, docs/performance.md, "A repeated poll needs no statement") needs no
  // generator, and the other's is made once, not per call. On Postgres, which gives no marks,
  // every call refreshes.
  const refresh = Effect.fnUntraced(function* (mark: number | undefined) {
    const { version, availability_version } = yield* versions
    let fresh = snapshot
    if (fresh?.version !== version) {
      // The version is read before the rows: a change committed in between only makes the
      // next call read them again, never keeps them stale.
      const rows = yield* sql`SELECT ${columns}, search_text FROM participants ORDER BY slug`
      fresh = makeSnapshot(version, yield* decodeIndexed(rows))
    }
    let off = availability
    if (off?.version !== availability_version) {
      off = { version: availability_version, unavailable: yield* unavailableSlugs }
    }
    if (fresh !== snapshot || off !== availability || matchingView === undefined) {
      matchingView = { everyone: fresh.everyone, unavailable: off.unavailable }
    }
    snapshot = fresh
    availability = off
    checkedAt = mark
    return fresh
  })
  const current = Effect.suspend(() => {
    const mark = commitMarks.mark()
    return mark !== undefined && mark === checkedAt && snapshot !== undefined ? Effect.succeed(snapshot) : refresh(mark)
  })

  const everyone = asStorageCall(Effect.map(current, (snap) => snap.everyone))
  // `current` has just set the view, in the same step as the snapshot it is built on.
  const matching = asStorageCall(Effect.map(current, () => matchingView!))

  return { current, everyone, matching }
}
