/**
 * Password hashing: scrypt, memory-hard (each hash needs 32 MiB, so guessing on GPUs or in parallel
 * is dear), through node:crypto's asynchronous `scrypt` (it runs on libuv's thread pool, never on
 * the event loop).
 *
 * A stored hash describes itself: `scrypt$<log2 N>$<r>$<p>$<salt, base64url>$<hash, base64url>`.
 * Verification reads the parameters from it, so they can be raised later: hashes made before keep
 * verifying, and `needsRehash` tells when one should be made again (Logins does it at the next
 * successful sign-in).
 *
 * Cost, measured with the current parameters (N = 2^15, r = 8, p = 1, 32-byte key) on the
 * development machine (2 shared cores, Node 24.21): one hash 80–105 ms; four at once 255 ms
 * (libuv's four threads sharing two cores). That is the price of every sign-in and every password
 * chosen, and what makes guessing slow.
 */
import { randomBytes, scrypt, timingSafeEqual } from "node:crypto"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"

/** scrypt's cost parameters: N = 2^log2N (CPU and memory), r (block size), p (parallelism). */
export interface ScryptParameters {
  readonly log2N: number
  readonly r: number
  readonly p: number
}

/** What new hashes are made with (docs/decisions/accounts.md says why these). */
export const currentParameters: ScryptParameters = { log2N: 15, r: 8, p: 1 }

const saltBytes = 16
const keyBytes = 32

/** The most memory a stored hash may ask for. */
const maximumMemoryBytes = 512 * 1024 * 1024

/** What scrypt allocates for these parameters (OpenSSL's own estimate: V and B). */
const memoryOf = ({ log2N, r, p }: ScryptParameters) => 128 * r * (2 ** log2N + p + 2)

interface StoredHash {
  readonly parameters: ScryptParameters
  readonly salt: Buffer
  readonly hash: Buffer
}

const base64url = /^[A-Za-z0-9_-]+$/
const smallInteger = /^[1-9][0-9]{0,2}$/

/** Reads a stored hash; undefined when it is not one this module writes. */
const parse = (stored: string): StoredHash | undefined => {
  const parts = stored.split("$")
  if (parts.length !== 6 || parts[0] !== "scrypt") return undefined
  const [, log2N, r, p, salt, hash] = parts as [string, string, string, string, string, string]
  if (!smallInteger.test(log2N) || !smallInteger.test(r) || !smallInteger.test(p)) return undefined
  if (!base64url.test(salt) || !base64url.test(hash)) return undefined
  const parameters = { log2N: Number(log2N), r: Number(r), p: Number(p) }
  // Bounded so a damaged or edited row cannot make one check take gigabytes, or minutes (p runs N × r p times).
  if (parameters.log2N > 30 || parameters.p > 16 || memoryOf(parameters) > maximumMemoryBytes) return undefined
  const decodedHash = Buffer.from(hash, "base64url")
  return decodedHash.length < 16 ? undefined : { parameters, salt: Buffer.from(salt, "base64url"), hash: decodedHash }
}

const format = ({ log2N, r, p }: ScryptParameters, salt: Buffer, hash: Buffer) =>
  `scrypt$${log2N}$${r}$${p}$${salt.toString("base64url")}$${hash.toString("base64url")}`

/**
 * The key scrypt derives. The password is taken in Unicode's composed form (NFC), so the same
 * characters typed on two systems that compose accents differently are the same password.
 */
const derive = (password: string, salt: Buffer, keyLength: number, parameters: ScryptParameters) =>
  Effect.callback<Buffer>((resume) => {
    scrypt(
      password.normalize("NFC"),
      salt,
      keyLength,
      { N: 2 ** parameters.log2N, r: parameters.r, p: parameters.p, maxmem: memoryOf(parameters) + 1024 * 1024 },
      (error, key) => resume(error === null ? Effect.succeed(key) : Effect.die(error))
    )
  })

/** A stored hash that is not in the form above: a damaged row, not a wrong password. */
const unreadableHash = Effect.die(new Error("a stored password hash is not in the scrypt$log2N$r$p$salt$hash form"))

export class Passwords extends Context.Service<
  Passwords,
  {
    /** A new stored hash of `password` (fresh salt, current parameters). */
    hash(password: string): Effect.Effect<string>
    /** Whether `password` is the one `stored` was made from, compared in constant time. */
    verify(password: string, stored: string): Effect.Effect<boolean>
    /**
     * A verification that costs what a real one costs and always answers false: for a sign-in
     * with no stored hash to check (unknown address, no password yet), so its timing tells nothing.
     */
    verifyNothing(password: string): Effect.Effect<false>
    /** Whether `stored` was made with other parameters than new hashes are. */
    needsRehash(stored: string): boolean
  }
>()("task-marketplace/services/Passwords") {
  /** Hashing with `parameters` (tests use cheaper ones to check that stored parameters are honoured). */
  static readonly layerWith = (parameters: ScryptParameters) =>
    Layer.sync(Passwords, () => {
      const hash = Effect.fn("Passwords.hash")(function* (password: string) {
        const salt = randomBytes(saltBytes)
        return format(parameters, salt, yield* derive(password, salt, keyBytes, parameters))
      })

      const verify = Effect.fn("Passwords.verify")(function* (password: string, stored: string) {
        const parsed = parse(stored)
        if (parsed === undefined) return yield* unreadableHash
        const derived = yield* derive(password, parsed.salt, parsed.hash.length, parsed.parameters)
        return timingSafeEqual(derived, parsed.hash)
      })

      // Random salt and random "hash", made once: nothing derives to it (2^-256), and checking
      // against it runs scrypt with the current parameters, as checking a real hash does.
      const nothing = format(parameters, randomBytes(saltBytes), randomBytes(keyBytes))
      const verifyNothing = Effect.fn("Passwords.verifyNothing")((password: string) =>
        Effect.as(verify(password, nothing), false as const)
      )

      const needsRehash = (stored: string) => {
        const parsed = parse(stored)
        return (
          parsed === undefined ||
          parsed.parameters.log2N !== parameters.log2N ||
          parsed.parameters.r !== parameters.r ||
          parsed.parameters.p !== parameters.p ||
          parsed.hash.length !== keyBytes
        )
      }

      return Passwords.of({ hash, verify, verifyNothing, needsRehash })
    })

  static readonly layer = Passwords.layerWith(currentParameters)
}
