/**
 * The participant directory's search paths by SQL: the first page of participants whose search
 * text contains `q`, in slug order, by walking slug order or asking the substring index (SQLite's
 * FTS5 trigram table, Postgres' pg_trgm), whichever is cheap for that q. Used for directories too
 * large to list from memory (participant_directory.ts decides).
 */
import * as Effect from "effect/Effect"
import type * as SqlClient from "effect/sql/SqlClient"
import type * as SqlError from "effect/sql/SqlError"
import { type ParticipantRow, participantColumns } from "./directory_rows.ts"

/** The search paths over one SqlClient, and the slug bound they and the plain listing share. */
export const directorySearch = (sql: SqlClient.SqlClient) => {
  const columns = sql.literal(participantColumns)

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

  return { afterSlug, search }
}

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
export const isIndexable = (q: string) => [...q].length >= 3

/** `q` as an FTS5 phrase: quoted, inner quotes doubled, so no character of it is query syntax. */
const ftsPhrase = (q: string) => `"${q.replaceAll('"', '""')}"`

/** Escapes LIKE wildcards so `q` is matched literally (`50%` finds "50%", not everything). */
const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`)
