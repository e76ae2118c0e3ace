/**
 * What every storage call promises its caller: it answers within a deadline, and any database
 * failure (unreachable, restarting, timed out) is `StorageUnavailable` — a retryable condition the
 * HTTP adapter answers with 503 and `Retry-After` — never a defect or a hung request.
 */
import * as Cause from "effect/Cause"
import * as Clock from "effect/Clock"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as Queue from "effect/Queue"
import * as Schema from "effect/Schema"
import type * as Scope from "effect/Scope"
import type * as SqlClient from "effect/sql/SqlClient"
import * as SqlError from "effect/sql/SqlError"
import { StorageUnavailable } from "../domain/errors.ts"

/** Longest a single storage operation may take before the request is answered 503. */
export const storageDeadline = "5 seconds"

const timedOut = new StorageUnavailable({ cause: "storage did not answer in time" })

/** A storage operation as its callers see it: database failures become `StorageUnavailable`. */
export type StorageCall = <A, E, R>(
  effect: Effect.Effect<A, E, R>
) => Effect.Effect<A, Exclude<E, SqlError.SqlError> | StorageUnavailable, R>

const asUnavailable = <E>(error: E) =>
  SqlError.isSqlError(error) ? new StorageUnavailable({ cause: error }) : (error as Exclude<E, SqlError.SqlError>)

/**
 * A call to a database across a network, which can go silent: it runs in its own fiber so the
 * deadline holds even while abandoning the query is slow (the driver drains the connection).
 */
const overNetwork: StorageCall = Effect.fnUntraced(function* <A, E, R>(effect: Effect.Effect<A, E, R>) {
  const call = yield* Effect.forkDetach(Effect.mapError(effect, asUnavailable))
  // Abandoning a query on a connection that went silent can itself take seconds: do it in the
  // background, so the deadline is the caller's deadline.
  const abandon = Effect.forkDetach(Fiber.interrupt(call))
  return yield* Fiber.join(call).pipe(
    Effect.timeoutOrElse({ duration: storageDeadline, orElse: () => Effect.andThen(abandon, Effect.fail(timedOut)) }),
    Effect.onInterrupt(() => abandon)
  )
})

/**
 * A call to the embedded database: node:sqlite runs each statement synchronously on this thread,
 * so no timer could interrupt it; its own bound is the busy timeout (5 s) on a locked file. A
 * fiber and a timer per call would cost a third of a task read and protect nothing.
 */
const inProcess: StorageCall = (effect) => Effect.mapError(effect, asUnavailable)

/** How calls to this database keep the storage promise. */
export const storageCallFor = (sql: SqlClient.SqlClient): StorageCall =>
  sql.onDialectOrElse({ sqlite: () => inProcess, orElse: () => overNetwork })

/**
 * A stored row that does not decode holds what the service never writes (a damaged row, a hand
 * edit, a migration gone wrong). Retrying would not mend it, so it is not `StorageUnavailable`:
 * it is logged with the table, the row and what failed, and the call dies (a 500 to a client).
 */
export const undecodableRow = (table: string, key: string) => (error: Schema.SchemaError) =>
  Effect.andThen(
    Effect.logError("a stored row does not decode").pipe(Effect.annotateLogs({ table, key, issue: error.message })),
    Effect.die(error)
  )

/**
 * Rows of a list decoded one by one by `schema`: a row that does not decode is logged as
 * `undecodableRow` is, and left out, so one damaged row never hides the others (nor stops the
 * dispatcher's timers for every other task).
 */
export const decodeEach = <S extends Schema.ConstraintDecoder<unknown>>(
  schema: S,
  table: string,
  keyOf: (row: unknown) => string
) => {
  const decode = Schema.decodeUnknownResult(schema)
  return (rows: ReadonlyArray<unknown>): Effect.Effect<Array<S["Type"]>> => {
    const decoded: Array<S["Type"]> = []
    const failures: Array<Effect.Effect<void>> = []
    for (const row of rows) {
      const result = decode(row)
      if (result._tag === "Success") decoded.push(result.success)
      else {
        failures.push(
          Effect.logError("a stored row does not decode; left out").pipe(
            Effect.annotateLogs({ table, key: keyOf(row), issue: result.failure.message })
          )
        )
      }
    }
    return failures.length === 0 ? Effect.succeed(decoded) : Effect.as(Effect.all(failures, { discard: true }), decoded)
  }
}

/**
 * A background round (a sweep, a claim) that may fail while storage is down, made quiet: a failure
 * gives `fallback` and is logged, but while rounds keep failing one line a minute says so rather
 * than one every interval; the first round that works again says that too.
 */
export const loggedOncePerMinute = <A, E, R>(
  round: Effect.Effect<A, E, R>,
  { failing, recovered, fallback }: { readonly failing: string; readonly recovered: string; readonly fallback: A }
): Effect.Effect<A, never, R> => {
  let failingSince: number | undefined
  let lastLogged = 0
  return round.pipe(
    Effect.tap(() => {
      if (failingSince === undefined) return Effect.void
      const since = failingSince
      failingSince = undefined
      return Effect.flatMap(Clock.currentTimeMillis, (now) =>
        Effect.logInfo(recovered).pipe(Effect.annotateLogs({ failed_for_ms: now - since }))
      )
    }),
    Effect.catchCause((cause) =>
      Effect.flatMap(Clock.currentTimeMillis, (now) => {
        failingSince ??= now
        if (now - lastLogged < 60_000) return Effect.succeed(fallback)
        lastLogged = now
        return Effect.logWarning(failing).pipe(Effect.annotateLogs({ cause: Cause.pretty(cause) }), Effect.as(fallback))
      })
    )
  )
}

/** A batch's transaction failed as a whole; its writes are then made one by one. */
const batchFailed = Symbol("batchFailed")

/**
 * Group commit for the embedded database: writes that arrive while the event loop is busy —
 * typically concurrent submissions — are made in one transaction, so they share one commit and one
 * fsync (SQLite keeps `synchronous=FULL`), instead of paying one each. Each caller still resumes
 * only once its own write is committed: nothing is acknowledged before it is on disk.
 *
 * A batch is whatever has queued by the time the writer runs (the scheduler runs it after the
 * I/O callbacks of the current turn). When any write of a batch fails, or the transaction itself
 * does, the batch is rolled back and its writes are made one by one, as they would be without
 * batching, so one failing write never fails its neighbours. On a networked database each write
 * simply runs as it comes: Postgres already shares WAL flushes between concurrent commits.
 */
export const groupCommit = <I, A, E>(
  sql: SqlClient.SqlClient,
  write: (item: I) => Effect.Effect<A, E>
): Effect.Effect<(item: I) => Effect.Effect<A, E>, never, Scope.Scope> =>
  sql.onDialectOrElse({
    orElse: () => Effect.succeed(write),
    sqlite: () =>
      Effect.gen(function* () {
        type Pending = { readonly item: I; readonly done: Deferred.Deferred<A, E> }
        const queue = yield* Queue.unbounded<Pending>()
        const oneByOne = (batch: ReadonlyArray<Pending>) =>
          Effect.forEach(
            batch,
            ({ item, done }) => Effect.flatMap(Effect.exit(write(item)), (exit) => Deferred.done(done, exit)),
            {
              discard: true
            }
          )
        // The generators below are made once, not per batch (docs/performance.md, "No generator function made per request").
        const writeAll = Effect.fnUntraced(function* (batch: ReadonlyArray<Pending>) {
          const exits: Array<Exit.Exit<A, E>> = []
          for (const { item } of batch) {
            const exit = yield* Effect.exit(write(item))
            if (Exit.isFailure(exit)) return yield* Effect.fail(batchFailed)
            exits.push(exit)
          }
          return exits
        })
        const inOneTransaction = (batch: ReadonlyArray<Pending>) => sql.withTransaction(writeAll(batch))
        const settle = Effect.fnUntraced(function* (batch: ReadonlyArray<Pending>) {
          const exits = batch.length === 1 ? undefined : yield* Effect.option(inOneTransaction(batch))
          if (exits === undefined || exits._tag === "None") return yield* oneByOne(batch)
          for (let i = 0; i < batch.length; i++) yield* Deferred.done(batch[i]!.done, exits.value[i]!)
        })
        const writeBatch = Effect.gen(function* () {
          const first = yield* Queue.takeAll(queue)
          // Let the rest of this turn's writers queue up behind the first.
          yield* Effect.yieldNow
          const batch = [...first, ...(yield* Queue.clear(queue))]
          yield* settle(batch).pipe(
            // A defect must not strand the callers, nor stop the writer for everyone after them.
            Effect.catchCause((cause) =>
              Effect.forEach(batch, ({ done }) => Deferred.failCause(done, cause as never), { discard: true })
            )
          )
        })
        yield* Effect.forever(writeBatch).pipe(
          // When the service stops, writes still queued are interrupted rather than left waiting.
          Effect.ensuring(
            Effect.flatMap(Queue.clear(queue), (left) =>
              Effect.forEach(left, ({ done }) => Deferred.interrupt(done), { discard: true })
            )
          ),
          Effect.forkScoped
        )
        return (item: I) =>
          Effect.flatMap(Deferred.make<A, E>(), (done) =>
            Effect.andThen(Queue.offer(queue, { item, done }), Deferred.await(done))
          )
      })
  })
