// What the embedded authorization server stores (oidc-provider's adapter, over OAuthRecords) on
// the active test backend (SQLite or Postgres), and the guarantees the library relies on: a payload
// read back as written, an expired record absent, one winner among concurrent consumptions, a
// grant revoked at once, the newest grant found for consent, and a sweep that keeps what is in use.
// Time is the test clock, moved instead of waited for.
import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { TestClock } from "effect/testing"
import { type OAuthPayload, OAuthRecords, unusedClientLifetimeMs } from "../../src/services/oauth_records.ts"
import { TestSqlLayer } from "../support/database.ts"

const T0 = Date.parse("2026-11-27T10:00:00.000Z")
const iso = (ms: number) => new Date(ms).toISOString()
const hour = 3600

const services = OAuthRecords.layer.pipe(Layer.provideMerge(TestSqlLayer))

/** Runs `body` on the test clock set to T0, over a fresh database. */
const withRecords = <A, E>(body: Effect.Effect<A, E, OAuthRecords | SqlClient.SqlClient>) =>
  Effect.scoped(
    Effect.gen(function* () {
      yield* TestClock.setTime(T0)
      return yield* Effect.provide(body, yield* Layer.build(services))
    })
  )

const rowsOf = (query: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    return (yield* sql.unsafe<Record<string, unknown>>(query)).map((row) => ({ ...row }))
  })
const idsOf = (query: string) => Effect.map(rowsOf(query), (rows) => rows.map((row) => Object.values(row)[0]))

/** Payloads shaped as the library's (only the members the store reads matter). */
const grant = (accountId: string, clientId: string): OAuthPayload => ({
  accountId,
  clientId,
  kind: "Grant",
  openid: { scope: "openid offline_access" },
  resources: { "https://market.example/api/public/v1": "participant" }
})
const issued = (kind: string, grantId: string, accountId = "acct_a", clientId = "client_a"): OAuthPayload => ({
  kind,
  grantId,
  accountId,
  clientId,
  scope: "openid",
  iat: Math.floor(T0 / 1000)
})
const client = (clientId: string): OAuthPayload => ({
  client_id: clientId,
  client_name: "Agent host",
  redirect_uris: ["http://127.0.0.1:33418/callback"],
  token_endpoint_auth_method: "none"
})

describe("OAuthRecords", () => {
  it.effect("a payload is read back as written, and the columns the store looks it up by are filled", () =>
    withRecords(
      Effect.gen(function* () {
        const records = yield* OAuthRecords
        const payload: OAuthPayload = {
          ...issued("AuthorizationCode", "grant_1"),
          redirectUri: "http://127.0.0.1:33418/callback?x=1&y=ü",
          codeChallenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
          claims: { id_token: { email: null } },
          resource: ["https://market.example/api/public/v1"],
          nonce: null,
          expiresWithSession: true
        }
        yield* records.upsert("AuthorizationCode", "code_1", payload, 60)
        assert.deepStrictEqual(yield* records.find("AuthorizationCode", "code_1"), payload)
        assert.deepStrictEqual(yield* rowsOf("SELECT * FROM oauth_records"), [
          {
            model: "AuthorizationCode",
            id: "code_1",
            payload: JSON.stringify(payload),
            grant_id: "grant_1",
            uid: null,
            user_code: null,
            account_id: "acct_a",
            client_id: "client_a",
            expires_at: iso(T0 + 60_000),
            consumed_at: null,
            used_at: null,
            created_at: iso(T0)
          }
        ])
        // Another model, another id: absent.
        assert.isUndefined(yield* records.find("AccessToken", "code_1"))
        assert.isUndefined(yield* records.find("AuthorizationCode", "code_2"))

        // A registered client keeps its id in `client_id`; a session its uid.
        yield* records.upsert("Client", "client_a", client("client_a"), undefined)
        yield* records.upsert("Session", "session_1", { uid: "uid_1", accountId: "acct_a", loginTs: 1 }, hour)
        assert.deepStrictEqual(
          yield* rowsOf(
            "SELECT model, client_id, uid, account_id, expires_at FROM oauth_records WHERE model <> 'AuthorizationCode' ORDER BY model"
          ),
          [
            { model: "Client", client_id: "client_a", uid: null, account_id: null, expires_at: null },
            { model: "Session", client_id: null, uid: "uid_1", account_id: "acct_a", expires_at: iso(T0 + hour * 1000) }
          ]
        )

        // Saved again: the new payload and expiry replace the old.
        const changed = { ...payload, scope: "openid offline_access" }
        yield* records.upsert("AuthorizationCode", "code_1", changed, 120)
        assert.deepStrictEqual(yield* records.find("AuthorizationCode", "code_1"), changed)
        assert.deepStrictEqual(yield* idsOf("SELECT expires_at FROM oauth_records WHERE id = 'code_1'"), [
          iso(T0 + 120_000)
        ])
      })
    )
  )

  it.effect("findByUid and findByUserCode find a record by those members, within its model", () =>
    withRecords(
      Effect.gen(function* () {
        const records = yield* OAuthRecords
        const session = { uid: "uid_1", accountId: "acct_a" }
        yield* records.upsert("Session", "session_1", session, hour)
        yield* records.upsert("Session", "session_2", { uid: "uid_2", accountId: "acct_b" }, hour)
        assert.deepStrictEqual(yield* records.findByUid("Session", "uid_1"), session)
        assert.isUndefined(yield* records.findByUid("Session", "uid_3"))
        assert.isUndefined(yield* records.findByUid("Interaction", "uid_1"))

        const device = { userCode: "WDJBMJHT", clientId: "client_a" }
        yield* records.upsert("DeviceCode", "device_1", device, 600)
        assert.deepStrictEqual(yield* records.findByUserCode("DeviceCode", "WDJBMJHT"), device)
        assert.isUndefined(yield* records.findByUserCode("DeviceCode", "XXXXXXXX"))
      })
    )
  )

  it.effect("an expired record reads as absent, by id, uid or user code; one without expiry never expires", () =>
    withRecords(
      Effect.gen(function* () {
        const records = yield* OAuthRecords
        yield* records.upsert("Session", "session_1", { uid: "uid_1" }, 60)
        yield* records.upsert("DeviceCode", "device_1", { userCode: "WDJBMJHT" }, 60)
        yield* records.upsert("Client", "client_a", client("client_a"), undefined)
        yield* TestClock.adjust(59_999)
        assert.isDefined(yield* records.find("Session", "session_1"))
        assert.isDefined(yield* records.findByUid("Session", "uid_1"))
        assert.isDefined(yield* records.findByUserCode("DeviceCode", "WDJBMJHT"))
        yield* TestClock.adjust(1)
        assert.isUndefined(yield* records.find("Session", "session_1"))
        assert.isUndefined(yield* records.findByUid("Session", "uid_1"))
        assert.isUndefined(yield* records.find("DeviceCode", "device_1"))
        assert.isUndefined(yield* records.findByUserCode("DeviceCode", "WDJBMJHT"))
        // (A month: every jump of the test clock runs the Postgres pool's timers in between.)
        yield* TestClock.adjust(30 * 24 * hour * 1000)
        assert.deepStrictEqual(yield* records.find("Client", "client_a"), client("client_a"))
      })
    )
  )

  it.effect("of 10 consumptions of one code at once exactly one wins; the code then says when it was consumed", () =>
    withRecords(
      Effect.gen(function* () {
        const records = yield* OAuthRecords
        const code = issued("AuthorizationCode", "grant_1")
        yield* records.upsert("AuthorizationCode", "code_1", code, 60)
        yield* records.upsert("AuthorizationCode", "code_2", code, 60)
        yield* TestClock.adjust(1500)
        const won = yield* Effect.all(
          Array.from({ length: 10 }, () => records.consume("AuthorizationCode", "code_1")),
          { concurrency: "unbounded" }
        )
        assert.strictEqual(won.filter((w) => w).length, 1)
        assert.deepStrictEqual(yield* records.find("AuthorizationCode", "code_1"), {
          ...code,
          consumed: Math.floor((T0 + 1500) / 1000)
        })
        // Once consumed, always: later attempts lose too; the other code is untouched.
        assert.isFalse(yield* records.consume("AuthorizationCode", "code_1"))
        assert.deepStrictEqual(yield* records.find("AuthorizationCode", "code_2"), code)
        // Nothing there, nothing consumed; the model is part of the key.
        assert.isFalse(yield* records.consume("AuthorizationCode", "code_3"))
        assert.isFalse(yield* records.consume("RefreshToken", "code_2"))
        assert.isTrue(yield* records.consume("AuthorizationCode", "code_2"))
      })
    )
  )

  it.effect("revokeByGrantId deletes everything issued under the grant, and nothing else", () =>
    withRecords(
      Effect.gen(function* () {
        const records = yield* OAuthRecords
        yield* records.upsert("Grant", "grant_1", grant("acct_a", "client_a"), hour)
        yield* records.upsert("Grant", "grant_2", grant("acct_a", "client_b"), hour)
        for (const model of ["AuthorizationCode", "AccessToken", "RefreshToken"]) {
          yield* records.upsert(model, `${model}_1`, issued(model, "grant_1"), hour)
          yield* records.upsert(model, `${model}_2`, issued(model, "grant_2", "acct_a", "client_b"), hour)
        }
        yield* records.upsert("Session", "session_1", { uid: "uid_1", accountId: "acct_a" }, hour)

        yield* records.revokeByGrantId("grant_1")
        assert.deepStrictEqual(yield* idsOf("SELECT id FROM oauth_records ORDER BY id"), [
          "AccessToken_2",
          "AuthorizationCode_2",
          "RefreshToken_2",
          // The Grant itself is the library's to destroy (it does, beside revokeByGrantId).
          "grant_1",
          "grant_2",
          "session_1"
        ])
        assert.isUndefined(yield* records.find("RefreshToken", "RefreshToken_1"))
        // Called by each model's adapter in turn: again is harmless.
        yield* records.revokeByGrantId("grant_1")
        assert.strictEqual((yield* idsOf("SELECT id FROM oauth_records")).length, 6)
      })
    )
  )

  it.effect("grantIdFor finds the account's newest unexpired grant for that client", () =>
    withRecords(
      Effect.gen(function* () {
        const records = yield* OAuthRecords
        assert.isUndefined(yield* records.grantIdFor("acct_a", "client_a"))
        yield* records.upsert("Grant", "grant_old", grant("acct_a", "client_a"), 24 * hour)
        yield* TestClock.adjust(1000)
        yield* records.upsert("Grant", "grant_new", grant("acct_a", "client_a"), hour)
        yield* TestClock.adjust(1000)
        // Newer, but for another client, another account, or already expiring.
        yield* records.upsert("Grant", "grant_other_client", grant("acct_a", "client_b"), 24 * hour)
        yield* records.upsert("Grant", "grant_other_account", grant("acct_b", "client_a"), 24 * hour)
        yield* records.upsert("Grant", "grant_short", grant("acct_a", "client_a"), 10)
        // Not a grant, though it names the account and client.
        yield* records.upsert("AccessToken", "token_1", issued("AccessToken", "grant_new"), hour)

        assert.strictEqual(yield* records.grantIdFor("acct_a", "client_a"), "grant_short")
        yield* TestClock.adjust(10_000)
        assert.strictEqual(yield* records.grantIdFor("acct_a", "client_a"), "grant_new")
        assert.strictEqual(yield* records.grantIdFor("acct_a", "client_b"), "grant_other_client")
        assert.strictEqual(yield* records.grantIdFor("acct_b", "client_a"), "grant_other_account")
        assert.isUndefined(yield* records.grantIdFor("acct_b", "client_b"))
        yield* TestClock.adjust(hour * 1000)
        assert.strictEqual(yield* records.grantIdFor("acct_a", "client_a"), "grant_old")
        yield* records.destroy("Grant", "grant_old")
        assert.isUndefined(yield* records.grantIdFor("acct_a", "client_a"))
      })
    )
  )

  it.effect("sweep deletes expired records and clients never used past their lifetime; used clients stay", () =>
    withRecords(
      Effect.gen(function* () {
        const records = yield* OAuthRecords
        const ms = 1000
        yield* records.upsert("Client", "client_unused", client("client_unused"), undefined)
        yield* records.upsert("Client", "client_used", client("client_used"), undefined)
        yield* records.upsert("Session", "session_short", { uid: "uid_1" }, 60)
        yield* records.upsert("Session", "session_long", { uid: "uid_2" }, 48 * hour)
        assert.strictEqual(yield* records.sweep, 0)

        // A completed flow ends with a grant: its client is in use from then on.
        yield* TestClock.adjust(3600 * ms)
        yield* records.upsert("Grant", "grant_1", grant("acct_a", "client_used"), 2 * hour)
        assert.deepStrictEqual(
          yield* rowsOf("SELECT id, used_at FROM oauth_records WHERE model = 'Client' ORDER BY id"),
          [
            { id: "client_unused", used_at: null },
            { id: "client_used", used_at: iso(T0 + 3600 * ms) }
          ]
        )
        // A later grant does not move it; registering the client again keeps it.
        yield* TestClock.adjust(60 * ms)
        yield* records.upsert("Grant", "grant_2", grant("acct_b", "client_used"), 2 * hour)
        yield* records.upsert("Client", "client_used", { ...client("client_used"), client_name: "Renamed" }, undefined)
        assert.deepStrictEqual(yield* idsOf("SELECT used_at FROM oauth_records WHERE id = 'client_used'"), [
          iso(T0 + 3600 * ms)
        ])
        yield* TestClock.adjust(-60 * ms)

        // Registered later, not used yet: collected only once its own lifetime has passed.
        yield* records.upsert("Client", "client_recent", client("client_recent"), undefined)
        // The session and both grants have expired (grant_2 two hours after T0 + 1 h + 60 s).
        yield* TestClock.setTime(T0 + unusedClientLifetimeMs - 1)
        assert.strictEqual(yield* records.sweep, 3)
        assert.deepStrictEqual(yield* idsOf("SELECT id FROM oauth_records ORDER BY id"), [
          "client_recent",
          "client_unused",
          "client_used",
          "session_long"
        ])
        yield* TestClock.adjust(1)
        assert.strictEqual(yield* records.sweep, 1)
        assert.deepStrictEqual(yield* idsOf("SELECT id FROM oauth_records ORDER BY id"), [
          "client_recent",
          "client_used",
          "session_long"
        ])
        yield* TestClock.setTime(T0 + 3600 * ms + unusedClientLifetimeMs)
        assert.strictEqual(yield* records.sweep, 1)
        assert.deepStrictEqual(yield* idsOf("SELECT id FROM oauth_records ORDER BY id"), [
          "client_used",
          "session_long"
        ])
        // A used client stays however long ago it was registered.
        yield* TestClock.setTime(T0 + 30 * 24 * hour * ms)
        assert.strictEqual(yield* records.sweep, 1)
        assert.deepStrictEqual(yield* records.find("Client", "client_used"), {
          ...client("client_used"),
          client_name: "Renamed"
        })
        assert.strictEqual(yield* records.sweep, 0)
      })
    )
  )
})
