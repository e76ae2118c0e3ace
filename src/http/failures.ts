/**
 * The one translation of "storage is unavailable" into the envelope, shared by every handler:
 * reads and validations answer 503 `storage_unavailable`; a submission answers 503
 * `task_not_created` (see tasks.ts), whose retry with the same key is safe.
 */
import { Effect } from "effect"
import { envelopeError, type ServiceUnavailable } from "../api/envelope.ts"
import { StorageUnavailable } from "../domain/errors.ts"

/** Seconds a client should wait before retrying when storage is unavailable. */
export const retryAfterSeconds = 2

export const orStorageUnavailable =
  (docsUrl: string) =>
  <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, Exclude<E, StorageUnavailable> | ServiceUnavailable, R> =>
    Effect.catchIf(
      effect,
      (error): error is Extract<E, StorageUnavailable> => error instanceof StorageUnavailable,
      () =>
        Effect.fail(
          envelopeError(docsUrl, "storage_unavailable", "Storage is unavailable right now; nothing was changed.", {
            hint: `Retry in ${retryAfterSeconds} seconds.`
          })
        )
    ) as Effect.Effect<A, Exclude<E, StorageUnavailable> | ServiceUnavailable, R>
