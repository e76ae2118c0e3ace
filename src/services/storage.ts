/**
 * What every storage call promises its caller: it answers within a deadline, and any database
 * failure (unreachable, restarting, timed out) is `StorageUnavailable` — a retryable condition the
 * HTTP adapter answers with 503 and `Retry-After` — never a defect or a hung request.
 */
import { Effect, Fiber } from "effect"
import { SqlError } from "effect/sql"
import { StorageUnavailable } from "../domain/errors.ts"

/** Longest a single storage operation may take before the request is answered 503. */
export const storageDeadline = "5 seconds"

const timedOut = new StorageUnavailable({ cause: "storage did not answer in time" })

export const asStorageCall = <A, E, R>(
  effect: Effect.Effect<A, E, R>
): Effect.Effect<A, Exclude<E, SqlError.SqlError> | StorageUnavailable, R> =>
  Effect.gen(function* () {
    const call = yield* Effect.forkDetach(
      Effect.mapError(effect, (error) =>
        SqlError.isSqlError(error) ? new StorageUnavailable({ cause: error }) : (error as Exclude<E, SqlError.SqlError>)
      )
    )
    // Abandoning a query on a connection that went silent can itself take seconds (the driver
    // drains the connection): do it in the background, so the deadline is the caller's deadline.
    const abandon = Effect.forkDetach(Fiber.interrupt(call))
    return yield* Fiber.join(call).pipe(
      Effect.timeoutOrElse({ duration: storageDeadline, orElse: () => Effect.andThen(abandon, Effect.fail(timedOut)) }),
      Effect.onInterrupt(() => abandon)
    )
  })
