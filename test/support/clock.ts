/**
 * A clock a test moves forward, for a server run in the test's process (`startServer({ clock })`):
 * the real time plus an offset that only grows, as the sandbox's clock is outside a sandbox. Every
 * instant the service reads through Effect's `Clock` moves with it — offers lapsing, review windows,
 * deadlines, token expiry — while every wait stays real (a sweep every 50 ms is still 50 ms, a long
 * poll still returns), so the server keeps running as it does in production. Effect's `TestClock`
 * would stop those waits too, which an HTTP server cannot do without.
 *
 * For a test whose subject is a wait itself (a tool call that waits 30 s, reporting progress every
 * 10 s), `fastClock` runs a server's time `speed` times faster: its instants and its waits alike.
 */
import { Clock, Duration, Effect, Layer } from "effect"

export interface MovableClock {
  /** Provides this clock to a layer (the server's). */
  readonly layer: Layer.Layer<never>
  /** The service's time now, in milliseconds. */
  readonly now: () => number
  /** Moves the time forward by `ms`; the server's next sweep sees the new time. */
  readonly advance: (ms: number) => void
}

export const movableClock = (): MovableClock => {
  const real = Clock.Clock.defaultValue()
  const offset = { ms: 0 }
  const nanos = () => BigInt(offset.ms) * 1_000_000n
  const clock: Clock.Clock = {
    currentTimeMillisUnsafe: () => real.currentTimeMillisUnsafe() + offset.ms,
    currentTimeMillis: Effect.sync(() => real.currentTimeMillisUnsafe() + offset.ms),
    currentTimeNanosUnsafe: () => real.currentTimeNanosUnsafe() + nanos(),
    currentTimeNanos: Effect.sync(() => real.currentTimeNanosUnsafe() + nanos()),
    monotonicTimeNanosUnsafe: () => real.monotonicTimeNanosUnsafe(),
    monotonicTimeNanos: real.monotonicTimeNanos,
    sleep: (duration) => real.sleep(duration)
  }
  return {
    layer: Layer.succeed(Clock.Clock, clock),
    now: () => clock.currentTimeMillisUnsafe(),
    advance: (ms) => {
      if (ms < 0) throw new Error("the clock only moves forward")
      offset.ms += ms
    }
  }
}

/**
 * A clock whose time runs `speed` times faster than real time, waits included (a wait of 10 s takes
 * 10 s ÷ `speed`), for a server of its own: everything on it (sweeps, token expiry) runs faster too.
 */
export const fastClock = (speed: number): { readonly layer: Layer.Layer<never>; readonly now: () => number } => {
  const real = Clock.Clock.defaultValue()
  const startedAt = real.currentTimeMillisUnsafe()
  const startedAtNanos = real.monotonicTimeNanosUnsafe()
  const millis = () => startedAt + (real.currentTimeMillisUnsafe() - startedAt) * speed
  const monotonic = () => startedAtNanos + (real.monotonicTimeNanosUnsafe() - startedAtNanos) * BigInt(speed)
  const clock: Clock.Clock = {
    currentTimeMillisUnsafe: millis,
    currentTimeMillis: Effect.sync(millis),
    currentTimeNanosUnsafe: () => BigInt(Math.round(millis())) * 1_000_000n,
    currentTimeNanos: Effect.sync(() => BigInt(Math.round(millis())) * 1_000_000n),
    monotonicTimeNanosUnsafe: monotonic,
    monotonicTimeNanos: Effect.sync(monotonic),
    sleep: (duration) => real.sleep(Duration.divideUnsafe(duration, speed))
  }
  return { layer: Layer.succeed(Clock.Clock, clock), now: millis }
}
