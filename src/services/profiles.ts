/**
 * Participants' own profiles: what they say of themselves and whether they take offers, for the
 * console's profile page; and the open sign-up (`PARTICIPANT_SIGNUP=open`) that makes a login and a
 * profile awaiting the operator's approval, with the approval that lists it.
 *
 * A profile is listed (in the directory: discovery, search, matching, offers) or pending (a
 * sign-up, in `pending_participants`, which none of those read). Editing a listed profile goes
 * through the directory's own write path (`upsertMany`), which moves its version, so every process
 * lists, searches and matches the new text at its next read. Availability is kept by slug for
 * either (`ParticipantDirectory.setAvailable`), so a sign-up that switched offers off stays off
 * once approved. Slugs are unique across listed and pending profiles.
 */
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
  AlreadyListed,
  type EmailTaken,
  InvalidEmail,
  PasswordRejected,
  ProfileNotFound,
  SignUpThrottled,
  type StorageUnavailable
} from "../domain/errors.ts"
import {
  emailProblem,
  inviteLinkLifetimeMs,
  type Login,
  passwordProblem,
  signUpLimit,
  signUpWindowMs
} from "../domain/login.ts"
import { ParticipantRecord, type ProfileEdit, recordOf, slugStemOf, slugWithSuffix } from "../domain/participant.ts"
import { Accounts } from "./accounts.ts"
import { AttemptLimits } from "./attempt_limits.ts"
import { Logins } from "./logins/service.ts"
import { MailOutbox } from "./mail_outbox.ts"
import { MailPreferences } from "./mail_preferences.ts"
import { ParticipantDirectory } from "./participant_directory.ts"
import { Passwords } from "./passwords.ts"
import { storageCallFor, undecodableRow } from "./storage.ts"

/** A participant's profile as they see it. */
export interface Profile {
  readonly record: ParticipantRecord
  /** Whether they take offers (matching skips them when not; discovery lists them all the same). */
  readonly available: boolean
  /** False while a sign-up awaits the operator's approval: no offers, not in discovery or search. */
  readonly listed: boolean
}

/** What an open sign-up sends: the login's address and password, and the profile. */
export interface SignUpRequest {
  readonly email: string
  readonly password: string
  readonly profile: ProfileEdit
}

export interface SignedUp {
  /** The new login (its id is the OAuth subject to sign in as). */
  readonly login: Login
  /** The profile, pending. */
  readonly profile: Profile
}

/** A sign-up awaiting approval, as the operator lists it. */
export interface PendingSignUp {
  readonly slug: string
  readonly name: string
  /** The address of its login (null only if that login was removed by hand). */
  readonly email: string | null
  /** When the person signed up (ISO 8601). */
  readonly createdAt: string
  /** Whether they followed the confirmation link mailed to that address. */
  readonly addressConfirmed: boolean
}

export class Profiles extends Context.Service<
  Profiles,
  {
    view(slug: string): Effect.Effect<Profile | undefined, StorageUnavailable>
    /** Replaces what the participant says of themselves (listed or pending alike); the slug stays. */
    update(slug: string, edit: ProfileEdit): Effect.Effect<Profile, ProfileNotFound | StorageUnavailable>
    /** Switches offers on or off; an offer already made stays (it is accepted, declined or lapses). */
    setAvailable(slug: string, available: boolean): Effect.Effect<Profile, ProfileNotFound | StorageUnavailable>
    /**
     * Makes a login and a pending profile together, its slug derived from the name and unique
     * across listed and pending profiles. Counted per client `address` (`signUpLimit` a
     * `signUpWindowMs`), refused or not, once the address and password are acceptable.
     */
    signUp(
      request: SignUpRequest,
      address: string
    ): Effect.Effect<SignedUp, InvalidEmail | PasswordRejected | EmailTaken | SignUpThrottled | StorageUnavailable>
    /** The sign-ups awaiting approval, oldest first. */
    readonly pending: Effect.Effect<ReadonlyArray<PendingSignUp>, StorageUnavailable>
    /** Lists a pending profile in the directory (offers follow) and links its login to it. */
    approve(slug: string): Effect.Effect<Profile, ProfileNotFound | AlreadyListed | StorageUnavailable>
  }
>()("task-marketplace/services/Profiles") {
  static readonly layer = Layer.effect(
    Profiles,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const asStorageCall = storageCallFor(sql)
      const directory = yield* ParticipantDirectory
      const logins = yield* Logins
      const accounts = yield* Accounts
      const passwords = yield* Passwords
      const limits = yield* AttemptLimits
      const mail = yield* MailOutbox
      const preferences = yield* MailPreferences
      const config = yield* AppConfig

      // -- pending rows ---------------------------------------------------------------------------

      /** A pending row as either backend returns it: tags and capabilities are JSON text. */
      const PendingRow = Schema.Struct({
        ...ParticipantRecord.fields,
        tags: Schema.fromJsonString(ParticipantRecord.fields.tags),
        capabilities: Schema.fromJsonString(ParticipantRecord.fields.capabilities)
      })
      const pendingColumns = sql.literal(
        "slug, name, discipline, location, task_type, tags, capabilities, returns, boundary"
      )

      /**
       * The pending profile with this slug; locked until the transaction ends (Postgres), so two
       * approvals of one sign-up are made one after the other. SQLite's write transactions already
       * are (BEGIN IMMEDIATE).
       */
      const pendingWhere = (locked: boolean) => {
        const lock =
          locked && sql.onDialectOrElse({ sqlite: () => false, orElse: () => true })
            ? sql.literal("FOR UPDATE")
            : sql.literal("")
        const find = SqlSchema.findOneOption({
          Request: Schema.String,
          Result: PendingRow,
          execute: (slug) => sql`SELECT ${pendingColumns} FROM pending_participants WHERE slug = ${slug} ${lock}`
        })
        return (slug: string) =>
          find(slug).pipe(
            Effect.map(Option.getOrUndefined),
            Effect.catchTag("SchemaError", undecodableRow("pending_participants", `slug ${slug}`))
          )
      }
      const pendingBySlug = pendingWhere(false)
      const lockedPending = pendingWhere(true)

      const writePending = (record: ParticipantRecord, now: string) => sql`
        INSERT INTO pending_participants (slug, name, discipline, location, task_type, tags, capabilities, returns, boundary, created_at)
        VALUES (${record.slug}, ${record.name}, ${record.discipline}, ${record.location}, ${record.task_type},
          ${JSON.stringify(record.tags)}, ${JSON.stringify(record.capabilities)}, ${record.returns}, ${record.boundary}, ${now})
      `
      const rewritePending = (record: ParticipantRecord) => sql<{ readonly slug: string }>`
        UPDATE pending_participants SET name = ${record.name}, discipline = ${record.discipline},
          location = ${record.location}, task_type = ${record.task_type}, tags = ${JSON.stringify(record.tags)},
          capabilities = ${JSON.stringify(record.capabilities)}, returns = ${record.returns}, boundary = ${record.boundary}
        WHERE slug = ${record.slug}
        RETURNING slug
      `

      // -- reading and editing --------------------------------------------------------------------

      const view = Effect.fn("Profiles.view")(function* (slug: string) {
        const listed = yield* directory.findBySlug(slug)
        const record = listed ?? (yield* asStorageCall(pendingBySlug(slug)))
        if (record === undefined) return undefined
        return { record, available: yield* directory.isAvailable(slug), listed: listed !== undefined } satisfies Profile
      })

      const existing = (slug: string) =>
        Effect.flatMap(view(slug), (profile) =>
          profile === undefined ? Effect.fail(new ProfileNotFound({ slug })) : Effect.succeed(profile)
        )

      const update = Effect.fn("Profiles.update")(function* (slug: string, edit: ProfileEdit) {
        const record = recordOf(slug, edit)
        // Twice at most: an approval landing between the read and the write moves the profile to
        // the directory, and the second round edits it there.
        for (let round = 0; ; round++) {
          const current = yield* existing(slug)
          if (current.listed) {
            yield* directory.upsertMany([record])
            return { ...current, record }
          }
          const rewritten = yield* asStorageCall(rewritePending(record))
          if (rewritten.length > 0 || round > 0) return { ...current, record }
        }
      })

      const setAvailable = Effect.fn("Profiles.setAvailable")(function* (slug: string, available: boolean) {
        const current = yield* existing(slug)
        yield* directory.setAvailable(slug, available)
        return { ...current, available }
      })

      // -- signing up -----------------------------------------------------------------------------

      /** Every slug, listed or pending, that is the stem or starts with `<stem>-` (no wildcard in a slug). */
      const slugsLike = (stem: string) =>
        Effect.map(
          sql<{ readonly slug: string }>`
            SELECT slug FROM participants WHERE slug = ${stem} OR slug LIKE ${`${stem}-%`}
            UNION SELECT slug FROM pending_participants WHERE slug = ${stem} OR slug LIKE ${`${stem}-%`}
          `,
          (rows) => new Set(rows.map((row) => row.slug))
        )

      const signUpInTransaction = Effect.fnUntraced(function* (
        request: SignUpRequest,
        passwordHash: string,
        now: string
      ) {
        const stem = slugStemOf(request.profile.name)
        const taken = yield* slugsLike(stem)
        let n = 1
        while (taken.has(slugWithSuffix(stem, n))) n++
        const record = recordOf(slugWithSuffix(stem, n), request.profile)
        yield* writePending(record, now)
        const login = yield* logins.registerInTransaction(record.slug, request.email, passwordHash)
        // The address's confirmation, mailed with the sign-up (mail off: none).
        const expiresAt = new Date(new Date(now).getTime() + inviteLinkLifetimeMs).toISOString()
        const url = preferences.confirmationUrl({ loginId: login.id, email: login.email, expiresAt })
        yield* mail.queue([
          {
            to: login.email,
            participantSlug: record.slug,
            content: { kind: "sign_up_confirmation", name: record.name, url, expiresAt }
          }
        ])
        return { login, record }
      })

      /**
       * Two sign-ups racing for one slug or one address meet a UNIQUE constraint (Postgres; SQLite
       * runs write transactions one at a time): the loser's transaction is rolled back and run
       * again, and then takes the next slug, or answers EmailTaken.
       */
      const isDuplicate = (error: unknown) =>
        SqlError.isSqlError(error) &&
        (error.reason._tag === "UniqueViolation" || error.reason._tag === "ConstraintError")

      const signUp = Effect.fn("Profiles.signUp")(function* (request: SignUpRequest, address: string) {
        // What the person can fix is said before anything is counted or hashed.
        const emailIssue = emailProblem(request.email)
        if (emailIssue !== undefined) return yield* new InvalidEmail({ email: request.email, problem: emailIssue })
        const passwordIssue = passwordProblem(request.password)
        if (passwordIssue !== undefined) return yield* new PasswordRejected({ problem: passwordIssue })
        const admitted = yield* limits.take(`sign-up:${address}`, signUpLimit, signUpWindowMs)
        if (admitted._tag === "Closed")
          return yield* new SignUpThrottled({ retryAfterSeconds: admitted.retryAfterSeconds })
        const passwordHash = yield* passwords.hash(request.password)
        const now = new Date(yield* Clock.currentTimeMillis).toISOString()
        const { login, record } = yield* sql.withTransaction(signUpInTransaction(request, passwordHash, now)).pipe(
          Effect.retry({ times: 5, while: isDuplicate }),
          asStorageCall,
          // The address has an account: its holder is told so, with a reset link (the caller's
          // page answers as for a new address).
          Effect.tapError((error) =>
            error._tag === "EmailTaken" ? logins.remindOfAccount(error.participantSlug) : Effect.void
          )
        )
        yield* mail.wake
        // No one has switched a new slug off: participants are never deleted, and a pending slug
        // leaves that table only for the directory.
        return { login, profile: { record, available: true, listed: false } } satisfies SignedUp
      })

      // -- approving ------------------------------------------------------------------------------

      const PendingListing = Schema.Struct({
        slug: Schema.String,
        name: Schema.String,
        email: Schema.NullOr(Schema.String),
        created_at: Schema.String,
        email_confirmed_at: Schema.NullOr(Schema.String)
      })
      const pendingListing = SqlSchema.findAll({
        Request: Schema.Void,
        Result: PendingListing,
        execute: () => sql`
          SELECT p.slug, p.name, l.email, p.created_at, l.email_confirmed_at
          FROM pending_participants p LEFT JOIN participant_logins l ON l.participant_slug = p.slug
          ORDER BY p.created_at, p.slug
        `
      })
      const pending = pendingListing(undefined).pipe(
        Effect.map((rows) =>
          rows.map(
            (row): PendingSignUp => ({
              slug: row.slug,
              name: row.name,
              email: row.email,
              createdAt: row.created_at,
              addressConfirmed: row.email_confirmed_at !== null
            })
          )
        ),
        Effect.catchTag("SchemaError", undecodableRow("pending_participants", "listing")),
        asStorageCall,
        Effect.withSpan("Profiles.pending")
      )

      const approveInTransaction = Effect.fnUntraced(function* (slug: string) {
        const record = yield* lockedPending(slug)
        const listed = yield* directory.findBySlug(slug)
        // Listed already: approved before (a concurrent approval won), or imported under this slug.
        if (listed !== undefined) return yield* new AlreadyListed({ slug })
        if (record === undefined) return yield* new ProfileNotFound({ slug })
        // The directory's own write path: its version moves, so every process lists it at once.
        yield* directory.upsertMany([record])
        yield* sql`DELETE FROM pending_participants WHERE slug = ${slug}`
        // The person hears of it (a sign-up always has a login; a pending row without one has no address).
        const [login] = yield* sql<{ readonly email: string }>`
          SELECT email FROM participant_logins WHERE participant_slug = ${slug}
        `
        if (login !== undefined) {
          yield* mail.queue([
            {
              to: login.email,
              participantSlug: slug,
              content: { kind: "sign_up_approved", name: record.name, url: `${config.publicBaseUrl}/console` }
            }
          ])
        }
        return record
      })

      const approve = Effect.fn("Profiles.approve")(function* (slug: string) {
        const record = yield* asStorageCall(sql.withTransaction(approveInTransaction(slug)))
        yield* mail.wake
        // The sign-up linked its login already; linked again, in case that link was changed by hand.
        const login = yield* logins.findByParticipant(slug)
        if (login !== undefined) yield* accounts.link(login.id, slug)
        return { record, available: yield* directory.isAvailable(slug), listed: true } satisfies Profile
      })

      return Profiles.of({ view, update, setAvailable, signUp, pending, approve })
    })
  )

  /** The same with the services of ours it needs (the database and `AppConfig` still to give). */
  static readonly layerWithDependencies = Profiles.layer.pipe(
    Layer.provide([
      Logins.layerWithDependencies,
      MailOutbox.layer,
      MailPreferences.layer,
      Accounts.layer,
      AttemptLimits.layer,
      ParticipantDirectory.layer,
      Passwords.layer
    ])
  )
}
