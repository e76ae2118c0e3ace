/**
 * Sign-in throttling: each attempt is counted against its limits before the password is checked.
 * A browser that signed in to the login before presents its device token (devices.ts) and is
 * counted on its own; strangers (no token, or one that is not this login's) share the login's
 * count, and each client address has one. So strangers' guesses never lock out the holder's own
 * browser (domain/login.ts has the limits; docs/decisions/sign-in-throttling.md the reasons).
 */
import { timingSafeEqual } from "node:crypto"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import { SignInRefused, type StorageUnavailable } from "../../domain/errors.ts"
import {
  accountFailureLimit,
  addressFailureLimit,
  deviceFailureLimit,
  deviceTrustMs,
  signInWindowMs
} from "../../domain/login.ts"
import type { AttemptLimits } from "../attempt_limits.ts"
import { devicePattern, deviceSignature } from "./devices.ts"
import { hashOf } from "./links.ts"
import type { LoginRow } from "./rows.ts"

/**
 * The gate sign-ins pass, over the attempt limits and the key device tokens are signed with
 * (read only when a device token is presented).
 */
export const signInGate = (
  limits: AttemptLimits["Service"],
  deviceSecret: Effect.Effect<string, StorageUnavailable>
) => {
  /**
   * The attempt counter of the browser presenting `token`, when it is a device token of `row`'s
   * login, signed with our key, for its current password, issued less than `deviceTrustMs` ago;
   * undefined otherwise (no token, another login's, forged, garbled, expired): a stranger.
   */
  const trustedDeviceKey = Effect.fnUntraced(function* (token: string | undefined, row: LoginRow | undefined) {
    if (token === undefined || row === undefined) return undefined
    const parts = devicePattern.exec(token)
    if (parts === null || parts[1] !== row.id) return undefined
    const [, loginId, issuedMs, deviceId, signature] = parts as unknown as [string, string, string, string, string]
    if ((yield* Clock.currentTimeMillis) - Number(issuedMs) >= deviceTrustMs) return undefined
    const expected = Buffer.from(
      deviceSignature(yield* deviceSecret, loginId, issuedMs, deviceId, row.password_changed_at)
    )
    const given = Buffer.from(signature)
    return expected.length === given.length && timingSafeEqual(expected, given)
      ? `device:${loginId}:${deviceId}`
      : undefined
  })

  /**
   * Counts the attempt against its limits before the password is checked: a trusted device's
   * against its own; a stranger's against the login's shared count (an unknown address's under a
   * key of its own) and the client address's. The keys to settle on success, or the refusal.
   */
  const admit = Effect.fnUntraced(function* (
    key: string,
    row: LoginRow | undefined,
    address: string,
    device: string | undefined
  ) {
    // Each check counts the attempt in the same statement (`take`), so concurrent guesses cannot
    // all slip in under the limit; a success takes its count back.
    const deviceKey = yield* trustedDeviceKey(device, row)
    if (deviceKey !== undefined) {
      const own = yield* limits.take(deviceKey, deviceFailureLimit, signInWindowMs)
      if (own._tag === "Closed") return yield* SignInRefused.throttled(own.retryAfterSeconds)
      return { _tag: "Device", deviceKey } as const
    }
    // An address without a login is counted under a key of its own, so that being throttled
    // tells no more than the refusal does about which addresses have logins.
    const accountKey = row === undefined ? `email:${hashOf(key)}` : `account:${row.id}`
    const addressKey = `address:${address}`
    const account = yield* limits.take(accountKey, accountFailureLimit, signInWindowMs)
    if (account._tag === "Closed") return yield* SignInRefused.throttled(account.retryAfterSeconds)
    const client = yield* limits.take(addressKey, addressFailureLimit, signInWindowMs)
    if (client._tag === "Closed") {
      yield* limits.forgive(accountKey, signInWindowMs)
      return yield* SignInRefused.throttled(client.retryAfterSeconds)
    }
    return { _tag: "Stranger", accountKey, addressKey } as const
  })

  return { admit }
}
