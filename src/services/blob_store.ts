/**
 * Where the bytes of uploaded files live, behind one small interface (put, get, delete by key):
 *
 * - files under a directory (ARTIFACT_STORE=file:<dir>, or beside the database by default): each
 *   write goes to a temporary name under `<dir>/.partial`, is synced to disk, then renamed to its
 *   key, so a crash never leaves half a file under a real key;
 * - an S3-compatible bucket (ARTIFACT_STORE=s3://bucket/prefix, through the AWS SDK v3, loaded on
 *   first use): the bytes are spooled to a local temporary file first and then sent in one PUT of
 *   known length, and S3 stores an object whole or not at all. Spooling also means the bytes of a
 *   refused upload (too large, cut short) never reach the bucket.
 *
 * Either way a write that fails or is interrupted leaves nothing under its key; what a crash
 * leaves in temporary space is removed by `sweepPartial`.
 */
import { randomBytes } from "node:crypto"
import { createReadStream } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import type * as S3 from "@aws-sdk/client-s3"
import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as FileSystem from "effect/FileSystem"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as PlatformError from "effect/PlatformError"
import * as Stream from "effect/Stream"
import { AppConfig } from "../config/app_config.ts"
import { type ArtifactStore, artifactStoreOf } from "../config/settings.ts"
import { StorageUnavailable } from "../domain/errors.ts"

/** The store has nothing under the key. */
export class BlobMissing extends Data.TaggedError("BlobMissing")<{ readonly key: string }> {}

export class BlobStore extends Context.Service<
  BlobStore,
  {
    /** Where the bytes go, for logs and docs: `file:<dir>` or `s3://bucket/prefix`. */
    readonly location: string
    /**
     * Stores the whole of `body` under `key`, or nothing: a body that fails (with its own error),
     * a store that fails, or an interruption leaves nothing under the key. Returns the byte count.
     */
    put<E>(key: string, body: Stream.Stream<Uint8Array, E>): Effect.Effect<number, E | StorageUnavailable>
    /** The bytes under `key`, read as they are sent on. */
    get(key: string): Effect.Effect<Stream.Stream<Uint8Array, StorageUnavailable>, BlobMissing | StorageUnavailable>
    /** Removes what is under `key`; nothing there is fine. */
    delete(key: string): Effect.Effect<void, StorageUnavailable>
    /**
     * Removes what writes cut short by a crash left in temporary space, written before `before`
     * (epoch milliseconds); returns how many.
     */
    sweepPartial(before: number): Effect.Effect<number, StorageUnavailable>
  }
>()("task-marketplace/services/BlobStore") {
  /** The store ARTIFACT_STORE names (or the default beside the database). */
  static readonly layer = Layer.effect(
    BlobStore,
    Effect.gen(function* () {
      const config = yield* AppConfig
      const store = artifactStoreOf(config)
      const fs = yield* FileSystem.FileSystem
      if (store._tag === "S3") return yield* makeS3Store(fs, store)
      const directory =
        store._tag === "Files"
          ? store.directory
          : yield* fs
              .makeTempDirectoryScoped({ prefix: "task-marketplace-artifacts-" })
              .pipe(orStopStart("a temporary directory for uploaded files"))
      return yield* makeFileStore(fs, directory)
    })
  ).pipe(Layer.provide(NodeFileSystem.layer))
}

type Shape = Context.Service.Shape<typeof BlobStore>

const unavailable = (cause: unknown) => new StorageUnavailable({ cause })

/** A store that cannot be prepared stops start-up, saying what it could not prepare. */
const orStopStart =
  (what: string) =>
  <A, R>(effect: Effect.Effect<A, { readonly message: string }, R>) =>
    Effect.orDie(Effect.mapError(effect, (error) => new Error(`cannot prepare ${what}: ${error.message}`)))

/** A fresh temporary name, stamped with the service's time (which the sweep of leftovers reads too). */
const temporaryName = Effect.map(Clock.currentTimeMillis, (now) => `${now}-${randomBytes(16).toString("hex")}`)

/** The time a temporary name was made, from the name (`<ms>-<hex>`). */
const madeAt = (name: string) => Number.parseInt(name.split("-", 1)[0] ?? "", 10)

/**
 * Writes `body` to the new file `path` (which must not exist), synced to disk before it is
 * reported written; on any failure or interruption the file is removed. Returns the byte count.
 */
const writeWhole = <E>(
  fs: FileSystem.FileSystem,
  path: string,
  body: Stream.Stream<Uint8Array, E>
): Effect.Effect<number, E | StorageUnavailable> =>
  Effect.scoped(
    Effect.gen(function* () {
      const file = yield* fs.open(path, { flag: "wx" })
      let size = 0
      yield* Stream.runForEach(body, (chunk) => {
        size += chunk.length
        return file.writeAll(chunk)
      })
      yield* file.sync
      return size
    })
  ).pipe(
    Effect.onError(() => Effect.ignore(fs.remove(path, { force: true }))),
    Effect.mapError((error) => (PlatformError.isPlatformError(error) ? unavailable(error) : error))
  ) as Effect.Effect<number, E | StorageUnavailable>

/** Removes the entries of `directory` whose temporary name was made before `before`. */
const sweepDirectory = (fs: FileSystem.FileSystem, directory: string, before: number) =>
  Effect.gen(function* () {
    const names = yield* fs.readDirectory(directory)
    let removed = 0
    for (const name of names) {
      const at = madeAt(name)
      if (Number.isFinite(at) && at < before) {
        yield* fs.remove(join(directory, name), { force: true })
        removed++
      }
    }
    return removed
  }).pipe(Effect.mapError(unavailable))

const makeFileStore = (fs: FileSystem.FileSystem, directory: string) =>
  Effect.gen(function* () {
    const partial = join(directory, ".partial")
    yield* fs
      .makeDirectory(partial, { recursive: true })
      .pipe(orStopStart(`the directory for uploaded files, ${directory}`))
    // Keys are made by the service (`<reference>/<id>`), never by a client.
    const pathOf = (key: string) => join(directory, ...key.split("/"))

    const put: Shape["put"] = Effect.fn("BlobStore.put")(<E>(key: string, body: Stream.Stream<Uint8Array, E>) =>
      Effect.flatMap(temporaryName, (name) => {
        const temporary = join(partial, name)
        return Effect.flatMap(writeWhole(fs, temporary, body), (size) =>
          fs.makeDirectory(dirname(pathOf(key)), { recursive: true }).pipe(
            Effect.andThen(fs.rename(temporary, pathOf(key))),
            Effect.onError(() => Effect.ignore(fs.remove(temporary, { force: true }))),
            Effect.mapError(unavailable),
            Effect.as(size)
          )
        )
      })
    )

    const get: Shape["get"] = Effect.fn("BlobStore.get")((key: string) =>
      fs.stat(pathOf(key)).pipe(
        Effect.map(() => Stream.mapError(fs.stream(pathOf(key)), unavailable)),
        Effect.catch((error) =>
          Effect.fail(
            error.reason._tag === "NotFound"
              ? new BlobMissing({ key })
              : (unavailable(error) as BlobMissing | StorageUnavailable)
          )
        )
      )
    )

    const remove: Shape["delete"] = Effect.fn("BlobStore.delete")((key: string) =>
      fs.remove(pathOf(key), { force: true }).pipe(Effect.mapError(unavailable))
    )

    return BlobStore.of({
      location: `file:${directory}`,
      put,
      get,
      delete: remove,
      sweepPartial: Effect.fn("BlobStore.sweepPartial")((before: number) => sweepDirectory(fs, partial, before))
    })
  })

/** The AWS SDK's S3 module, loaded on the first use of the store: start-up does not pay for it. */
type S3Module = typeof S3

const makeS3Store = (fs: FileSystem.FileSystem, store: Extract<ArtifactStore, { _tag: "S3" }>) =>
  Effect.gen(function* () {
    const spool = join(tmpdir(), "task-marketplace-spool")
    yield* fs.makeDirectory(spool, { recursive: true }).pipe(orStopStart(`the spool directory for uploads, ${spool}`))

    const connect = yield* Effect.cached(
      Effect.map(
        Effect.promise(() => import("@aws-sdk/client-s3")),
        (s3) => {
          const client = new s3.S3Client({
            ...(store.endpoint === undefined
              ? {}
              : {
                  endpoint: store.endpoint,
                  // An S3-compatible server at an address of its own: buckets in the path, and a
                  // region when the environment names none (such servers ignore it).
                  forcePathStyle: true,
                  ...(process.env.AWS_REGION === undefined ? { region: "us-east-1" } : {})
                }),
            // Checksums only where S3 requires them: S3-compatible servers do not all read the
            // SDK's newer default (aws-chunked bodies with trailing checksums).
            requestChecksumCalculation: "WHEN_REQUIRED",
            responseChecksumValidation: "WHEN_REQUIRED"
          })
          return { s3, client }
        }
      )
    )
    const keyOf = (key: string) => (store.prefix === "" ? key : `${store.prefix}/${key}`)
    /** One call to the bucket; it fails with what the SDK threw. */
    const call = <A>(run: (s3: S3Module, client: S3.S3Client, signal: AbortSignal) => Promise<A>) =>
      Effect.flatMap(connect, ({ s3, client }) =>
        Effect.tryPromise({ try: (signal) => run(s3, client, signal), catch: (cause) => cause })
      )
    const isMissing = (cause: unknown) => {
      const error = cause as { name?: string; $metadata?: { httpStatusCode?: number } }
      return error.name === "NoSuchKey" || error.name === "NotFound" || error.$metadata?.httpStatusCode === 404
    }

    const put: Shape["put"] = Effect.fn("BlobStore.put")(<E>(key: string, body: Stream.Stream<Uint8Array, E>) =>
      Effect.flatMap(temporaryName, (name) => {
        const temporary = join(spool, name)
        return Effect.flatMap(writeWhole(fs, temporary, body), (size) =>
          call((s3, client, abortSignal) =>
            client.send(
              new s3.PutObjectCommand({
                Bucket: store.bucket,
                Key: keyOf(key),
                Body: createReadStream(temporary),
                ContentLength: size
              }),
              { abortSignal }
            )
          ).pipe(
            Effect.mapError(unavailable),
            Effect.as(size),
            Effect.ensuring(Effect.ignore(fs.remove(temporary, { force: true })))
          )
        )
      })
    )

    const get: Shape["get"] = Effect.fn("BlobStore.get")((key: string) =>
      call((s3, client, abortSignal) =>
        client.send(new s3.GetObjectCommand({ Bucket: store.bucket, Key: keyOf(key) }), { abortSignal })
      ).pipe(
        Effect.mapError((cause) => (isMissing(cause) ? new BlobMissing({ key }) : unavailable(cause))),
        Effect.flatMap((output) =>
          Option.match(Option.fromNullishOr(output.Body as AsyncIterable<Uint8Array> | undefined), {
            onNone: () => Effect.fail(unavailable("the object has no body")),
            onSome: (bytes) => Effect.succeed(Stream.fromAsyncIterable(bytes, unavailable))
          })
        )
      )
    )

    const remove: Shape["delete"] = Effect.fn("BlobStore.delete")((key: string) =>
      call((s3, client, abortSignal) =>
        client.send(new s3.DeleteObjectCommand({ Bucket: store.bucket, Key: keyOf(key) }), { abortSignal })
      ).pipe(
        Effect.asVoid,
        Effect.catch((cause) => (isMissing(cause) ? Effect.void : Effect.fail(unavailable(cause))))
      )
    )

    return BlobStore.of({
      location: `s3://${store.bucket}${store.prefix === "" ? "" : `/${store.prefix}`}`,
      put,
      get,
      delete: remove,
      sweepPartial: Effect.fn("BlobStore.sweepPartial")((before: number) => sweepDirectory(fs, spool, before))
    })
  })
