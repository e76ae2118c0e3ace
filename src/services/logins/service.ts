/**
 * Participant logins: an email address and a password, for the embedded authorization server's
 * sign-in. Transport-free: the server's pages and the operator's commands call it.
 *
 * A login is made by an invitation (the operator's `participants invite`), or by an open sign-up
 * (`registerInTransaction`, for `Profiles.signUp`, with its password chosen): the login's id is the
 * OAuth subject, linked to its participant through `Accounts`, so the resource server finds the
 * participant behind a token. The participant chooses a password through a one-time link; a
 * forgotten one is replaced through another (`participants reset`). A link's token is 256 random
 * bits handed out once; only its SHA-256 is stored (links.ts), and it is consumed by one
 * conditional UPDATE, so of concurrent uses exactly one wins, in any process. Every login keeps at
 * most one unused link: issuing one removes the others.
 *
 * Sign-in answers the same refusal whatever was wrong, spending the same hashing either way, and
 * is throttled by `AttemptLimits` (sign_in.ts); a browser that signed in before is counted on its
 * own through its device token (devices.ts). The rows and their statements are in rows.ts.
 */
import { randomBytes } from "node:crypto"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as SqlClient from "effect/sql/SqlClient"
import * as SqlError from "effect/sql/SqlError"
import { AppConfig } from "../../config/app_config.ts"
import {
  EmailTaken,
  InvalidEmail,
  LinkNotUsable,
  LoginAlreadyActive,
  LoginNotFound,
  ParticipantNotFound,
  PasswordRejected,
  SignInRefused,
  type StorageUnavailable
} from "../../domain/errors.ts"
import {
  emailKey,
  emailProblem,
  inviteLinkLifetimeMs,
  type LinkPurpose,
  type Login,
  maximumPasswordLength,
  normalizeEmail,
  passwordProblem,
  resetLinkLifetimeMs,
  signInWindowMs
} from "../../domain/login.ts"
import { Accounts } from "../accounts.ts"
import { AttemptLimits } from "../attempt_limits.ts"
import { Ids } from "../ids.ts"
import { MailOutbox } from "../mail_outbox.ts"
import { ParticipantDirectory } from "../participant_directory.ts"
import { Passwords } from "../passwords.ts"
import { storedSecret } from "../service_secrets.ts"
import { storageCallFor, undecodableRow } from "../storage.ts"
import { deviceSignature, deviceVersion } from "./devices.ts"
import { hashOf, linkUrlOf, newToken, tokenPattern, unusable } from "./links.ts"
import { decodeLogin, loginRows, toLogin } from "./rows.ts"
import { signInGate } from "./sign_in.ts"

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

const isoAt = (ms: number) => new Date(ms).toISOString()
const currentInstant = Effect.map(Clock.currentTimeMillis, isoAt)

/**
 * Two invitations racing for one participant, or for one address, meet a UNIQUE constraint;
 * the loser's transaction is rolled back and run again, and then sees the winner's row (and
 * answers EmailTaken or updates that login, as if they had come one after the other).
 */
const isUniqueViolation = (error: unknown) => SqlError.isSqlError(error) && error.reason._tag === "UniqueViolation"

/** Participant logins, their one-time links and sign-in (see the module's header). */
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
    /**
     * An open sign-up named the address of this participant's login: a reset link is issued, and
     * the login's holder is mailed that the address has an account, with that link (mail off:
     * the link is issued and nobody learns it). The sign-up's page says nothing of it.
     */
    remindOfAccount(participantSlug: string): Effect.Effect<void, StorageUnavailable>
    /**
     * Marks the login's address confirmed (a sign-up followed the link mailed to it), if the login
     * still has that address; false when it has another (or none is that login). Doing it again
     * changes nothing and answers true.
     */
    confirmAddress(loginId: string, email: string): Effect.Effect<boolean, StorageUnavailable>
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
      const mail = yield* MailOutbox
      const {
        loginColumns,
        loginById,
        loginByEmailKey,
        loginByParticipant,
        lockedLoginOf,
        linkRow,
        replaceLinks,
        endSessionsOf
      } = loginRows(sql)
      const urlOf = (token: string) => linkUrlOf(config.publicBaseUrl, token)

      // -- invite ---------------------------------------------------------------------------------

      /** One attempt at an invitation, in one transaction: the login made or readdressed, its link replaced. */
      const inviteInTransaction = Effect.fnUntraced(function* (
        participantSlug: string,
        name: string,
        email: string,
        token: string,
        now: string,
        expiresAt: string
      ) {
        const tokenHash = hashOf(token)
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
        // The invitation's mail, made with the link (mail off: none).
        yield* mail.queue([
          { to: email, participantSlug, content: { kind: "invitation", name, url: urlOf(token), expiresAt } }
        ])
        return login
      })

      const invite = Effect.fn("Logins.invite")(function* (participantSlug: string, givenEmail: string) {
        const problem = emailProblem(givenEmail)
        if (problem !== undefined) return yield* new InvalidEmail({ email: givenEmail, problem })
        const email = normalizeEmail(givenEmail)
        const participant = yield* directory.findBySlug(participantSlug)
        if (participant === undefined) return yield* new ParticipantNotFound({ slug: participantSlug })
        const token = newToken()
        const nowMs = yield* Clock.currentTimeMillis
        const expiresAt = isoAt(nowMs + inviteLinkLifetimeMs)
        const login = yield* sql
          .withTransaction(
            inviteInTransaction(participantSlug, participant.name, email, token, isoAt(nowMs), expiresAt)
          )
          .pipe(Effect.retry({ times: 2, while: isUniqueViolation }), asStorageCall)
        yield* mail.wake
        // The subject → participant link for the resource server; an upsert, so an invitation
        // made again mends one that failed here.
        yield* accounts.link(login.id, participantSlug)
        return { url: urlOf(token), expiresAt, login }
      })

      // -- reset ----------------------------------------------------------------------------------

      const resetInTransaction = Effect.fnUntraced(function* (
        participantSlug: string,
        token: string,
        now: string,
        expiresAt: string,
        kind: "password_reset" | "address_has_account"
      ) {
        const current = yield* lockedLoginOf(participantSlug)
        if (current === undefined) return undefined
        yield* replaceLinks(current.id, "reset", hashOf(token), now, expiresAt)
        yield* mail.queue([{ to: current.email, participantSlug, content: { kind, url: urlOf(token), expiresAt } }])
        return toLogin(current)
      })

      /** A reset link for the login, and its mail of `kind`, in one transaction. */
      const issueReset = Effect.fnUntraced(function* (
        participantSlug: string,
        kind: "password_reset" | "address_has_account"
      ) {
        const token = newToken()
        const nowMs = yield* Clock.currentTimeMillis
        const expiresAt = isoAt(nowMs + resetLinkLifetimeMs)
        const login = yield* asStorageCall(
          sql.withTransaction(resetInTransaction(participantSlug, token, isoAt(nowMs), expiresAt, kind))
        )
        if (login !== undefined) yield* mail.wake
        return login === undefined ? undefined : { url: urlOf(token), expiresAt, login }
      })

      const reset = Effect.fn("Logins.reset")(function* (participantSlug: string) {
        const issued = yield* issueReset(participantSlug, "password_reset")
        if (issued === undefined) {
          return yield* (yield* directory.findBySlug(participantSlug)) === undefined
            ? new ParticipantNotFound({ slug: participantSlug })
            : new LoginNotFound({ participantSlug })
        }
        return issued
      })

      const confirmAddress = Effect.fn("Logins.confirmAddress")(function* (loginId: string, email: string) {
        const now = yield* currentInstant
        const rows = yield* asStorageCall(sql<{ readonly id: string }>`
          UPDATE participant_logins SET email_confirmed_at = COALESCE(email_confirmed_at, ${now})
          WHERE id = ${loginId} AND email = ${email}
          RETURNING id
        `)
        return rows.length === 1
      })

      const remindOfAccount = Effect.fn("Logins.remindOfAccount")(function* (participantSlug: string) {
        yield* issueReset(participantSlug, "address_has_account")
      })

      // -- using a link ---------------------------------------------------------------------------

      const linkFor = Effect.fn("Logins.linkFor")(function* (token: string) {
        // Anything that is not a token we made names no link: no query for it.
        const row = tokenPattern.test(token) ? yield* asStorageCall(linkRow(hashOf(token))) : undefined
        const reason = unusable(row, yield* currentInstant)
        if (row === undefined || reason !== undefined) return yield* new LinkNotUsable({ reason: reason ?? "unknown" })
        return { purpose: row.purpose, loginId: row.login_id, email: row.email, expiresAt: row.expires_at }
      })

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
          WHERE token_hash = ${tokenHash} AND used_at IS NULL AND replaced_at IS NULL AND expires_at > ${now}
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

      const choosePassword = Effect.fn("Logins.choosePassword")(function* (token: string, password: string) {
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

      const deviceTokenFor = Effect.fn("Logins.deviceTokenFor")(function* (login: Login) {
        const secret = yield* deviceSecret
        const issuedMs = String(yield* Clock.currentTimeMillis)
        const deviceId = randomBytes(16).toString("base64url")
        const signature = deviceSignature(secret, login.id, issuedMs, deviceId, login.passwordChangedAt)
        return [deviceVersion, login.id, issuedMs, deviceId, signature].join(".")
      })

      // -- signing in -----------------------------------------------------------------------------

      const { admit } = signInGate(limits, deviceSecret)

      const signIn = Effect.fn("Logins.signIn")(function* (
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

      const findById = Effect.fn("Logins.findById")(function* (id: string) {
        return yield* asStorageCall(Effect.map(loginById(id), (row) => (row === undefined ? undefined : toLogin(row))))
      })

      const findByParticipant = Effect.fn("Logins.findByParticipant")(function* (participantSlug: string) {
        return yield* asStorageCall(
          Effect.map(loginByParticipant(participantSlug), (row) => (row === undefined ? undefined : toLogin(row)))
        )
      })

      const endSessions = Effect.fn("Logins.endSessions")(function* (loginId: string) {
        return yield* asStorageCall(Effect.asVoid(endSessionsOf(loginId)))
      })

      const registerInTransaction = Effect.fn("Logins.registerInTransaction")(function* (
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
        remindOfAccount,
        confirmAddress,
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
    Layer.provide([
      Accounts.layer,
      AttemptLimits.layer,
      Ids.layer,
      MailOutbox.layer,
      ParticipantDirectory.layer,
      Passwords.layer
    ])
  )
}
