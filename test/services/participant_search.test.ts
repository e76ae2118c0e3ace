// Participant search (`q`) over a generated directory of thousands, on the active backend: every
// query path — the slug-order walk, the substring index (SQLite FTS5 trigram, Postgres pg_trgm),
// the scan for queries under three characters — gives exactly what a brute-force filter gives,
// page by page; the index is really used, and stays in step with the table.
import { assert, describe, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import type { ParticipantRecord } from "../../src/domain/participant.ts"
import {
  type DirectoryOptions,
  ParticipantDirectory,
  type ParticipantPage
} from "../../src/services/participant_directory.ts"
import { backend, statementsOf, TestSqlLayer } from "../support/database.ts"
import { generateDirectory, insertParticipants } from "../support/directory.ts"
import { prng } from "../support/random.ts"

/** The published rule: a searchable field contains q, ignoring case (never two fields at once). */
const searchable = (p: ParticipantRecord) => [p.name, p.discipline, p.location, p.task_type, ...p.tags]

// A directory with the shapes the search must handle: 12,000 generated participants (more than
// Postgres walks for a short q before scanning), plus 1,200 sharing a tag whose slugs all sort last —
// many matches, none of them near the start of slug order.
const clustered = generateDirectory(1200, 7).map((p, i) => ({
  ...p,
  slug: `zz-${String(i).padStart(4, "0")}`,
  tags: [...p.tags, "cluster-tag"]
}))
const records: ReadonlyArray<ParticipantRecord> = [...generateDirectory(12_000, 42), ...clustered]

/** Slugs of the participants matching `q` by brute force, in slug order. */
const bruteForce = (directory: ReadonlyArray<ParticipantRecord>, q: string) => {
  const needle = q.normalize("NFC").trim().toLowerCase()
  if (needle.includes("\u001f") || needle.includes("\u0000")) return []
  return directory
    .filter((p) => searchable(p).some((field) => field.normalize("NFC").toLowerCase().includes(needle)))
    .map((p) => p.slug)
    .sort()
}
const expectedFor = (q: string) => bruteForce(records, q)
const canMatch = (q: string) => !q.includes("\u001f") && !q.includes("\u0000")

const random = prng(2026)
const pick = <A>(xs: ReadonlyArray<A>): A => xs[Math.floor(random() * xs.length)]!

/** A piece of some participant's searchable field, 1–8 characters long, sometimes upper-cased. */
const substringQuery = () => {
  const field = [...pick(searchable(pick(records)))]
  const length = 1 + Math.floor(random() * Math.min(8, field.length))
  const start = Math.floor(random() * (field.length - length + 1))
  const q = field.slice(start, start + length).join("")
  return random() < 0.3 ? q.toUpperCase() : q
}

/** The end of one field and the start of the next: no single field contains it. */
const acrossFieldsQuery = () => {
  const fields = searchable(pick(records))
  const i = Math.floor(random() * (fields.length - 1))
  return `${fields[i]!.slice(-3)}${fields[i + 1]!.slice(0, 3)}`
}

/** Random text from an alphabet full of LIKE wildcards, FTS5 syntax and non-ASCII letters. */
const noiseQuery = () => {
  const alphabet = [..."ae io%_\\\"'*^:-+()ÉéüÜøßİıñÑ–国", "AND", "OR", "NEAR", "ph", "ra"]
  return Array.from({ length: 1 + Math.floor(random() * 5) }, () => pick(alphabet)).join("")
}

const fixedQueries = [
  "",
  " ",
  "a",
  "e",
  "ph",
  "xq",
  "zz",
  "ux",
  "photo",
  "PHOTO",
  "research",
  "physical",
  "cluster-tag",
  "cluster",
  "zoë",
  "ZOË",
  "Zoe\u0308",
  "søren",
  "nguyễn",
  "o'brien",
  "japanese–english",
  "amara okafor",
  "okafor",
  "zzqx",
  "%",
  "%%",
  "_",
  "\\",
  '"',
  '""',
  'a"b',
  "ph%",
  "ux_research",
  "AND",
  "photo OR video",
  "pho*",
  "NEAR(a b)",
  "col:x",
  "\u001f",
  "hassan\u001fcourier",
  "courier\u001f",
  "a\u0000b"
]

const queries = [
  ...fixedQueries,
  ...Array.from({ length: 80 }, substringQuery),
  ...Array.from({ length: 25 }, acrossFieldsQuery),
  ...Array.from({ length: 25 }, noiseQuery)
]

const seeded = (directory: ReadonlyArray<ParticipantRecord>, options: DirectoryOptions = {}) =>
  Layer.effectDiscard(
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      yield* insertParticipants(sql, directory)
      // What autovacuum does on a live Postgres: statistics for the planner.
      if (backend === "postgres") yield* sql`ANALYZE participants`
    })
  ).pipe(Layer.provideMerge(ParticipantDirectory.layerWith(options)), Layer.provideMerge(TestSqlLayer))
// The SQL paths, at any size (a directory this small would otherwise be listed from memory).
const Seeded = seeded(records, { listFromMemory: "never" })

/** Slugs of up to `pages` pages of `q`, following the cursor, and whether the listing ended. */
const pagesOf = (q: string, limit: number, pages: number) =>
  Effect.gen(function* () {
    const directory = yield* ParticipantDirectory
    const slugs: Array<string> = []
    let after: string | undefined
    for (let i = 0; i < pages; i++) {
      const page = yield* directory.list({ q, limit, after })
      assert.isAtMost(page.data.length, limit)
      slugs.push(...page.data.map((p) => p.slug))
      if (page.nextAfter === undefined) return { slugs, ended: true }
      assert.strictEqual(page.data.length, limit, `a page before the last is full (q=${JSON.stringify(q)})`)
      assert.strictEqual(page.nextAfter, page.data[page.data.length - 1]?.slug)
      after = page.nextAfter
    }
    return { slugs, ended: false }
  })

/** The query plan of a compiled statement, as text. */
const planOf = (sql: SqlClient.SqlClient, [text, params]: readonly [string, ReadonlyArray<unknown>]) =>
  backend === "sqlite"
    ? sql
        .unsafe<{ detail: string }>(`EXPLAIN QUERY PLAN ${text}`, params)
        .pipe(Effect.map((rows) => rows.map((row) => row.detail).join("\n")))
    : sql
        .unsafe<{ "QUERY PLAN": string }>(`EXPLAIN ${text}`, params)
        .pipe(Effect.map((rows) => rows.map((row) => row["QUERY PLAN"]).join("\n")))

const usesIndex = (plan: string) =>
  backend === "sqlite"
    ? /participants_search VIRTUAL TABLE INDEX \d+:M/.test(plan)
    : plan.includes("participants_search_trgm_idx")

describe(`participant search over ${records.length} participants (${backend})`, () => {
  layer(Seeded, { excludeTestServices: true, timeout: "120 seconds" })((it) => {
    it.effect("the generated directory has common, rare, clustered and absent terms", () =>
      Effect.sync(() => {
        assert.isAbove(expectedFor("physical").length, 1000)
        assert.isAbove(expectedFor("photo").length, 150)
        assert.isBelow(expectedFor("amara okafor").length, 50)
        assert.strictEqual(expectedFor("cluster-tag").length, 1200)
        assert.strictEqual(expectedFor("zzqx").length, 0)
        assert.strictEqual(expectedFor("xq").length, 0)
      })
    )

    it.effect("every query's first page (limit 100) is the brute-force answer's first 100", () =>
      Effect.gen(function* () {
        const directory = yield* ParticipantDirectory
        for (const q of queries) {
          const expected = expectedFor(q)
          const page = yield* directory.list({ q, limit: 100 })
          assert.deepStrictEqual(
            page.data.map((p) => p.slug),
            expected.slice(0, 100),
            `q=${JSON.stringify(q)}`
          )
          assert.strictEqual(page.nextAfter !== undefined, expected.length > 100, `has more, q=${JSON.stringify(q)}`)
        }
      })
    )

    it.effect("following the cursor visits exactly the brute-force answer, at several page sizes", () =>
      Effect.gen(function* () {
        const limits = [1, 7, 30, 100, 500]
        for (const [i, q] of queries.entries()) {
          const limit = limits[i % limits.length]!
          const expected = expectedFor(q)
          const { slugs, ended } = yield* pagesOf(q, limit, 6)
          if (ended) assert.deepStrictEqual(slugs, expected, `q=${JSON.stringify(q)} limit=${limit}`)
          else assert.deepStrictEqual(slugs, expected.slice(0, slugs.length), `q=${JSON.stringify(q)} limit=${limit}`)
        }
      })
    )

    it.effect("pages that start anywhere in slug order agree with the brute force", () =>
      Effect.gen(function* () {
        const directory = yield* ParticipantDirectory
        const slugs = records.map((p) => p.slug).sort()
        const terms = ["cluster-tag", "physical", "photo", "zoë", "amara", "okafor", "ph", "zz", "e", "xq", "zzqx"]
        for (const q of terms) {
          for (const after of [slugs[0]!, slugs[1000]!, slugs[2500]!, "m", "zz-0600", "zz-1199", "zzzz"]) {
            const expected = expectedFor(q).filter((slug) => slug > after)
            const page = yield* directory.list({ q, limit: 20, after })
            assert.deepStrictEqual(
              page.data.map((p) => p.slug),
              expected.slice(0, 20),
              `q=${q} after=${after}`
            )
            assert.strictEqual(page.nextAfter !== undefined, expected.length > 20, `q=${q} after=${after}`)
          }
        }
      })
    )

    // SQLite's plan does not depend on the table's size; Postgres' is checked further down.
    // Registered only where it applies (never reported as skipped).
    if (backend === "sqlite")
      it.effect("a rare term of three characters or more is looked up in the FTS index", () =>
        Effect.gen(function* () {
          const sql = yield* SqlClient.SqlClient
          const directory = yield* ParticipantDirectory
          for (const q of ["amara okafor", "zzqx", "cluster-tag"]) {
            const { result, statements } = yield* statementsOf(directory.list({ q, limit: 100 }))
            assert.deepStrictEqual(
              result.data.map((p) => p.slug),
              expectedFor(q).slice(0, 100)
            )
            const plans = yield* Effect.forEach(statements, (statement) => planOf(sql, statement))
            assert.isTrue(plans.some(usesIndex), `q=${q}: no plan uses the index:\n${plans.join("\n---\n")}`)
          }
        })
      )

    it.effect("a common term fills its page by walking slug order, without reading every match", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const directory = yield* ParticipantDirectory
        const { result, statements } = yield* statementsOf(directory.list({ q: "physical", limit: 20 }))
        assert.deepStrictEqual(
          result.data.map((p) => p.slug),
          expectedFor("physical").slice(0, 20)
        )
        const plans = yield* Effect.forEach(statements, (statement) => planOf(sql, statement))
        // The last statement answered the page: a walk in slug order, no sort — on SQLite of the
        // (slug, search_text) index alone, on Postgres of the primary key.
        const last = plans[plans.length - 1]!
        assert.notMatch(last, backend === "sqlite" ? /TEMP B-TREE FOR ORDER BY/ : /Sort/, last)
        assert.match(
          last,
          backend === "sqlite" ? /COVERING INDEX participants_slug_search_idx/ : /Index Scan using participants_pkey/,
          last
        )
      })
    )

    it.effect("the index follows inserts, updates and deletes (and, on SQLite, VACUUM)", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const directory = yield* ParticipantDirectory
        const slugsOf = (q: string) =>
          directory.list({ q, limit: 500 }).pipe(Effect.map((page) => page.data.map((p) => p.slug)))
        const base = records.find((p) => p.slug.startsWith("zz-0001"))!
        yield* directory.upsertMany([{ ...base, slug: "qqq-newcomer", name: "Xaverine Quillfeather" }])
        assert.deepStrictEqual(yield* slugsOf("quillfeather"), ["qqq-newcomer"])
        yield* directory.upsertMany([{ ...base, slug: "qqq-newcomer", name: "Yolanthe Brightwater" }])
        assert.deepStrictEqual(yield* slugsOf("quillfeather"), [])
        assert.deepStrictEqual(yield* slugsOf("brightwater"), ["qqq-newcomer"])
        yield* sql`DELETE FROM participants WHERE slug = ${"qqq-newcomer"}`
        assert.deepStrictEqual(yield* slugsOf("brightwater"), [])
        if (backend === "sqlite") {
          // Rowids link the FTS table to its rows: they must survive VACUUM after deletions.
          yield* sql`DELETE FROM participants WHERE slug IN ${sql.in(records.slice(0, 50).map((p) => p.slug))}`
          yield* directory.upsertMany(records.slice(0, 50))
          yield* sql`VACUUM`
          const integrity =
            yield* sql`INSERT INTO participants_search (participants_search, rank) VALUES ('integrity-check', 1)`
          assert.deepStrictEqual(integrity, [])
        }
        for (const q of ["amara okafor", "cluster-tag", "zoë", "photo"]) {
          assert.deepStrictEqual(yield* slugsOf(q), expectedFor(q).slice(0, 500), q)
        }
      })
    )
  })
})

// Postgres picks plans by cost, and on a few thousand rows scanning is cheapest whatever the
// index: the planner's choice matters — and is checked here — at a realistic size.
const large = backend === "postgres" ? generateDirectory(60_000, 99) : []

const LargeSeeded = Layer.effectDiscard(
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* insertParticipants(sql, large)
    yield* sql`ANALYZE participants`
  })
).pipe(
  Layer.provideMerge(ParticipantDirectory.layerWith({ listFromMemory: "never" })),
  Layer.provideMerge(TestSqlLayer)
)

// Registered only on Postgres (never reported as skipped on SQLite).
if (backend === "postgres")
  describe(`participant search over ${large.length} participants (postgres)`, () => {
    layer(LargeSeeded, { excludeTestServices: true, timeout: "180 seconds" })((it) => {
      /** The plans of the statements one listing runs, and whether it matched the brute force. */
      const plansOf = (q: string, limit: number) =>
        Effect.gen(function* () {
          const sql = yield* SqlClient.SqlClient
          const directory = yield* ParticipantDirectory
          const { result, statements } = yield* statementsOf(directory.list({ q, limit }))
          assert.deepStrictEqual(
            result.data.map((p) => p.slug),
            bruteForce(large, q).slice(0, limit),
            q
          )
          return yield* Effect.forEach(statements, (statement) => planOf(sql, statement))
        })

      it.effect("the planner looks a rare term up in the trigram index", () =>
        Effect.gen(function* () {
          for (const q of ["amara okafor", "zzqx", "Łukasz Ōta"]) {
            const plans = yield* plansOf(q, 100)
            assert.isTrue(plans.some(usesIndex), `q=${q}: no plan uses the index:\n${plans.join("\n---\n")}`)
          }
        })
      )

      it.effect("a common term walks the primary key in slug order and stops at the page", () =>
        Effect.gen(function* () {
          for (const q of ["physical", "photo", "ph"]) {
            const plans = yield* plansOf(q, 100)
            const last = plans[plans.length - 1]!
            assert.match(last, /Index Scan using participants_pkey/, last)
            assert.notMatch(last, /Sort/, last)
          }
        })
      )

      it.effect("a query under three characters never asks the trigram index", () =>
        Effect.gen(function* () {
          for (const q of ["xq", "zz", "ux", "ë"]) {
            const plans = yield* plansOf(q, 100)
            assert.isFalse(plans.some(usesIndex), `q=${q}:\n${plans.join("\n---\n")}`)
          }
        })
      )
    })
  })

// The in-memory listing (see `fromMemory`), which serves every directory of this size on both
// backends: the same agreement with the brute force, and no statement but the version's (on
// SQLite not even that while nothing was committed).
const small: ReadonlyArray<ParticipantRecord> = [...generateDirectory(2500, 11), ...clustered.slice(0, 300)]

describe(`participant search over ${small.length} participants (in memory, ${backend})`, () => {
  layer(seeded(small), { excludeTestServices: true, timeout: "60 seconds" })((it) => {
    it.effect("first pages and cursors agree with the brute force; a page reads only the directory's version", () =>
      Effect.gen(function* () {
        const directory = yield* ParticipantDirectory
        const limits = [1, 7, 30, 100, 500]
        for (const [i, q] of queries.entries()) {
          const expected = bruteForce(small, q)
          const { result: page, statements } = yield* statementsOf(directory.list({ q, limit: 100 }))
          assert.deepStrictEqual(
            page.data.map((p) => p.slug),
            expected.slice(0, 100),
            `q=${JSON.stringify(q)}`
          )
          assert.strictEqual(page.nextAfter !== undefined, expected.length > 100, `has more, q=${JSON.stringify(q)}`)
          if (i > 0) {
            assert.deepStrictEqual(
              statements.map(([text]) => text.replace(/\s+/g, " ").trim()),
              // On SQLite nothing at all while nothing was committed (its commit marks tell); on
              // Postgres the one-row read of the version.
              canMatch(q) && backend === "postgres"
                ? ["SELECT version, availability_version FROM directory_state WHERE id = 1"]
                : [],
              `q=${JSON.stringify(q)}`
            )
          }
          const limit = limits[i % limits.length]!
          const { slugs, ended } = yield* pagesOf(q, limit, 4)
          assert.deepStrictEqual(slugs, ended ? expected : expected.slice(0, slugs.length), `q=${q} limit=${limit}`)
        }
      })
    )

    it.effect("pages after any cursor agree, and an import is listed by the next request", () =>
      Effect.gen(function* () {
        const directory = yield* ParticipantDirectory
        const slugs = small.map((p) => p.slug).sort()
        for (const q of ["", "cluster-tag", "photo", "ph", "e", "xq"]) {
          for (const after of [slugs[0]!, slugs[1234]!, "m", "zz-0150", "zzzz", "é", "\u{1F600}"]) {
            const expected = bruteForce(small, q).filter((slug) => slug > after)
            const page = yield* directory.list({ q, limit: 20, after })
            assert.deepStrictEqual(
              page.data.map((p) => p.slug),
              expected.slice(0, 20),
              `q=${q} after=${after}`
            )
          }
        }
        // Listed before the import, so the page is kept (below): the import still shows at once.
        const photoBefore = yield* directory.list({ q: "photo", limit: 5 })
        assert.notInclude(
          photoBefore.data.map((p) => p.slug),
          "aaa-newcomer"
        )
        const added = { ...small[0]!, slug: "aaa-newcomer", name: "Newcomer Photographer", tags: ["newcomer-tag"] }
        yield* directory.upsertMany([added])
        assert.deepStrictEqual(
          (yield* directory.list({ q: "newcomer-tag", limit: 5 })).data.map((p) => p.slug),
          ["aaa-newcomer"]
        )
        assert.strictEqual((yield* directory.list({ limit: 1 })).data[0]?.slug, "aaa-newcomer")
        assert.strictEqual((yield* directory.list({ q: "photo", limit: 5 })).data[0]?.slug, "aaa-newcomer")
      })
    )

    it.effect("a repeated listing is the kept page until the directory changes; kept pages are bounded", () =>
      Effect.gen(function* () {
        const directory = yield* ParticipantDirectory
        const slugs = small.map((p) => p.slug).sort()
        const first = yield* directory.list({ q: "PHOTO ", limit: 30 })
        // The same q once normalised, the same cursor and limit: the very same page.
        assert.strictEqual(yield* directory.list({ q: "photo", limit: 30 }), first)
        // Any other cursor, limit or q is a page of its own.
        assert.notStrictEqual(yield* directory.list({ q: "photo", limit: 31 }), first)
        assert.notStrictEqual(yield* directory.list({ q: "photo", limit: 30, after: slugs[0]! }), first)
        assert.notStrictEqual(yield* directory.list({ q: "phot", limit: 30 }), first)
        assert.strictEqual(yield* directory.list({ q: "photo", limit: 30 }), first)
        // Pages of 500 participants, 20 of them, are more than a snapshot keeps: the pages listed
        // longest ago are dropped (and listed anew, alike), the most recently listed are kept.
        const pages: Array<ParticipantPage> = []
        for (let i = 0; i < 20; i++) pages.push(yield* directory.list({ limit: 500, after: slugs[i]! }))
        const again = yield* directory.list({ q: "photo", limit: 30 })
        assert.notStrictEqual(again, first)
        assert.deepStrictEqual(again, first)
        assert.strictEqual(yield* directory.list({ limit: 500, after: slugs[19]! }), pages[19])
        const oldest = yield* directory.list({ limit: 500, after: slugs[0]! })
        assert.notStrictEqual(oldest, pages[0])
        assert.deepStrictEqual(oldest, pages[0])
        // Pages that list nobody count too: distinct queries matching nothing cannot grow the
        // kept pages without bound.
        const nobody = yield* directory.list({ q: "zzqx-0", limit: 10 })
        assert.strictEqual(yield* directory.list({ q: "zzqx-0", limit: 10 }), nobody)
        for (let i = 1; i <= 5000; i++) yield* directory.list({ q: `zzqx-${i}`, limit: 10 })
        assert.notStrictEqual(yield* directory.list({ q: "zzqx-0", limit: 10 }), nobody)
        // Nor can long queries make large keys: a page is kept only for a short query and cursor.
        const long = `${"photo ".repeat(40)}x`
        assert.notStrictEqual(
          yield* directory.list({ q: long, limit: 10 }),
          yield* directory.list({ q: long, limit: 10 })
        )
        const short = "photo ".repeat(30).trim()
        assert.strictEqual(
          yield* directory.list({ q: short, limit: 10 }),
          yield* directory.list({ q: short, limit: 10 })
        )
        // A change to the directory: the kept pages are dropped with the snapshot (`latest` is kept
        // until then; the pages above may have been dropped by the bound already).
        const latest = yield* directory.list({ q: "photo", limit: 30 })
        assert.strictEqual(yield* directory.list({ q: "photo", limit: 30 }), latest)
        yield* directory.upsertMany([{ ...small[1]!, name: `${small[1]!.name} Renamed` }])
        assert.notStrictEqual(yield* directory.list({ q: "photo", limit: 30 }), latest)
      })
    )

    it.effect("slug order is code-point order on both backends, whatever the database's default collation", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const directory = yield* ParticipantDirectory
        // en_US would put "aaab-zed" after "aaaba" (it ignores the hyphen at first); code points put
        // the hyphen (0x2d) before every letter and digit.
        yield* directory.upsertMany([
          { ...small[0]!, slug: "aaaba" },
          { ...small[0]!, slug: "aaab-zed" }
        ])
        const listed = (yield* directory.list({ limit: 2, after: "aaab" })).data.map((p) => p.slug)
        assert.deepStrictEqual(listed, ["aaab-zed", "aaaba"])
        const inSql = yield* sql<{
          slug: string
        }>`SELECT slug FROM participants WHERE slug > 'aaab' ORDER BY slug LIMIT 2`
        assert.deepStrictEqual(
          inSql.map((row) => row.slug),
          listed
        )
        if (backend === "postgres") {
          const [column] = yield* sql<{ collation_name: string | null }>`
            SELECT collation_name FROM information_schema.columns
            WHERE table_schema = current_schema() AND table_name = 'participants' AND column_name = 'slug'
          `
          assert.strictEqual(column?.collation_name, "C")
        }
      })
    )
  })
})
