/**
 * Per-client request limits (DECISIONS §11): reads and writes are counted apart, per client
 * address, as token buckets — a client may burst up to the limit, then proceeds at the limit's
 * rate. Counters are in-process by default; with REDIS_URL they live in Redis, so the limit holds
 * across every process behind one address.
 *
 * When Redis is unreachable the limiter fails open (and logs): losing rate limiting for a moment
 * is better than refusing every request.
 */
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as RateLimiter from "effect/persistence/RateLimiter"
import * as Redacted from "effect/Redacted"
import { AppConfig } from "../config/app_config.ts"

export type RequestKind = "read" | "write"

export interface LimitState {
  readonly limit: number
  readonly remaining: number
  /** Seconds until the bucket is full again. */
  readonly resetSeconds: number
  /** Set when the request is refused: seconds until one more request is allowed. */
  readonly retryAfterSeconds: number | undefined
}

export class RateLimits extends Context.Service<
  RateLimits,
  {
    /** Counts one request of a client; undefined when limits are off. */
    consume(client: string, kind: RequestKind): Effect.Effect<LimitState | undefined>
  }
>()("task-marketplace/services/RateLimits") {
  static readonly layer = Layer.unwrap(
    Effect.gen(function* () {
      const config = yield* AppConfig
      const settings = config.rateLimit
      if (settings === undefined) {
        return Layer.succeed(RateLimits, RateLimits.of({ consume: () => Effect.succeed(undefined) }))
      }
      // The Redis client is loaded only when REDIS_URL asks for it (it adds ~0.3 s to start-up).
      const redisUrl = config.redisUrl
      const store =
        redisUrl === undefined
          ? RateLimiter.layerStoreMemory
          : RateLimiter.layerStoreRedis({ prefix: `${config.redisKeyPrefix}ratelimit:` }).pipe(
              Layer.provide(
                Layer.unwrap(
                  Effect.map(
                    Effect.promise(() => import("@effect/platform-node/NodeRedis")),
                    (NodeRedis) => NodeRedis.layer({ url: Redacted.value(redisUrl) })
                  )
                )
              )
            )
      return Layer.effect(
        RateLimits,
        Effect.gen(function* () {
          const limiter = yield* RateLimiter.RateLimiter
          const seconds = (d: Duration.Duration) => Math.max(0, Math.ceil(Duration.toMillis(d) / 1000))
          const consume = Effect.fn("RateLimits.consume")((client: string, kind: RequestKind) => {
            const limit = kind === "read" ? settings.readsPerWindow : settings.writesPerWindow
            return limiter
              .consume({
                algorithm: "token-bucket",
                onExceeded: "fail",
                window: settings.windowMs,
                limit,
                key: `${kind}:${client}`
              })
              .pipe(
                Effect.map(
                  (result): LimitState => ({
                    limit,
                    remaining: Math.max(0, Math.floor(result.remaining)),
                    resetSeconds: seconds(result.resetAfter),
                    retryAfterSeconds: undefined
                  })
                ),
                Effect.catch((error) =>
                  error.reason._tag === "RateLimitExceeded"
                    ? Effect.succeed<LimitState>({
                        limit,
                        remaining: 0,
                        resetSeconds: Math.max(1, seconds(error.reason.retryAfter)),
                        retryAfterSeconds: Math.max(1, seconds(error.reason.retryAfter))
                      })
                    : Effect.logWarning("rate limiting unavailable; allowing the request").pipe(
                        Effect.annotateLogs({ reason: error.reason.message }),
                        Effect.as(undefined)
                      )
                )
              )
          })
          return RateLimits.of({ consume })
        })
      ).pipe(Layer.provide(RateLimiter.layer), Layer.provide(store))
    })
  )
}
