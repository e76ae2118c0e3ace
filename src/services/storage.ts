/**
 * What every storage call promises its caller: it answers within a deadline, and any database
 * failure (unreachable, restarting, timed out) is `StorageUnavailable` — a retryable condition the
 * HTTP adapter answers with 503 and `Retry-After` — never a defect or a hung request.
 */
import { Effect } from "effect"
import { SqlError } from "effect/sql"
import { StorageUnavailable } from "../domain/errors.ts"

/** Longest a single storage operation may take before the request is answered 503. */
export const storageDeadline = "5 seconds"

export const asStorageCall = <A, E, R>(
  effect: Effect.Effect<A, E, R>
): Effect.Effect<A, Exclude<E, SqlError.SqlError> | StorageUnavailable, R> =>
  effect.pipe(
    Effect.mapError((error) =>
      SqlError.isSqlError(error) ? new StorageUnavailable({ cause: error }) : (error as Exclude<E, SqlError.SqlError>)
    ),
    Effect.timeoutOrElse({
      duration: storageDeadline,
      orElse: () => Effect.fail(new StorageUnavailable({ cause: "storage did not answer in time" }))
    })
  )
