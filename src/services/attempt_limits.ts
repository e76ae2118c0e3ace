/**
 * Attempt limits: how many attempts of some kind a key (`account:<login id>`, `address:<client
 * address>`, …) has had in a fixed window, kept in the database (`sign_in_attempts`) so the limit
 * holds across every process sharing it. Sign-ins count their failures here (services/logins/sign_in.ts);
 * the authorization server counts dynamic client registrations per address the same way.
 *
 * A window starts with its key's first counted attempt and lasts `windowMs`; the first attempt
 * counted after it ends starts the next one at zero. Every change is one atomic statement (an
 * upsert whose SET and WHERE read the row as it is), never a read followed by a write, so
 * concurrent attempts in several processes are counted exactly: `take` admits at most `limit`
 * attempts a window, however many arrive together.
 *
 * A counter whose window started more than `longestWindowMs` ago has ended, whatever window it was
 * counted over; `sweep` deletes those (the authorization server's sweeper calls it every minute),
 * so keys seen once — client addresses, mistyped addresses — do not pile up.
 */
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import * as SqlClient from "effect/sql/SqlClient"
import * as SqlSchema from "effect/sql/SqlSchema"
import type { StorageUnavailable } from "../domain/errors.ts"
import { IntegerColumn } from "../sql/columns.ts"
import { storageCallFor, undecodableRow } from "./storage.ts"

/**
 * The longest window a caller may count over (sign-ins count over 15 minutes, registrations over
 * an hour): counters are swept once this has passed since their window started. A longer window
 * is refused as a defect, since the sweep would cut it short.
 */
export const longestWindowMs = 24 * 3600_000

/** Where a key stands: attempts left in its window, or how long until one is counted again. */
export type LimitState =
  | { readonly _tag: "Open"; readonly remaining: number }
  | { readonly _tag: "Closed"; readonly retryAfterSeconds: number }

export class AttemptLimits extends Context.Service<
  AttemptLimits,
  {
    /** Where `key` stands against `limit` attempts per `windowMs`; counts nothing. */
    check(key: string, limit: number, windowMs: number): Effect.Effect<LimitState, StorageUnavailable>
    /**
     * Counts one attempt when the window has room (`Open`, with what is left after this one);
     * counts nothing when it is full (`Closed`). Check and count are one statement: this is the
     * way to let an attempt through.
     */
    take(key: string, limit: number, windowMs: number): Effect.Effect<LimitState, StorageUnavailable>
    /** Counts one attempt whatever the limit; the attempts counted in the window now. */
    fail(key: string, windowMs: number): Effect.Effect<number, StorageUnavailable>
    /**
     * Takes back one attempt counted in the current window, for one `take` let through that should
     * not count after all (a sign-in that succeeded). Once the window has ended there is nothing to
     * take back.
     */
    forgive(key: string, windowMs: number): Effect.Effect<void, StorageUnavailable>
    /** Forgets every attempt of `key` (a successful sign-in clears its account's count). */
    clear(key: string): Effect.Effect<void, StorageUnavailable>
    /** Deletes the counters whose window started `longestWindowMs` ago or more; returns how many. */
    readonly sweep: Effect.Effect<number, StorageUnavailable>
  }
>()("task-marketplace/services/AttemptLimits") {
  static readonly layer = Layer.effect(
    AttemptLimits,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const asStorageCall = storageCallFor(sql)

      const Window = Schema.Struct({ failures: IntegerColumn, window_started_at: Schema.String })
      const windowOf = SqlSchema.findOneOption({
        Request: Schema.String,
        Result: Window,
        execute: (key) => sql`SELECT failures, window_started_at FROM sign_in_attempts WHERE key = ${key}`
      })
      const decodeWindow = Schema.decodeUnknownEffect(Window)

      /** The instant and the start of the oldest window still running at it, as stored (ISO 8601). */
      const instants = (windowMs: number) =>
        windowMs > longestWindowMs
          ? Effect.die(new RangeError(`an attempt window of ${windowMs} ms is longer than ${longestWindowMs} ms`))
          : Effect.map(Clock.currentTimeMillis, (now) => ({
              nowMs: now,
              now: new Date(now).toISOString(),
              // A window that started at or before this has ended.
              endedBy: new Date(now - windowMs).toISOString()
            }))

      const stateOf = (
        window: typeof Window.Type | undefined,
        limit: number,
        windowMs: number,
        nowMs: number
      ): LimitState => {
        const endsAt = window === undefined ? 0 : Date.parse(window.window_started_at) + windowMs
        if (window === undefined || endsAt <= nowMs) return { _tag: "Open", remaining: limit }
        if (window.failures < limit) return { _tag: "Open", remaining: limit - window.failures }
        return { _tag: "Closed", retryAfterSeconds: Math.max(1, Math.ceil((endsAt - nowMs) / 1000)) }
      }

      const readWindow = (key: string) =>
        windowOf(key).pipe(
          Effect.map((row) => (row._tag === "Some" ? row.value : undefined)),
          Effect.catchTag("SchemaError", undecodableRow("sign_in_attempts", `key ${key}`))
        )

      const check = Effect.fn("AttemptLimits.check")(function* (key: string, limit: number, windowMs: number) {
        const { nowMs } = yield* instants(windowMs)
        return stateOf(yield* readWindow(key), limit, windowMs, nowMs)
      }, asStorageCall)

      /**
       * One more attempt for `key`, or a fresh window holding this one when the last has ended;
       * when `limit` is given, only while the window has room (no row comes back otherwise).
       */
      const count = (key: string, now: string, endedBy: string, limit: number | undefined) => sql`
        INSERT INTO sign_in_attempts (key, failures, window_started_at) VALUES (${key}, 1, ${now})
        ON CONFLICT (key) DO UPDATE SET
          failures = CASE WHEN sign_in_attempts.window_started_at <= ${endedBy} THEN 1
            ELSE sign_in_attempts.failures + 1 END,
          window_started_at = CASE WHEN sign_in_attempts.window_started_at <= ${endedBy} THEN excluded.window_started_at
            ELSE sign_in_attempts.window_started_at END
        ${limit === undefined ? sql`` : sql`WHERE sign_in_attempts.window_started_at <= ${endedBy} OR sign_in_attempts.failures < ${limit}`}
        RETURNING failures, window_started_at
      `

      const take = Effect.fn("AttemptLimits.take")(function* (key: string, limit: number, windowMs: number) {
        if (!(limit >= 1)) return { _tag: "Closed", retryAfterSeconds: Math.ceil(windowMs / 1000) } as const
        const { now, nowMs, endedBy } = yield* instants(windowMs)
        const [counted] = yield* count(key, now, endedBy, limit)
        if (counted !== undefined) {
          const { failures } = yield* decodeWindow(counted).pipe(
            Effect.catchTag("SchemaError", undecodableRow("sign_in_attempts", `key ${key}`))
          )
          return { _tag: "Open", remaining: Math.max(0, limit - failures) } as const
        }
        // Full: how long until its window ends (had it just ended, the next attempt may go).
        const state = stateOf(yield* readWindow(key), limit, windowMs, nowMs)
        return state._tag === "Closed" ? state : ({ _tag: "Closed", retryAfterSeconds: 1 } as const)
      }, asStorageCall)

      const fail = Effect.fn("AttemptLimits.fail")(function* (key: string, windowMs: number) {
        const { now, endedBy } = yield* instants(windowMs)
        const [counted] = yield* count(key, now, endedBy, undefined)
        const { failures } = yield* decodeWindow(counted).pipe(
          Effect.catchTag("SchemaError", undecodableRow("sign_in_attempts", `key ${key}`))
        )
        return failures
      }, asStorageCall)

      const forgive = Effect.fn("AttemptLimits.forgive")(function* (key: string, windowMs: number) {
        const { endedBy } = yield* instants(windowMs)
        yield* sql`
          UPDATE sign_in_attempts SET failures = failures - 1
          WHERE key = ${key} AND failures > 0 AND window_started_at > ${endedBy}
        `
      }, asStorageCall)

      const clear = Effect.fn("AttemptLimits.clear")(function* (key: string) {
        yield* sql`DELETE FROM sign_in_attempts WHERE key = ${key}`
      }, asStorageCall)

      const sweep = Effect.gen(function* () {
        const endedBy = new Date((yield* Clock.currentTimeMillis) - longestWindowMs).toISOString()
        const deleted = yield* sql<{ key: string }>`
          DELETE FROM sign_in_attempts WHERE window_started_at <= ${endedBy} RETURNING key
        `
        return deleted.length
      }).pipe(asStorageCall, Effect.withSpan("AttemptLimits.sweep"))

      return AttemptLimits.of({ check, take, fail, forgive, clear, sweep })
    })
  )
}
