// Evidence files (services/artifacts.ts) on the active test backend (SQLite or Postgres), over
// both blob stores: files under a directory, and S3 (s3rver, test/support/s3.ts). An upload is
// kept whole — bytes, size and SHA-256 as sent, its type read from the bytes — or not at all: a
// refused or failed one leaves no row and no bytes. Staged files are swept after an hour (the test
// clock, moved instead of waited for); attached ones are never removed.
import { createHash, randomBytes } from "node:crypto"
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { Effect, Exit, Layer, Stream } from "effect"
import { SqlClient } from "effect/sql"
import { TestClock } from "effect/testing"
import type { ArtifactStore } from "../../src/config/settings.ts"
import { ArtifactRejected, ArtifactsUnusable, ArtifactTooLarge, TooManyStagedFiles } from "../../src/domain/errors.ts"
import type { StoredTask } from "../../src/domain/task_record.ts"
import { Artifacts, stagedLifetimeMs } from "../../src/services/artifacts.ts"
import { BlobStore } from "../../src/services/blob_store.ts"
import { Lifecycle } from "../../src/services/lifecycle.ts"
import { MailOutbox } from "../../src/services/mail_outbox.ts"
import { SandboxClock } from "../../src/services/sandbox_clock.ts"
import { TaskActions } from "../../src/services/task_actions.ts"
import { TaskEvents } from "../../src/services/task_events.ts"
import { TaskStore } from "../../src/services/task_store.ts"
import { TaskTokens } from "../../src/services/task_tokens.ts"
import { WebhookOutbox } from "../../src/services/webhook_outbox.ts"
import { TestSqlLayer } from "../support/database.ts"
import { keysOf, startS3, type TestS3 } from "../support/s3.ts"
import { testConfig } from "../support/settings.ts"
import { storedTask } from "../support/tasks.ts"

const T0 = Date.parse("2026-11-27T10:00:00.000Z")
const limits = { maxFileBytes: 256 * 1024, maxFiles: 3 }

/** A whole PNG of one pixel. */
const png = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
  "base64"
)
const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex")

/** `bytes` as a request body would arrive: in chunks. */
const chunked = (bytes: Uint8Array, size = 1000) =>
  Stream.fromIterable(
    Array.from({ length: Math.ceil(bytes.length / size) }, (_, i) => bytes.subarray(i * size, (i + 1) * size))
  )

const collect = <E>(stream: Stream.Stream<Uint8Array, E>) =>
  Effect.map(Stream.runCollect(stream), (chunks) => Buffer.concat([...chunks]))

let s3: TestS3
beforeAll(async () => {
  s3 = await startS3()
})
afterAll(async () => {
  await s3?.close()
})

interface StoreUnderTest {
  readonly name: string
  readonly make: () => Promise<ArtifactStore>
  /** Every key holding bytes, temporary space included. */
  readonly contents: (store: ArtifactStore) => Promise<ReadonlyArray<string>>
}

const listFiles = (directory: string, prefix = ""): Array<string> =>
  readdirSync(directory, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? listFiles(join(directory, entry.name), `${prefix}${entry.name}/`) : [`${prefix}${entry.name}`]
  )

const directories: Array<string> = []
afterAll(() => {
  for (const directory of directories) rmSync(directory, { recursive: true, force: true })
})

const stores: ReadonlyArray<StoreUnderTest> = [
  {
    name: "files",
    make: async () => {
      const directory = mkdtempSync(join(tmpdir(), "tm-artifacts-"))
      directories.push(directory)
      return { _tag: "Files", directory }
    },
    contents: async (store) => (store._tag === "Files" ? listFiles(store.directory) : [])
  },
  {
    name: "s3",
    make: async () => ({ _tag: "S3", bucket: await s3.bucket(), prefix: "evidence/v1", endpoint: s3.endpoint }),
    contents: async (store) => (store._tag === "S3" ? keysOf(store.endpoint!, store.bucket) : [])
  }
]

const servicesFor = (store: ArtifactStore) =>
  Artifacts.layer.pipe(
    Layer.provideMerge(BlobStore.layer),
    Layer.provideMerge(TaskStore.layer),
    Layer.provideMerge(TestSqlLayer),
    Layer.provide(testConfig({ artifacts: { store, ...limits } }))
  )

type Services = Artifacts | TaskStore | SqlClient.SqlClient

describe.each(stores)("Artifacts over the $name store", ({ make, contents }) => {
  /** Runs `body` on the test clock at T0, over a fresh database and an empty store. */
  const withArtifacts = <A, E>(body: (store: ArtifactStore) => Effect.Effect<A, E, Services>) =>
    Effect.scoped(
      Effect.gen(function* () {
        yield* TestClock.setTime(T0)
        const store = yield* Effect.promise(make)
        return yield* Effect.provide(body(store), yield* Layer.build(servicesFor(store)))
      })
    )

  /** A task held by `slug`, in `state`. */
  const heldTask = (slug = "ada-lovelace", state: StoredTask["state"] = "in_flight") =>
    Effect.gen(function* () {
      const task = storedTask({ state, participantSlug: slug, executionMode: "digital" })
      yield* (yield* TaskStore).insert(task)
      return task.reference
    })

  const rowCount = Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const [row] = yield* sql<{ n: number | bigint }>`SELECT COUNT(*) AS n FROM artifacts`
    return Number(row?.n)
  })

  const stage = (reference: string, name: string, bytes: Uint8Array, slug = "ada-lovelace") =>
    Effect.flatMap(Artifacts, (artifacts) => artifacts.stage({ reference, slug, name, body: chunked(bytes) }))

  it.effect("an upload is kept as sent: the same bytes, size and SHA-256, its type read from the bytes", () =>
    withArtifacts((store) =>
      Effect.gen(function* () {
        const artifacts = yield* Artifacts
        const reference = yield* heldTask()
        // A PNG named as a PDF is a PNG: the name and the client's word are not trusted.
        const image = yield* stage(reference, "report.pdf", png)
        assert.deepStrictEqual(
          { ...image, id: "" },
          {
            id: "",
            reference,
            uploader: "ada-lovelace",
            name: "report.pdf",
            content_type: "image/png",
            size: png.length,
            sha256: sha256(png),
            created_at: new Date(T0).toISOString(),
            attached: false
          }
        )
        assert.match(image.id, /^art_[a-z2-7]{26}$/)
        const opened = yield* artifacts.open(reference, image.id)
        assert.deepStrictEqual(opened.file, image)
        const read = yield* collect(opened.body)
        assert.strictEqual(sha256(read), sha256(png))
        assert.strictEqual(read.length, png.length)

        // Larger than one chunk of the store's reads, in odd chunks: still the same bytes.
        const large = randomBytes(200 * 1024 + 7)
        const binary = yield* stage(reference, "data.bin", large)
        assert.strictEqual(binary.content_type, "application/octet-stream")
        assert.strictEqual(binary.size, large.length)
        assert.strictEqual(sha256(yield* collect((yield* artifacts.open(reference, binary.id)).body)), sha256(large))
        yield* artifacts.discard([binary.id])

        // Plain UTF-8 text (a character split across chunks too) is text; a path and control
        // characters are not kept in the name.
        const text = Buffer.from(`Mängel: ${"ü".repeat(600)}\nZeile 2\r\n`, "utf8")
        const notes = yield* stage(reference, "../../etc/\u202enotes\u0007.txt", text)
        assert.strictEqual(notes.content_type, "text/plain; charset=utf-8")
        assert.strictEqual(notes.name, "notes.txt")
        // Bytes with a NUL are not text.
        const nul = yield* stage(reference, "x.txt", Buffer.from("abc\u0000def"))
        assert.strictEqual(nul.content_type, "application/octet-stream")

        assert.deepStrictEqual(
          (yield* artifacts.staged(reference, "ada-lovelace")).map((f) => f.id).sort(),
          [image.id, notes.id, nul.id].sort()
        )
        const keys = (yield* Effect.promise(() => contents(store))).map((key) => key.split("/").pop()).sort()
        assert.deepStrictEqual(keys, [image.id, notes.id, nul.id].sort())
      })
    )
  )

  it.effect("an upload over the limit, empty, or cut short is refused and leaves no row and no bytes", () =>
    withArtifacts((store) =>
      Effect.gen(function* () {
        const artifacts = yield* Artifacts
        const reference = yield* heldTask()
        // The refusals themselves (a named span annotates the failure's Cause, so Exits are not compared).
        const tooLarge = yield* Effect.flip(stage(reference, "big.bin", randomBytes(limits.maxFileBytes + 1)))
        assert.deepStrictEqual(tooLarge, new ArtifactTooLarge({ limit: limits.maxFileBytes }))
        // Exactly at the limit is allowed.
        const atLimit = yield* stage(reference, "edge.bin", randomBytes(limits.maxFileBytes))
        yield* artifacts.discard([atLimit.id])

        const empty = yield* Effect.flip(stage(reference, "empty.txt", new Uint8Array(0)))
        assert.deepStrictEqual(empty, new ArtifactRejected({ reason: "empty" }))

        // The body fails halfway (a client that went away): its own error, nothing kept.
        const broken = Stream.concat(chunked(randomBytes(5000)), Stream.fail("connection reset" as const))
        const cut = yield* Effect.flip(
          artifacts.stage({ reference, slug: "ada-lovelace", name: "cut.bin", body: broken })
        )
        assert.strictEqual(cut, "connection reset")

        const noName = yield* Effect.flip(stage(reference, " ../ ", png))
        assert.deepStrictEqual(noName, new ArtifactRejected({ reason: "invalid_name" }))

        assert.strictEqual(yield* rowCount, 0)
        // Nothing under a key, nothing left in temporary space either.
        const left = (yield* Effect.promise(() => contents(store))).filter((key) => !key.endsWith("/"))
        assert.deepStrictEqual(left, [])
      })
    )
  )

  it.effect("only the holder uploads, only while the task is accepted or in_flight, a few files at a time", () =>
    withArtifacts(() =>
      Effect.gen(function* () {
        const reference = yield* heldTask("ada-lovelace")
        const other = yield* Effect.flip(stage(reference, "a.png", png, "someone-else"))
        assert.strictEqual(other._tag, "NotPermitted")
        const submitted = yield* heldTask("ada-lovelace", "submitted")
        const late = yield* Effect.flip(stage(submitted, "a.png", png))
        assert.strictEqual(late._tag, "UploadNotAllowed")
        const offered = yield* heldTask("ada-lovelace", "awaiting_participant")
        assert.strictEqual((yield* Effect.flip(stage(offered, "a.png", png)))._tag, "UploadNotAllowed")
        const accepted = yield* heldTask("ada-lovelace", "accepted")
        assert.strictEqual((yield* stage(accepted, "a.png", png)).reference, accepted)
        const unknown = yield* Effect.flip(stage("tsk_aaaaaaaaaaaaaaaaaaaaaaaaaa", "a.png", png))
        assert.strictEqual(unknown._tag, "TaskNotFound")

        // At most maxFiles staged per task and participant at once.
        for (let i = 0; i < limits.maxFiles; i++) yield* stage(reference, `p${i}.png`, png)
        const fourth = yield* Effect.flip(stage(reference, "p3.png", png))
        assert.deepStrictEqual(fourth, new TooManyStagedFiles({ limit: limits.maxFiles }))
        assert.strictEqual(yield* rowCount, limits.maxFiles + 1)
      })
    )
  )

  it.effect("a result's files resolve only as its uploader's on this task; attached ones are kept by discard", () =>
    withArtifacts((store) =>
      Effect.gen(function* () {
        const artifacts = yield* Artifacts
        const reference = yield* heldTask("ada-lovelace")
        const elsewhere = yield* heldTask("grace-hopper")
        const mine = yield* stage(reference, "mine.png", png)
        const spare = yield* stage(reference, "spare.png", png)
        const theirs = yield* stage(elsewhere, "theirs.png", png, "grace-hopper")

        const at = (id: string, i: number) => ({ id, field: `artifacts.${i}.id` })
        assert.deepStrictEqual(yield* artifacts.resolve(reference, "ada-lovelace", [at(mine.id, 0)]), [mine])
        const refused = yield* Effect.flip(
          artifacts.resolve(reference, "ada-lovelace", [at(theirs.id, 0), at("art_nope", 1), at(mine.id, 2)])
        )
        assert.strictEqual(refused._tag, "ArtifactsUnusable")
        // Another's file and an unknown id read alike: nobody learns of others' files.
        assert.deepStrictEqual(refused._tag === "ArtifactsUnusable" ? refused.problems.map((p) => p.field) : [], [
          "artifacts.0.id",
          "artifacts.1.id"
        ])
        if (refused._tag === "ArtifactsUnusable") {
          assert.strictEqual(refused.problems[0]!.message, refused.problems[1]!.message)
        }
        // The same file twice is refused at its second mention.
        const twice = yield* Effect.flip(artifacts.resolve(reference, "ada-lovelace", [at(mine.id, 0), at(mine.id, 1)]))
        assert.deepStrictEqual(twice._tag === "ArtifactsUnusable" ? twice.problems.map((p) => p.field) : [], [
          "artifacts.1.id"
        ])
        const tooMany = yield* Effect.flip(
          artifacts.resolve(
            reference,
            "ada-lovelace",
            Array.from({ length: limits.maxFiles + 1 }, (_, i) => at(mine.id, i))
          )
        )
        assert.deepStrictEqual(tooMany._tag === "ArtifactsUnusable" ? tooMany.problems.map((p) => p.field) : [], [
          "artifacts"
        ])

        yield* artifacts.attach(reference, "ada-lovelace", [mine.id])
        assert.strictEqual((yield* artifacts.find(reference, mine.id))?.attached, true)
        // Attaching what is gone changes nothing and says so.
        const gone = yield* Effect.flip(artifacts.attach(reference, "ada-lovelace", [spare.id, "art_gone"]))
        assert.strictEqual(gone._tag, "ArtifactsUnusable")

        // A scope keeps discard to the caller's own files; attached ones are never removed.
        yield* artifacts.discard([theirs.id, mine.id], { reference, slug: "ada-lovelace" })
        assert.isDefined(yield* artifacts.find(elsewhere, theirs.id))
        assert.isDefined(yield* artifacts.find(reference, mine.id))
        yield* artifacts.discard([spare.id, mine.id])
        assert.isUndefined(yield* artifacts.find(reference, spare.id))
        assert.isDefined(yield* artifacts.find(reference, mine.id))
        const keys = yield* Effect.promise(() => contents(store))
        assert.isFalse(keys.some((key) => key.endsWith(spare.id)))
        assert.isTrue(keys.some((key) => key.endsWith(mine.id)))
        const missing = yield* Effect.flip(artifacts.open(reference, spare.id))
        assert.strictEqual(missing._tag, "ArtifactNotFound")
      })
    )
  )

  it.effect("the sweep removes staged files after an hour, and what a crash left, never attached ones", () =>
    withArtifacts((store) =>
      Effect.gen(function* () {
        const artifacts = yield* Artifacts
        const sql = yield* SqlClient.SqlClient
        const reference = yield* heldTask()
        const attached = yield* stage(reference, "kept.png", png)
        yield* artifacts.attach(reference, "ada-lovelace", [attached.id])
        const staged = yield* stage(reference, "staged.png", png)
        // An upload cut short by a crash: its row without a digest (and no bytes under its key).
        yield* sql`
          INSERT INTO artifacts (id, reference, uploader, name, blob_key, created_at)
          VALUES ('art_crashedcrashedcrashedcrash', ${reference}, 'ada-lovelace', 'crashed.bin',
            ${`${reference}/art_crashedcrashedcrashedcrash`}, ${new Date(T0).toISOString()})
        `
        // What a crashed write left in a files store's temporary space.
        if (store._tag === "Files") {
          mkdirSync(join(store.directory, ".partial"), { recursive: true })
          writeFileSync(join(store.directory, ".partial", `${T0}-deadbeef`), "half a file")
        }

        yield* TestClock.adjust(stagedLifetimeMs - 60_000)
        assert.strictEqual(yield* artifacts.sweep, 0)
        assert.strictEqual(yield* rowCount, 3)

        yield* TestClock.adjust(2 * 60_000)
        assert.strictEqual(yield* artifacts.sweep, 2)
        assert.strictEqual(yield* rowCount, 1)
        assert.isUndefined(yield* artifacts.find(reference, staged.id))
        assert.strictEqual((yield* artifacts.find(reference, attached.id))?.attached, true)
        const keys = yield* Effect.promise(() => contents(store))
        assert.deepStrictEqual(
          keys.map((key) => key.split("/").pop()),
          [attached.id]
        )
        assert.strictEqual(
          sha256(yield* collect((yield* artifacts.open(reference, attached.id)).body)),
          attached.sha256
        )
      })
    )
  )
})

describe("a result's files are attached in the submission's own transaction", () => {
  /** TaskActions over the real services, with `attach` replaced when `attachFails`. */
  const actionsFor = (store: ArtifactStore, attachFails: boolean) => {
    const artifacts = attachFails
      ? Layer.effect(
          Artifacts,
          Effect.map(Artifacts, (real) =>
            Artifacts.of({
              ...real,
              // As when a file is removed between the guard's check and the write.
              attach: (reference) =>
                Effect.fail(
                  new ArtifactsUnusable({ reference, problems: [{ field: "artifacts", message: "removed meanwhile" }] })
                )
            })
          )
        ).pipe(Layer.provide(Artifacts.layer))
      : Artifacts.layer
    return TaskActions.layer.pipe(
      Layer.provideMerge(Lifecycle.layer),
      Layer.provideMerge(artifacts),
      Layer.provideMerge(BlobStore.layer),
      Layer.provideMerge(SandboxClock.layer),
      Layer.provideMerge(
        Layer.mergeAll(TaskStore.layer, TaskEvents.layer, TaskTokens.layer, WebhookOutbox.layer, MailOutbox.layer)
      ),
      Layer.provideMerge(TestSqlLayer),
      Layer.provideMerge(testConfig({ artifacts: { store, ...limits } }))
    )
  }

  const submitWithFile = (attachFails: boolean) =>
    Effect.scoped(
      Effect.gen(function* () {
        const directory = mkdtempSync(join(tmpdir(), "tm-artifacts-"))
        directories.push(directory)
        const context = yield* Layer.build(actionsFor({ _tag: "Files", directory }, attachFails))
        return yield* Effect.provide(
          Effect.gen(function* () {
            const store = yield* TaskStore
            const task = storedTask({ state: "in_flight", participantSlug: "ada-lovelace", executionMode: "digital" })
            yield* store.insert(task)
            const file = yield* (yield* Artifacts).stage({
              reference: task.reference,
              slug: "ada-lovelace",
              name: "a.png",
              body: chunked(png)
            })
            const submitted = yield* Effect.exit(
              (yield* TaskActions).submit(task.reference, "ada-lovelace", {
                summary: "done",
                artifacts: [{ kind: "file", id: file.id }]
              })
            )
            return {
              submitted,
              task: yield* store.findByReference(task.reference),
              file: yield* (yield* Artifacts).find(task.reference, file.id)
            }
          }),
          context
        )
      })
    )

  it.effect("a write that fails alongside the move undoes the move: the task is as it was", () =>
    Effect.gen(function* () {
      const { submitted, task, file } = yield* submitWithFile(true)
      assert.isTrue(Exit.isFailure(submitted))
      assert.strictEqual(task?.state, "in_flight")
      assert.strictEqual(task?.version, 1)
      assert.isNull(task?.result ?? null)
      assert.strictEqual(file?.attached, false)
    })
  )

  it.effect("otherwise the move and the attachment are made together", () =>
    Effect.gen(function* () {
      const { submitted, task, file } = yield* submitWithFile(false)
      assert.isTrue(Exit.isSuccess(submitted))
      assert.strictEqual(task?.state, "submitted")
      assert.strictEqual(file?.attached, true)
      assert.deepStrictEqual(
        task?.result?.artifacts.map((a) => ("id" in a ? a.id : undefined)),
        [file?.id]
      )
    })
  )
})
