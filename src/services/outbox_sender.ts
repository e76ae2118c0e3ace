/**
 * One sender loop for an outbox (webhook events, mails): every process claims what is due, as many
 * as there is room for, and starts their attempts; it is woken when an item is committed or an
 * attempt ends, and looks again every interval otherwise. A claim is a random token with a lease:
 * one process attempts an item, and an item whose process died is claimed again once its lease
 * lapses. What an attempt is, and how its outcome is recorded, is the outbox's own.
 */
import { randomBytes } from "node:crypto"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as FiberSet from "effect/FiberSet"
import type * as Scope from "effect/Scope"
import { loggedOncePerMinute } from "./storage.ts"

export interface OutboxSender<Item, E> {
  /** How many attempts one process makes at once. */
  readonly maxInFlight: number
  /** How long a claim holds an item: longer than an attempt can take. */
  readonly leaseMs: number
  /** The due items (at most `limit`), claimed under `claim` until `leaseUntil`. */
  readonly claimDue: (
    now: string,
    leaseUntil: string,
    claim: string,
    limit: number
  ) => Effect.Effect<ReadonlyArray<Item>, E>
  /** One attempt of an item, its outcome recorded under the claim. */
  readonly attempt: (item: Item, claim: string) => Effect.Effect<void, unknown>
  /** Logs an attempt whose outcome could not be recorded (it is made again once its claim lapses). */
  readonly notRecorded: (item: Item, cause: unknown) => Effect.Effect<void>
  /** Wakes the loop: an attempt ended, so another item may be due. */
  readonly wake: Effect.Effect<void>
  /** The loop's pause: over after `timeoutMs`, or at once when woken. */
  readonly nextDue: (timeoutMs: number) => Effect.Effect<void>
  /** How long the loop waits when nothing woke it (TIMER_SWEEP_INTERVAL). */
  readonly sweepMs: number
  /** What the log says while claiming fails, and once it works again. */
  readonly failing: string
  readonly recovered: string
}

const iso = (ms: number) => new Date(ms).toISOString()

/** Runs the loop in the background for as long as the scope lasts. */
export const runOutboxSender = <Item, E>(sender: OutboxSender<Item, E>): Effect.Effect<void, never, Scope.Scope> =>
  Effect.gen(function* () {
    const attempts = yield* FiberSet.make()

    /** Claims what is due, as many as there is room for, and starts their attempts. */
    const claimAndStart = Effect.gen(function* () {
      const room = sender.maxInFlight - (yield* FiberSet.size(attempts))
      if (room <= 0) return { room, started: 0 }
      const now = yield* Clock.currentTimeMillis
      const claim = randomBytes(12).toString("base64url")
      const due = yield* sender.claimDue(iso(now), iso(now + sender.leaseMs), claim, room)
      for (const item of due) {
        yield* FiberSet.run(
          attempts,
          sender.attempt(item, claim).pipe(
            // An attempt whose outcome could not be recorded is made again once its claim lapses.
            Effect.catchCause((cause) => sender.notRecorded(item, cause)),
            // The item's successor may be due now.
            Effect.ensuring(sender.wake)
          )
        )
      }
      return { room, started: due.length }
    })

    const round = loggedOncePerMinute(claimAndStart, {
      failing: sender.failing,
      recovered: sender.recovered,
      fallback: { room: 0, started: 0 }
    })

    yield* Effect.gen(function* () {
      for (;;) {
        const { room, started } = yield* round
        // Room left and less found than there was room for: nothing more is due until woken.
        if (room <= 0 || started < room) yield* sender.nextDue(sender.sweepMs)
      }
    }).pipe(Effect.forkScoped)
  })
