/**
 * The participant directory: who is available for hire. Its storage — rows decoded by Schema,
 * every query through `SqlClient` so SQLite and Postgres share them — is here (reads and writes by
 * slug, availability, listings) with its rows in `directory_rows.ts` and its copy in memory read
 * again by version in `directory_copy.ts` (the copy itself, for matching, search and small
 * listings, in `directory_snapshot.ts`); the search paths by SQL are in `directory_search.ts`.
 */
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as SqlClient from "effect/sql/SqlClient"
import * as SqlSchema from "effect/sql/SqlSchema"
import type { StorageUnavailable } from "../domain/errors.ts"
import {
  canMatchAnything,
  type MatchingDirectory,
  normaliseQuery,
  type ParticipantRecord,
  searchTextOf
} from "../domain/participant.ts"
import { IntegerColumn } from "../sql/columns.ts"
import { CommitMarks } from "../sql/commit_marks.ts"
import { hotFn } from "../tracing.ts"
import { directoryCopy } from "./directory_copy.ts"
import { fromRow, type ParticipantRow, participantColumns, StoredParticipant } from "./directory_rows.ts"
import { directorySearch, isIndexable } from "./directory_search.ts"
import { keptPage, type ParticipantPage, pageFrom } from "./directory_snapshot.ts"
import { storageCallFor, undecodableRow } from "./storage.ts"

export type { ParticipantPage } from "./directory_snapshot.ts"

export interface ListOptions {
  readonly q?: string | undefined
  readonly limit: number
  readonly after?: string | undefined
}

export class ParticipantDirectory extends Context.Service<
  ParticipantDirectory,
  {
    /** A page of participants in slug order, filtered by `q` when given. */
    list(options: ListOptions): Effect.Effect<ParticipantPage, StorageUnavailable>
    findBySlug(slug: string): Effect.Effect<ParticipantRecord | undefined, StorageUnavailable>
    /**
     * Everyone, in slug order, for matching and search: the same array until the directory
     * changes, so what is worked out from it (`directoryIndexOf`) is worked out once.
     */
    readonly everyone: Effect.Effect<ReadonlyArray<ParticipantRecord>, StorageUnavailable>
    /** Everyone, with who is not taking offers: what matching reads (as current as `everyone`). */
    readonly matching: Effect.Effect<MatchingDirectory, StorageUnavailable>
    /** Inserts or replaces participants by slug. */
    upsertMany(records: ReadonlyArray<ParticipantRecord>): Effect.Effect<number, StorageUnavailable>
    /**
     * Whether the participant takes offers (anyone never switched off does). Kept by slug, for a
     * listed participant or a sign-up awaiting approval alike; this service does not check which.
     */
    isAvailable(slug: string): Effect.Effect<boolean, StorageUnavailable>
    /**
     * Switches the participant's availability; matching in every process sees it at its next read
     * (`matching`), without reading the directory again.
     */
    setAvailable(slug: string, available: boolean): Effect.Effect<void, StorageUnavailable>
    readonly count: Effect.Effect<number, StorageUnavailable>
  }
>()("task-marketplace/services/ParticipantDirectory") {
  /** The directory over the database; `options` change how pages are read (tests use them). */
  static readonly layerWith = (options: DirectoryOptions) => Layer.effect(ParticipantDirectory, makeDirectory(options))

  static readonly layer = ParticipantDirectory.layerWith({})
}

export interface DirectoryOptions {
  /**
   * Whether pages may be listed from the in-memory directory (`auto`, the default: see
   * `fromMemory`) or always by SQL (`never`: the substring-index paths, whatever the size).
   */
  readonly listFromMemory?: "auto" | "never"
}

// A function declaration: hoisted, so the class above can build its default layer from it.
function makeDirectory(settings: DirectoryOptions) {
  return Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const asStorageCall = storageCallFor(sql)
    const columns = sql.literal(participantColumns)
    const { afterSlug, search } = directorySearch(sql)
    const { current, everyone, matching } = directoryCopy(sql, yield* CommitMarks)

    /**
     * Whether a page is read from the in-memory directory rather than by SQL: the snapshot is
     * there for matching anyway, slug order is code-point order on both backends (migration 8),
     * which is JavaScript's string order for the ASCII slugs, and a match is the same substring
     * test. So: for a directory of up to `inMemoryListing` participants (one read of the version
     * instead of the search's statements), and for any q too short for a trigram index (a search
     * of one string in memory instead of a scan of the table). Past that size an indexable q
     * keeps the index, which beats searching every text for a rare term.
     */
    const listsFromMemoryUpTo = sql.onDialectOrElse({
      sqlite: () => inMemoryListing.sqlite,
      orElse: () => inMemoryListing.postgres
    })
    const fromMemory = (q: string) =>
      settings.listFromMemory === "never"
        ? Effect.succeed(undefined)
        : Effect.map(current, (snap) =>
            snap.everyone.length <= listsFromMemoryUpTo || (q !== "" && !isIndexable(q)) ? snap : undefined
          )

    const list = hotFn("ParticipantDirectory.list")(function* (options: ListOptions) {
      const q = options.q === undefined ? "" : normaliseQuery(options.q)
      if (!canMatchAnything(q)) return { data: [], nextAfter: undefined }
      const n = options.limit + 1
      const snap = yield* fromMemory(q)
      if (snap !== undefined) return keptPage(snap, q, options.after, options.limit)
      const records = (
        q === ""
          ? yield* sql<ParticipantRow>`
                SELECT ${columns} FROM participants WHERE ${sql.and(afterSlug(options.after))}
                ORDER BY slug LIMIT ${n}
              `
          : yield* search(q, options.after, n)
      ).map(fromRow)
      return pageFrom(records, options.limit)
    }, asStorageCall)

    const bySlug = SqlSchema.findOneOption({
      Request: Schema.String,
      Result: StoredParticipant,
      execute: (slug) => sql`SELECT ${columns} FROM participants WHERE slug = ${slug}`
    })
    const findBySlug = hotFn("ParticipantDirectory.findBySlug")(function* (slug: string) {
      return yield* bySlug(slug).pipe(
        Effect.map(Option.getOrUndefined),
        Effect.catchTag("SchemaError", undecodableRow("participants", `slug ${slug}`))
      )
    }, asStorageCall)

    const availableRow = SqlSchema.findOneOption({
      Request: Schema.String,
      Result: Schema.Struct({ slug: Schema.String }),
      execute: (slug) => sql`SELECT slug FROM unavailable_participants WHERE slug = ${slug}`
    })
    const isAvailable = Effect.fn("ParticipantDirectory.isAvailable")(function* (slug: string) {
      return yield* availableRow(slug).pipe(
        Effect.map((row) => row._tag === "None"),
        Effect.catchTag("SchemaError", undecodableRow("unavailable_participants", `slug ${slug}`))
      )
    }, asStorageCall)

    const setAvailable = Effect.fn("ParticipantDirectory.setAvailable")(function* (slug: string, available: boolean) {
      const now = new Date(yield* Clock.currentTimeMillis).toISOString()
      // The version moves only when something changed: switching on someone who is on costs no
      // process a read.
      const changed = available
        ? sql`DELETE FROM unavailable_participants WHERE slug = ${slug} RETURNING slug`
        : sql`
            INSERT INTO unavailable_participants (slug, since) VALUES (${slug}, ${now})
            ON CONFLICT (slug) DO NOTHING RETURNING slug
          `
      yield* sql.withTransaction(
        Effect.flatMap(changed, (rows) =>
          rows.length === 0
            ? Effect.void
            : Effect.asVoid(
                sql`UPDATE directory_state SET availability_version = availability_version + 1 WHERE id = 1`
              )
        )
      )
    }, asStorageCall)

    const upsertMany = Effect.fn("ParticipantDirectory.upsertMany")(function* (
      records: ReadonlyArray<ParticipantRecord>
    ) {
      const now = new Date(yield* Clock.currentTimeMillis).toISOString()
      yield* sql.withTransaction(
        Effect.forEach(
          records,
          (p) => sql`
              INSERT INTO participants (slug, name, discipline, location, task_type, tags, capabilities, returns, boundary, search_text, created_at)
              VALUES (${p.slug}, ${p.name}, ${p.discipline}, ${p.location}, ${p.task_type}, ${JSON.stringify(p.tags)},
                ${JSON.stringify(p.capabilities)}, ${p.returns}, ${p.boundary}, ${searchTextOf(p)}, ${now})
              ON CONFLICT (slug) DO UPDATE SET name = excluded.name, discipline = excluded.discipline,
                location = excluded.location, task_type = excluded.task_type, tags = excluded.tags,
                capabilities = excluded.capabilities, returns = excluded.returns, boundary = excluded.boundary,
                search_text = excluded.search_text
            `,
          { discard: true }
        ).pipe(Effect.andThen(sql`UPDATE directory_state SET version = version + 1 WHERE id = 1`))
      )
      return records.length
    }, asStorageCall)

    // COUNT(*) always answers one row; none would be 0 all the same.
    const count = SqlSchema.findOneOption({
      Request: Schema.Void,
      Result: Schema.Struct({ n: IntegerColumn }),
      execute: () => sql`SELECT COUNT(*) AS n FROM participants`
    })(undefined).pipe(
      Effect.map((row) => (row._tag === "Some" ? row.value.n : 0)),
      Effect.catchTag("SchemaError", undecodableRow("participants", "count(*)")),
      asStorageCall,
      Effect.withSpan("ParticipantDirectory.count")
    )

    return ParticipantDirectory.of({
      list,
      findBySlug,
      everyone,
      matching,
      upsertMany,
      isAvailable,
      setAvailable,
      count
    })
  })
}

/**
 * Up to this many participants, pages are listed from the in-memory directory (see `fromMemory`).
 * SQLite's FTS index answers a rare term in about a millisecond at 100,000, so it keeps the index
 * sooner; Postgres' walk and trigram index took 3–8 ms there, searching memory 0.6–2 ms.
 */
const inMemoryListing = { sqlite: 10_000, postgres: 250_000 } as const
