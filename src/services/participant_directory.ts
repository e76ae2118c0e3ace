/**
 * The participant directory: who is available for hire. Its storage is here — rows decoded by
 * Schema, every query through `SqlClient` so SQLite and Postgres share them, the search paths by
 * SQL — and its copy in memory (matching, search, small listings) in `directory_snapshot.ts`.
 */
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as SqlClient from "effect/sql/SqlClient"
import type * as SqlError from "effect/sql/SqlError"
import * as SqlSchema from "effect/sql/SqlSchema"
import type { StorageUnavailable } from "../domain/errors.ts"
import { canMatchAnything, normaliseQuery, ParticipantRecord, searchTextOf } from "../domain/participant.ts"
import type { ExecutionMode } from "../domain/task_draft/execution_mode.ts"
import { IntegerColumn } from "../sql/columns.ts"
import { CommitMarks } from "../sql/commit_marks.ts"
import { keptPage, makeSnapshot, type ParticipantPage, pageFrom, type Snapshot } from "./directory_snapshot.ts"
import { decodeEach, storageCallFor, undecodableRow } from "./storage.ts"

export type { ParticipantPage } from "./directory_snapshot.ts"

/**
 * What matching reads: everyone in the directory, and the slugs of those who are not taking offers
 * (they stay listed, but matching skips them). The same object until either changes.
 */
export interface MatchingDirectory {
  /** In slug order: the same array as `everyone` until the directory changes. */
  readonly everyone: ReadonlyArray<ParticipantRecord>
  readonly unavailable: ReadonlySet<string>
}

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

    const afterSlug = (after: string | undefined) => (after === undefined ? [] : [sql`slug > ${after}`])
    const upTo = (end: string | undefined) => (end === undefined ? [] : [sql`slug <= ${end}`])

    /**
     * `search_text` contains `q`, literally. A row matches when this holds, on every path; the
     * substring index only narrows the rows it is tried on. As LIKE (wildcards escaped), the
     * form pg_trgm's index serves; on Postgres also as strpos, the same test no index serves,
     * so that a plan meant to walk or scan stays one.
     */
    const contains = (q: string) => sql`search_text LIKE ${`%${escapeLike(q)}%`} ESCAPE '\\'`
    const containsByStrpos = (q: string) => sql`strpos(search_text, ${q}) > 0`

    /**
     * SQLite: the rowids of `q`'s matches (a JSON array) when there are fewer than `fewMatches`,
     * read from the FTS index alone, which stops at the cap; undefined when there are more.
     * Postgres: always undefined — a GIN index cannot stop early, so asking it first is never
     * cheap for a common term.
     */
    const fewInIndex: (q: string) => Effect.Effect<FewMatches | undefined, SqlError.SqlError> = sql.onDialectOrElse({
      sqlite: () => (q) =>
        isIndexable(q)
          ? sql<FewMatches>`
                SELECT count(*) AS n, json_group_array(rowid) AS rowids FROM (
                  SELECT rowid FROM participants_search WHERE participants_search MATCH ${ftsPhrase(q)} LIMIT ${fewMatches}
                )
              `.pipe(Effect.map(([row]) => (row !== undefined && row.n < fewMatches ? row : undefined)))
          : Effect.succeed(undefined),
      orElse: () => () => Effect.succeed(undefined)
    })

    /** SQLite: the first `n` of the index's few matches after `after`, sorted. */
    const fromRowids = (few: FewMatches, q: string, after: string | undefined, n: number) =>
      few.n === 0
        ? Effect.succeed([])
        : sql<ParticipantRow>`
              SELECT ${columns} FROM participants
              WHERE rowid IN (SELECT value FROM json_each(${few.rowids}))
                AND ${sql.and([contains(q), ...afterSlug(after)])}
              ORDER BY slug LIMIT ${n}
            `

    /**
     * The first `n` matches after `after`, when a walk found them sparse there. Below three
     * characters (Postgres only: SQLite walks such a q to the end) no index applies — a trigram
     * index has nothing to look up — and the table is scanned in storage order, which costs far
     * less than walking all of it in slug order.
     */
    const fromIndex: (
      q: string,
      after: string | undefined,
      n: number
    ) => Effect.Effect<ReadonlyArray<ParticipantRow>, SqlError.SqlError> = sql.onDialectOrElse({
      // The FTS5 trigram table: a phrase query is an exact substring test (see the migration).
      // There are many matches here (fewInIndex said so): `+rowid` (no lookup by rowid) makes
      // SQLite walk the slug index, testing each entry's rowid against the set of matches (a
      // Bloom filter first) and reading only matching rows, so it stops at the page without
      // reading and sorting thousands of them.
      sqlite: () => (q, after, n) =>
        sql<ParticipantRow>`
            SELECT ${columns} FROM participants
            WHERE +rowid IN (
              SELECT rowid FROM participants_search WHERE participants_search MATCH ${ftsPhrase(q)}
            ) AND ${sql.and([contains(q), ...afterSlug(after)])}
            ORDER BY slug LIMIT ${n}
          `,
      // pg_trgm's GIN index serves the LIKE (a bitmap of every match, then a top-n sort);
      // MATERIALIZED keeps the planner from walking the primary key in slug order instead. A
      // short q is tested with strpos, so that not even a generic plan asks the GIN index for a
      // pattern it cannot serve (it would read all of the index).
      orElse: () => (q, after, n) =>
        sql<ParticipantRow>`
            WITH matches AS MATERIALIZED (
              SELECT ${columns} FROM participants
              WHERE ${sql.and([isIndexable(q) ? contains(q) : containsByStrpos(q), ...afterSlug(after)])}
            )
            SELECT * FROM matches ORDER BY slug LIMIT ${n}
          `
    })

    /**
     * The first `n` matches in slug order after `after`, up to `end` when given, testing row
     * after row until the page is full.
     */
    const walk: (
      q: string,
      after: string | undefined,
      end: string | undefined,
      n: number
    ) => Effect.Effect<ReadonlyArray<ParticipantRow>, SqlError.SqlError> = sql.onDialectOrElse({
      // The slugs come from the (slug, search_text) index alone (a covering scan, no row read
      // for a row that does not match); then the page's rows.
      sqlite: () => (q, after, end, n) =>
        sql<ParticipantRow>`
            SELECT ${columns} FROM participants WHERE slug IN (
              SELECT slug FROM participants
              WHERE ${sql.and([contains(q), ...afterSlug(after), ...upTo(end)])}
              ORDER BY slug LIMIT ${n}
            )
            ORDER BY slug
          `,
      orElse: () => (q, after, end, n) =>
        sql<ParticipantRow>`
            SELECT ${columns} FROM participants
            WHERE ${sql.and([containsByStrpos(q), ...afterSlug(after), ...upTo(end)])}
            ORDER BY slug LIMIT ${n}
          `
    })

    /**
     * How many rows of slug order to walk before asking the index, for a page of `n`; undefined:
     * walk to the end. SQLite walks only its covering index, so cheaply that a q too short for
     * trigrams is best served by walking the whole table in slug order, never sorting.
     */
    const windowOf: (q: string, n: number) => number | undefined = sql.onDialectOrElse({
      sqlite: () => (q, n) => (isIndexable(q) ? n * walkWindowPerRow.sqlite : undefined),
      orElse: () => (q, n) =>
        isIndexable(q) ? n * walkWindowPerRow.postgres : Math.max(n * walkWindowPerRow.postgres, shortQueryWindow)
    })

    /**
     * The first `n` participants matching `q` after `after`, in slug order.
     *
     * Two shapes, each cheap where the other is not: walking slug order and testing each row
     * stops as soon as the page is full, which is fast when matches are dense (a common term);
     * asking the index for every match and sorting them is fast when they are few (a rare term).
     * So: when the index shows few matches, take them; otherwise walk a bounded window of slug
     * order (`windowOf`), and only when the page is not full by then ask the index for the
     * matches after that window. The window's bound is read before the walk, so the two parts
     * never overlap or leave a gap.
     */
    const search = Effect.fnUntraced(function* (q: string, after: string | undefined, n: number) {
      const few = yield* fewInIndex(q)
      if (few !== undefined) return yield* fromRowids(few, q, after, n)
      const window = windowOf(q, n)
      const end =
        window === undefined
          ? undefined
          : (yield* sql<{ slug: string }>`
                SELECT slug FROM participants WHERE ${sql.and(afterSlug(after))}
                ORDER BY slug LIMIT 1 OFFSET ${window - 1}
              `)[0]?.slug
      const walked = yield* walk(q, after, end, n)
      if (walked.length >= n || end === undefined) return walked
      return [...walked, ...(yield* fromIndex(q, end, n - walked.length))]
    })

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

    const list = Effect.fnUntraced(function* (options: ListOptions) {
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
    const findBySlug = (slug: string) =>
      bySlug(slug).pipe(
        Effect.map(Option.getOrUndefined),
        Effect.catchTag("SchemaError", undecodableRow("participants", `slug ${slug}`)),
        asStorageCall
      )

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
    const commitMarks = yield* CommitMarks
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
      return mark !== undefined && mark === checkedAt && snapshot !== undefined
        ? Effect.succeed(snapshot)
        : refresh(mark)
    })

    const everyone = asStorageCall(Effect.map(current, (snap) => snap.everyone))
    // `current` has just set the view, in the same step as the snapshot it is built on.
    const matching = asStorageCall(Effect.map(current, () => matchingView!))

    const availableRow = SqlSchema.findOneOption({
      Request: Schema.String,
      Result: Schema.Struct({ slug: Schema.String }),
      execute: (slug) => sql`SELECT slug FROM unavailable_participants WHERE slug = ${slug}`
    })
    const isAvailable = (slug: string) =>
      availableRow(slug).pipe(
        Effect.map((row) => row._tag === "None"),
        Effect.catchTag("SchemaError", undecodableRow("unavailable_participants", `slug ${slug}`)),
        asStorageCall
      )

    const setAvailable = Effect.fnUntraced(function* (slug: string, available: boolean) {
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

    const upsertMany = Effect.fnUntraced(function* (records: ReadonlyArray<ParticipantRecord>) {
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

    const columns = sql.literal("slug, name, discipline, location, task_type, tags, capabilities, returns, boundary")

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

/** A participant row as either backend returns it: tags and capabilities are JSON text. */
const StoredParticipant = Schema.Struct({
  ...ParticipantRecord.fields,
  tags: Schema.fromJsonString(ParticipantRecord.fields.tags),
  capabilities: Schema.fromJsonString(ParticipantRecord.fields.capabilities)
})

/** A participant row with its stored search text, as the snapshot reads it. */
const IndexedParticipant = Schema.Struct({ ...StoredParticipant.fields, search_text: Schema.String })

/**
 * A row of a listing page read by SQL, read without Schema: decoding costs ~3 µs a row (~0.3 ms
 * a page of 100) against ~0.4 µs here, on the listing of directories too large to list from
 * memory (docs/decisions.md, "Rows and time"). The stored text was written from a decoded record.
 */
interface ParticipantRow {
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

const fromRow = (row: ParticipantRow): ParticipantRecord => ({
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

/**
 * Slug order is walked for this many rows per row of the page before asking the index: the page
 * fills there when at least one row in 20 (SQLite) or ten (Postgres) matches; sparser matches come
 * from the index. SQLite's walk reads only its covering index, so it affords the longer window.
 */
const walkWindowPerRow = { sqlite: 20, postgres: 10 } as const

/**
 * Postgres: a query under three characters has no index to fall back on, only a scan of the whole
 * table; walking this many rows first costs less than that scan (and fills most such pages).
 */
const shortQueryWindow = 10_000

/** What the FTS index holds for a q with few matches: how many, and their rowids as a JSON array. */
interface FewMatches {
  readonly n: number
  readonly rowids: string
}

/** Below this many matches in the index, reading them all and sorting beats any walk. */
const fewMatches = 1000

/** A trigram index can serve only a query of at least three characters (code points). */
const isIndexable = (q: string) => [...q].length >= 3

/** `q` as an FTS5 phrase: quoted, inner quotes doubled, so no character of it is query syntax. */
const ftsPhrase = (q: string) => `"${q.replaceAll('"', '""')}"`

/** Escapes LIKE wildcards so `q` is matched literally (`50%` finds "50%", not everything). */
const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`)
