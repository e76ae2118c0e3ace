/**
 * What every storage call promises its caller: it answers within a deadline, and any database
 * failure (unreachable, restarting, timed out) is `StorageUnavailable` — a retryable condition the
 * HTTP adapter answers with 503 and `Retry-After` — never a defect or a hung request.
 */
import { Effect, Fiber } from "effect"
import { type SqlClient, SqlError } from "effect/sql"
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
const overNetwork: StorageCall = (effect) =>
  Effect.gen(function* () {
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
