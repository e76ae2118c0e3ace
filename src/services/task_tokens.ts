/**
 * Task tokens: the agent's bearer credential for one task (`tt_` + 256 bits), and the secret its
 * webhook events are signed with (`whsec_` + 256 bits in base64, as Standard Webhooks writes one).
 *
 * A token is derived as HMAC-SHA256(secret, reference), so an idempotent replay can hand the same
 * token back while the database keeps only its SHA-256 hash (a leaked database grants nothing).
 * The webhook secret is derived the same way from another input, so it is kept nowhere at all.
 * The secret comes from TASK_TOKEN_SECRET; when unset, one is generated once and kept in the
 * database so every process sharing it derives the same tokens.
 */
import { createHmac, hash as oneShotHash, timingSafeEqual } from "node:crypto"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import { AppConfig } from "../config/app_config.ts"
import { storedSecret } from "./service_secrets.ts"

export class TaskTokens extends Context.Service<
  TaskTokens,
  {
    /** The token of a task (same reference → same token). */
    tokenFor(reference: string): string
    /** The secret a task's webhook events are signed with (same reference → same secret). */
    webhookSecretFor(reference: string): string
    /** What the database stores for a token. */
    hash(token: string): string
    /** Constant-time check of a presented token against the stored hash. */
    matches(token: string, storedHash: string): boolean
  }
>()("task-marketplace/services/TaskTokens") {
  static readonly layer = Layer.effect(
    TaskTokens,
    Effect.gen(function* () {
      const config = yield* AppConfig
      const secret =
        config.taskTokenSecret === undefined
          ? yield* Effect.orDie(storedSecret("task_token"))
          : Redacted.value(config.taskTokenSecret)
      return TaskTokens.of(make(secret))
    })
  )
}

const make = (secret: string): TaskTokens["Service"] => {
  // One-shot hashing (crypto.hash): half the cost of a Hash object for a short input.
  const hash = (token: string) => oneShotHash("sha256", token, "base64url")
  return {
    tokenFor: (reference) => `tt_${createHmac("sha256", secret).update(reference).digest("base64url")}`,
    // A different input than the token's (no reference contains a NUL), so neither reveals the other.
    webhookSecretFor: (reference) =>
      `whsec_${createHmac("sha256", secret).update(`webhook\u0000${reference}`).digest("base64")}`,
    hash,
    matches: (token, storedHash) => {
      const a = Buffer.from(hash(token))
      const b = Buffer.from(storedHash)
      return a.length === b.length && timingSafeEqual(a, b)
    }
  }
}
