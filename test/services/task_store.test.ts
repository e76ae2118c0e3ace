// TaskStore over the active test backend (SQLite or Postgres): insertion, idempotency enforced by the database
// (DECISIONS §7), reading by reference.
import { randomUUID } from "node:crypto"
import { assert, describe, it, layer } from "@effect/vitest"
import { Context, Effect, Exit, Layer } from "effect"
import { SqlClient } from "effect/sql"
import type { StoredTask } from "../../src/domain/task_record.ts"
import { keptVersions, TaskStore } from "../../src/services/task_store.ts"
import { DatabaseLayer } from "../../src/sql/database.ts"
import { backend, freshDatabase, statementsOf, TestSqlLayer } from "../support/database.ts"
import { captureLogs } from "../support/logs.ts"
import { testConfig } from "../support/settings.ts"
import { storedTask as sharedStoredTask } from "../support/tasks.ts"

const StoreLive = TaskStore.layer.pipe(Layer.provide(TestSqlLayer))

const storedTask = (overrides: Partial<StoredTask> = {}): StoredTask =>
  sharedStoredTask({
    participantSlug: "lukas-schmidt",
    requestedParticipant: "lukas-schmidt",
    deadlineAt: "2030-12-01T17:00:00.000Z",
    nextTimerAt: "2026-11-21T10:00:00.000Z",
    brief: { ...sharedStoredTask().brief, deadline: "2030-12-01T17:00:00.000Z" },
    ...overrides
  })

describe("TaskStore", () => {
  layer(StoreLive)((it) => {
    it.effect("insert creates the task, and findByReference reads it back unchanged", () =>
      Effect.gen(function* () {
        const store = yield* TaskStore
        const task = storedTask()
        const outcome = yield* store.insert(task)
        assert.strictEqual(outcome._tag, "Created")
        assert.deepStrictEqual(outcome.task, task)
        assert.deepStrictEqual(yield* store.findByReference(task.reference), task)
      })
    )

    it.effect("round-trips a task without participant, principal or key, and with a result", () =>
      Effect.gen(function* () {
        const store = yield* TaskStore
        const task = storedTask({
          participantSlug: null,
          principal: null,
          idempotencyKey: null,
          result: { summary: "done", fields: { n: 1 }, artifacts: [], submitted_at: "2026-11-22T10:00:00.000Z" },
          outcome: {
            state: "settled",
            reason: "accepted",
            message: "The agent accepted the result.",
            decided_at: "2026-11-23T10:00:00.000Z"
          },
          version: 7
        })
        assert.strictEqual((yield* store.insert(task))._tag, "Created")
        assert.deepStrictEqual(yield* store.findByReference(task.reference), task)
      })
    )

    it.effect("the same idempotency key → KeyTaken with the first row, nothing else stored", () =>
      Effect.gen(function* () {
        const store = yield* TaskStore
        const key = `key-${randomUUID()}`
        const first = storedTask({ idempotencyKey: key })
        const second = storedTask({ idempotencyKey: key, agent: "someone-else", draftFingerprint: "other" })
        assert.strictEqual((yield* store.insert(first))._tag, "Created")
        const outcome = yield* store.insert(second)
        assert.strictEqual(outcome._tag, "KeyTaken")
        assert.deepStrictEqual(outcome.task, first)
        assert.isUndefined(yield* store.findByReference(second.reference))
        // A third attempt still answers with the first row.
        const third = yield* store.insert(storedTask({ idempotencyKey: key }))
        assert.strictEqual(third._tag, "KeyTaken")
        assert.strictEqual(third.task.reference, first.reference)
      })
    )

    it.effect("keys are compared exactly", () =>
      Effect.gen(function* () {
        const store = yield* TaskStore
        const key = `Key-${randomUUID()}`
        assert.strictEqual((yield* store.insert(storedTask({ idempotencyKey: key })))._tag, "Created")
        assert.strictEqual((yield* store.insert(storedTask({ idempotencyKey: key.toLowerCase() })))._tag, "Created")
        assert.strictEqual((yield* store.insert(storedTask({ idempotencyKey: `${key} ` })))._tag, "Created")
      })
    )

    it.effect("null keys never conflict", () =>
      Effect.gen(function* () {
        const store = yield* TaskStore
        const tasks = [1, 2, 3].map(() => storedTask({ idempotencyKey: null }))
        for (const task of tasks) {
          const outcome = yield* store.insert(task)
          assert.strictEqual(outcome._tag, "Created")
          assert.strictEqual(outcome.task.reference, task.reference)
        }
        for (const task of tasks) assert.deepStrictEqual(yield* store.findByReference(task.reference), task)
      })
    )

    it.effect("findByReference of an unknown reference → undefined", () =>
      Effect.gen(function* () {
        const store = yield* TaskStore
        assert.isUndefined(yield* store.findByReference(`tsk_${"z".repeat(26)}`))
        assert.isUndefined(yield* store.findByReference(""))
        assert.isUndefined(yield* store.findByReference("' OR '1'='1"))
      })
    )

    it.effect("a storage failure (reference taken) is StorageUnavailable, not a defect", () =>
      Effect.gen(function* () {
        const store = yield* TaskStore
        const first = storedTask()
        yield* store.insert(first)
        const error = yield* Effect.flip(store.insert(storedTask({ reference: first.reference })))
        assert.strictEqual(error._tag, "StorageUnavailable")
        assert.deepStrictEqual(yield* store.findByReference(first.reference), first)
      })
    )

    it.effect("50 concurrent inserts with one key → exactly one Created, every other the same row", () =>
      Effect.gen(function* () {
        const store = yield* TaskStore
        const key = `key-${randomUUID()}`
        const attempts = Array.from({ length: 50 }, () => storedTask({ idempotencyKey: key }))
        const outcomes = yield* Effect.forEach(attempts, (task) => store.insert(task), { concurrency: "unbounded" })
        const created = outcomes.filter((o) => o._tag === "Created")
        assert.strictEqual(created.length, 1)
        const winner = created[0]!.task
        for (const o of outcomes) assert.strictEqual(o.task.reference, winner.reference)
        assert.deepStrictEqual(yield* store.findByReference(winner.reference), winner)
        for (const task of attempts) {
          if (task.reference !== winner.reference) assert.isUndefined(yield* store.findByReference(task.reference))
        }
      })
    )

    it.effect("50 concurrent inserts with distinct keys → 50 Created", () =>
      Effect.gen(function* () {
        const store = yield* TaskStore
        const attempts = Array.from({ length: 50 }, () => storedTask())
        const outcomes = yield* Effect.forEach(attempts, (task) => store.insert(task), { concurrency: "unbounded" })
        assert.strictEqual(outcomes.filter((o) => o._tag === "Created").length, 50)
        for (const task of attempts) assert.deepStrictEqual(yield* store.findByReference(task.reference), task)
      })
    )

    it.effect("heldBy reads the tasks of some participants in some states, least recently changed first", () =>
      Effect.gen(function* () {
        const store = yield* TaskStore
        const [ada, bea] = [`ada-${randomUUID()}`, `bea-${randomUUID()}`]
        const at = (minute: number) => `2026-11-21T10:${String(minute).padStart(2, "0")}:00.000Z`
        const offered = storedTask({ participantSlug: bea, state: "awaiting_participant", updatedAt: at(3) })
        const working = storedTask({ participantSlug: ada, state: "in_flight", updatedAt: at(1) })
        const done = storedTask({ participantSlug: ada, state: "settled", updatedAt: at(0) })
        const someoneElse = storedTask({ participantSlug: `cid-${randomUUID()}`, state: "in_flight", updatedAt: at(0) })
        for (const task of [offered, working, done, someoneElse]) yield* store.insert(task)
        const states = ["awaiting_participant", "in_flight"] as const
        const references = (tasks: ReadonlyArray<StoredTask>) => tasks.map((task) => task.reference)
        assert.deepStrictEqual(references(yield* store.heldBy([ada, bea], states, 10)), [
          working.reference,
          offered.reference
        ])
        assert.deepStrictEqual(references(yield* store.heldBy([ada, bea], states, 1)), [working.reference])
        assert.deepStrictEqual(references(yield* store.heldBy([ada], ["settled"], 10)), [done.reference])
        assert.deepStrictEqual(yield* store.heldBy([], states, 10), [])
      })
    )
  })
})

describe("TaskStore.versionOf across connections", () => {
  it.effect(
    "answers a repeated read without a statement while nothing is committed (SQLite's commit marks), and reads again after any commit, another connection's included",
    () =>
      Effect.gen(function* () {
        const database = yield* Effect.acquireRelease(Effect.promise(freshDatabase), (db) => Effect.promise(db.drop))
        const context = yield* Layer.build(
          TaskStore.layer.pipe(Layer.provide(DatabaseLayer), Layer.provide(testConfig({ database: database.config })))
        )
        const store = Context.get(context, TaskStore)
        /** A statement run by another connection (another process, as far as the store can tell). */
        const elsewhere = (statement: string) => Effect.promise(() => database.write(statement))
        const versionOf = (reference: string) =>
          Effect.map(statementsOf(store.versionOf(reference)), ({ result, statements }) => ({
            version: result,
            read: statements.length
          }))
        const task = storedTask()
        const missing = storedTask().reference
        yield* store.insert(task)

        assert.deepStrictEqual(yield* versionOf(task.reference), { version: task.version, read: 1 })
        assert.deepStrictEqual(yield* versionOf(missing), { version: undefined, read: 1 })
        // Nothing committed since: SQLite answers from what it read; Postgres reads again.
        const again = backend === "sqlite" ? 0 : 1
        assert.deepStrictEqual(yield* versionOf(task.reference), { version: task.version, read: again })
        assert.deepStrictEqual(yield* versionOf(missing), { version: undefined, read: again })

        // Another connection moves the task and stores the missing one: both show at once.
        yield* elsewhere(`UPDATE tasks SET version = version + 5 WHERE reference = '${task.reference}'`)
        assert.deepStrictEqual(yield* versionOf(task.reference), { version: task.version + 5, read: 1 })
        yield* store.insert({ ...task, reference: missing, idempotencyKey: null })
        assert.deepStrictEqual(yield* versionOf(missing), { version: task.version, read: 1 })
        // A commit that touches neither (another table) still makes the next read ask the database.
        yield* elsewhere("UPDATE directory_state SET version = version + 1 WHERE id = 1")
        assert.deepStrictEqual(yield* versionOf(task.reference), { version: task.version + 5, read: 1 })
        assert.deepStrictEqual(yield* versionOf(task.reference), { version: task.version + 5, read: again })

        // Bounded: past `keptVersions` references, what was remembered is let go and read again.
        for (let i = 0; i < keptVersions; i++) yield* store.versionOf(storedTask().reference)
        assert.deepStrictEqual(yield* versionOf(task.reference), { version: task.version + 5, read: 1 })
      }).pipe(Effect.scoped),
    { timeout: 30_000 }
  )
})

describe("TaskStore rows that do not decode", () => {
  const { lines: logged, layer: capture } = captureLogs()

  layer(TaskStore.layer.pipe(Layer.provideMerge(TestSqlLayer)))((it) => {
    it.effect("a damaged row read alone is a defect, logged with its table, key and issue", () =>
      Effect.gen(function* () {
        const store = yield* TaskStore
        const sql = yield* SqlClient.SqlClient
        const task = storedTask()
        yield* store.insert(task)
        yield* sql`UPDATE tasks SET history = ${'{"not":"a list"}'} WHERE reference = ${task.reference}`
        logged.length = 0
        const exit = yield* Effect.exit(store.findByReference(task.reference).pipe(Effect.provide(capture)))
        assert.isTrue(Exit.hasDies(exit), "a defect, not a storage error nor a value")
        const [line] = logged
        assert.strictEqual(line?.message, "a stored row does not decode")
        assert.strictEqual(line?.annotations.table, "tasks")
        assert.strictEqual(line?.annotations.key, `reference ${task.reference}`)
        assert.include(String(line?.annotations.issue), "history")
      })
    )

    it.effect("a damaged row in a list is logged and left out; the others are read", () =>
      Effect.gen(function* () {
        const store = yield* TaskStore
        const sql = yield* SqlClient.SqlClient
        const due = "2001-01-01T00:00:00.000Z"
        const sound = storedTask({ nextTimerAt: due })
        const damaged = storedTask({ nextTimerAt: due })
        yield* store.insert(sound)
        yield* store.insert(damaged)
        yield* sql`UPDATE tasks SET state = 'lost' WHERE reference = ${damaged.reference}`
        logged.length = 0
        const read = yield* store.due("2001-01-01T00:00:00.000Z", 10).pipe(Effect.provide(capture))
        assert.deepStrictEqual(
          read.map((t) => t.reference),
          [sound.reference]
        )
        assert.strictEqual(logged[0]?.message, "a stored row does not decode; left out")
        assert.strictEqual(logged[0]?.annotations.key, `reference ${damaged.reference}`)
        assert.include(String(logged[0]?.annotations.issue), "state")
      })
    )
  })
})
