// McpSessionStore over the active test backend: a session is found from any process until it is
// ended or too old. On SQLite a repeated find reads nothing while nothing was committed (its
// commit marks), and still refuses a session that another connection ended or that grew too old.
import { assert, describe, it } from "@effect/vitest"
import { Context, Effect, Layer } from "effect"
import { TestClock } from "effect/testing"
import { McpSessionStore } from "../../src/services/mcp_session_store.ts"
import { DatabaseLayer } from "../../src/sql/database.ts"
import { backend, freshDatabase, statementsOf } from "../support/database.ts"
import { testConfig } from "../support/settings.ts"

describe("McpSessionStore", () => {
  it.effect(
    "finds a session until it is ended, by this process or another, or is a week old; a repeated find on SQLite reads nothing",
    () =>
      Effect.gen(function* () {
        const database = yield* Effect.acquireRelease(Effect.promise(freshDatabase), (db) => Effect.promise(db.drop))
        const context = yield* Layer.build(
          McpSessionStore.layer.pipe(
            Layer.provide(DatabaseLayer),
            Layer.provide(testConfig({ database: database.config }))
          )
        )
        const store = Context.get(context, McpSessionStore)
        /** A statement run by another connection (another process, as far as the store can tell). */
        const elsewhere = (statement: string) => Effect.promise(() => database.write(statement))
        const find = (id: string) =>
          Effect.map(statementsOf(store.find(id)), ({ result, statements }) => ({
            found: result,
            read: statements.length
          }))
        const initialize = '{"jsonrpc":"2.0","id":0,"method":"initialize"}'
        const session = { initialize, subject: "akiko" }
        const again = backend === "sqlite" ? 0 : 1

        yield* store.record("s-1", initialize, "akiko")
        assert.deepStrictEqual(yield* find("s-1"), { found: session, read: 1 })
        assert.deepStrictEqual(yield* find("s-1"), { found: session, read: again })
        assert.deepStrictEqual(yield* find("s-none"), { found: undefined, read: 1 })
        assert.deepStrictEqual(yield* find("s-none"), { found: undefined, read: again })

        // Ended by another process: refused at once here.
        yield* elsewhere("DELETE FROM mcp_sessions WHERE id = 's-1'")
        assert.deepStrictEqual(yield* find("s-1"), { found: undefined, read: 1 })

        // Ended here.
        yield* store.record("s-2", initialize, undefined)
        assert.deepStrictEqual(yield* find("s-2"), { found: { initialize, subject: undefined }, read: 1 })
        yield* store.remove("s-2")
        assert.deepStrictEqual(yield* find("s-2"), { found: undefined, read: 1 })

        // Too old: refused even though nothing was committed since it was last found.
        yield* store.record("s-3", initialize, undefined)
        assert.deepStrictEqual((yield* find("s-3")).found, { initialize, subject: undefined })
        yield* TestClock.adjust("7 days")
        assert.deepStrictEqual((yield* find("s-3")).found, { initialize, subject: undefined })
        yield* TestClock.adjust("1 millis")
        assert.deepStrictEqual(yield* find("s-3"), { found: undefined, read: again })
      }).pipe(Effect.scoped),
    { timeout: 30_000 }
  )
})
