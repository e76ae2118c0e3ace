import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { TaskStore } from "../../src/services/task_store.ts"
import { exchange } from "../support/api_client.ts"
import { startServer, type TestServer } from "../support/server.ts"
import { serverServicesWith } from "../support/services.ts"

let server: TestServer
beforeAll(async () => {
  server = await startServer()
})
afterAll(() => server.close())

describe("smoke", () => {
  it("serves the index", async () => {
    const response = await exchange(server, (c) => c.index())
    expect(response.status).toBe(200)
    expect((await response.json()).version).toBe("v1")
  })

  it("builds the services once: the Node server's layer and the routes share them", async () => {
    // serveOn gives the services to two layers (src/app.ts); a second build would be a second
    // database connection, a second dispatcher, a second group-commit writer.
    let builds = 0
    const countedStore = Layer.effectContext(
      Effect.flatMap(Layer.build(TaskStore.layer), (context) =>
        Effect.as(
          Effect.sync(() => builds++),
          context
        )
      )
    )
    const another = await startServer({ services: serverServicesWith(countedStore) })
    try {
      const response = await exchange(another, (c) => c.listParticipants({ query: { limit: 1 } }))
      expect(response.status).toBe(200)
      expect(builds).toBe(1)
    } finally {
      await another.close()
    }
  })
})
