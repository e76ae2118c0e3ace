// The embedded authorization server's signing keys over the active test backend (SQLite or
// Postgres), as the server relies on them: one key made at first start whatever the race, a
// rotation that signs with the new key at once and keeps the old one published until the tokens
// it signed have expired, and a public form with nothing private in it. Time is the test clock.
import { createPublicKey, sign, verify } from "node:crypto"
import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { TestClock } from "effect/testing"
import { retiredKeyRetention } from "../../src/domain/signing_keys.ts"
import { publicJwk, SigningKeys } from "../../src/services/signing_keys.ts"
import { TestSqlLayer } from "../support/database.ts"

const T0 = Date.parse("2026-11-27T10:00:00.000Z")
const iso = (ms: number) => new Date(ms).toISOString()

const services = SigningKeys.layer.pipe(Layer.provideMerge(TestSqlLayer))

/** Runs `body` on the test clock set to T0, over a fresh database. */
const withKeys = <A, E>(body: Effect.Effect<A, E, SigningKeys | SqlClient.SqlClient>) =>
  Effect.scoped(
    Effect.gen(function* () {
      yield* TestClock.setTime(T0)
      return yield* Effect.provide(body, yield* Layer.build(services))
    })
  )

interface StoredKey {
  readonly kid: string
  readonly created_at: string
  readonly retired_at: string | null
}

/** Every stored key, in use first, newest first. */
const stored = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  return yield* sql<StoredKey>`
    SELECT kid, created_at, retired_at FROM oauth_signing_keys ORDER BY retired_at IS NOT NULL, created_at DESC, kid DESC
  `
})
const inUse = Effect.map(stored, (keys) => keys.filter((key) => key.retired_at === null).map((key) => key.kid))
/** The one key in use (there must be exactly one). */
const onlyKeyInUse = Effect.map(inUse, (kids) => {
  assert.strictEqual(kids.length, 1, `keys in use: ${kids.join(", ")}`)
  return kids[0] as string
})
const kidsOf = (set: { readonly keys: ReadonlyArray<{ readonly kid: string }> }) => set.keys.map((key) => key.kid)

const privateMembers = ["d", "p", "q", "dp", "dq", "qi"] as const

describe("SigningKeys", () => {
  it.effect("ensure makes one key, and a second ensure makes none", () =>
    withKeys(
      Effect.gen(function* () {
        const keys = yield* SigningKeys
        assert.deepStrictEqual(kidsOf(yield* keys.current), [])
        yield* keys.ensure
        const first = yield* onlyKeyInUse
        yield* keys.ensure
        assert.deepStrictEqual(yield* inUse, [first])
        assert.deepStrictEqual(kidsOf(yield* keys.current), [first])
        assert.deepStrictEqual(yield* stored, [{ kid: first, created_at: iso(T0), retired_at: null }])
      })
    )
  )

  it.effect("two processes starting at once make at most two keys; every reader puts the same one first", () =>
    withKeys(
      Effect.gen(function* () {
        const keys = yield* SigningKeys
        yield* Effect.all([keys.ensure, keys.ensure], { concurrency: "unbounded" })
        const kids = yield* inUse
        assert.isAtLeast(kids.length, 1)
        assert.isAtMost(kids.length, 2)
        const set = yield* keys.current
        // Both made at the same instant: the order falls to the kid, the same in every process.
        assert.deepStrictEqual(kidsOf(set), kids)
        assert.deepStrictEqual(kidsOf(yield* keys.current), kids)
        // A later start makes none.
        yield* keys.ensure
        assert.deepStrictEqual(yield* inUse, kids)
      })
    )
  )

  it.effect("of two keys in use, the one made later comes first and signs", () =>
    withKeys(
      Effect.gen(function* () {
        const keys = yield* SigningKeys
        const sql = yield* SqlClient.SqlClient
        yield* keys.ensure
        const older = yield* onlyKeyInUse
        // As a second process starting a moment later would have, before it saw the first key.
        yield* sql`UPDATE oauth_signing_keys SET retired_at = ${iso(T0)}`
        yield* TestClock.adjust(1)
        yield* keys.ensure
        yield* sql`UPDATE oauth_signing_keys SET retired_at = NULL`
        const [newer] = yield* inUse
        assert.notStrictEqual(newer, older)
        assert.deepStrictEqual(kidsOf(yield* keys.current), [newer, older])
      })
    )
  )

  it.effect(
    "rotate: the new key signs at once; the old one stays published for the retention, then is swept (list shows when)",
    () =>
      withKeys(
        Effect.gen(function* () {
          const keys = yield* SigningKeys
          yield* keys.ensure
          const old = yield* onlyKeyInUse
          const before = yield* keys.current
          yield* TestClock.adjust(60_000)

          const rotated = yield* keys.rotate
          assert.deepStrictEqual(rotated.retired, [old])
          assert.notStrictEqual(rotated.kid, old)
          const publishedUntil = iso(T0 + 60_000 + retiredKeyRetention)
          assert.strictEqual(rotated.publishedUntil, publishedUntil)
          assert.deepStrictEqual(yield* keys.list, [
            { kid: rotated.kid, createdAt: iso(T0 + 60_000), retiredAt: null, publishedUntil: null },
            { kid: old, createdAt: iso(T0), retiredAt: iso(T0 + 60_000), publishedUntil }
          ])
          const after = yield* keys.current
          assert.deepStrictEqual(kidsOf(after), [rotated.kid, old])
          assert.notStrictEqual(after.version, before.version)
          assert.deepStrictEqual(yield* inUse, [rotated.kid])
          // Nothing else makes a key meanwhile.
          yield* keys.ensure
          assert.deepStrictEqual(yield* inUse, [rotated.kid])

          yield* TestClock.adjust(retiredKeyRetention - 1)
          assert.strictEqual(yield* keys.sweep, 0)
          assert.deepStrictEqual(kidsOf(yield* keys.current), [rotated.kid, old])
          yield* TestClock.adjust(1)
          const expired = yield* keys.current
          assert.deepStrictEqual(kidsOf(expired), [rotated.kid])
          assert.deepStrictEqual(
            (yield* keys.list).map((key) => key.kid),
            [rotated.kid]
          )
          assert.notStrictEqual(expired.version, after.version)
          assert.strictEqual(yield* keys.sweep, 1)
          assert.deepStrictEqual(
            (yield* stored).map((key) => key.kid),
            [rotated.kid]
          )
          // A key in use is never swept, however old (a month here: every jump of the test clock runs
          // the Postgres pool's timers in between).
          yield* TestClock.adjust(30 * 24 * 3600_000)
          assert.strictEqual(yield* keys.sweep, 0)
          assert.deepStrictEqual(kidsOf(yield* keys.current), [rotated.kid])
        })
      )
  )

  it.effect("rotating twice keeps both retired keys published, newest first", () =>
    withKeys(
      Effect.gen(function* () {
        const keys = yield* SigningKeys
        yield* keys.ensure
        const first = yield* onlyKeyInUse
        yield* TestClock.adjust(1000)
        const second = yield* keys.rotate
        yield* TestClock.adjust(1000)
        const third = yield* keys.rotate
        assert.deepStrictEqual(third.retired, [second.kid])
        assert.deepStrictEqual(kidsOf(yield* keys.current), [third.kid, second.kid, first])
        yield* TestClock.adjust(retiredKeyRetention - 1000)
        assert.deepStrictEqual(kidsOf(yield* keys.current), [third.kid, second.kid])
        assert.strictEqual(yield* keys.sweep, 1)
      })
    )
  )

  it.effect("rotate on a database with no key makes exactly one, retiring nothing", () =>
    withKeys(
      Effect.gen(function* () {
        const keys = yield* SigningKeys
        const rotated = yield* keys.rotate
        assert.deepStrictEqual(rotated.retired, [])
        assert.deepStrictEqual(yield* inUse, [rotated.kid])
        assert.deepStrictEqual(kidsOf(yield* keys.current), [rotated.kid])
      })
    )
  )

  it.effect("keys are RSA for RS256 signatures; their public form has no private member", () =>
    withKeys(
      Effect.gen(function* () {
        const keys = yield* SigningKeys
        yield* keys.ensure
        yield* keys.rotate
        const set = yield* keys.current
        assert.strictEqual(set.keys.length, 2)
        for (const key of set.keys) {
          assert.strictEqual(key.kty, "RSA")
          assert.strictEqual(key.alg, "RS256")
          assert.strictEqual(key.use, "sig")
          assert.match(key.kid, /^[A-Za-z0-9_-]{16}$/)
          for (const member of privateMembers) assert.isString(key[member], member)

          const published = publicJwk(key)
          assert.deepStrictEqual(Object.keys(published).sort(), ["alg", "e", "kid", "kty", "n", "use"])
          for (const member of privateMembers) assert.notProperty(published, member)
          const verifier = createPublicKey({ key: published, format: "jwk" })
          assert.strictEqual(verifier.asymmetricKeyDetails?.modulusLength, 2048)
          // What the private key signs, the published one verifies.
          const data = Buffer.from("header.payload")
          const signature = sign("sha256", data, { key, format: "jwk" })
          assert.isTrue(verify("sha256", data, verifier, signature))
        }
        assert.notStrictEqual(set.keys[0]?.n, set.keys[1]?.n)
      })
    )
  )
})
