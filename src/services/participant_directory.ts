/**
 * The participant directory: who is available for hire, read through `SqlClient` so SQLite and
 * Postgres share every query.
 */
import { Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import type { StorageUnavailable } from "../domain/errors.ts"
import { canMatchAnything, normaliseQuery, type ParticipantRecord, searchTextOf } from "../domain/participant.ts"
import type { ExecutionMode } from "../domain/task_draft.ts"
import { storageCallFor } from "./storage.ts"

export interface ParticipantPage {
  readonly data: ReadonlyArray<ParticipantRecord>
  /** Slug to continue after, when another page follows. */
  readonly nextAfter: string | undefined
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
    /** Participants whose task type can serve a task of this mode, for matching and search. */
    candidates(modes: ReadonlyArray<ExecutionMode>): Effect.Effect<ReadonlyArray<ParticipantRecord>, StorageUnavailable>
    /** Inserts or replaces participants by slug. */
    upsertMany(records: ReadonlyArray<ParticipantRecord>): Effect.Effect<number, StorageUnavailable>
    readonly count: Effect.Effect<number, StorageUnavailable>
  }
>()("task-marketplace/services/ParticipantDirectory") {
  static readonly layer = Layer.effect(
    ParticipantDirectory,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const asStorageCall = storageCallFor(sql)

      const list = Effect.fnUntraced(function* (options: ListOptions) {
        const conditions = []
        const q = options.q === undefined ? "" : normaliseQuery(options.q)
        if (!canMatchAnything(q)) return { data: [], nextAfter: undefined }
        if (q !== "") conditions.push(sql`search_text LIKE ${`%${escapeLike(q)}%`} ESCAPE '\\'`)
        if (options.after !== undefined) conditions.push(sql`slug > ${options.after}`)
        const rows = yield* sql<ParticipantRow>`
          SELECT ${columns} FROM participants WHERE ${sql.and(conditions)} ORDER BY slug LIMIT ${options.limit + 1}
        `
        const data = rows.slice(0, options.limit).map(fromRow)
        const nextAfter = rows.length > options.limit ? data[data.length - 1]?.slug : undefined
        return { data, nextAfter }
      }, asStorageCall)

      const findBySlug = Effect.fnUntraced(function* (slug: string) {
        const rows = yield* sql<ParticipantRow>`SELECT ${columns} FROM participants WHERE slug = ${slug}`
        return rows[0] === undefined ? undefined : fromRow(rows[0])
      }, asStorageCall)

      const candidates = Effect.fnUntraced(function* (modes: ReadonlyArray<ExecutionMode>) {
        const rows = yield* sql<ParticipantRow>`
          SELECT ${columns} FROM participants WHERE ${sql.in("task_type", modes)} ORDER BY slug
        `
        return rows.map(fromRow)
      }, asStorageCall)

      const upsertMany = Effect.fnUntraced(function* (records: ReadonlyArray<ParticipantRecord>) {
        const now = new Date().toISOString()
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
          )
        )
        return records.length
      }, asStorageCall)

      const count = sql<{ n: number | bigint | string }>`SELECT COUNT(*) AS n FROM participants`.pipe(
        Effect.map((rows) => Number(rows[0]?.n ?? 0)),
        asStorageCall,
        Effect.withSpan("ParticipantDirectory.count")
      )

      const columns = sql.literal("slug, name, discipline, location, task_type, tags, capabilities, returns, boundary")

      return ParticipantDirectory.of({ list, findBySlug, candidates, upsertMany, count })
    })
  )
}

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

/** Escapes LIKE wildcards so `q` is matched literally (`50%` finds "50%", not everything). */
const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`)
