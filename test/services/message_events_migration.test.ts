/**
 * Migration 23 (task.message events) on a database that already holds webhook events, on both
 * backends: `webhook_events` is rebuilt with each event's place in its task's order (`position`)
 * and its `type`; existing events keep everything they had, their place being their history index,
 * and stay in order; a task's places are unique, and a message's event has no history index.
 */
import { Effect } from "effect"
import { Reactivity } from "effect/reactivity"
import { Migrator, SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { loader, migrationsTable } from "../../src/sql/migrations.ts"
import * as NodeSqliteClient from "../../src/sql/NodeSqliteClient.ts"
import { freshDatabase, onPostgres, type TestDatabase } from "../support/database.ts"

let database: TestDatabase

/** Runs `f` with a client on the test's database. */
const withClient = <A>(f: (sql: SqlClient.SqlClient) => Effect.Effect<A, unknown>): Promise<A> => {
  const config = database.config
  if (config._tag === "Postgres") return onPostgres(database.url, f)
  return Effect.runPromise(
    Effect.flatMap(Effect.service(SqlClient.SqlClient), f).pipe(
      Effect.provide(NodeSqliteClient.layer({ filename: config.filename })),
      Effect.provide(Reactivity.layer)
    ) as Effect.Effect<A, unknown, never>
  )
}

const migrateUpTo = (last: number) =>
  withClient((sql) =>
    Migrator.make({})({
      loader: Effect.map(loader, (all) => all.filter(([id]) => id <= last)),
      table: migrationsTable
    }).pipe(Effect.provideService(SqlClient.SqlClient, sql))
  )

beforeAll(async () => {
  database = await freshDatabase()
}, 60_000)
afterAll(async () => {
  await database?.drop()
})

const oldEvent = (id: string, reference: string, index: number, state: string) =>
  `('${id}', '${reference}', ${index}, 'https://agent.example/hooks', '{"type":"task.updated"}', '2026-01-0${index + 1}T00:00:00.000Z', '${state}', NULL, NULL, '[]')`

describe("migration 23: task.message events", () => {
  it("keeps every existing event, in order, with its place and type; places are unique per task", async () => {
    await migrateUpTo(22)
    await database.write(`
      INSERT INTO webhook_events (id, reference, history_index, url, body, created_at, state, next_attempt_at, claim, attempts)
      VALUES ${[
        oldEvent("msg_a0", "tsk_a", 0, "delivered"),
        oldEvent("msg_a1", "tsk_a", 1, "pending"),
        oldEvent("msg_b0", "tsk_b", 0, "failed")
      ].join(", ")}
    `)
    await migrateUpTo(23)
    const rows = await database.rows(
      "SELECT id, reference, position, type, history_index, message_id, state, body FROM webhook_events ORDER BY reference, position"
    )
    expect(
      rows.map((row) => [
        row.id,
        row.reference,
        Number(row.position),
        row.type,
        Number(row.history_index),
        row.message_id,
        row.state
      ])
    ).toEqual([
      ["msg_a0", "tsk_a", 0, "task.updated", 0, null, "delivered"],
      ["msg_a1", "tsk_a", 1, "task.updated", 1, null, "pending"],
      ["msg_b0", "tsk_b", 0, "task.updated", 0, null, "failed"]
    ])
    expect(rows[0]!.body).toBe('{"type":"task.updated"}')

    // A message's event takes the next place and has no history index; a place is taken once.
    await database.write(`
      INSERT INTO webhook_events (id, reference, position, type, history_index, message_id, url, body, created_at, state, next_attempt_at, claim, attempts)
      VALUES ('msg_a2', 'tsk_a', 2, 'task.message', NULL, 'msg_m1', 'https://agent.example/hooks', '{}', '2026-01-04T00:00:00.000Z', 'pending', NULL, NULL, '[]')
    `)
    await expect(
      database.write(`
        INSERT INTO webhook_events (id, reference, position, type, history_index, message_id, url, body, created_at, state, next_attempt_at, claim, attempts)
        VALUES ('msg_a3', 'tsk_a', 2, 'task.message', NULL, 'msg_m2', 'https://agent.example/hooks', '{}', '2026-01-04T00:00:00.000Z', 'pending', NULL, NULL, '[]')
      `)
    ).rejects.toThrow()
    expect(await database.count("webhook_events")).toBe(4)
  })
})
