/**
 * Identifiers and secrets: task references (`tsk_` + 130 random bits, base32) drawn from the
 * platform's CSPRNG, and login ids (`acct_` +
 * 132 random bits, base64url: the OAuth subject of a participant's login). A service so tests can
 * make them predictable.
 */
import { randomBytes } from "node:crypto"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"

const alphabet = "abcdefghijklmnopqrstuvwxyz234567"

/** Lower-case RFC 4648 base32 without padding. */
export const base32 = (bytes: Uint8Array): string => {
  let out = ""
  let buffer = 0
  let bits = 0
  for (const byte of bytes) {
    buffer = (buffer << 8) | byte
    bits += 8
    while (bits >= 5) {
      out += alphabet[(buffer >>> (bits - 5)) & 31]
      bits -= 5
    }
  }
  if (bits > 0) out += alphabet[(buffer << (5 - bits)) & 31]
  return out
}

/** A reference is `tsk_` and 26 base32 characters; anything else cannot name a task. */
export const referencePattern = /^tsk_[a-z2-7]{26}$/

/** A login id is `acct_` and 22 base64url characters. */
export const loginIdPattern = /^acct_[A-Za-z0-9_-]{22}$/

export class Ids extends Context.Service<
  Ids,
  { readonly taskReference: Effect.Effect<string>; readonly loginId: Effect.Effect<string> }
>()("task-marketplace/services/Ids") {
  static readonly layer = Layer.succeed(
    Ids,
    Ids.of({
      taskReference: Effect.sync(() => `tsk_${base32(randomBytes(17)).slice(0, 26)}`),
      // Logins are made by hand, one at a time: no pool. 17 bytes give 22 characters of 6 random bits each.
      loginId: Effect.sync(() => `acct_${randomBytes(17).toString("base64url").slice(0, 22)}`)
    })
  )
}
