// Participant logins over the active test backend (SQLite or Postgres): the email and password
// rules, scrypt hashing, attempt limits, and the Logins service as the authorization server and
// the operator use it — invite → link → password → sign-in, one-time links used once even when
// ten uses race, sign-ins throttled per account and per address, a reset ending the login's
// sessions. Time is the test clock (`it.effect`), moved instead of waited for; hashing is real.
import { createHash } from "node:crypto"
import { assert, describe, it } from "@effect/vitest"
import { Cause, Context, Effect, Exit, Layer, Result } from "effect"
import { SqlClient } from "effect/sql"
import { TestClock } from "effect/testing"
import { SignInRefused, type StorageUnavailable } from "../../src/domain/errors.ts"
import {
  accountFailureLimit,
  addressFailureLimit,
  deviceFailureLimit,
  deviceTrustMs,
  emailKey,
  emailProblem,
  inviteLinkLifetimeMs,
  maximumEmailLength,
  maximumPasswordLength,
  minimumPasswordLength,
  passwordProblem,
  resetLinkLifetimeMs,
  signInWindowMs
} from "../../src/domain/login.ts"
import { Accounts } from "../../src/services/accounts.ts"
import { AttemptLimits } from "../../src/services/attempt_limits.ts"
import { Ids, loginIdPattern } from "../../src/services/ids.ts"
import { Logins } from "../../src/services/logins/service.ts"
import { MailOutbox } from "../../src/services/mail_outbox.ts"
import { ParticipantDirectory } from "../../src/services/participant_directory.ts"
import { currentParameters, Passwords } from "../../src/services/passwords.ts"
import { DatabaseLayer } from "../../src/sql/database.ts"
import { freshDatabase } from "../support/database.ts"
import { plainParticipant } from "../support/directory.ts"
import { testConfig } from "../support/settings.ts"

const T0 = Date.parse("2026-11-27T10:00:00.000Z")
const iso = (ms: number) => new Date(ms).toISOString()
const base = "https://market.example"
const password = "correct horse battery staple"

const participant = plainParticipant
const slugs = ["ada", "bea", "cem", "dan", "eva", "fay"] as const

/** Logins and what it stands on, over a fresh database of the active backend. */
const services = Layer.unwrap(
  Effect.map(
    Effect.acquireRelease(Effect.promise(freshDatabase), (db) => Effect.promise(db.drop)),
    (db) =>
      Logins.layer.pipe(
        Layer.provideMerge(
          Layer.mergeAll(
            Passwords.layer,
            AttemptLimits.layer,
            Accounts.layer,
            ParticipantDirectory.layer,
            Ids.layer,
            MailOutbox.layer
          )
        ),
        Layer.provideMerge(DatabaseLayer),
        Layer.provide(testConfig({ database: db.config, publicBaseUrl: base }))
      )
  )
)
type Services = Layer.Success<typeof services>

/** Runs `body` on the test clock set to T0, over fresh services with the participants `slugs`. */
const withLogins = <A, E>(body: Effect.Effect<A, E, Services>) =>
  Effect.scoped(
    Effect.gen(function* () {
      yield* TestClock.setTime(T0)
      const context = yield* Layer.build(services)
      yield* Context.get(context, ParticipantDirectory).upsertMany(slugs.map(participant))
      return yield* Effect.provide(body, context)
    })
  )

const tokenOf = (url: string) => new URL(url).searchParams.get("token") ?? ""

/** The failure of `effect`, which must fail in domain terms (the database answering). */
const failureOf = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.map(Effect.result(effect), (result) => {
    assert.isTrue(Result.isFailure(result), "expected a failure")
    const failure = (result as Result.Failure<A, E>).failure
    assert.notStrictEqual((failure as { _tag?: unknown })._tag, "StorageUnavailable")
    return failure as Exclude<E, StorageUnavailable>
  })

/** Invites `slug` and chooses `chosen` through the link; the login. */
const activeLogin = (slug: string, email: string, chosen = password) =>
  Effect.gen(function* () {
    const logins = yield* Logins
    const { url } = yield* logins.invite(slug, email)
    return yield* logins.choosePassword(tokenOf(url), chosen)
  })

const rowsOf = (query: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    return yield* sql.unsafe<Record<string, unknown>>(query)
  })

/** A hash made with lower parameters, as one made before they were raised. */
const olderHash = Effect.gen(function* () {
  return yield* (yield* Passwords).hash(password)
}).pipe(Effect.provide(Passwords.layerWith({ log2N: 12, r: 8, p: 1 })))

/** The reason member of a refusal (LinkNotUsable, SignInRefused). */
const reasonOf = (error: unknown) => (error as { readonly reason?: unknown }).reason

describe("the login rules", () => {
  it("an email address is trimmed, plausible, at most 254 characters; case never tells two apart", () => {
    for (const good of ["ada@example.com", "  Ada.Lovelace+jobs@Mail.Example.co.uk ", "ü@bücher.de"]) {
      assert.isUndefined(emailProblem(good), good)
    }
    for (const bad of ["", "   ", "ada", "ada@example", "@example.com", "ada@@example.com", "a b@example.com"]) {
      assert.isString(emailProblem(bad), JSON.stringify(bad))
    }
    assert.isString(emailProblem("ada@.example.com"))
    assert.isString(emailProblem("ada@example..com"))
    assert.isString(emailProblem("ada@example.com\u0000"))
    const longest = `${"a".repeat(maximumEmailLength - "@example.com".length)}@example.com`
    assert.isUndefined(emailProblem(longest))
    assert.strictEqual(emailProblem(`a${longest}`), "Enter an email address of at most 254 characters.")
    assert.strictEqual(emailKey("  Ada@Example.COM "), "ada@example.com")
  })

  it("a password has 12 to 1024 characters, counted as code points", () => {
    assert.strictEqual(minimumPasswordLength, 12)
    assert.strictEqual(passwordProblem("short"), "Choose a password of at least 12 characters.")
    assert.strictEqual(passwordProblem("a".repeat(11)), "Choose a password of at least 12 characters.")
    assert.isUndefined(passwordProblem("a".repeat(12)))
    // Eleven emoji are 22 UTF-16 units, but eleven characters.
    assert.isString(passwordProblem("🔑".repeat(11)))
    assert.isUndefined(passwordProblem("🔑".repeat(12)))
    assert.isUndefined(passwordProblem("a".repeat(maximumPasswordLength)))
    assert.strictEqual(
      passwordProblem("a".repeat(maximumPasswordLength + 1)),
      "Choose a password of at most 1024 characters."
    )
  })
})

describe("Passwords", () => {
  it.effect("hashes are scrypt$15$8$1$salt$hash, salted, and verify only their password", () =>
    Effect.gen(function* () {
      const passwords = yield* Passwords
      const first = yield* passwords.hash(password)
      const second = yield* passwords.hash(password)
      assert.match(first, /^scrypt\$15\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/)
      assert.notStrictEqual(first, second)
      assert.isTrue(yield* passwords.verify(password, first))
      assert.isTrue(yield* passwords.verify(password, second))
      assert.isFalse(yield* passwords.verify(`${password} `, first))
      assert.isFalse(yield* passwords.verify("", first))
      assert.isFalse(passwords.needsRehash(first))
      assert.deepStrictEqual(currentParameters, { log2N: 15, r: 8, p: 1 })
    }).pipe(Effect.provide(Passwords.layer))
  )

  it.effect("the same characters composed or decomposed are the same password", () =>
    Effect.gen(function* () {
      const passwords = yield* Passwords
      const composed = "Crème brûlée à Lyon"
      const stored = yield* passwords.hash(composed.normalize("NFD"))
      assert.isTrue(yield* passwords.verify(composed.normalize("NFC"), stored))
    }).pipe(Effect.provide(Passwords.layer))
  )

  it.effect("parameters are read from the stored hash, so older ones verify and ask to be rehashed", () =>
    Effect.gen(function* () {
      const older = yield* olderHash
      assert.match(older, /^scrypt\$12\$8\$1\$/)
      const passwords = yield* Passwords
      assert.isTrue(yield* passwords.verify(password, older))
      assert.isFalse(yield* passwords.verify("not the password", older))
      assert.isTrue(passwords.needsRehash(older))
    }).pipe(Effect.provide(Passwords.layer))
  )

  it.effect("a stored hash in no known form is a defect, not a wrong password", () =>
    Effect.gen(function* () {
      const passwords = yield* Passwords
      for (const damaged of [
        "",
        "plain text",
        "scrypt$15$8$1$c2FsdA$",
        "scrypt$31$8$1$c2FsdA$aGFzaGhhc2hoYXNoaGFzaA",
        "scrypt$15$8$99$c2FsdA$aGFzaGhhc2hoYXNoaGFzaA",
        "scrypt$20$64$1$c2FsdA$aGFzaGhhc2hoYXNoaGFzaA"
      ]) {
        const exit = yield* Effect.exit(passwords.verify(password, damaged))
        assert.isTrue(Exit.isFailure(exit) && Cause.hasDies(exit.cause), damaged)
      }
    }).pipe(Effect.provide(Passwords.layer))
  )
})

describe("AttemptLimits", () => {
  const window = 60_000

  it.effect("take admits `limit` attempts a window, then says how long until the window ends", () =>
    withLogins(
      Effect.gen(function* () {
        const limits = yield* AttemptLimits
        assert.deepStrictEqual(yield* limits.check("k", 3, window), { _tag: "Open", remaining: 3 })
        assert.deepStrictEqual(yield* limits.take("k", 3, window), { _tag: "Open", remaining: 2 })
        yield* TestClock.adjust(10_000)
        assert.deepStrictEqual(yield* limits.take("k", 3, window), { _tag: "Open", remaining: 1 })
        assert.deepStrictEqual(yield* limits.take("k", 3, window), { _tag: "Open", remaining: 0 })
        // The window started with the first attempt, at T0: 50 s are left.
        assert.deepStrictEqual(yield* limits.take("k", 3, window), { _tag: "Closed", retryAfterSeconds: 50 })
        assert.deepStrictEqual(yield* limits.check("k", 3, window), { _tag: "Closed", retryAfterSeconds: 50 })
        yield* TestClock.adjust(49_999)
        assert.deepStrictEqual(yield* limits.check("k", 3, window), { _tag: "Closed", retryAfterSeconds: 1 })
        yield* TestClock.adjust(1)
        assert.deepStrictEqual(yield* limits.check("k", 3, window), { _tag: "Open", remaining: 3 })
        assert.deepStrictEqual(yield* limits.take("k", 3, window), { _tag: "Open", remaining: 2 })
        // Other keys are counted apart.
        assert.deepStrictEqual(yield* limits.check("other", 3, window), { _tag: "Open", remaining: 3 })
      })
    )
  )

  it.effect("fail counts past the limit, forgive takes one back, clear forgets the key", () =>
    withLogins(
      Effect.gen(function* () {
        const limits = yield* AttemptLimits
        assert.strictEqual(yield* limits.fail("f", window), 1)
        assert.strictEqual(yield* limits.fail("f", window), 2)
        assert.strictEqual(yield* limits.fail("f", window), 3)
        assert.deepStrictEqual(yield* limits.check("f", 2, window), { _tag: "Closed", retryAfterSeconds: 60 })
        yield* limits.forgive("f", window)
        yield* limits.forgive("f", window)
        assert.deepStrictEqual(yield* limits.check("f", 2, window), { _tag: "Open", remaining: 1 })
        yield* limits.clear("f")
        assert.deepStrictEqual(yield* rowsOf("SELECT key FROM sign_in_attempts WHERE key = 'f'"), [])
        // After the window, a failure starts a new one.
        assert.strictEqual(yield* limits.fail("f", window), 1)
        yield* TestClock.adjust(window)
        yield* limits.forgive("f", window)
        assert.strictEqual(yield* limits.fail("f", window), 1)
      })
    )
  )

  it.effect("of 30 attempts taken at once against a limit of 10, exactly 10 get through", () =>
    withLogins(
      Effect.gen(function* () {
        const limits = yield* AttemptLimits
        const states = yield* Effect.all(
          Array.from({ length: 30 }, () => limits.take("burst", 10, window)),
          { concurrency: "unbounded" }
        )
        assert.strictEqual(states.filter((s) => s._tag === "Open").length, 10)
        assert.deepStrictEqual(
          states
            .filter((s) => s._tag === "Open")
            .map((s) => s.remaining)
            .sort((a, b) => a - b),
          [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]
        )
        const [row] = yield* rowsOf("SELECT failures FROM sign_in_attempts WHERE key = 'burst'")
        assert.strictEqual(Number(row?.failures), 10)
      })
    )
  )
})

describe("Logins", () => {
  it.effect("invite → linkFor → choosePassword → signIn; the login's id is the participant's OAuth subject", () =>
    withLogins(
      Effect.gen(function* () {
        const logins = yield* Logins
        const issued = yield* logins.invite("ada", "  Ada@Example.com ")
        assert.match(issued.url, /^https:\/\/market\.example\/oauth\/password\?token=[A-Za-z0-9_-]{43}$/)
        assert.strictEqual(issued.expiresAt, iso(T0 + inviteLinkLifetimeMs))
        assert.strictEqual(issued.expiresAt, "2026-12-04T10:00:00.000Z")
        assert.match(issued.login.id, loginIdPattern)
        assert.deepStrictEqual(issued.login, {
          id: issued.login.id,
          email: "Ada@Example.com",
          participantSlug: "ada",
          passwordChangedAt: null
        })
        assert.strictEqual(yield* (yield* Accounts).participantOf(issued.login.id), "ada")

        // Only the token's SHA-256 is stored.
        const token = tokenOf(issued.url)
        const links = yield* rowsOf("SELECT token_hash, purpose, used_at FROM login_links")
        assert.deepStrictEqual(
          links.map((l) => ({ ...l })),
          [{ token_hash: createHash("sha256").update(token).digest("base64url"), purpose: "invite", used_at: null }]
        )

        assert.deepStrictEqual(yield* logins.linkFor(token), {
          purpose: "invite",
          loginId: issued.login.id,
          email: "Ada@Example.com",
          expiresAt: issued.expiresAt
        })
        // Reading a link does not use it.
        assert.strictEqual((yield* logins.linkFor(token)).purpose, "invite")

        yield* TestClock.adjust(60_000)
        const chosen = yield* logins.choosePassword(token, password)
        assert.deepStrictEqual(chosen, { ...issued.login, passwordChangedAt: iso(T0 + 60_000) })

        const signedIn = yield* logins.signIn("ada@example.com", password, "203.0.113.7")
        assert.deepStrictEqual(signedIn, chosen)
        assert.deepStrictEqual(yield* logins.signIn(" ADA@EXAMPLE.COM", password, "203.0.113.7"), chosen)
        assert.deepStrictEqual(yield* logins.findById(chosen.id), chosen)
        assert.isUndefined(yield* logins.findById("acct_nobody"))

        const [stored] = yield* rowsOf("SELECT password_hash FROM participant_logins")
        assert.match(String(stored?.password_hash), /^scrypt\$15\$8\$1\$/)
      })
    )
  )

  it.effect("an invitation is refused for an unknown participant, an invalid address, or a login with a password", () =>
    withLogins(
      Effect.gen(function* () {
        const logins = yield* Logins
        const unknown = yield* failureOf(logins.invite("nobody", "nobody@example.com"))
        assert.deepStrictEqual([unknown._tag, (unknown as { slug?: string }).slug], ["ParticipantNotFound", "nobody"])

        const invalid = yield* failureOf(logins.invite("ada", "ada-at-example.com"))
        assert.strictEqual(invalid._tag, "InvalidEmail")
        assert.strictEqual(
          invalid.message,
          '"ada-at-example.com" cannot be a login\'s address. Enter an email address such as name@example.com.'
        )

        yield* activeLogin("ada", "ada@example.com")
        const active = yield* failureOf(logins.invite("ada", "ada@example.com"))
        assert.strictEqual(active._tag, "LoginAlreadyActive")
        assert.strictEqual(active.message, "participant ada has already chosen a password; send a reset link instead")

        assert.deepStrictEqual(yield* rowsOf("SELECT participant_slug FROM participant_logins"), [
          { participant_slug: "ada" }
        ])
      })
    )
  )

  it.effect("an address is one login's, whatever its case; re-inviting before a password changes the address", () =>
    withLogins(
      Effect.gen(function* () {
        const logins = yield* Logins
        const first = yield* logins.invite("ada", "Ada@Example.com")
        const taken = yield* failureOf(logins.invite("bea", " ada@EXAMPLE.com"))
        assert.strictEqual(taken._tag, "EmailTaken")
        assert.strictEqual(taken.message, "ada@EXAMPLE.com is already the login of participant ada")

        // Ada has not chosen a password: inviting her again, at another address, readdresses the
        // same login, and the first link stops working, saying it was replaced.
        const again = yield* logins.invite("ada", "ada.lovelace@example.com")
        assert.strictEqual(again.login.id, first.login.id)
        assert.strictEqual(again.login.email, "ada.lovelace@example.com")
        const replaced = yield* failureOf(logins.linkFor(tokenOf(first.url)))
        assert.deepStrictEqual([replaced._tag, replaced.reason], ["LinkNotUsable", "replaced"])
        assert.strictEqual(
          replaced.message,
          "A newer link replaced this one. Use the newest link you were sent, or ask for a new one."
        )
        assert.strictEqual(reasonOf(yield* failureOf(logins.choosePassword(tokenOf(first.url), password))), "replaced")
        assert.strictEqual((yield* logins.linkFor(tokenOf(again.url))).email, "ada.lovelace@example.com")

        // The old address is free again.
        const bea = yield* logins.invite("bea", "ADA@example.com")
        assert.strictEqual(bea.login.email, "ADA@example.com")
        const rows = yield* rowsOf(
          "SELECT participant_slug, email_key FROM participant_logins ORDER BY participant_slug"
        )
        assert.deepStrictEqual(
          rows.map((r) => ({ ...r })),
          [
            { participant_slug: "ada", email_key: "ada.lovelace@example.com" },
            { participant_slug: "bea", email_key: "ada@example.com" }
          ]
        )
        // The replaced link is kept (until it would have expired), so that it can say so.
        assert.strictEqual((yield* rowsOf("SELECT token_hash FROM login_links")).length, 3)
        assert.strictEqual(
          (yield* rowsOf("SELECT token_hash FROM login_links WHERE replaced_at IS NOT NULL")).length,
          1
        )
      })
    )
  )

  it.effect("invitations racing: one login per participant, one live link, one participant per address", () =>
    withLogins(
      Effect.gen(function* () {
        const logins = yield* Logins
        const same = yield* Effect.all(
          Array.from({ length: 5 }, () => logins.invite("cem", "cem@example.com")),
          { concurrency: "unbounded" }
        )
        assert.strictEqual(new Set(same.map((issued) => issued.login.id)).size, 1)
        const usable = yield* Effect.all(same.map((issued) => Effect.result(logins.linkFor(tokenOf(issued.url)))))
        assert.strictEqual(usable.filter(Result.isSuccess).length, 1)
        // One usable link; the four it replaced are kept, marked, to say so when opened.
        assert.strictEqual((yield* rowsOf("SELECT login_id FROM login_links WHERE replaced_at IS NULL")).length, 1)
        assert.strictEqual((yield* rowsOf("SELECT login_id FROM login_links WHERE replaced_at IS NOT NULL")).length, 4)

        const rivals = yield* Effect.all(
          ["dan", "eva", "fay"].map((slug) => Effect.result(logins.invite(slug, "shared@example.com"))),
          { concurrency: "unbounded" }
        )
        assert.strictEqual(rivals.filter(Result.isSuccess).length, 1)
        for (const r of rivals) if (Result.isFailure(r)) assert.strictEqual(r.failure._tag, "EmailTaken")
        const rows = yield* rowsOf("SELECT participant_slug FROM participant_logins")
        assert.strictEqual(rows.length, 2)
      })
    )
  )

  it.effect("a weak password is refused with a sentence, and nothing changes", () =>
    withLogins(
      Effect.gen(function* () {
        const logins = yield* Logins
        const { url, login } = yield* logins.invite("ada", "ada@example.com")
        const weak = yield* failureOf(logins.choosePassword(tokenOf(url), "hunter2"))
        assert.deepStrictEqual(
          [weak._tag, weak.message],
          ["PasswordRejected", "Choose a password of at least 12 characters."]
        )
        assert.deepStrictEqual(yield* logins.findById(login.id), login)
        assert.strictEqual((yield* logins.linkFor(tokenOf(url))).purpose, "invite")
        const [link] = yield* rowsOf("SELECT used_at FROM login_links")
        assert.isNull(link?.used_at)
        // The refused password does not sign in, and the link still serves a good one.
        assert.strictEqual(
          reasonOf(yield* failureOf(logins.signIn("ada@example.com", "hunter2", "a"))),
          "wrong_credentials"
        )
        yield* logins.choosePassword(tokenOf(url), password)
      })
    )
  )

  it.effect("a used link, an unknown one and an expired one are refused, saying which", () =>
    withLogins(
      Effect.gen(function* () {
        const logins = yield* Logins
        const { url } = yield* logins.invite("ada", "ada@example.com")
        const token = tokenOf(url)
        yield* logins.choosePassword(token, password)

        const reused = yield* failureOf(logins.choosePassword(token, "another long password"))
        assert.deepStrictEqual([reused._tag, reasonOf(reused)], ["LinkNotUsable", "used"])
        assert.strictEqual(reasonOf(yield* failureOf(logins.linkFor(token))), "used")
        // The password is the first one.
        yield* logins.signIn("ada@example.com", password, "a")

        for (const unknown of ["", "not-a-token", "A".repeat(43), `${token}x`]) {
          assert.strictEqual(reasonOf(yield* failureOf(logins.linkFor(unknown))), "unknown", unknown)
          assert.strictEqual(reasonOf(yield* failureOf(logins.choosePassword(unknown, password))), "unknown")
        }

        const bea = tokenOf((yield* logins.invite("bea", "bea@example.com")).url)
        yield* TestClock.adjust(inviteLinkLifetimeMs - 1)
        assert.strictEqual((yield* logins.linkFor(bea)).purpose, "invite")
        yield* TestClock.adjust(1)
        const expired = yield* failureOf(logins.choosePassword(bea, password))
        assert.deepStrictEqual(
          [reasonOf(expired), expired.message],
          ["expired", "This link has expired. Ask for a new one."]
        )
        assert.strictEqual(reasonOf(yield* failureOf(logins.linkFor(bea))), "expired")
        const [row] = yield* rowsOf("SELECT password_hash FROM participant_logins WHERE participant_slug = 'bea'")
        assert.isNull(row?.password_hash)
      })
    )
  )

  it.effect("ten concurrent uses of one link: exactly one sets the password, nine are told it is used", () =>
    withLogins(
      Effect.gen(function* () {
        const logins = yield* Logins
        const { url } = yield* logins.invite("ada", "ada@example.com")
        const candidates = Array.from({ length: 10 }, (_, i) => `candidate password ${i}`)
        const results = yield* Effect.all(
          candidates.map((candidate) => Effect.result(logins.choosePassword(tokenOf(url), candidate))),
          { concurrency: "unbounded" }
        )
        const won = results.flatMap((r, i) => (Result.isSuccess(r) ? [i] : []))
        assert.strictEqual(won.length, 1)
        for (const r of results) {
          if (Result.isFailure(r))
            assert.deepStrictEqual([r.failure._tag, reasonOf(r.failure)], ["LinkNotUsable", "used"])
        }
        const winner = won[0] ?? 0
        yield* logins.signIn("ada@example.com", candidates[winner]!, "a")
        const loser = candidates[(winner + 1) % 10]!
        assert.strictEqual(
          reasonOf(yield* failureOf(logins.signIn("ada@example.com", loser, "a"))),
          "wrong_credentials"
        )
      })
    )
  )

  it.effect("an unknown address, a login without a password and a wrong password get the same refusal", () =>
    withLogins(
      Effect.gen(function* () {
        const logins = yield* Logins
        yield* activeLogin("ada", "ada@example.com")
        yield* logins.invite("bea", "bea@example.com")
        const timed = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
          Effect.gen(function* () {
            const started = performance.now()
            const failure = yield* failureOf(effect)
            return { failure, ms: performance.now() - started }
          })
        const unknown = [] as Array<number>
        const wrong = [] as Array<number>
        for (let i = 0; i < 3; i++) {
          const a = yield* timed(logins.signIn(`nobody${i}@example.com`, password, "a"))
          const b = yield* timed(logins.signIn("ada@example.com", `${password}!`, "a"))
          const c = yield* timed(logins.signIn("bea@example.com", password, "a"))
          const d = yield* timed(logins.signIn("not an address", password, "a"))
          for (const { failure } of [a, b, c, d]) {
            assert.deepStrictEqual(
              { tag: failure._tag, reason: failure.reason, message: failure.message },
              {
                tag: "SignInRefused",
                reason: "wrong_credentials",
                message: "The email address or the password is not right."
              }
            )
          }
          unknown.push(a.ms, c.ms, d.ms)
          wrong.push(b.ms)
        }
        // Without a password to check, a hash is still spent: the answer takes as long (a sign-in
        // that skipped it would take a millisecond, not tens).
        assert.isAbove(Math.min(...unknown), 0.3 * Math.min(...wrong), `${unknown} against ${wrong}`)
      })
    )
  )

  it.effect("five wrong passwords, and even the right one is refused until the window ends", () =>
    withLogins(
      Effect.gen(function* () {
        const logins = yield* Logins
        yield* activeLogin("ada", "ada@example.com")
        assert.strictEqual(accountFailureLimit, 5)
        for (let i = 0; i < accountFailureLimit; i++) {
          yield* TestClock.adjust(1000)
          const refused = yield* failureOf(logins.signIn("ada@example.com", `wrong password ${i}`, `198.51.100.${i}`))
          assert.strictEqual(refused.reason, "wrong_credentials")
        }
        // The window began with the first failure, at T0 + 1 s; it is now T0 + 5 s.
        const throttled = yield* failureOf(logins.signIn("ada@example.com", password, "198.51.100.99"))
        assert.deepStrictEqual(
          [throttled.reason, throttled.retryAfterSeconds],
          ["throttled", signInWindowMs / 1000 - 4]
        )
        assert.strictEqual(throttled.message, "Too many failed sign-ins. Try again in 15 minutes.")
        // Throttled attempts are not verified, so they count no further.
        yield* TestClock.adjust(signInWindowMs - 4001)
        const still = yield* failureOf(logins.signIn("ada@example.com", password, "198.51.100.99"))
        assert.deepStrictEqual([still.reason, still.retryAfterSeconds], ["throttled", 1])
        assert.strictEqual(still.message, "Too many failed sign-ins. Try again in 1 second.")

        yield* TestClock.adjust(1)
        const login = yield* logins.signIn("ada@example.com", password, "198.51.100.99")
        assert.strictEqual(login.participantSlug, "ada")
      })
    )
  )

  it.effect("a successful sign-in clears the account's failures", () =>
    withLogins(
      Effect.gen(function* () {
        const logins = yield* Logins
        yield* activeLogin("ada", "ada@example.com")
        for (let round = 0; round < 2; round++) {
          for (let i = 0; i < accountFailureLimit - 1; i++) {
            assert.strictEqual(
              reasonOf(yield* failureOf(logins.signIn("ada@example.com", "wrong password!", "a"))),
              "wrong_credentials"
            )
          }
          yield* logins.signIn("ada@example.com", password, "a")
        }
        const rows = yield* rowsOf("SELECT key, failures FROM sign_in_attempts ORDER BY key")
        // The account's count is gone; the address keeps its eight failures (successes are not counted).
        assert.deepStrictEqual(
          rows.map((r) => [r.key, Number(r.failures)]),
          [["address:a", 8]]
        )
      })
    )
  )

  it.effect("twenty failures from one address, across accounts, throttle that address alone", () =>
    withLogins(
      Effect.gen(function* () {
        const logins = yield* Logins
        yield* activeLogin("ada", "ada@example.com")
        yield* activeLogin("bea", "bea@example.com")
        assert.strictEqual(addressFailureLimit, 20)
        const attacker = "2001:db8::bad"
        for (let i = 0; i < accountFailureLimit - 1; i++) {
          yield* failureOf(logins.signIn("ada@example.com", "wrong password!", attacker))
        }
        for (let i = accountFailureLimit - 1; i < addressFailureLimit; i++) {
          yield* failureOf(logins.signIn(`guess${i}@example.com`, "wrong password!", attacker))
        }
        yield* TestClock.adjust(60_000)
        const throttled = yield* failureOf(logins.signIn("bea@example.com", password, attacker))
        assert.deepStrictEqual(
          [throttled.reason, throttled.retryAfterSeconds],
          ["throttled", signInWindowMs / 1000 - 60]
        )
        // Bea's account was not charged for it; from elsewhere both sign in.
        yield* logins.signIn("bea@example.com", password, "192.0.2.1")
        yield* logins.signIn("ada@example.com", password, "192.0.2.1")
        const [bea] = yield* rowsOf("SELECT key FROM sign_in_attempts WHERE key LIKE 'account:%'")
        assert.isUndefined(bea)
      })
    )
  )

  it.effect("an unknown address is throttled as a known one is", () =>
    withLogins(
      Effect.gen(function* () {
        const logins = yield* Logins
        for (let i = 0; i < accountFailureLimit; i++) {
          yield* failureOf(logins.signIn("nobody@example.com", "wrong password!", `192.0.2.${i}`))
        }
        const throttled = yield* failureOf(logins.signIn("Nobody@Example.com", "wrong password!", "192.0.2.99"))
        assert.strictEqual(throttled.reason, "throttled")
        // Kept under a hash of the address, not the address itself.
        const keys = (yield* rowsOf("SELECT key FROM sign_in_attempts WHERE key LIKE 'email:%'")).map((r) =>
          String(r.key)
        )
        assert.deepStrictEqual(keys, [`email:${createHash("sha256").update("nobody@example.com").digest("base64url")}`])
      })
    )
  )

  it.effect(
    "after strangers' five wrong passwords, a device that signed in before gets in; a stranger waits the window out",
    () =>
      withLogins(
        Effect.gen(function* () {
          const logins = yield* Logins
          yield* activeLogin("ada", "ada@example.com")
          const device = yield* logins.deviceTokenFor(yield* logins.signIn("ada@example.com", password, "192.0.2.1"))
          for (let i = 0; i < accountFailureLimit; i++) {
            yield* TestClock.adjust(1000)
            const refused = yield* failureOf(logins.signIn("ada@example.com", `wrong password ${i}`, `198.51.100.${i}`))
            assert.strictEqual(refused.reason, "wrong_credentials")
          }
          const stranger = yield* failureOf(logins.signIn("ada@example.com", password, "198.51.100.99"))
          assert.strictEqual(stranger.reason, "throttled")
          // The device's holder, from the attacker's own address even, with the right password.
          const trusted = yield* logins.signIn("ada@example.com", password, "198.51.100.0", device)
          assert.strictEqual(trusted.participantSlug, "ada")
          // A wrong password from the device says what it says to anyone.
          const wrong = yield* failureOf(logins.signIn("ada@example.com", "wrong password!", "192.0.2.1", device))
          assert.deepStrictEqual(
            [wrong.reason, wrong.message],
            ["wrong_credentials", SignInRefused.wrongCredentials().message]
          )
          // The device's success did not clear the strangers' count: they wait the window out.
          const still = yield* failureOf(logins.signIn("ada@example.com", password, "198.51.100.99"))
          assert.strictEqual(still.reason, "throttled")
          yield* TestClock.adjust(signInWindowMs)
          yield* logins.signIn("ada@example.com", password, "198.51.100.99")
        })
      )
  )

  it.effect("another login's device, a forged, garbled, expired or pre-reset device counts as a stranger", () =>
    withLogins(
      Effect.gen(function* () {
        const logins = yield* Logins
        const ada = yield* activeLogin("ada", "ada@example.com")
        yield* activeLogin("bea", "bea@example.com")
        const adaDevice = yield* logins.deviceTokenFor(ada)
        const beaDevice = yield* logins.deviceTokenFor(yield* logins.signIn("bea@example.com", password, "a"))
        const parts = adaDevice.split(".")
        const beaParts = beaDevice.split(".")
        const forged = [
          beaDevice,
          // Bea's signature under Ada's login id, and Ada's token with its signature altered.
          [...beaParts.slice(0, 1), ada.id, ...beaParts.slice(2)].join("."),
          [...parts.slice(0, -1), `${parts.at(-1)!.slice(0, -2)}AA`].join("."),
          // Another device's nonce under Ada's signature.
          [...parts.slice(0, 3), beaParts[3], parts[4]].join("."),
          "",
          "garbage",
          `${adaDevice}.`,
          "d1.....",
          "x".repeat(5000)
        ]
        for (let i = 0; i < accountFailureLimit; i++) {
          yield* failureOf(logins.signIn("ada@example.com", "wrong password!", `198.51.100.${i}`))
        }
        for (const device of forged) {
          const refused = yield* failureOf(logins.signIn("ada@example.com", password, "192.0.2.7", device))
          assert.strictEqual(refused.reason, "throttled", device.slice(0, 80))
        }
        // The genuine one still works; once the login's password is chosen anew, it is a stranger's too.
        yield* logins.signIn("ada@example.com", password, "192.0.2.7", adaDevice)
        yield* TestClock.adjust(1000)
        const { url } = yield* logins.reset("ada")
        yield* logins.choosePassword(tokenOf(url), "a brand new long password")
        const afterReset = yield* failureOf(
          logins.signIn("ada@example.com", "a brand new long password", "192.0.2.7", adaDevice)
        )
        assert.strictEqual(afterReset.reason, "throttled")
        // A device trusted a year ago is trusted no longer.
        yield* TestClock.adjust(signInWindowMs)
        const fresh = yield* logins.deviceTokenFor(
          yield* logins.signIn("ada@example.com", "a brand new long password", "a")
        )
        yield* TestClock.adjust(deviceTrustMs + 1000)
        for (let i = 0; i < accountFailureLimit; i++) {
          yield* failureOf(logins.signIn("ada@example.com", "wrong password!", `198.51.100.${i}`))
        }
        const expired = yield* failureOf(
          logins.signIn("ada@example.com", "a brand new long password", "192.0.2.7", fresh)
        )
        assert.strictEqual(expired.reason, "throttled")
      })
    )
  )

  it.effect("a device's own wrong passwords throttle that device alone, counted apart from strangers'", () =>
    withLogins(
      Effect.gen(function* () {
        const logins = yield* Logins
        yield* activeLogin("ada", "ada@example.com")
        const stolen = yield* logins.deviceTokenFor(yield* logins.signIn("ada@example.com", password, "a"))
        yield* TestClock.adjust(1000)
        const own = yield* logins.deviceTokenFor(yield* logins.signIn("ada@example.com", password, "b"))
        for (let i = 0; i < deviceFailureLimit; i++) {
          const refused = yield* failureOf(logins.signIn("ada@example.com", `wrong password ${i}`, "c", stolen))
          assert.strictEqual(refused.reason, "wrong_credentials")
        }
        const throttled = yield* failureOf(logins.signIn("ada@example.com", password, "c", stolen))
        assert.deepStrictEqual([throttled.reason, throttled.retryAfterSeconds], ["throttled", signInWindowMs / 1000])
        // Neither the other device nor a stranger was charged for it.
        yield* logins.signIn("ada@example.com", password, "b", own)
        yield* logins.signIn("ada@example.com", password, "d")
        const keys = (yield* rowsOf("SELECT key, failures FROM sign_in_attempts WHERE failures > 0 ORDER BY key")).map(
          (r) => [String(r.key).split(":")[0], Number(r.failures)]
        )
        assert.deepStrictEqual(keys, [["device", deviceFailureLimit]])
      })
    )
  )

  it.effect("reset issues a one-hour link; choosing the new password ends the login's sessions and grants", () =>
    withLogins(
      Effect.gen(function* () {
        const logins = yield* Logins
        const sql = yield* SqlClient.SqlClient
        const ada = yield* activeLogin("ada", "ada@example.com")
        const bea = yield* activeLogin("bea", "bea@example.com")
        const record = (model: string, id: string, account: string) =>
          sql`INSERT INTO oauth_records (model, id, payload, account_id, created_at)
              VALUES (${model}, ${id}, '{}', ${account}, ${iso(T0)})`
        yield* record("Session", "s-ada", ada.id)
        yield* record("Grant", "g-ada", ada.id)
        yield* record("RefreshToken", "r-ada", ada.id)
        yield* record("Session", "s-bea", bea.id)
        yield* record("Client", "c-1", "")

        const issued = yield* logins.reset("ada")
        assert.strictEqual(issued.expiresAt, iso(T0 + resetLinkLifetimeMs))
        assert.deepStrictEqual(issued.login, ada)
        assert.deepStrictEqual(yield* logins.linkFor(tokenOf(issued.url)), {
          purpose: "reset",
          loginId: ada.id,
          email: "ada@example.com",
          expiresAt: issued.expiresAt
        })
        // Until the new password is chosen, the old one works and nothing is ended.
        yield* logins.signIn("ada@example.com", password, "a")
        assert.strictEqual((yield* rowsOf("SELECT id FROM oauth_records")).length, 5)

        yield* TestClock.adjust(30 * 60_000)
        const changed = yield* logins.choosePassword(tokenOf(issued.url), "a brand new passphrase")
        assert.strictEqual(changed.passwordChangedAt, iso(T0 + 30 * 60_000))
        const left = yield* rowsOf("SELECT id FROM oauth_records ORDER BY id")
        assert.deepStrictEqual(
          left.map((r) => r.id),
          ["c-1", "s-bea"]
        )
        assert.strictEqual(
          reasonOf(yield* failureOf(logins.signIn("ada@example.com", password, "a"))),
          "wrong_credentials"
        )
        yield* logins.signIn("ada@example.com", "a brand new passphrase", "a")

        // A reset link lasts an hour; a newer one replaces it.
        const late = yield* logins.reset("ada")
        const newer = yield* logins.reset("ada")
        assert.strictEqual(reasonOf(yield* failureOf(logins.linkFor(tokenOf(late.url)))), "replaced")
        yield* TestClock.adjust(resetLinkLifetimeMs)
        assert.strictEqual(reasonOf(yield* failureOf(logins.choosePassword(tokenOf(newer.url), password))), "expired")
      })
    )
  )

  it.effect("reset is refused for a participant without a login, and for an unknown one", () =>
    withLogins(
      Effect.gen(function* () {
        const logins = yield* Logins
        const none = yield* failureOf(logins.reset("ada"))
        assert.deepStrictEqual(
          [none._tag, none.message],
          ["LoginNotFound", "participant ada has no login yet; invite them first"]
        )
        assert.strictEqual((yield* failureOf(logins.reset("nobody")))._tag, "ParticipantNotFound")
        assert.deepStrictEqual(yield* rowsOf("SELECT token_hash FROM login_links"), [])
      })
    )
  )

  it.effect("a hash made with older parameters is made again at the next sign-in", () =>
    withLogins(
      Effect.gen(function* () {
        const logins = yield* Logins
        const sql = yield* SqlClient.SqlClient
        const ada = yield* activeLogin("ada", "ada@example.com")
        const older = yield* olderHash
        yield* sql`UPDATE participant_logins SET password_hash = ${older} WHERE id = ${ada.id}`
        yield* logins.signIn("ada@example.com", password, "a")
        const [row] = yield* rowsOf("SELECT password_hash, password_changed_at FROM participant_logins")
        assert.match(String(row?.password_hash), /^scrypt\$15\$8\$1\$/)
        assert.strictEqual(row?.password_changed_at, ada.passwordChangedAt)
        yield* logins.signIn("ada@example.com", password, "a")
      })
    )
  )
})
