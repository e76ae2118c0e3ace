/**
 * Evidence files: a participant uploads files while working on a task and names them in the
 * result they submit; the agent then downloads them with its task token.
 *
 * A file is *staged* once its bytes are stored (`stage`), and *attached* when a submitted result
 * names it (`attach`, run by TaskActions.submit in the submission's own transaction, so a failed
 * submission attaches nothing). Staged files not attached within an hour are swept with their
 * bytes; attached ones are never removed.
 *
 * An upload leaves either a whole staged file or nothing: its row is written first (with no
 * digest), the bytes are counted and hashed on their way to the blob store and refused past the
 * size limit, and its row completed last; anything that fails on the way, an interruption
 * included, removes the bytes and the row. An upload cut short by a crash leaves a row without a
 * digest, which nothing reads and the sweep removes with its bytes after an hour.
 */
import { createHash, randomBytes } from "node:crypto"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Schedule from "effect/Schedule"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import * as SqlClient from "effect/sql/SqlClient"
import * as SqlSchema from "effect/sql/SqlSchema"
import { AppConfig } from "../config/app_config.ts"
import {
  ArtifactNotFound,
  type ArtifactProblem,
  ArtifactRejected,
  ArtifactsUnusable,
  ArtifactTooLarge,
  NotPermitted,
  StorageUnavailable,
  TaskNotFound,
  TooManyStagedFiles,
  UploadNotAllowed
} from "../domain/errors.ts"
import { makeTextDetector, plainText, safeFileName } from "../domain/evidence.ts"
import type { TaskState } from "../domain/lifecycle.ts"
import { madeOnce } from "../read_cache.ts"
import { IntegerColumn } from "../sql/columns.ts"
import { type BlobMissing, BlobStore } from "./blob_store.ts"
import { base32 } from "./ids.ts"
import { storageCallFor, undecodableRow } from "./storage.ts"
import { TaskStore } from "./task_store.ts"

/** An uploaded file as the service keeps it. */
export interface StoredFile {
  readonly id: string
  readonly reference: string
  /** The slug of the participant who uploaded it. */
  readonly uploader: string
  /** As the participant named it, made safe (domain/evidence.ts). */
  readonly name: string
  /** Read from the bytes, never taken from the client. */
  readonly content_type: string
  readonly size: number
  /** SHA-256 of the bytes, hex. */
  readonly sha256: string
  readonly created_at: string
  /** Whether a submitted result carries it (then it is the agent's to read, and never removed). */
  readonly attached: boolean
}

/** How long a staged file waits for a result to carry it before it is swept (a submission that never came). */
export const stagedLifetimeMs = 3600_000

/** The states in which the holder works on a task, and so may upload files to it. */
export const uploadStates: ReadonlyArray<TaskState> = ["accepted", "in_flight"]

/** A file id is `art_` and 26 base32 characters (130 random bits): opaque and unguessable. */
export const artifactIdPattern = /^art_[a-z2-7]{26}$/

/** Why an upload can be refused (besides its body's own failure). */
export type StageFailure =
  | ArtifactRejected
  | ArtifactTooLarge
  | TooManyStagedFiles
  | StorageUnavailable
  | TaskNotFound
  | NotPermitted
  | UploadNotAllowed

/** The first bytes of a file, which its type is read from. */
const sniffBytes = 64 * 1024

export class Artifacts extends Context.Service<
  Artifacts,
  {
    /** The limits uploads and results are held to (ARTIFACT_MAX_FILE_BYTES, ARTIFACT_MAX_FILES). */
    readonly limits: { readonly maxFileBytes: number; readonly maxFiles: number }
    /**
     * Stores an upload as a staged file of `reference` by participant `slug`: only the task's
     * holder, only while it is accepted or in_flight, at most `maxFiles` staged files per task and
     * participant at once. The bytes are streamed to the blob store, counted (refused past
     * `maxFileBytes`), hashed, and their type read from their first bytes. Refused or failed,
     * nothing of it is kept.
     */
    stage<E>(input: {
      readonly reference: string
      readonly slug: string
      readonly name: string
      readonly body: Stream.Stream<Uint8Array, E>
    }): Effect.Effect<StoredFile, StageFailure | E>
    /**
     * Removes staged files and their bytes; attached files are never removed. With `scope`, only
     * files of that task uploaded by that participant (what a participant may remove).
     */
    discard(
      ids: ReadonlyArray<string>,
      scope?: { readonly reference: string; readonly slug: string }
    ): Effect.Effect<void, StorageUnavailable>
    /** A stored file of the task and its bytes, staged or attached (the caller decides who may read which). */
    open(
      reference: string,
      id: string
    ): Effect.Effect<
      { readonly file: StoredFile; readonly body: Stream.Stream<Uint8Array, StorageUnavailable> },
      ArtifactNotFound | StorageUnavailable
    >
    /** A stored file of the task without its bytes, if there is one. */
    find(reference: string, id: string): Effect.Effect<StoredFile | undefined, StorageUnavailable>
    /** The participant's staged files of a task (not yet carried by a result), oldest first. */
    staged(reference: string, slug: string): Effect.Effect<ReadonlyArray<StoredFile>, StorageUnavailable>
    /**
     * The files a result names, in order: each a stored file of this task uploaded by `slug` (staged,
     * or attached to an earlier result of the task), no file twice, at most `maxFiles`. `fields`
     * names each id's place in the result (`artifacts.2.id`), for the problems reported.
     */
    resolve(
      reference: string,
      slug: string,
      ids: ReadonlyArray<{ readonly id: string; readonly field: string }>
    ): Effect.Effect<ReadonlyArray<StoredFile>, ArtifactsUnusable | StorageUnavailable>
    /**
     * Marks the files attached (run in the submission's transaction): fails, changing nothing,
     * when any of them is no longer a stored file of this task by `slug` (removed meanwhile).
     */
    attach(
      reference: string,
      slug: string,
      ids: ReadonlyArray<string>
    ): Effect.Effect<void, ArtifactsUnusable | StorageUnavailable>
    /**
     * Removes staged files older than `stagedLifetimeMs` (uploads never submitted, or cut short by
     * a crash) with their bytes, and what crashed writes left in the store's temporary space;
     * returns how many files it removed.
     */
    readonly sweep: Effect.Effect<number, StorageUnavailable>
  }
>()("task-marketplace/services/Artifacts") {
  static readonly layer = Layer.effect(
    Artifacts,
    Effect.gen(function* () {
      const config = yield* AppConfig
      const limits = { maxFileBytes: config.artifacts.maxFileBytes, maxFiles: config.artifacts.maxFiles }
      const sql = yield* SqlClient.SqlClient
      const asStorageCall = storageCallFor(sql)
      const blobs = yield* BlobStore
      const tasks = yield* TaskStore

      const fileOf = (row: FileRow): StoredFile | undefined =>
        row.sha256 === null || row.size === null || row.content_type === null
          ? undefined
          : {
              id: row.id,
              reference: row.reference,
              uploader: row.uploader,
              name: row.name,
              content_type: row.content_type,
              size: row.size,
              sha256: row.sha256,
              created_at: row.created_at,
              attached: row.attached_at !== null
            }

      const findRow = SqlSchema.findOneOption({
        Request: Schema.Struct({ reference: Schema.String, id: Schema.String }),
        Result: FileRow,
        execute: ({ reference, id }) => sql`SELECT * FROM artifacts WHERE id = ${id} AND reference = ${reference}`
      })
      /** The stored file (a complete upload) of the task with this id, if any. */
      const findFile = (reference: string, id: string) =>
        findRow({ reference, id }).pipe(
          Effect.map((row) => (row._tag === "Some" ? fileOf(row.value) : undefined)),
          Effect.catchTag("SchemaError", undecodableRow("artifacts", `id ${id}`)),
          asStorageCall
        )

      const decodeRows = Schema.decodeUnknownEffect(Schema.Array(FileRow))
      const rowsOf = (table: string) => (rows: ReadonlyArray<unknown>) =>
        decodeRows(rows).pipe(Effect.catchTag("SchemaError", undecodableRow("artifacts", table)))

      const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms).toISOString())

      /** Removes a file's row (unless attached meanwhile) and then its bytes; the bytes stay if the row does. */
      const removeUnattached = Effect.fnUntraced(function* (where: ReturnType<typeof sql.and>) {
        const removed = yield* sql<{ id: string; blob_key: string }>`
          DELETE FROM artifacts WHERE ${where} AND attached_at IS NULL RETURNING id, blob_key
        `.pipe(asStorageCall)
        for (const { blob_key } of removed) {
          yield* blobs
            .delete(blob_key)
            .pipe(
              Effect.catch((error) =>
                Effect.logWarning("the bytes of a removed upload could not be deleted").pipe(
                  Effect.annotateLogs({ key: blob_key, cause: String(error.cause) })
                )
              )
            )
        }
        return removed.length
      })

      /** What an upload must be checked against before its bytes are read. */
      const admit = Effect.fnUntraced(function* (reference: string, slug: string) {
        const task = yield* tasks.findByReference(reference)
        if (task === undefined) return yield* new TaskNotFound({ reference })
        if (task.participantSlug !== slug) {
          return yield* new NotPermitted({ reason: "this task is not offered to or held by you" })
        }
        if (!uploadStates.includes(task.state)) return yield* new UploadNotAllowed({ reference, state: task.state })
      })

      /**
       * Holds, until the transaction ends, every other upload by `slug` to `reference`, in every
       * process: on Postgres a transaction-scoped advisory lock keyed by the pair (a collision of
       * two pairs' keys only makes them wait for each other); SQLite's write transactions already
       * run one at a time (BEGIN IMMEDIATE).
       */
      const holdUploadsOf = (reference: string, slug: string) =>
        sql.onDialectOrElse({
          pg: () =>
            Effect.asVoid(sql`SELECT pg_advisory_xact_lock(hashtextextended(${`artifacts:${reference}:${slug}`}, 0))`),
          orElse: () => Effect.void
        })

      /**
       * Writes an upload's row if the participant has fewer than `maxFiles` files of the task
       * staged or being uploaded: counted and written in one transaction under `holdUploadsOf`,
       * so uploads at once cannot all pass the count (uploads in progress count too).
       */
      const reserve = (row: {
        readonly id: string
        readonly reference: string
        readonly slug: string
        readonly name: string
        readonly key: string
        readonly createdAt: string
      }) =>
        Effect.gen(function* () {
          yield* holdUploadsOf(row.reference, row.slug)
          const [waiting] = yield* sql<{ n: number | bigint }>`
            SELECT COUNT(*) AS n FROM artifacts
            WHERE reference = ${row.reference} AND uploader = ${row.slug} AND attached_at IS NULL
          `
          if (Number(waiting?.n ?? 0) >= limits.maxFiles) {
            return yield* new TooManyStagedFiles({ limit: limits.maxFiles })
          }
          yield* sql`
            INSERT INTO artifacts (id, reference, uploader, name, blob_key, created_at)
            VALUES (${row.id}, ${row.reference}, ${row.slug}, ${row.name}, ${row.key}, ${row.createdAt})
          `
        }).pipe(sql.withTransaction, asStorageCall)

      const stage = Effect.fn("Artifacts.stage")(function* <E>(input: {
        readonly reference: string
        readonly slug: string
        readonly name: string
        readonly body: Stream.Stream<Uint8Array, E>
      }) {
        const name = safeFileName(input.name)
        if (name === undefined) return yield* new ArtifactRejected({ reason: "invalid_name" })
        yield* admit(input.reference, input.slug)
        const id = `art_${base32(randomBytes(17)).slice(0, 26)}`
        const key = `${input.reference}/${id}`
        const createdAt = yield* now
        yield* reserve({ id, reference: input.reference, slug: input.slug, name, key, createdAt })

        const measured = measure(input.body, limits.maxFileBytes)
        const store = Effect.gen(function* () {
          const size = yield* blobs.put(key, measured.body)
          if (size === 0) return yield* new ArtifactRejected({ reason: "empty" })
          const contentType = yield* sniff(measured.head(), measured.isText())
          const sha256 = measured.digest()
          const completed = yield* sql<{ id: string }>`
            UPDATE artifacts SET content_type = ${contentType}, size = ${size}, sha256 = ${sha256}
            WHERE id = ${id} AND sha256 IS NULL RETURNING id
          `.pipe(asStorageCall)
          if (completed.length === 0) {
            // Swept while it was written (an upload longer than a staged file lives): not kept.
            return yield* new StorageUnavailable({ cause: "the upload's record was removed while it was written" })
          }
          const file: StoredFile = {
            id,
            reference: input.reference,
            uploader: input.slug,
            name,
            content_type: contentType,
            size,
            sha256,
            created_at: createdAt,
            attached: false
          }
          return file
        })
        // Whatever went wrong (an interruption too), nothing stays: the bytes, then the row. Should
        // that fail as well, the row (without a digest) is left for the sweep.
        return yield* store.pipe(
          Effect.onExit((exit) =>
            Exit.isSuccess(exit)
              ? Effect.void
              : blobs.delete(key).pipe(
                  Effect.andThen(sql`DELETE FROM artifacts WHERE id = ${id}`.pipe(asStorageCall)),
                  Effect.catch((error) =>
                    Effect.logWarning("a refused upload could not be cleaned up; the sweep will").pipe(
                      Effect.annotateLogs({ id, cause: String(error.cause) })
                    )
                  )
                )
          )
        )
      })

      const discard = Effect.fn("Artifacts.discard")(function* (
        ids: ReadonlyArray<string>,
        scope?: { readonly reference: string; readonly slug: string }
      ) {
        if (ids.length === 0) return
        yield* removeUnattached(
          sql.and([
            sql.in("id", ids),
            ...(scope === undefined ? [] : [sql`reference = ${scope.reference}`, sql`uploader = ${scope.slug}`])
          ])
        )
      })

      const open = Effect.fn("Artifacts.open")(function* (reference: string, id: string) {
        const file = artifactIdPattern.test(id) ? yield* findFile(reference, id) : undefined
        if (file === undefined) return yield* new ArtifactNotFound({ reference, id })
        const body = yield* blobs.get(`${reference}/${id}`).pipe(
          Effect.catchTag("BlobMissing", (missing: BlobMissing) =>
            // The row says the bytes were stored: a store that lost them is not the caller's doing.
            Effect.andThen(
              Effect.logError("the bytes of a stored file are missing").pipe(Effect.annotateLogs({ key: missing.key })),
              Effect.die(new Error(`the bytes of file ${id} are missing from the store`))
            )
          )
        )
        return { file, body }
      })

      const find = Effect.fn("Artifacts.find")(function* (reference: string, id: string) {
        return artifactIdPattern.test(id) ? yield* findFile(reference, id) : undefined
      })

      const staged = Effect.fn("Artifacts.staged")((reference: string, slug: string) =>
        sql`
          SELECT * FROM artifacts WHERE reference = ${reference} AND uploader = ${slug}
            AND attached_at IS NULL AND sha256 IS NOT NULL
          ORDER BY created_at, id
        `.pipe(
          Effect.flatMap(rowsOf(`reference ${reference}`)),
          Effect.map((rows) => rows.flatMap((row) => fileOf(row) ?? [])),
          asStorageCall
        )
      )

      const resolve = Effect.fn("Artifacts.resolve")(function* (
        reference: string,
        slug: string,
        ids: ReadonlyArray<{ readonly id: string; readonly field: string }>
      ) {
        if (ids.length > limits.maxFiles) {
          return yield* new ArtifactsUnusable({
            reference,
            problems: [
              {
                field: "artifacts",
                message: `a result may carry at most ${limits.maxFiles} uploaded files; it names ${ids.length}`
              }
            ]
          })
        }
        const wanted = ids.filter(({ id }) => artifactIdPattern.test(id)).map(({ id }) => id)
        const rows =
          wanted.length === 0
            ? []
            : yield* sql`
                SELECT * FROM artifacts WHERE reference = ${reference} AND uploader = ${slug} AND ${sql.in("id", wanted)}
              `.pipe(Effect.flatMap(rowsOf(`reference ${reference}`)), asStorageCall)
        const byId = new Map(rows.flatMap((row) => (fileOf(row) === undefined ? [] : [[row.id, fileOf(row)!]])))
        const problems: Array<ArtifactProblem> = []
        const files: Array<StoredFile> = []
        const seen = new Set<string>()
        for (const { id, field } of ids) {
          const file = byId.get(id)
          if (file === undefined) {
            // The same words whether the id is unknown or another's: nobody learns of others' files.
            problems.push({ field, message: "no file you uploaded to this task has this id; upload it first" })
          } else if (seen.has(id)) {
            problems.push({ field, message: "this file is already named by another artifact of the result" })
          } else {
            seen.add(id)
            files.push(file)
          }
        }
        if (problems.length > 0) return yield* new ArtifactsUnusable({ reference, problems })
        return files
      })

      // Its own transaction (a savepoint inside the submission's), so that a refusal marks nothing.
      const markAttached = Effect.fnUntraced(
        function* (reference: string, slug: string, ids: ReadonlyArray<string>) {
          const attachedAt = yield* now
          const marked = yield* sql<{ id: string }>`
            UPDATE artifacts SET attached_at = COALESCE(attached_at, ${attachedAt})
            WHERE reference = ${reference} AND uploader = ${slug} AND sha256 IS NOT NULL AND ${sql.in("id", ids)}
            RETURNING id
          `
          if (marked.length !== new Set(ids).size) {
            const found = new Set(marked.map((row) => row.id))
            return yield* new ArtifactsUnusable({
              reference,
              problems: ids
                .filter((id) => !found.has(id))
                .map((id) => ({
                  field: "artifacts",
                  message: `file ${id} was removed before the result was recorded`
                }))
            })
          }
        },
        sql.withTransaction,
        asStorageCall
      )
      const attach = Effect.fn("Artifacts.attach")(function* (
        reference: string,
        slug: string,
        ids: ReadonlyArray<string>
      ) {
        if (ids.length > 0) yield* markAttached(reference, slug, ids)
      })

      const sweep = Effect.gen(function* () {
        const nowMs = yield* Clock.currentTimeMillis
        const before = new Date(nowMs - stagedLifetimeMs).toISOString()
        const removed = yield* removeUnattached(sql`created_at < ${before}`)
        yield* blobs.sweepPartial(nowMs - stagedLifetimeMs)
        return removed
      }).pipe(Effect.withSpan("Artifacts.sweep"))

      return Artifacts.of({ limits, stage, discard, open, find, staged, resolve, attach, sweep })
    })
  )

  /** The same with the services of ours it needs (the database and `AppConfig` still to give). */
  static readonly layerWithDependencies = Artifacts.layer.pipe(Layer.provide([BlobStore.layer, TaskStore.layer]))
}

/** A row of `artifacts`; an upload in progress has no digest, size or type yet. */
const FileRow = Schema.Struct({
  id: Schema.String,
  reference: Schema.String,
  uploader: Schema.String,
  name: Schema.String,
  blob_key: Schema.String,
  content_type: Schema.NullOr(Schema.String),
  size: Schema.NullOr(IntegerColumn),
  sha256: Schema.NullOr(Schema.String),
  created_at: Schema.String,
  attached_at: Schema.NullOr(Schema.String)
})
type FileRow = typeof FileRow.Type

/**
 * The bytes of an upload on their way to the store: counted (failing past `limit`, so the store
 * never receives more), hashed, their first bytes kept to read the type from, and checked for
 * being plain text. The figures are read once the stream has run.
 */
const measure = <E>(body: Stream.Stream<Uint8Array, E>, limit: number) => {
  const hash = createHash("sha256")
  const text = makeTextDetector()
  const head: Array<Uint8Array> = []
  let headSize = 0
  let size = 0
  const tooLarge = new ArtifactTooLarge({ limit })
  return {
    body: Stream.mapEffect(body, (chunk) => {
      size += chunk.length
      if (size > limit) return Effect.fail(tooLarge)
      hash.update(chunk)
      text.push(chunk)
      if (headSize < sniffBytes) {
        head.push(chunk.subarray(0, sniffBytes - headSize))
        headSize += Math.min(chunk.length, sniffBytes - headSize)
      }
      return Effect.succeed(chunk)
    }),
    head: () => Buffer.concat(head),
    isText: () => text.isText(),
    digest: () => hash.digest("hex")
  }
}

/** file-type, loaded on the first upload (start-up does not pay for it): pure JavaScript, it reads magic numbers. */
const fileTypeModule = madeOnce(() => import("file-type"))

/**
 * The media type of bytes whose first bytes are `head`: what their magic numbers say (file-type),
 * else plain text when every byte was UTF-8 text, else application/octet-stream.
 */
const sniff = (head: Uint8Array, isText: boolean) =>
  Effect.tryPromise(async () => {
    return (await fileTypeModule()).fileTypeFromBuffer(head)
  }).pipe(
    // A parser that stumbles on odd bytes has found no type.
    Effect.orElseSucceed(() => undefined),
    Effect.map((found) => found?.mime ?? (isText ? plainText : "application/octet-stream"))
  )

/** How often each server process sweeps staged files past their hour. */
const sweepInterval = "1 minute"

/**
 * The sweep of staged files, every minute in each server process (several processes sweeping one
 * database delete each file once: the row goes first, by a conditional DELETE). A failed sweep is
 * logged and tried again at the next.
 */
export const ArtifactSweepWorker = Layer.effectDiscard(
  Effect.gen(function* () {
    const artifacts = yield* Artifacts
    yield* artifacts.sweep.pipe(
      Effect.catchCause((cause) =>
        Effect.logWarning("the sweep of uploaded files failed").pipe(Effect.annotateLogs({ cause }))
      ),
      Effect.repeat(Schedule.spaced(sweepInterval)),
      Effect.forkScoped
    )
  })
)
