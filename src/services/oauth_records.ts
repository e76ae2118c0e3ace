/**
 * What the embedded authorization server stores — clients, grants, authorization codes, sessions,
 * interactions, refresh tokens… — in the service's database, one row per model and id
 * (`oauth_records`), so every process shares them and a restart loses none.
 *
 * The library (oidc-provider) sees this through its adapter interface (src/oauth/adapter.ts). Two
 * of its guarantees live here, in SQL:
 * - `consume` is one conditional UPDATE: of concurrent redemptions of one code or refresh token,
 *   exactly one changes the row, and only that one may go on;
 * - `revokeByGrantId` deletes everything issued under a grant at once.
 * Expired rows, and registered clients that never completed a flow, are swept (`sweep`).
 */
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import * as SqlClient from "effect/sql/SqlClient"
import type * as SqlError from "effect/sql/SqlError"
import * as SqlSchema from "effect/sql/SqlSchema"
import type { StorageUnavailable } from "../domain/errors.ts"
import { storageCallFor, undecodableRow } from "./storage.ts"

/** A stored payload, as the library wrote it (plus `consumed`, the epoch second it was consumed). */
export type OAuthPayload = Record<string, unknown>

/** How long a registered client may go without completing a flow before it is collected. */
export const unusedClientLifetimeMs = 24 * 3600_000

const Row = Schema.Struct({
  payload: Schema.fromJsonString(Schema.Record(Schema.String, Schema.Unknown)),
  consumed_at: Schema.NullOr(Schema.String)
})

const stringOf = (payload: OAuthPayload, key: string): string | null =>
  typeof payload[key] === "string" ? (payload[key] as string) : null

export class OAuthRecords extends Context.Service<
  OAuthRecords,
  {
    upsert(
      model: string,
      id: string,
      payload: OAuthPayload,
      expiresInSeconds: number | undefined
    ): Effect.Effect<void, StorageUnavailable>
    find(model: string, id: string): Effect.Effect<OAuthPayload | undefined, StorageUnavailable>
    findByUid(model: string, uid: string): Effect.Effect<OAuthPayload | undefined, StorageUnavailable>
    findByUserCode(model: string, userCode: string): Effect.Effect<OAuthPayload | undefined, StorageUnavailable>
    /** Marks the record consumed; false when it was already (or is gone): the caller lost the race. */
    consume(model: string, id: string): Effect.Effect<boolean, StorageUnavailable>
    destroy(model: string, id: string): Effect.Effect<void, StorageUnavailable>
    revokeByGrantId(grantId: string): Effect.Effect<void, StorageUnavailable>
    /** The newest unexpired grant an account gave a client: consent is remembered per client. */
    grantIdFor(accountId: string, clientId: string): Effect.Effect<string | undefined, StorageUnavailable>
    /** Deletes expired records and clients registered long ago that never completed a flow. */
    readonly sweep: Effect.Effect<number, StorageUnavailable>
  }
>()("task-marketplace/services/OAuthRecords") {
  static readonly layer = Layer.effect(
    OAuthRecords,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const asStorageCall = storageCallFor(sql)
      const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms).toISOString())

      /** A row as the library reads it back; an expired one reads as absent. */
      const decoded = (rows: ReadonlyArray<typeof Row.Type>): OAuthPayload | undefined => {
        const row = rows[0]
        if (row === undefined) return undefined
        return row.consumed_at === null
          ? row.payload
          : { ...row.payload, consumed: Math.floor(Date.parse(row.consumed_at) / 1000) }
      }
      const findOne = (
        key: string,
        execute: (at: string) => Effect.Effect<ReadonlyArray<unknown>, SqlError.SqlError>
      ) =>
        Effect.flatMap(now, (at) =>
          SqlSchema.findAll({ Request: Schema.String, Result: Row, execute })(at).pipe(
            Effect.map(decoded),
            Effect.catchTag("SchemaError", undecodableRow("oauth_records", key))
          )
        ).pipe(asStorageCall)

      const upsert = Effect.fn("OAuthRecords.upsert")(function* (
        model: string,
        id: string,
        payload: OAuthPayload,
        expiresInSeconds: number | undefined
      ) {
        const at = yield* Clock.currentTimeMillis
        const created = new Date(at).toISOString()
        const expires = expiresInSeconds === undefined ? null : new Date(at + expiresInSeconds * 1000).toISOString()
        const grantId = stringOf(payload, "grantId")
        const clientId = stringOf(payload, "clientId") ?? (model === "Client" ? stringOf(payload, "client_id") : null)
        yield* sql`
            INSERT INTO oauth_records (model, id, payload, grant_id, uid, user_code, account_id, client_id, expires_at, created_at)
            VALUES (${model}, ${id}, ${JSON.stringify(payload)}, ${grantId}, ${stringOf(payload, "uid")},
              ${stringOf(payload, "userCode")}, ${stringOf(payload, "accountId")}, ${clientId}, ${expires}, ${created})
            ON CONFLICT (model, id) DO UPDATE SET payload = excluded.payload, grant_id = excluded.grant_id,
              uid = excluded.uid, user_code = excluded.user_code, account_id = excluded.account_id,
              client_id = excluded.client_id, expires_at = excluded.expires_at
          `
        // A grant is the end of a completed flow: its client is in use and is kept.
        if (model === "Grant" && clientId !== null) {
          yield* sql`
              UPDATE oauth_records SET used_at = ${created}
              WHERE model = 'Client' AND id = ${clientId} AND used_at IS NULL
            `
        }
      }, asStorageCall)

      const find = Effect.fn("OAuthRecords.find")((model: string, id: string) =>
        findOne(
          `${model} ${id}`,
          (at) => sql`
            SELECT payload, consumed_at FROM oauth_records
            WHERE model = ${model} AND id = ${id} AND (expires_at IS NULL OR expires_at > ${at})
          `
        )
      )
      const findByUid = Effect.fn("OAuthRecords.findByUid")((model: string, uid: string) =>
        findOne(
          `${model} uid ${uid}`,
          (at) => sql`
            SELECT payload, consumed_at FROM oauth_records
            WHERE model = ${model} AND uid = ${uid} AND (expires_at IS NULL OR expires_at > ${at})
          `
        )
      )
      const findByUserCode = Effect.fn("OAuthRecords.findByUserCode")((model: string, userCode: string) =>
        findOne(
          `${model} user code`,
          (at) => sql`
            SELECT payload, consumed_at FROM oauth_records
            WHERE model = ${model} AND user_code = ${userCode} AND (expires_at IS NULL OR expires_at > ${at})
          `
        )
      )

      const consume = Effect.fn("OAuthRecords.consume")(function* (model: string, id: string) {
        const at = yield* now
        const changed = yield* sql<{ id: string }>`
          UPDATE oauth_records SET consumed_at = ${at}
          WHERE model = ${model} AND id = ${id} AND consumed_at IS NULL RETURNING id
        `
        return changed.length === 1
      }, asStorageCall)

      const destroy = Effect.fn("OAuthRecords.destroy")(function* (model: string, id: string) {
        yield* sql`DELETE FROM oauth_records WHERE model = ${model} AND id = ${id}`
      }, asStorageCall)

      const revokeByGrantId = Effect.fn("OAuthRecords.revokeByGrantId")(function* (grantId: string) {
        yield* sql`DELETE FROM oauth_records WHERE grant_id = ${grantId}`
      }, asStorageCall)

      const grantIdFor = Effect.fn("OAuthRecords.grantIdFor")(function* (accountId: string, clientId: string) {
        const at = yield* now
        const rows = yield* sql<{ id: string }>`
          SELECT id FROM oauth_records
          WHERE account_id = ${accountId} AND client_id = ${clientId} AND model = 'Grant'
            AND (expires_at IS NULL OR expires_at > ${at})
          ORDER BY created_at DESC LIMIT 1
        `
        return rows[0]?.id
      }, asStorageCall)

      const sweep = Effect.gen(function* () {
        const ms = yield* Clock.currentTimeMillis
        const at = new Date(ms).toISOString()
        const unusedSince = new Date(ms - unusedClientLifetimeMs).toISOString()
        const expired = yield* sql<{ id: string }>`
          DELETE FROM oauth_records WHERE expires_at <= ${at} RETURNING id
        `
        const unused = yield* sql<{ id: string }>`
          DELETE FROM oauth_records
          WHERE model = 'Client' AND used_at IS NULL AND created_at <= ${unusedSince} RETURNING id
        `
        return expired.length + unused.length
      }).pipe(asStorageCall, Effect.withSpan("OAuthRecords.sweep"))

      return OAuthRecords.of({
        upsert,
        find,
        findByUid,
        findByUserCode,
        consume,
        destroy,
        revokeByGrantId,
        grantIdFor,
        sweep
      })
    })
  )
}
