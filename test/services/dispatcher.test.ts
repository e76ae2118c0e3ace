// The dispatcher's own moves, seen through the store it reads (both backends): a new task is
// placed (open → matching → awaiting_participant) from one read of its row, the moves following
// each other from the row each one wrote.
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { makeServices } from "../../src/app.ts"
import { TaskStore } from "../../src/services/task_store.ts"
import { freshDatabase, type TestDatabase } from "../support/database.ts"
import { json, startServer, type TestServer, validDraft } from "../support/server.ts"

/** How many times each task was read whole from the store. */
const reads = new Map<string, number>()

const CountingStore = Layer.effect(
  TaskStore,
  Effect.gen(function* () {
    const store = yield* TaskStore
    return TaskStore.of({
      ...store,
      findByReference: (reference) =>
        Effect.andThen(
          Effect.sync(() => reads.set(reference, (reads.get(reference) ?? 0) + 1)),
          store.findByReference(reference)
        )
    })
  })
).pipe(Layer.provide(TaskStore.layer))

let database: TestDatabase
let server: TestServer
beforeAll(async () => {
  database = await freshDatabase()
  server = await startServer({ database, services: makeServices({ store: CountingStore }) })
})
afterAll(async () => {
  await server.close()
  await database.drop()
})

/** The stored state of a task, read past the service (no count). */
const storedState = async (reference: string) =>
  (await database.rows(`SELECT state FROM tasks WHERE reference = '${reference}'`))[0]?.state

describe("dispatcher", () => {
  it("places a new task with one read of its row", async () => {
    const references: Array<string> = []
    for (let i = 0; i < 5; i++) {
      const response = await fetch(server.api("/tasks"), json(validDraft()))
      expect(response.status).toBe(201)
      references.push(((await response.json()) as { reference: string }).reference)
    }
    for (const reference of references) {
      const deadline = Date.now() + 10_000
      while ((await storedState(reference)) !== "awaiting_participant") {
        if (Date.now() > deadline) throw new Error(`${reference} was not offered in time`)
        await new Promise((resolve) => setTimeout(resolve, 5))
      }
      const history = await database.rows(`SELECT history FROM tasks WHERE reference = '${reference}'`)
      const moves = JSON.parse(String(history[0]?.history)).map((entry: { to: string }) => entry.to)
      expect(moves).toEqual(["open", "matching", "awaiting_participant"])
      expect(reads.get(reference)).toBe(1)
    }
  })
})
