/**
 * The embedded authorization server's signing keys (RS256), kept in the database so every process
 * signs and verifies with the same ones.
 *
 * - A key is made at first start (`ensure`). Two processes starting at once may each make one:
 *   harmless, both are published and the newest signs.
 * - `rotate` (the operator's `keys rotate`) adds a new key and retires the others. A retired key
 *   stays published — so the tokens it signed still verify — for `retiredKeyRetention`, longer
 *   than any token it can have signed lives; then `sweep` deletes it.
 * - `version` names the published set, so a process notices a rotation made elsewhere and reloads.
 */
import { generateKeyPair, type JsonWebKey, randomBytes } from "node:crypto"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import * as SqlClient from "effect/sql/SqlClient"
import * as SqlSchema from "effect/sql/SqlSchema"
import type * as Statement from "effect/sql/Statement"
import { AppConfig } from "../config/app_config.ts"
import { isEmbeddedIssuer } from "../config/settings.ts"
import type { StorageUnavailable } from "../domain/errors.ts"
import { retiredKeyRetention } from "../domain/signing_keys.ts"
import { storageCallFor, undecodableRow } from "./storage.ts"

/** A private RSA key as a JWK, with its `kid`, `alg` and `use`. */
export type PrivateJwk = JsonWebKey & {
  readonly kty: "RSA"
  readonly n: string
  readonly e: string
  readonly kid: string
  readonly alg: "RS256"
  readonly use: "sig"
}

export interface KeySet {
  /** Newest first: the first signs, every one verifies. */
  readonly keys: ReadonlyArray<PrivateJwk>
  /** Changes whenever a key is added or leaves the set. */
  readonly version: string
}

/** A key as the operator sees it (`keys list`): never its private members. */
export interface KeySummary {
  readonly kid: string
  readonly createdAt: string
  /** When it stopped signing; null while it is in use. */
  readonly retiredAt: string | null
  /** Until when a retired key stays published (`retiredAt` + `retiredKeyRetention`); null while in use. */
  readonly publishedUntil: string | null
}

/** The public half of a private JWK (what a JWKS publishes). */
export const publicJwk = (key: PrivateJwk) => ({
  kty: key.kty,
  n: key.n,
  e: key.e,
  kid: key.kid,
  alg: key.alg,
  use: key.use
})

const SummaryRow = Schema.Struct({
  kid: Schema.String,
  created_at: Schema.String,
  retired_at: Schema.NullOr(Schema.String)
})
/** The stored key: an RSA JWK with its `kid`, `alg` and `use` (the private members read as stored). */
const StoredJwk = Schema.StructWithRest(
  Schema.Struct({
    kty: Schema.Literal("RSA"),
    n: Schema.String,
    e: Schema.String,
    kid: Schema.String,
    alg: Schema.Literal("RS256"),
    use: Schema.Literal("sig")
  }),
  [Schema.Record(Schema.String, Schema.Unknown)]
)

const KeyRow = Schema.Struct({ ...SummaryRow.fields, private_jwk: Schema.fromJsonString(StoredJwk) })

const newKey = () =>
  Effect.callback<PrivateJwk>((resume) => {
    generateKeyPair("rsa", { modulusLength: 2048 }, (error, _publicKey, privateKey) => {
      if (error !== null) return resume(Effect.die(error))
      const kid = randomBytes(12).toString("base64url")
      resume(Effect.succeed({ ...privateKey.export({ format: "jwk" }), kid, alg: "RS256", use: "sig" } as PrivateJwk))
    })
  })

export class SigningKeys extends Context.Service<
  SigningKeys,
  {
    /** Makes the first key when there is none in use. */
    readonly ensure: Effect.Effect<void, StorageUnavailable>
    /** The published keys, newest first. */
    readonly current: Effect.Effect<KeySet, StorageUnavailable>
    /** The published keys as `current` orders them (the first signs), without their key material. */
    readonly list: Effect.Effect<ReadonlyArray<KeySummary>, StorageUnavailable>
    /**
     * Adds a key that signs from now on and retires the others: they stay published until
     * `publishedUntil` (`retiredKeyRetention` from now).
     */
    readonly rotate: Effect.Effect<
      { readonly kid: string; readonly retired: ReadonlyArray<string>; readonly publishedUntil: string },
      StorageUnavailable
    >
    /** Deletes retired keys past their retention; returns how many. */
    readonly sweep: Effect.Effect<number, StorageUnavailable>
  }
>()("task-marketplace/services/SigningKeys") {
  static readonly layer = Layer.effect(
    SigningKeys,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const asStorageCall = storageCallFor(sql)
      const iso = (ms: number) => new Date(ms).toISOString()

      const insert = Effect.fnUntraced(function* (key: PrivateJwk) {
        const now = iso(yield* Clock.currentTimeMillis)
        yield* sql`
          INSERT INTO oauth_signing_keys (kid, private_jwk, created_at) VALUES (${key.kid}, ${JSON.stringify(key)}, ${now})
        `
      })

      /** The published keys (in use, or retired after `since`), the one that signs first. */
      const published = (columns: Statement.Fragment, since: string) => sql`
        SELECT ${columns} FROM oauth_signing_keys
        WHERE retired_at IS NULL OR retired_at > ${since}
        ORDER BY retired_at IS NOT NULL, created_at DESC, kid DESC
      `
      const rows = SqlSchema.findAll({
        Request: Schema.String,
        Result: KeyRow,
        execute: (since) => published(sql`kid, private_jwk, created_at, retired_at`, since)
      })
      const summaryRows = SqlSchema.findAll({
        Request: Schema.String,
        Result: SummaryRow,
        execute: (since) => published(sql`kid, created_at, retired_at`, since)
      })

      const current = Effect.gen(function* () {
        const now = yield* Clock.currentTimeMillis
        const found = yield* rows(iso(now - retiredKeyRetention)).pipe(
          Effect.catchTag("SchemaError", undecodableRow("oauth_signing_keys", "a key"))
        )
        const keys = found.map((row) => row.private_jwk as PrivateJwk)
        return { keys, version: found.map((row) => `${row.kid}:${row.retired_at ?? ""}`).join(",") }
      }).pipe(asStorageCall, Effect.withSpan("SigningKeys.current"))

      const list = Effect.gen(function* () {
        const now = yield* Clock.currentTimeMillis
        const found = yield* summaryRows(iso(now - retiredKeyRetention)).pipe(
          Effect.catchTag("SchemaError", undecodableRow("oauth_signing_keys", "a key"))
        )
        return found.map(
          (row): KeySummary => ({
            kid: row.kid,
            createdAt: row.created_at,
            retiredAt: row.retired_at,
            publishedUntil: row.retired_at === null ? null : iso(Date.parse(row.retired_at) + retiredKeyRetention)
          })
        )
      }).pipe(asStorageCall, Effect.withSpan("SigningKeys.list"))

      const ensure = Effect.gen(function* () {
        const inUse = yield* sql<{ kid: string }>`SELECT kid FROM oauth_signing_keys WHERE retired_at IS NULL LIMIT 1`
        if (inUse.length === 0) yield* insert(yield* newKey())
      }).pipe(asStorageCall, Effect.withSpan("SigningKeys.ensure"))

      const rotate = Effect.gen(function* () {
        const key = yield* newKey()
        return yield* sql.withTransaction(
          Effect.gen(function* () {
            const now = yield* Clock.currentTimeMillis
            const retired = yield* sql<{ kid: string }>`
              UPDATE oauth_signing_keys SET retired_at = ${iso(now)} WHERE retired_at IS NULL RETURNING kid
            `
            yield* insert(key)
            return {
              kid: key.kid,
              retired: retired.map((row) => row.kid),
              publishedUntil: iso(now + retiredKeyRetention)
            }
          })
        )
      }).pipe(asStorageCall, Effect.withSpan("SigningKeys.rotate"))

      const sweep = Effect.gen(function* () {
        const cutoff = iso((yield* Clock.currentTimeMillis) - retiredKeyRetention)
        const deleted = yield* sql<{ kid: string }>`
          DELETE FROM oauth_signing_keys WHERE retired_at IS NOT NULL AND retired_at <= ${cutoff} RETURNING kid
        `
        return deleted.length
      }).pipe(asStorageCall, Effect.withSpan("SigningKeys.sweep"))

      return SigningKeys.of({ ensure, current, list, rotate, sweep })
    })
  )
}

/**
 * A server's first start makes the embedded issuer's first key, in the background: listening does
 * not wait for an RSA key generation (100–300 ms), and the authorization server makes sure of a key
 * itself before it first signs (`ensure` again: two made at once are harmless).
 */
export const SigningKeyWorker = Layer.effectDiscard(
  Effect.gen(function* () {
    if (!isEmbeddedIssuer(yield* AppConfig)) return
    const keys = yield* SigningKeys
    yield* Effect.forkScoped(
      keys.ensure.pipe(
        Effect.catchCause((cause) =>
          Effect.logWarning("the first signing key could not be made yet").pipe(Effect.annotateLogs({ cause }))
        )
      )
    )
  })
)
