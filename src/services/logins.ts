/**
 * Participant logins: an email address and a password, for the embedded authorization server's
 * sign-in. Transport-free: the server's pages and the operator's commands call it.
 *
 * A login is made by an invitation (the operator's `participants invite`), or by an open sign-up
 * (`registerInTransaction`, for `Profiles.signUp`, with its password chosen): the login's id is the
 * OAuth subject, linked to its participant through `Accounts`, so the resource server finds the
 * participant behind a token. The participant chooses a password through a one-time link; a
 * forgotten one is replaced through another (`participants reset`). A link's token is 256 random
 * bits handed out once; only its SHA-256 is stored, and it is consumed by one conditional UPDATE,
 * so of concurrent uses exactly one wins, in any process. Every login keeps at most one unused
 * link: issuing one removes the others.
 *
 * Sign-in answers the same refusal whatever was wrong, spending the same hashing either way, and
 * is throttled by `AttemptLimits`. A browser that signed in to the login before presents its device
 * token (`deviceTokenFor`, kept by the pages in a cookie) and is counted on its own; strangers (no
 * token, or one that is not this login's) share the login's count, and each client address has
 * one. So strangers' guesses never lock out the holder's own browser (domain/login.ts has the
 * limits; docs/decisions/sign-in-throttling.md the reasons).
 */
import { createHmac, hash as oneShotHash, randomBytes, timingSafeEqual } from "node:crypto"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as SqlClient from "effect/sql/SqlClient"
import * as SqlError from "effect/sql/SqlError"
import * as SqlSchema from "effect/sql/SqlSchema"
import { AppConfig } from "../config/app_config.ts"
import {
  EmailTaken,
  InvalidEmail,
  LinkNotUsable,
  type LinkUnusableReason,
  LoginAlreadyActive,
  LoginNotFound,
  ParticipantNotFound,
  PasswordRejected,
  SignInRefused,
  type StorageUnavailable
} from "../domain/errors.ts"
import {
  accountFailureLimit,
  addressFailureLimit,
  choosePasswordPath,
  deviceFailureLimit,
  deviceTrustMs,
  emailKey,
  emailProblem,
  inviteLinkLifetimeMs,
  type LinkPurpose,
  type Login,
  linkPurposes,
  maximumPasswordLength,
  normalizeEmail,
  passwordProblem,
  resetLinkLifetimeMs,
  signInWindowMs
} from "../domain/login.ts"
import { tracedFn } from "../tracing.ts"
import { Accounts } from "./accounts.ts"
import { AttemptLimits } from "./attempt_limits.ts"
import { Ids } from "./ids.ts"
import { ParticipantDirectory } from "./participant_directory.ts"
import { Passwords } from "./passwords.ts"
import { storedSecret } from "./service_secrets.ts"
import { storageCallFor, undecodableRow } from "./storage.ts"

/** A one-time link just issued: the URL to hand to the participant (its token is shown only here). */
export interface IssuedLink {
  readonly url: string
  /** When the link stops working (ISO 8601). */
  readonly expiresAt: string
  readonly login: Login
}

/** What a usable one-time link is for. */
export interface LinkDetails {
  readonly purpose: LinkPurpose
  readonly loginId: string
  readonly email: string
  readonly expiresAt: string
}

export class Logins extends Context.Service<
  Logins,
  {
    /**
     * Makes the participant's login (or changes its address while no password has been chosen),
     * links its id as the participant's OAuth subject, and issues an `invite` link valid for
     * `inviteLinkLifetimeMs`; an earlier unused link of the login stops working.
     */
    invite(
      participantSlug: string,
      email: string
    ): Effect.Effect<
      IssuedLink,
      InvalidEmail | ParticipantNotFound | EmailTaken | LoginAlreadyActive | StorageUnavailable
    >
    /** Issues a `reset` link, valid for `resetLinkLifetimeMs`, for the participant's login. */
    reset(participantSlug: string): Effect.Effect<IssuedLink, ParticipantNotFound | LoginNotFound | StorageUnavailable>
    /** What a link is for, while it can be used; reading it does not use it. */
    linkFor(token: string): Effect.Effect<LinkDetails, LinkNotUsable | StorageUnavailable>
    /**
     * Sets the login's password and uses up the link, ending every session and grant of the
     * login (`endSessions`). The link is checked before the password rule, and the rule before
     * anything changes.
     */
    choosePassword(
      token: string,
      password: string
    ): Effect.Effect<Login, LinkNotUsable | PasswordRejected | StorageUnavailable>
    /**
     * The login whose address and password these are; `address` is the client's, for throttling,
     * and `device` the device token the browser presents, if any (`deviceTokenFor`): one of this
     * login's, still trusted, has its failures counted apart from strangers'.
     */
    signIn(
      email: string,
      password: string,
      address: string,
      device?: string
    ): Effect.Effect<Login, SignInRefused | StorageUnavailable>
    /**
     * A device token for a browser that has just signed in as `login`: signed, naming the login and
     * a random id of its own, trusted for `deviceTrustMs` and until the login's password changes.
     * Not a session: it only lets that browser's sign-ins be counted apart from strangers'.
     */
    deviceTokenFor(login: Login): Effect.Effect<string, StorageUnavailable>
    findById(id: string): Effect.Effect<Login | undefined, StorageUnavailable>
    /** The participant's login, if they have one (listed or awaiting approval). */
    findByParticipant(participantSlug: string): Effect.Effect<Login | undefined, StorageUnavailable>
    /**
     * Makes a login whose password is chosen already, linked as the participant's OAuth subject:
     * an open sign-up's (`Profiles.signUp`), as one step of the caller's transaction, which writes
     * the sign-up's profile too, so that both are made or neither. `passwordHash` comes from
     * `Passwords.hash`, made before that transaction so that none waits on scrypt. Database
     * failures are the caller's: a unique violation means a concurrent sign-up took the address
     * or the slug first, and the caller runs its transaction again (then this answers EmailTaken).
     */
    registerInTransaction(
      participantSlug: string,
      email: string,
      passwordHash: string
    ): Effect.Effect<Login, InvalidEmail | EmailTaken | SqlError.SqlError | StorageUnavailable>
    /**
     * Ends every sign-in session and grant of a login: the embedded authorization server keeps
     * them (sessions, grants, authorization codes, refresh tokens, …) in `oauth_records`, each
     * with the login's id as `account_id`, so deleting those rows ends them. Access tokens already
     * issued are signed JWTs and stay valid until they expire (OAUTH_ACCESS_TOKEN_TTL, ≤ 10 minutes).
     */
    endSessions(loginId: string): Effect.Effect<void, StorageUnavailable>
  }
>()("task-marketplace/services/Logins") {
  static readonly layer = Layer.effect(
    Logins,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const asStorageCall = storageCallFor(sql)
      const config = yield* AppConfig
      const directory = yield* ParticipantDirectory
      const accounts = yield* Accounts
      const passwords = yield* Passwords
      const limits = yield* AttemptLimits
      const ids = yield* Ids

      const isoAt = (ms: number) => new Date(ms).toISOString()
      const currentInstant = Effect.map(Clock.currentTimeMillis, isoAt)

      // -- rows -----------------------------------------------------------------------------------

      const LoginRow = Schema.Struct({
        id: Schema.String,
        email: Schema.String,
        participant_slug: Schema.String,
        password_hash: Schema.NullOr(Schema.String),
        password_changed_at: Schema.NullOr(Schema.String)
      })
      type LoginRow = typeof LoginRow.Type
      const toLogin = (row: LoginRow): Login => ({
        id: row.id,
        email: row.email,
        participantSlug: row.participant_slug,
        passwordChangedAt: row.password_changed_at
      })
      const loginColumns = sql.literal("id, email, participant_slug, password_hash, password_changed_at")

      const loginWhere = (column: "id" | "email_key" | "participant_slug") => {
        const find = SqlSchema.findOneOption({
          Request: Schema.String,
          Result: LoginRow,
          execute: (value) => sql`SELECT ${loginColumns} FROM participant_logins WHERE ${sql(column)} = ${value}`
        })
        return (value: string) =>
          find(value).pipe(
            Effect.map(Option.getOrUndefined),
            Effect.catchTag("SchemaError", undecodableRow("participant_logins", `${column} ${value}`))
          )
      }
      const loginById = loginWhere("id")
      const loginByEmailKey = loginWhere("email_key")
      const loginByParticipant = loginWhere("participant_slug")
      const decodeLogin = Schema.decodeUnknownEffect(LoginRow)

      /**
       * The participant's login, locked until the transaction ends, so two links issued at once for
       * one login cannot both survive. SQLite needs no lock: its write transactions run one at a
       * time (BEGIN IMMEDIATE), in every process.
       */
      const forUpdate = sql.onDialectOrElse({ sqlite: () => sql.literal(""), orElse: () => sql.literal("FOR UPDATE") })
      const lockedLoginOf = (participantSlug: string) =>
        SqlSchema.findOneOption({
          Request: Schema.String,
          Result: LoginRow,
          execute: (slug) =>
            sql`SELECT ${loginColumns} FROM participant_logins WHERE participant_slug = ${slug} ${forUpdate}`
        })(participantSlug).pipe(
          Effect.map(Option.getOrUndefined),
          Effect.catchTag("SchemaError", undecodableRow("participant_logins", `participant_slug ${participantSlug}`))
        )

      const LinkRow = Schema.Struct({
        purpose: Schema.Literals(linkPurposes),
        expires_at: Schema.String,
        used_at: Schema.NullOr(Schema.String),
        login_id: Schema.String,
        email: Schema.String
      })
      const linkRow = (tokenHash: string) =>
        SqlSchema.findOneOption({
          Request: Schema.String,
          Result: LinkRow,
          execute: (hash) => sql`
            SELECT l.purpose, l.expires_at, l.used_at, l.login_id, p.email
            FROM login_links l JOIN participant_logins p ON p.id = l.login_id
            WHERE l.token_hash = ${hash}
          `
        })(tokenHash).pipe(
          Effect.map(Option.getOrUndefined),
          // The token's hash is not logged: it would let a reader of the logs find the row.
          Effect.catchTag("SchemaError", undecodableRow("login_links", "a link's token hash"))
        )

      /** Why a link cannot be used at `now`; undefined when it can. */
      const unusable = (row: typeof LinkRow.Type | undefined, now: string): LinkUnusableReason | undefined =>
        row === undefined ? "unknown" : row.used_at !== null ? "used" : row.expires_at <= now ? "expired" : undefined

      // -- links ----------------------------------------------------------------------------------

      /** 32 random bytes, base64url: what a link carries; the database keeps only its SHA-256. */
      const tokenPattern = /^[A-Za-z0-9_-]{43}$/
      const hashOf = (text: string) => oneShotHash("sha256", text, "base64url")
      const newToken = () => randomBytes(32).toString("base64url")
      const urlOf = (token: string) => `${config.publicBaseUrl}${choosePasswordPath}?token=${token}`

      /**
       * Stores a new link as the login's only unused one. Used links are kept until they expire, so
       * a second use still reads as `used`; expired ones are dropped.
       */
      const replaceLinks = Effect.fnUntraced(function* (
        loginId: string,
        purpose: LinkPurpose,
        tokenHash: string,
        now: string,
        expiresAt: string
      ) {
        yield* sql`DELETE FROM login_links WHERE login_id = ${loginId} AND (used_at IS NULL OR expires_at <= ${now})`
        yield* sql`
          INSERT INTO login_links (token_hash, login_id, purpose, expires_at, used_at, created_at)
          VALUES (${tokenHash}, ${loginId}, ${purpose}, ${expiresAt}, NULL, ${now})
        `
      })

      // -- invite ---------------------------------------------------------------------------------

      /** One attempt at an invitation, in one transaction: the login made or readdressed, its link replaced. */
      const inviteInTransaction = Effect.fnUntraced(function* (
        participantSlug: string,
        email: string,
        tokenHash: string,
        now: string,
        expiresAt: string
      ) {
        const key = emailKey(email)
        const holder = yield* loginByEmailKey(key)
        if (holder !== undefined && holder.participant_slug !== participantSlug) {
          return yield* new EmailTaken({ email, participantSlug: holder.participant_slug })
        }
        const current = yield* lockedLoginOf(participantSlug)
        let login: Login
        if (current === undefined) {
          const id = yield* ids.loginId
          yield* sql`
            INSERT INTO participant_logins (id, email, email_key, participant_slug, password_hash, password_changed_at, created_at)
            VALUES (${id}, ${email}, ${key}, ${participantSlug}, NULL, NULL, ${now})
          `
          login = { id, email, participantSlug, passwordChangedAt: null }
        } else if (current.password_hash !== null) {
          return yield* new LoginAlreadyActive({ participantSlug })
        } else {
          if (current.email !== email) {
            yield* sql`UPDATE participant_logins SET email = ${email}, email_key = ${key} WHERE id = ${current.id}`
          }
          login = { ...toLogin(current), email }
        }
        yield* replaceLinks(login.id, "invite", tokenHash, now, expiresAt)
        return login
      })

      /**
       * Two invitations racing for one participant, or for one address, meet a UNIQUE constraint;
       * the loser's transaction is rolled back and run again, and then sees the winner's row (and
       * answers EmailTaken or updates that login, as if they had come one after the other).
       */
      const isUniqueViolation = (error: unknown) =>
        SqlError.isSqlError(error) && error.reason._tag === "UniqueViolation"

      const invite = tracedFn("Logins.invite")(function* (participantSlug: string, givenEmail: string) {
        const problem = emailProblem(givenEmail)
        if (problem !== undefined) return yield* new InvalidEmail({ email: givenEmail, problem })
        const email = normalizeEmail(givenEmail)
        if ((yield* directory.findBySlug(participantSlug)) === undefined) {
          return yield* new ParticipantNotFound({ slug: participantSlug })
        }
        const token = newToken()
        const nowMs = yield* Clock.currentTimeMillis
        const expiresAt = isoAt(nowMs + inviteLinkLifetimeMs)
        const login = yield* sql
          .withTransaction(inviteInTransaction(participantSlug, email, hashOf(token), isoAt(nowMs), expiresAt))
          .pipe(Effect.retry({ times: 2, while: isUniqueViolation }), asStorageCall)
        // The subject → participant link for the resource server; an upsert, so an invitation
        // made again mends one that failed here.
        yield* accounts.link(login.id, participantSlug)
        return { url: urlOf(token), expiresAt, login }
      })

      // -- reset ----------------------------------------------------------------------------------

      const resetInTransaction = Effect.fnUntraced(function* (
        participantSlug: string,
        tokenHash: string,
        now: string,
        expiresAt: string
      ) {
        const current = yield* lockedLoginOf(participantSlug)
        if (current === undefined) return undefined
        yield* replaceLinks(current.id, "reset", tokenHash, now, expiresAt)
        return toLogin(current)
      })

      const reset = tracedFn("Logins.reset")(function* (participantSlug: string) {
        const token = newToken()
        const nowMs = yield* Clock.currentTimeMillis
        const expiresAt = isoAt(nowMs + resetLinkLifetimeMs)
        const login = yield* asStorageCall(
          sql.withTransaction(resetInTransaction(participantSlug, hashOf(token), isoAt(nowMs), expiresAt))
        )
        if (login === undefined) {
          return yield* (yield* directory.findBySlug(participantSlug)) === undefined
            ? new ParticipantNotFound({ slug: participantSlug })
            : new LoginNotFound({ participantSlug })
        }
        return { url: urlOf(token), expiresAt, login }
      })

      // -- using a link ---------------------------------------------------------------------------

      const linkFor = tracedFn("Logins.linkFor")(function* (token: string) {
        // Anything that is not a token we made names no link: no query for it.
        const row = tokenPattern.test(token) ? yield* asStorageCall(linkRow(hashOf(token))) : undefined
        const reason = unusable(row, yield* currentInstant)
        if (row === undefined || reason !== undefined) return yield* new LinkNotUsable({ reason: reason ?? "unknown" })
        return { purpose: row.purpose, loginId: row.login_id, email: row.email, expiresAt: row.expires_at }
      })

      const endSessionsOf = (loginId: string) => sql`DELETE FROM oauth_records WHERE account_id = ${loginId}`

      /**
       * Uses up the link (the conditional UPDATE lets exactly one of concurrent uses through), sets
       * the password and ends the login's sessions: all or nothing.
       */
      const setPasswordInTransaction = Effect.fnUntraced(function* (
        tokenHash: string,
        passwordHash: string,
        now: string
      ) {
        const [consumed] = yield* sql<{ readonly login_id: string }>`
          UPDATE login_links SET used_at = ${now}
          WHERE token_hash = ${tokenHash} AND used_at IS NULL AND expires_at > ${now}
          RETURNING login_id
        `
        if (consumed === undefined) {
          return yield* new LinkNotUsable({ reason: unusable(yield* linkRow(tokenHash), now) ?? "used" })
        }
        const [updated] = yield* sql`
          UPDATE participant_logins SET password_hash = ${passwordHash}, password_changed_at = ${now}
          WHERE id = ${consumed.login_id}
          RETURNING ${loginColumns}
        `
        // Logins are never deleted; a link without one names nothing (and stays unused: rolled back).
        if (updated === undefined) return yield* new LinkNotUsable({ reason: "unknown" })
        // Whoever held the old password (or a session made with it) is signed out.
        yield* endSessionsOf(consumed.login_id)
        return toLogin(
          yield* decodeLogin(updated).pipe(
            Effect.catchTag("SchemaError", undecodableRow("participant_logins", `id ${consumed.login_id}`))
          )
        )
      })

      const choosePassword = tracedFn("Logins.choosePassword")(function* (token: string, password: string) {
        // A link that cannot be used is said first: a password chosen for it would be lost.
        yield* linkFor(token)
        const problem = passwordProblem(password)
        if (problem !== undefined) return yield* new PasswordRejected({ problem })
        const passwordHash = yield* passwords.hash(password)
        const now = yield* currentInstant
        return yield* asStorageCall(sql.withTransaction(setPasswordInTransaction(hashOf(token), passwordHash, now)))
      })

      // -- devices --------------------------------------------------------------------------------

      /** The key device tokens are signed with, made once in the database and shared by every process. */
      let deviceKey: string | undefined
      const deviceSecret = Effect.suspend(() =>
        deviceKey !== undefined
          ? Effect.succeed(deviceKey)
          : storedSecret("sign_in_devices").pipe(
              Effect.provideService(SqlClient.SqlClient, sql),
              asStorageCall,
              // Only a database answering without the row it just wrote gets here: a defect.
              Effect.catchIf(
                (error): error is Exclude<typeof error, StorageUnavailable> => error._tag !== "StorageUnavailable",
                Effect.die
              ),
              Effect.map((value) => {
                deviceKey = value
                return value
              })
            )
      )

      /**
       * `d1.<login id>.<issued, epoch ms>.<device id>.<signature>`. The signature covers the login's
       * password change, so choosing a new password (a reset after a theft) distrusts every device.
       */
      const deviceVersion = "d1"
      const devicePattern = /^d1\.(acct_[A-Za-z0-9_-]{1,64})\.(\d{1,16})\.([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/
      const deviceSignature = (
        secret: string,
        loginId: string,
        issuedMs: string,
        deviceId: string,
        passwordChangedAt: string | null
      ) =>
        createHmac("sha256", secret)
          .update(`device|${loginId}|${issuedMs}|${deviceId}|${passwordChangedAt ?? ""}`)
          .digest("base64url")

      const deviceTokenFor = tracedFn("Logins.deviceTokenFor")(function* (login: Login) {
        const secret = yield* deviceSecret
        const issuedMs = String(yield* Clock.currentTimeMillis)
        const deviceId = randomBytes(16).toString("base64url")
        const signature = deviceSignature(secret, login.id, issuedMs, deviceId, login.passwordChangedAt)
        return [deviceVersion, login.id, issuedMs, deviceId, signature].join(".")
      })

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

      // -- signing in -----------------------------------------------------------------------------

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

      const signIn = tracedFn("Logins.signIn")(function* (
        givenEmail: string,
        password: string,
        address: string,
        device?: string
      ) {
        const key = emailKey(givenEmail)
        const row = emailProblem(givenEmail) === undefined ? yield* asStorageCall(loginByEmailKey(key)) : undefined
        const admitted = yield* admit(key, row, address, device)
        const stored = row?.password_hash ?? null
        // No password that long can have been chosen; it is not worth hashing.
        const correct =
          [...password].length > maximumPasswordLength
            ? false
            : stored === null
              ? yield* passwords.verifyNothing(password)
              : yield* passwords.verify(password, stored)
        if (!correct || row === undefined || stored === null) return yield* SignInRefused.wrongCredentials()
        if (admitted._tag === "Device") {
          // Strangers' count stays: the holder's success must not give an attacker fresh guesses.
          yield* limits.clear(admitted.deviceKey)
        } else {
          yield* limits.clear(admitted.accountKey)
          yield* limits.forgive(admitted.addressKey, signInWindowMs)
        }
        if (passwords.needsRehash(stored)) {
          // Made with parameters since raised: hashed again now that the password is at hand.
          const fresh = yield* passwords.hash(password)
          yield* asStorageCall(
            sql`UPDATE participant_logins SET password_hash = ${fresh} WHERE id = ${row.id} AND password_hash = ${stored}`
          )
        }
        return toLogin(row)
      })

      const findById = (id: string) =>
        asStorageCall(Effect.map(loginById(id), (row) => (row === undefined ? undefined : toLogin(row))))

      const findByParticipant = (participantSlug: string) =>
        asStorageCall(
          Effect.map(loginByParticipant(participantSlug), (row) => (row === undefined ? undefined : toLogin(row)))
        )

      const endSessions = (loginId: string) => asStorageCall(Effect.asVoid(endSessionsOf(loginId)))

      const registerInTransaction = Effect.fnUntraced(function* (
        participantSlug: string,
        givenEmail: string,
        passwordHash: string
      ) {
        const problem = emailProblem(givenEmail)
        if (problem !== undefined) return yield* new InvalidEmail({ email: givenEmail, problem })
        const email = normalizeEmail(givenEmail)
        const key = emailKey(email)
        const holder = yield* loginByEmailKey(key)
        if (holder !== undefined) return yield* new EmailTaken({ email, participantSlug: holder.participant_slug })
        const id = yield* ids.loginId
        const now = yield* currentInstant
        yield* sql`
          INSERT INTO participant_logins (id, email, email_key, participant_slug, password_hash, password_changed_at, created_at)
          VALUES (${id}, ${email}, ${key}, ${participantSlug}, ${passwordHash}, ${now}, ${now})
        `
        yield* accounts.link(id, participantSlug)
        return { id, email, participantSlug, passwordChangedAt: now } satisfies Login
      })

      return Logins.of({
        invite,
        reset,
        linkFor,
        choosePassword,
        signIn,
        deviceTokenFor,
        findById,
        findByParticipant,
        endSessions,
        registerInTransaction
      })
    })
  )

  /** The same with the services of ours it needs (the database and `AppConfig` still to give). */
  static readonly layerWithDependencies = Logins.layer.pipe(
    Layer.provide([Accounts.layer, AttemptLimits.layer, Ids.layer, ParticipantDirectory.layer, Passwords.layer])
  )
}
