// The staged-files limit across two real server processes on one database (audit issue 33,
// finding 5): forty uploads at once, half through each process, against ARTIFACT_MAX_FILES=10
// leave exactly ten files staged and refuse the other thirty with 422 artifact_invalid. Runs in both
// vitest projects (SQLite: one WAL file; Postgres: one database).
import { randomUUID } from "node:crypto"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { TaskDraft } from "../../src/domain/task_draft/schema.ts"
import { asPayload, typedCall } from "../support/api_client.ts"
import { freshDatabase, type TestDatabase } from "../support/database.ts"
import { linkAccount, startIssuer, type TestIssuer, testAudience } from "../support/issuer.ts"
import { call, type ServiceProcess, spawnService } from "../support/process.ts"
import { awaitTask, digitalDraft } from "../support/server.ts"

const png = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
  "base64"
)

let database: TestDatabase
let issuer: TestIssuer
let directory: string
let one: ServiceProcess
let two: ServiceProcess

beforeAll(async () => {
  database = await freshDatabase()
  issuer = await startIssuer()
  directory = mkdtempSync(join(tmpdir(), "tm-artifact-races-"))
  const env = {
    OAUTH_ISSUER: issuer.url,
    OAUTH_AUDIENCE: testAudience,
    ARTIFACT_STORE: `file:${directory}`,
    ARTIFACT_MAX_FILES: "10"
  }
  one = await spawnService({ databaseUrl: database.url, env })
  two = await spawnService({ databaseUrl: database.url, env })
})
afterAll(async () => {
  await Promise.all([one?.stop("SIGKILL"), two?.stop("SIGKILL")])
  await database?.drop()
  await issuer?.close()
  if (directory !== undefined) rmSync(directory, { recursive: true, force: true })
})

describe("the staged-files limit across processes", () => {
  it("40 uploads at once through two processes against a limit of 10 leave exactly 10 staged", async () => {
    const slug = "kwame-asante"
    const subject = `user-${slug}-${randomUUID().slice(0, 8)}`
    await linkAccount(database, subject, slug)
    const token = await issuer.token({ sub: subject })
    const authorization = `Bearer ${token}`
    const created = await typedCall(one, (c) =>
      c.createTask({
        payload: asPayload(TaskDraft, digitalDraft({ participant_slug: slug })),
        headers: { "idempotency-key": randomUUID() }
      })
    )
    expect(created.status).toBe(201)
    const reference: string = created.body.reference
    await awaitTask(one.api(`/tasks/${reference}`), (task) => task.state === "awaiting_participant", {
      timeoutMs: 10_000
    })
    for (const move of ["accept", "start"] as const) {
      const moved = await typedCall(
        one,
        (c) => (move === "accept" ? c.acceptTask({ params: { reference } }) : c.startTask({ params: { reference } })),
        { token }
      )
      expect(moved.status, move).toBe(200)
    }

    // Raw: uploads, whose bytes and headers are the subject.
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        call((i % 2 === 0 ? one : two).api(`/tasks/${reference}/artifacts?name=race-${i}.png`), {
          method: "POST",
          headers: { authorization, "content-type": "application/octet-stream" },
          body: new Uint8Array(png)
        })
      )
    )
    const statuses = answers.map((answer) => answer.status)
    expect(statuses.filter((status) => status === 201)).toHaveLength(10)
    expect(statuses.filter((status) => status === 422)).toHaveLength(30)
    for (const answer of answers.filter((a) => a.status === 422))
      expect(answer.body.error.code).toBe("artifact_invalid")
    expect(await database.count("artifacts")).toBe(10)
  })
})
