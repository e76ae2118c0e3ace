// Group commit (src/services/storage.ts), on the active backend: concurrent writes on SQLite share
// one transaction, yet no caller resumes before its write is committed (another connection sees it);
// a failing write fails alone; a defect strands no caller and stops no later write. On Postgres
// every write runs as it comes.
import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { Effect, Exit, Layer, type Scope } from "effect"
import { SqlClient } from "effect/sql"
import { groupCommit } from "../../src/services/storage.ts"
import { DatabaseLayer } from "../../src/sql/database.ts"
import { backend, freshDatabase, type TestDatabase } from "../support/database.ts"
import { testConfig } from "../support/settings.ts"

let database: TestDatabase
beforeAll(async () => {
  database = await freshDatabase()
})
afterAll(() => database.drop())

/** Runs `f` with a `SqlClient` on the test database and a probe table of its own. */
const withSql = <A, E>(table: string, f: (sql: SqlClient.SqlClient) => Effect.Effect<A, E, Scope.Scope>) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* sql.unsafe(`CREATE TABLE ${table} (id TEXT PRIMARY KEY)`)
    return yield* f(sql)
  }).pipe(Effect.scoped, Effect.provide(DatabaseLayer.pipe(Layer.provide(testConfig({ database: database.config })))))

/** Whether the calling fiber runs inside a transaction of `sql`. */
const inTransaction = (sql: SqlClient.SqlClient) =>
  Effect.map(Effect.serviceOption(sql.transactionService), (option) => option._tag === "Some")

const insertInto = (sql: SqlClient.SqlClient, table: string) => (id: string) =>
  Effect.andThen(sql.unsafe(`INSERT INTO ${table} (id) VALUES ('${id}')`), inTransaction(sql))

const ids = (n: number, prefix: string) => Array.from({ length: n }, (_, i) => `${prefix}-${i}`)

describe("groupCommit", () => {
  it.live("50 concurrent writes: each caller resumes only once another connection sees its row", () =>
    withSql("gc_visible", (sql) =>
      Effect.gen(function* () {
        const write = yield* groupCommit(sql, insertInto(sql, "gc_visible"))
        const unseen: Array<string> = []
        const shared = yield* Effect.forEach(
          ids(50, "w"),
          (id) =>
            Effect.gen(function* () {
              const batched = yield* write(id)
              const seen = yield* Effect.promise(() => database.rows(`SELECT id FROM gc_visible WHERE id = '${id}'`))
              if (seen.length !== 1) unseen.push(id)
              return batched
            }),
          { concurrency: "unbounded" }
        )
        assert.deepStrictEqual(unseen, [])
        assert.strictEqual(Number((yield* sql`SELECT COUNT(*) AS n FROM gc_visible`)[0]?.n), 50)
        // SQLite: they shared transactions (a write that ran alone has none of its own); Postgres: none did.
        assert.strictEqual(
          shared.some((batched) => batched),
          backend === "sqlite"
        )
      })
    )
  )

  it.live("a write that fails, fails alone: the others of its batch are committed", () =>
    withSql("gc_isolated", (sql) =>
      Effect.gen(function* () {
        yield* sql`INSERT INTO gc_isolated (id) VALUES ('taken')`
        const write = yield* groupCommit(sql, insertInto(sql, "gc_isolated"))
        const batch = [...ids(10, "a"), "taken", ...ids(10, "b")]
        const exits = yield* Effect.forEach(batch, (id) => Effect.exit(write(id)), { concurrency: "unbounded" })
        assert.deepStrictEqual(
          exits.map(Exit.isSuccess),
          batch.map((id) => id !== "taken")
        )
        assert.strictEqual(Number((yield* sql`SELECT COUNT(*) AS n FROM gc_isolated`)[0]?.n), 21)
      })
    )
  )

  it.live("a defect in a write reaches its callers, and later writes still go through", () =>
    withSql("gc_defect", (sql) =>
      Effect.gen(function* () {
        const write = yield* groupCommit(sql, (id: string) =>
          id === "boom" ? Effect.die(new Error("boom")) : insertInto(sql, "gc_defect")(id)
        )
        const exits = yield* Effect.forEach(["x", "boom", "y"], (id) => Effect.exit(write(id)), {
          concurrency: "unbounded"
        })
        assert.deepStrictEqual(exits.map(Exit.isSuccess), [true, false, true])
        assert.isTrue(Exit.hasDies(exits[1]!))
        yield* write("after")
        const rows = yield* sql<{ id: string }>`SELECT id FROM gc_defect ORDER BY id`
        assert.deepStrictEqual(
          rows.map((row) => row.id),
          ["after", "x", "y"]
        )
      })
    )
  )
})
