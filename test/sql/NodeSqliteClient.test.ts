import { execFileSync } from "node:child_process"
import { existsSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { DatabaseSync } from "node:sqlite"
import { assert, describe, it } from "@effect/vitest"
import { Context, Effect, Exit, Layer, Schema, Stream } from "effect"
import { Reactivity } from "effect/reactivity"
import { SqlClient, SqlError, SqlSchema } from "effect/sql"
import * as NodeSqliteClient from "../../src/sql/NodeSqliteClient.ts"

const memory = NodeSqliteClient.layer({ filename: ":memory:" })

/** Runs `f` against a fresh in-memory database. */
const withSql = <A, E>(f: (sql: SqlClient.SqlClient) => Effect.Effect<A, E, SqlClient.SqlClient>) =>
  Effect.gen(function* () {
    return yield* f(yield* SqlClient.SqlClient)
  }).pipe(Effect.provide(memory))

const makeTempDir = Effect.acquireRelease(
  Effect.sync(() => mkdtempSync(join(tmpdir(), "node-sqlite-client-"))),
  (dir) => Effect.sync(() => rmSync(dir, { recursive: true, force: true }))
)

const reasonTag = (error: SqlError.SqlError) => error.reason._tag

describe("NodeSqliteClient", () => {
  it.effect("round-trips rows as plain objects that Schema can decode", () =>
    withSql((sql) =>
      Effect.gen(function* () {
        yield* sql`CREATE TABLE people (id INTEGER PRIMARY KEY, name TEXT NOT NULL, created_at TEXT NOT NULL, active INTEGER NOT NULL)`
        const createdAt = new Date("2024-05-01T10:20:30.000Z")
        yield* sql`INSERT INTO people ${sql.insert([
          { id: 1, name: "Ada", created_at: createdAt, active: true },
          { id: 2, name: "Grace", created_at: createdAt, active: false },
          { id: 3, name: "Linus", created_at: createdAt, active: true }
        ])}`

        const rows = yield* sql`SELECT id, name FROM people WHERE id IN ${sql.in([1, 3])} ORDER BY id`
        assert.deepStrictEqual(rows, [
          { id: 1, name: "Ada" },
          { id: 3, name: "Linus" }
        ])
        assert.strictEqual(Object.getPrototypeOf(rows[0]), Object.prototype)

        const findActive = SqlSchema.findAll({
          Request: Schema.Number,
          Result: Schema.Struct({
            id: Schema.Number,
            name: Schema.String,
            created_at: Schema.DateFromString,
            active: Schema.BooleanFromBit
          }),
          execute: (minId) => sql`SELECT * FROM people WHERE id >= ${minId} AND active = ${true} ORDER BY id`
        })
        const people = yield* findActive(2)
        assert.deepStrictEqual(people, [{ id: 3, name: "Linus", created_at: createdAt, active: true }])
      })
    )
  )

  it.effect("binds Date as ISO text, undefined as NULL, booleans as 1/0, objects as JSON", () =>
    withSql((sql) =>
      Effect.gen(function* () {
        yield* sql`CREATE TABLE t (d, u, yes, no, j)`
        const date = new Date("2025-01-02T03:04:05.678Z")
        yield* sql`INSERT INTO t ${sql.insert({ d: date, u: undefined, yes: true, no: false, j: { a: [1, 2] } })}`
        const rows = yield* sql`SELECT d, u, yes, no, j, typeof(d) AS td, typeof(u) AS tu FROM t`
        assert.deepStrictEqual(rows, [
          { d: date.toISOString(), u: null, yes: 1, no: 0, j: '{"a":[1,2]}', td: "text", tu: "null" }
        ])
        // A plain object first parameter must not be taken for named parameters.
        const [row] = yield* sql`SELECT ${{ x: 1 }} AS v, ${undefined} AS n`
        assert.deepStrictEqual(row, { v: '{"x":1}', n: null })
      })
    )
  )

  it.effect("classifies a duplicate key as UniqueViolation and other constraints as ConstraintError", () =>
    withSql((sql) =>
      Effect.gen(function* () {
        yield* sql`CREATE TABLE users (id INTEGER PRIMARY KEY, email TEXT NOT NULL UNIQUE)`
        yield* sql`CREATE TABLE posts (id INTEGER PRIMARY KEY, user_id INTEGER NOT NULL REFERENCES users(id))`
        yield* sql`INSERT INTO users ${sql.insert({ id: 1, email: "a@example.com" })}`

        const duplicate = yield* Effect.flip(sql`INSERT INTO users ${sql.insert({ id: 2, email: "a@example.com" })}`)
        assert.isTrue(SqlError.isSqlError(duplicate))
        assert.strictEqual(reasonTag(duplicate), "UniqueViolation")
        assert.isTrue(duplicate.reason instanceof SqlError.UniqueViolation)
        if (duplicate.reason._tag === "UniqueViolation") {
          assert.strictEqual(duplicate.reason.constraint, "users.email")
        }
        assert.include(duplicate.message, "UNIQUE constraint failed")

        // A PRIMARY KEY clash (SQLITE_CONSTRAINT_PRIMARYKEY) is a unique violation too, as on Postgres.
        const duplicatePk = yield* Effect.flip(sql`INSERT INTO users ${sql.insert({ id: 1, email: "b@example.com" })}`)
        assert.strictEqual(reasonTag(duplicatePk), "UniqueViolation")
        if (duplicatePk.reason._tag === "UniqueViolation") {
          assert.strictEqual(duplicatePk.reason.constraint, "users.id")
        }
        yield* sql`CREATE TABLE slugs (slug TEXT PRIMARY KEY)`
        yield* sql`INSERT INTO slugs (slug) VALUES (${"a"})`
        const duplicateText = yield* Effect.flip(sql`INSERT INTO slugs (slug) VALUES (${"a"})`)
        assert.strictEqual(reasonTag(duplicateText), "UniqueViolation")

        // foreign_keys = ON is in effect.
        const orphan = yield* Effect.flip(sql`INSERT INTO posts ${sql.insert({ id: 1, user_id: 42 })}`)
        assert.strictEqual(reasonTag(orphan), "ConstraintError")

        const notNull = yield* Effect.flip(sql`INSERT INTO users ${sql.insert({ id: 3, email: null })}`)
        assert.strictEqual(reasonTag(notNull), "ConstraintError")
      })
    )
  )

  it.effect("INSERT … ON CONFLICT DO NOTHING RETURNING returns [] on conflict", () =>
    withSql((sql) =>
      Effect.gen(function* () {
        yield* sql`CREATE TABLE tags (name TEXT PRIMARY KEY, n INTEGER NOT NULL)`
        const first = yield* sql`INSERT INTO tags ${sql.insert({ name: "x", n: 1 })} ON CONFLICT DO NOTHING RETURNING *`
        assert.deepStrictEqual(first, [{ name: "x", n: 1 }])
        const second =
          yield* sql`INSERT INTO tags ${sql.insert({ name: "x", n: 2 })} ON CONFLICT DO NOTHING RETURNING *`
        assert.deepStrictEqual(second, [])
        const [row] = yield* sql`SELECT n FROM tags WHERE name = ${"x"}`
        assert.deepStrictEqual(row, { n: 1 })
      })
    )
  )

  it.effect("rolls back a transaction that fails", () =>
    withSql((sql) =>
      Effect.gen(function* () {
        yield* sql`CREATE TABLE t (id INTEGER PRIMARY KEY)`
        const exit = yield* sql
          .withTransaction(
            Effect.gen(function* () {
              yield* sql`INSERT INTO t (id) VALUES (1)`
              return yield* Effect.fail("boom" as const)
            })
          )
          .pipe(Effect.exit)
        assert.deepStrictEqual(exit, Exit.fail("boom" as const))
        assert.deepStrictEqual(yield* sql`SELECT count(*) AS n FROM t`, [{ n: 0 }])

        // A unique violation inside a transaction also rolls everything back.
        yield* sql`INSERT INTO t (id) VALUES (1)`
        const error = yield* sql
          .withTransaction(Effect.andThen(sql`INSERT INTO t (id) VALUES (2)`, sql`INSERT INTO t (id) VALUES (1)`))
          .pipe(Effect.flip)
        assert.strictEqual(reasonTag(error as SqlError.SqlError), "UniqueViolation")
        assert.deepStrictEqual(yield* sql`SELECT id FROM t`, [{ id: 1 }])
      })
    )
  )

  it.effect("rolls back a nested transaction to its savepoint only", () =>
    withSql((sql) =>
      Effect.gen(function* () {
        yield* sql`CREATE TABLE t (id INTEGER PRIMARY KEY)`
        yield* sql.withTransaction(
          Effect.gen(function* () {
            yield* sql`INSERT INTO t (id) VALUES (1)`
            const inner = yield* sql
              .withTransaction(Effect.andThen(sql`INSERT INTO t (id) VALUES (2)`, Effect.fail("inner" as const)))
              .pipe(Effect.flip)
            assert.strictEqual(inner, "inner")
            // A second savepoint at the same depth, committed.
            yield* sql.withTransaction(sql`INSERT INTO t (id) VALUES (3)`)
            yield* sql`INSERT INTO t (id) VALUES (4)`
          })
        )
        assert.deepStrictEqual(yield* sql`SELECT id FROM t ORDER BY id`, [{ id: 1 }, { id: 3 }, { id: 4 }])
      })
    )
  )

  it.effect("50 concurrent read-then-write transactions never interleave", () =>
    withSql((sql) =>
      Effect.gen(function* () {
        yield* sql`CREATE TABLE counter (id INTEGER PRIMARY KEY, value INTEGER NOT NULL)`
        yield* sql`INSERT INTO counter (id, value) VALUES (1, 0)`
        const increment = sql.withTransaction(
          Effect.gen(function* () {
            const [row] = yield* sql<{ value: number }>`SELECT value FROM counter WHERE id = 1`
            yield* Effect.yieldNow
            yield* sql`UPDATE counter SET value = ${row!.value + 1} WHERE id = 1`
          })
        )
        // Plain statements from other fibers run alongside and must wait for the lock too.
        const reads = sql`SELECT value FROM counter`.pipe(Effect.repeat({ times: 20 }))
        yield* Effect.all([...Array.from({ length: 50 }, () => increment), reads], { concurrency: "unbounded" })
        assert.deepStrictEqual(yield* sql`SELECT value FROM counter WHERE id = 1`, [{ value: 50 }])
      })
    )
  )

  it.effect("reads integers above 2^53 as bigint when SafeIntegers is set", () =>
    withSql((sql) =>
      Effect.gen(function* () {
        const big = 9007199254740993n
        yield* sql`CREATE TABLE t (v INTEGER NOT NULL)`
        yield* sql`INSERT INTO t (v) VALUES (${big})`
        const select = sql<{ v: bigint }>`SELECT v FROM t`
        const rows = yield* select.pipe(Effect.provideService(SqlClient.SafeIntegers, true))
        assert.deepStrictEqual(rows, [{ v: big }])
        // Without it, SQLite refuses to lose precision rather than rounding.
        const error = yield* Effect.flip(select)
        assert.isTrue(SqlError.isSqlError(error))

        // The cached statement's flag is reset on every use.
        const small = sql`SELECT 1 AS v`
        assert.deepStrictEqual(yield* small.pipe(Effect.provideService(SqlClient.SafeIntegers, true)), [{ v: 1n }])
        assert.deepStrictEqual(yield* small, [{ v: 1 }])
        assert.deepStrictEqual(yield* small.values.pipe(Effect.provideService(SqlClient.SafeIntegers, true)), [[1n]])
        assert.deepStrictEqual(yield* small, [{ v: 1 }])
      })
    )
  )

  it.effect("supports raw, values, unprepared, stream and many distinct statements", () =>
    withSql((sql) =>
      Effect.gen(function* () {
        yield* sql`CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT)`
        const raw = yield* sql`INSERT INTO t (name) VALUES (${"a"}), (${"b"})`.raw
        assert.deepStrictEqual(raw, { changes: 2, lastInsertRowid: 2 })
        assert.deepStrictEqual(yield* sql`SELECT id, name FROM t ORDER BY id`.raw, [
          { id: 1, name: "a" },
          { id: 2, name: "b" }
        ])
        assert.deepStrictEqual(yield* sql`SELECT id, name FROM t ORDER BY id`.values, [
          [1, "a"],
          [2, "b"]
        ])
        assert.deepStrictEqual(yield* sql`SELECT id, name FROM t ORDER BY id`, [
          { id: 1, name: "a" },
          { id: 2, name: "b" }
        ])
        assert.deepStrictEqual(yield* sql`SELECT name FROM t WHERE id = ${2}`.unprepared, [{ name: "b" }])
        assert.deepStrictEqual(yield* sql`SELECT id FROM t ORDER BY id`.valuesUnprepared, [[1], [2]])

        yield* sql`INSERT INTO t (name) SELECT 'n' || value FROM generate_series(1, 500)`.pipe(
          Effect.catch(() =>
            // generate_series is not compiled into every SQLite build.
            Effect.forEach(
              Array.from({ length: 500 }, (_, i) => i + 1),
              (i) => sql`INSERT INTO t (name) VALUES (${"n" + i})`,
              {
                discard: true
              }
            )
          )
        )
        const streamed = yield* Stream.runCollect(sql`SELECT id FROM t ORDER BY id`.stream)
        assert.strictEqual(streamed.length, 502)
        assert.deepStrictEqual(streamed[501], { id: 502 })
        const firstThree = yield* Stream.runCollect(Stream.take(sql`SELECT id FROM t ORDER BY id`.stream, 3))
        assert.deepStrictEqual(firstThree, [{ id: 1 }, { id: 2 }, { id: 3 }])

        // More distinct statements than the cache holds, then the first again.
        for (let i = 0; i < 250; i++) {
          yield* sql.unsafe(`SELECT ${i} AS v`)
        }
        assert.deepStrictEqual(yield* sql.unsafe("SELECT 0 AS v"), [{ v: 0 }])

        const syntax = yield* Effect.flip(sql`SELEC 1`)
        assert.isTrue(SqlError.isSqlError(syntax))
      })
    )
  )

  it.effect("applies query and result name transforms", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      yield* sql`CREATE TABLE ${sql("userAccounts")} (${sql("userId")} INTEGER, ${sql("displayName")} TEXT)`
      yield* sql`INSERT INTO ${sql("userAccounts")} ${sql.insert({ userId: 1, displayName: "Ada" })}`
      assert.deepStrictEqual(yield* sql`SELECT * FROM user_accounts`, [{ userId: 1, displayName: "Ada" }])
      assert.deepStrictEqual(yield* sql`SELECT * FROM user_accounts`.withoutTransform, [
        { user_id: 1, display_name: "Ada" }
      ])
    }).pipe(
      Effect.provide(
        NodeSqliteClient.layer({
          filename: ":memory:",
          transformQueryNames: (s) => s.replace(/[A-Z]/g, (c) => "_" + c.toLowerCase()),
          transformResultNames: (s) => s.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase())
        })
      )
    )
  )

  it.effect("uses WAL only for file databases, creates the parent directory, sets busy timeout and foreign keys", () =>
    Effect.gen(function* () {
      const dir = yield* makeTempDir
      const filename = join(dir, "data", "nested", "marketplace.sqlite")
      const config: NodeSqliteClient.NodeSqliteClientConfig = { filename }

      yield* Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        assert.isTrue(existsSync(join(dir, "data", "nested")))
        assert.deepStrictEqual(yield* sql`PRAGMA journal_mode`, [{ journal_mode: "wal" }])
        assert.deepStrictEqual(yield* sql`PRAGMA busy_timeout`, [{ timeout: 5000 }])
        assert.deepStrictEqual(yield* sql`PRAGMA foreign_keys`, [{ foreign_keys: 1 }])
        yield* sql`CREATE TABLE t (id INTEGER PRIMARY KEY)`
        yield* sql`INSERT INTO t (id) VALUES (7)`
      }).pipe(Effect.provide(NodeSqliteClient.layer(config)))

      // Reopened read-only: the data persisted and the busy timeout is configurable.
      yield* Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        assert.deepStrictEqual(yield* sql`SELECT id FROM t`, [{ id: 7 }])
        assert.deepStrictEqual(yield* sql`PRAGMA busy_timeout`, [{ timeout: 250 }])
        const error = yield* Effect.flip(sql`INSERT INTO t (id) VALUES (8)`)
        assert.isTrue(SqlError.isSqlError(error))
      }).pipe(Effect.provide(NodeSqliteClient.layer({ filename, readonly: true, busyTimeoutMs: 250 })))

      const journal = yield* withSql((sql) => sql`PRAGMA journal_mode`)
      assert.deepStrictEqual(journal, [{ journal_mode: "memory" }])
    }).pipe(Effect.scoped)
  )

  it.effect("fails with a ConnectionError when the database cannot be opened", () =>
    Effect.gen(function* () {
      const dir = yield* makeTempDir
      const error = yield* Layer.build(
        NodeSqliteClient.layer({ filename: join(dir, "missing", "x.db"), readonly: true })
      ).pipe(Effect.flip)
      assert.strictEqual(reasonTag(error), "ConnectionError")
    }).pipe(Effect.scoped)
  )

  it.effect("closes the connection when the scope closes", () =>
    Effect.gen(function* () {
      const [sql, driver] = yield* Effect.scoped(
        Effect.gen(function* () {
          const context = yield* Layer.build(NodeSqliteClient.layer({ filename: ":memory:" }))
          const driver = Context.get(context, NodeSqliteClient.NodeSqliteClient)
          assert.isTrue(yield* driver.isOpen)
          assert.deepStrictEqual(yield* driver.sql`SELECT 1 AS one`, [{ one: 1 }])
          return [Context.get(context, SqlClient.SqlClient), driver] as const
        })
      )
      assert.isFalse(yield* driver.isOpen)
      const error = yield* Effect.flip(sql`SELECT 1 AS one`)
      assert.strictEqual(reasonTag(error), "ConnectionError")

      // The same through `make`.
      const made = yield* Effect.scoped(NodeSqliteClient.make({ filename: ":memory:" })).pipe(
        Effect.provide(Reactivity.layer)
      )
      assert.strictEqual(reasonTag(yield* Effect.flip(made`SELECT 1`)), "ConnectionError")
    })
  )

  it.effect(
    "commit marks: the same while nothing is committed; moved by every commit, this connection's, another's or another process's",
    () =>
      Effect.gen(function* () {
        const dir = yield* makeTempDir
        const filename = join(dir, "marks.sqlite")
        const context = yield* Layer.build(NodeSqliteClient.layer({ filename }))
        const driver = Context.get(context, NodeSqliteClient.NodeSqliteClient)
        const sql = driver.sql
        yield* sql`CREATE TABLE t (id INTEGER PRIMARY KEY, n INTEGER NOT NULL)`
        yield* sql`INSERT INTO t (id, n) VALUES (1, 0)`

        const first = driver.commitMark()
        assert.isNumber(first)
        // Reads, and a write that changes nothing, commit nothing.
        yield* sql`SELECT * FROM t`
        yield* sql`UPDATE t SET n = 5 WHERE id = 99`
        assert.strictEqual(driver.commitMark(), first)

        // A commit of this connection, then one of a transaction.
        yield* sql`UPDATE t SET n = n + 1 WHERE id = 1`
        const afterOwn = driver.commitMark()
        assert.notStrictEqual(afterOwn, first)
        yield* sql.withTransaction(sql`UPDATE t SET n = n + 1 WHERE id = 1`)
        const afterTransaction = driver.commitMark()
        assert.notStrictEqual(afterTransaction, afterOwn)
        // A transaction rolled back commits nothing.
        yield* sql
          .withTransaction(Effect.andThen(sql`UPDATE t SET n = 100 WHERE id = 1`, Effect.fail("undo")))
          .pipe(Effect.ignore)
        assert.strictEqual(driver.commitMark(), afterTransaction)

        // Another connection of this process.
        const other = new DatabaseSync(filename)
        other.exec("UPDATE t SET n = n + 1 WHERE id = 1")
        other.close()
        const afterOther = driver.commitMark()
        assert.notStrictEqual(afterOther, afterTransaction)
        assert.strictEqual(driver.commitMark(), afterOther)

        // Another process, through SQLite's own locking: no message between the processes.
        execFileSync(process.execPath, [
          "-e",
          `const { DatabaseSync } = require("node:sqlite"); new DatabaseSync(${JSON.stringify(filename)}).exec("UPDATE t SET n = n + 1 WHERE id = 1")`
        ])
        const afterProcess = driver.commitMark()
        assert.notStrictEqual(afterProcess, afterOther)
        assert.deepStrictEqual(yield* sql`SELECT n FROM t`, [{ n: 4 }])
        // A checkpoint (the WAL copied into the database, as SQLite does by itself) is not a commit.
        yield* sql`PRAGMA wal_checkpoint(PASSIVE)`
        assert.strictEqual(driver.commitMark(), afterProcess)
        // One that starts the WAL over may move it: a needless read for whoever relies on it, never
        // a stale one.
        yield* sql`PRAGMA wal_checkpoint(TRUNCATE)`
        const afterTruncate = driver.commitMark()
        // Nor is anything done on another database: marks are per file.
        const elsewhere = new DatabaseSync(join(dir, "elsewhere.sqlite"))
        elsewhere.exec("PRAGMA journal_mode = WAL; CREATE TABLE u (id INTEGER)")
        elsewhere.close()
        assert.strictEqual(driver.commitMark(), afterTruncate)
        // A commit into the WAL started over moves it.
        yield* sql`UPDATE t SET n = n + 1 WHERE id = 1`
        assert.notStrictEqual(driver.commitMark(), afterTruncate)
      }).pipe(Effect.scoped)
  )

  it.effect("commit marks: none for a database in memory, opened read-only, or closed", () =>
    Effect.gen(function* () {
      const inMemory = Context.get(yield* Layer.build(memory), NodeSqliteClient.NodeSqliteClient)
      yield* inMemory.sql`CREATE TABLE t (id INTEGER)`
      assert.isUndefined(inMemory.commitMark())

      const dir = yield* makeTempDir
      const filename = join(dir, "marks.sqlite")
      const driver = yield* Effect.scoped(
        Effect.gen(function* () {
          const driver = Context.get(
            yield* Layer.build(NodeSqliteClient.layer({ filename })),
            NodeSqliteClient.NodeSqliteClient
          )
          yield* driver.sql`CREATE TABLE t (id INTEGER)`
          assert.isNumber(driver.commitMark())
          const readOnly = Context.get(
            yield* Layer.build(NodeSqliteClient.layer({ filename, readonly: true })),
            NodeSqliteClient.NodeSqliteClient
          )
          assert.isUndefined(readOnly.commitMark())
          return driver
        })
      )
      assert.isUndefined(driver.commitMark())
    }).pipe(Effect.scoped)
  )
})
