// Participants' own profiles over the active test backend (SQLite or Postgres): reading, editing
// and switching offers off, for listed participants and sign-ups awaiting approval alike; a listed
// participant's edit and availability seen at once by discovery, search and matching, in this
// services instance and in a second one on the same database (another process); the open sign-up
// (a login and a pending profile, made together or not at all, throttled per address) and the
// operator's approval that lists it.
import { assert, describe, it } from "@effect/vitest"
import { Context, Effect, Layer, Result } from "effect"
import { SqlClient } from "effect/sql"
import { TestClock } from "effect/testing"
import { CommandServicesLayer } from "../../src/app.ts"
import type { AppConfig } from "../../src/config/app_config.ts"
import type { StorageUnavailable } from "../../src/domain/errors.ts"
import { signUpLimit, signUpWindowMs } from "../../src/domain/login.ts"
import type { ParticipantRecord, ProfileEdit } from "../../src/domain/participant.ts"
import { Accounts } from "../../src/services/accounts.ts"
import { Logins } from "../../src/services/logins/service.ts"
import { ParticipantDirectory } from "../../src/services/participant_directory.ts"
import { Profiles, type SignUpRequest } from "../../src/services/profiles.ts"
import { Tasks } from "../../src/services/tasks.ts"
import { freshDatabase } from "../support/database.ts"
import { plainParticipant, sampleProfileEdit } from "../support/directory.ts"
import { testConfig } from "../support/settings.ts"

const T0 = Date.parse("2026-12-01T09:00:00.000Z")
const iso = (ms: number) => new Date(ms).toISOString()
const password = "correct horse battery staple"

const ada: ParticipantRecord = { ...plainParticipant("ada"), name: "Ada Lovelace" }
const bea: ParticipantRecord = { ...plainParticipant("bea"), name: "Bea Arthur" }

const profileOf = (overrides: Partial<ProfileEdit> = {}): ProfileEdit => ({ ...sampleProfileEdit, ...overrides })

const signUpOf = (email: string, overrides: Partial<ProfileEdit> = {}): SignUpRequest => ({
  email,
  password,
  profile: profileOf(overrides)
})

/** The services one process has, over `database` (no dispatcher: a test makes the moves). */
const servicesOn = (database: AppConfig["Service"]["database"]) =>
  CommandServicesLayer.pipe(
    Layer.provide(testConfig({ database, seedSampleCatalogue: false, publicBaseUrl: "https://market.example" }))
  )
type Services = Layer.Success<ReturnType<typeof servicesOn>>

/**
 * Runs `body` on the test clock set to T0, with the services of one process and `elsewhere`, the
 * services of a second one on the same fresh database; ada and bea are listed.
 */
const withProfiles = <A, E>(body: (elsewhere: Context.Context<Services>) => Effect.Effect<A, E, Services>) =>
  Effect.scoped(
    Effect.gen(function* () {
      yield* TestClock.setTime(T0)
      const database = yield* Effect.acquireRelease(Effect.promise(freshDatabase), (db) => Effect.promise(db.drop))
      const here = yield* Layer.build(servicesOn(database.config))
      const elsewhere = yield* Layer.build(servicesOn(database.config))
      yield* Context.get(here, ParticipantDirectory).upsertMany([ada, bea])
      return yield* Effect.provide(body(elsewhere), here)
    })
  )

/** The failure of `effect`, which must fail in domain terms (the database answering). */
const failureOf = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.map(Effect.result(effect), (result) => {
    assert.isTrue(Result.isFailure(result), "expected a failure")
    const failure = (result as Result.Failure<A, E>).failure
    assert.notStrictEqual((failure as { _tag?: unknown })._tag, "StorageUnavailable")
    return failure as Exclude<E, StorageUnavailable>
  })

/** What discovery, search and matching show of the directory, through `context`'s services. */
const seenBy = (context: Context.Context<Services>) =>
  Effect.gen(function* () {
    const directory = yield* ParticipantDirectory
    const tasks = yield* Tasks
    const matching = yield* directory.matching
    return {
      listed: (yield* directory.list({ limit: 100 })).data.map((p) => p.slug),
      byQuery: (q: string) => Effect.map(directory.list({ q, limit: 100 }), (page) => page.data.map((p) => p.slug)),
      everyone: matching.everyone,
      unavailable: [...matching.unavailable].sort(),
      search: (query: string) =>
        Effect.map(tasks.search(query, 10), (found) => found.matches.map((m) => m.participant.slug))
    }
  }).pipe(Effect.provide(context))

const count = (table: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const [row] = yield* sql<{ n: number | bigint }>`SELECT COUNT(*) AS n FROM ${sql(table)}`
    return Number(row?.n)
  })

describe("a listed participant's profile", () => {
  it.effect("reads with its availability; an unknown slug is nobody", () =>
    withProfiles(() =>
      Effect.gen(function* () {
        const profiles = yield* Profiles
        assert.deepStrictEqual(yield* profiles.view("ada"), { record: ada, available: true, listed: true })
        assert.isUndefined(yield* profiles.view("nobody"))
        const unknown = yield* failureOf(profiles.update("nobody", profileOf()))
        assert.strictEqual(unknown._tag, "ProfileNotFound")
        assert.strictEqual(unknown.message, "no participant or sign-up awaiting approval has the slug nobody")
        assert.strictEqual((yield* failureOf(profiles.setAvailable("nobody", false)))._tag, "ProfileNotFound")
      })
    )
  )

  it.effect("an edit reaches discovery, search and matching at once, here and in another process", () =>
    withProfiles((elsewhere) =>
      Effect.gen(function* () {
        const profiles = yield* Profiles
        const here = yield* Effect.context<Services>()
        // Read once by both before the edit, so each holds the directory in memory.
        for (const context of [here, elsewhere]) {
          const before = yield* seenBy(context)
          assert.deepStrictEqual(yield* before.byQuery("pastry"), [])
          assert.notInclude(yield* before.search("Pastry baking workshop in Lyon"), "ada")
        }
        const edited = profileOf({
          name: "Ada Lovelace",
          discipline: "Pastry chef",
          location: "Lyon, France",
          task_type: "hybrid",
          tags: ["pastry", "baking"],
          capabilities: ["Baking workshops"],
          boundary: "No weddings."
        })
        const updated = yield* profiles.update("ada", edited)
        assert.deepStrictEqual(updated, { record: { slug: "ada", ...edited }, available: true, listed: true })
        assert.deepStrictEqual(yield* profiles.view("ada"), updated)
        for (const context of [here, elsewhere]) {
          const after = yield* seenBy(context)
          assert.deepStrictEqual(yield* after.byQuery("pastry"), ["ada"])
          assert.deepStrictEqual(
            after.everyone.find((p) => p.slug === "ada"),
            { slug: "ada", ...edited }
          )
          assert.include(yield* after.search("Pastry baking workshop in Lyon"), "ada")
        }
      })
    )
  )

  it.effect("switched off: still listed, skipped by matching, here and elsewhere; switched on again", () =>
    withProfiles((elsewhere) =>
      Effect.gen(function* () {
        const profiles = yield* Profiles
        const directory = yield* ParticipantDirectory
        const here = yield* Effect.context<Services>()
        const photographers = "Photograph a shop front in Berlin"
        for (const context of [here, elsewhere]) {
          assert.sameMembers(yield* (yield* seenBy(context)).search(photographers), ["ada", "bea"])
        }
        const everyoneBefore = (yield* directory.matching).everyone
        assert.deepStrictEqual(yield* profiles.setAvailable("ada", false), {
          record: ada,
          available: false,
          listed: true
        })
        // Switching off again changes nothing (and moves no version).
        yield* profiles.setAvailable("ada", false)
        for (const context of [here, elsewhere]) {
          const seen = yield* seenBy(context)
          assert.deepStrictEqual(seen.listed, ["ada", "bea"])
          assert.deepStrictEqual(seen.unavailable, ["ada"])
          assert.deepStrictEqual(yield* seen.search(photographers), ["bea"])
        }
        // Availability is not the directory: the directory in memory is the same array.
        assert.strictEqual((yield* directory.matching).everyone, everyoneBefore)
        assert.strictEqual((yield* profiles.view("ada"))?.available, false)
        const preflight = yield* (yield* Tasks).preflight({
          action: "Photograph the shop front",
          execution_mode: "physical",
          location: "Berlin, Germany",
          expected_result: "Photos",
          acceptance_test: "The sign is legible",
          participant_slug: "ada"
        })
        assert.strictEqual(preflight.feasibility.eligible_participants, 0)
        assert.deepStrictEqual(
          preflight.validation.warnings.filter((w) => w.field === "participant_slug").map((w) => w.code),
          ["participant_unavailable"]
        )

        yield* profiles.setAvailable("ada", true)
        for (const context of [here, elsewhere]) {
          const seen = yield* seenBy(context)
          assert.deepStrictEqual(seen.unavailable, [])
          assert.sameMembers(yield* seen.search(photographers), ["ada", "bea"])
        }
      })
    )
  )
})

describe("the open sign-up", () => {
  it.effect("makes a login and a pending profile together: signed in as it, but not in the directory", () =>
    withProfiles((elsewhere) =>
      Effect.gen(function* () {
        const profiles = yield* Profiles
        const logins = yield* Logins
        const accounts = yield* Accounts
        const { login, profile } = yield* profiles.signUp(signUpOf("  Ines@Example.com "), "203.0.113.7")
        assert.deepStrictEqual(profile, {
          record: { slug: "ines-moreau", ...profileOf() },
          available: true,
          listed: false
        })
        assert.deepStrictEqual(login, {
          id: login.id,
          email: "Ines@Example.com",
          participantSlug: "ines-moreau",
          passwordChangedAt: iso(T0)
        })
        assert.deepStrictEqual(yield* profiles.view("ines-moreau"), profile)
        // The password works at once; the login gives the slug, and says the profile is pending.
        assert.strictEqual((yield* logins.signIn("ines@example.com", password, "203.0.113.7")).id, login.id)
        assert.strictEqual(yield* accounts.participantOf(login.id), "ines-moreau")
        assert.deepStrictEqual(yield* accounts.linkOf(login.id), { slug: "ines-moreau", pending: true })
        assert.strictEqual((yield* logins.findByParticipant("ines-moreau"))?.id, login.id)
        // Nowhere in the directory: not listed, searched, matched, nor found by slug.
        const directory = yield* ParticipantDirectory
        assert.isUndefined(yield* directory.findBySlug("ines-moreau"))
        for (const context of [yield* Effect.context<Services>(), elsewhere]) {
          const seen = yield* seenBy(context)
          assert.deepStrictEqual(seen.listed, ["ada", "bea"])
          assert.deepStrictEqual(yield* seen.byQuery("inspection"), [])
          assert.notInclude(
            seen.everyone.map((p) => p.slug),
            "ines-moreau"
          )
          assert.deepStrictEqual(yield* seen.search("Site inspection in Lyon"), [])
        }
        assert.deepStrictEqual(yield* profiles.pending, [
          {
            slug: "ines-moreau",
            name: "Inès Moreau",
            email: "Ines@Example.com",
            createdAt: iso(T0),
            addressConfirmed: false
          }
        ])
      })
    )
  )

  it.effect("derives a slug unique across listed and pending profiles, even when sign-ups race", () =>
    withProfiles(() =>
      Effect.gen(function* () {
        const profiles = yield* Profiles
        const slugOf = (email: string, name: string) =>
          Effect.map(profiles.signUp(signUpOf(email, { name }), "198.51.100.1"), (done) => done.profile.record.slug)
        // "Ada" is listed (slug ada): the sign-up takes the next.
        assert.strictEqual(yield* slugOf("ada@example.com", "Ada"), "ada-2")
        assert.strictEqual(yield* slugOf("ada3@example.com", "ADA"), "ada-3")
        const racing = yield* Effect.all(
          Array.from({ length: 4 }, (_, i) => slugOf(`twin${i}@example.com`, "Zoë Twin")),
          { concurrency: "unbounded" }
        )
        assert.sameMembers([...racing], ["zoe-twin", "zoe-twin-2", "zoe-twin-3", "zoe-twin-4"])
        assert.strictEqual(yield* count("pending_participants"), 6)
      })
    )
  )

  it.effect("refuses an address already used, whatever its case, and makes nothing", () =>
    withProfiles(() =>
      Effect.gen(function* () {
        const profiles = yield* Profiles
        const logins = yield* Logins
        yield* profiles.signUp(signUpOf("ines@example.com"), "198.51.100.2")
        // An invited participant's address too.
        yield* logins.invite("bea", "bea@example.com")
        for (const email of ["INES@example.com", " bea@example.com"]) {
          const refused = yield* failureOf(profiles.signUp(signUpOf(email, { name: "Someone Else" }), "198.51.100.2"))
          assert.strictEqual(refused._tag, "EmailTaken", email)
        }
        assert.strictEqual(yield* count("pending_participants"), 1)
        assert.strictEqual(yield* count("participant_logins"), 2)
        assert.isUndefined(yield* profiles.view("someone-else"))
      })
    )
  )

  it.effect("says what is wrong with the address or password before counting or making anything", () =>
    withProfiles(() =>
      Effect.gen(function* () {
        const profiles = yield* Profiles
        const badEmail = yield* failureOf(profiles.signUp(signUpOf("not an address"), "198.51.100.3"))
        assert.strictEqual(badEmail._tag, "InvalidEmail")
        const shortPassword = yield* failureOf(
          profiles.signUp({ ...signUpOf("ines@example.com"), password: "short" }, "198.51.100.3")
        )
        assert.strictEqual(shortPassword._tag, "PasswordRejected")
        assert.strictEqual(shortPassword.message, "Choose a password of at least 12 characters.")
        assert.strictEqual(yield* count("pending_participants"), 0)
        assert.strictEqual(yield* count("sign_in_attempts"), 0)
      })
    )
  )

  it.effect(`allows ${signUpLimit} sign-ups an hour per client address, refused or not`, () =>
    withProfiles(() =>
      Effect.gen(function* () {
        const profiles = yield* Profiles
        const address = "192.0.2.10"
        yield* profiles.signUp(signUpOf("first@example.com"), address)
        for (let i = 1; i < signUpLimit; i++) {
          // Refused sign-ups count too: guessing which addresses have accounts is limited alike.
          assert.strictEqual(
            (yield* failureOf(profiles.signUp(signUpOf("first@example.com"), address)))._tag,
            "EmailTaken"
          )
        }
        const throttled = yield* failureOf(profiles.signUp(signUpOf("new@example.com"), address))
        assert.strictEqual(throttled._tag, "SignUpThrottled")
        assert.strictEqual((throttled as { retryAfterSeconds?: number }).retryAfterSeconds, signUpWindowMs / 1000)
        assert.isUndefined(yield* profiles.view("ines-moreau-2"))
        // Another address is counted apart; the window's end opens this one again.
        yield* profiles.signUp(signUpOf("other@example.com"), "192.0.2.11")
        yield* TestClock.adjust(signUpWindowMs)
        yield* profiles.signUp(signUpOf("later@example.com"), address)
        assert.strictEqual(yield* count("pending_participants"), 3)
      })
    )
  )

  it.effect("a pending profile is edited and switched off in place; approval lists it as it stands", () =>
    withProfiles((elsewhere) =>
      Effect.gen(function* () {
        const profiles = yield* Profiles
        const accounts = yield* Accounts
        const { login } = yield* profiles.signUp(signUpOf("ines@example.com"), "198.51.100.4")
        const edited = profileOf({ discipline: "Building inspection", tags: ["building"] })
        assert.deepStrictEqual(yield* profiles.update("ines-moreau", edited), {
          record: { slug: "ines-moreau", ...edited },
          available: true,
          listed: false
        })
        assert.deepStrictEqual((yield* profiles.setAvailable("ines-moreau", false)).available, false)
        assert.deepStrictEqual(yield* profiles.view("ines-moreau"), {
          record: { slug: "ines-moreau", ...edited },
          available: false,
          listed: false
        })
        // Still nowhere in the directory.
        assert.deepStrictEqual(yield* (yield* seenBy(elsewhere)).byQuery("building"), [])

        const approved = yield* profiles.approve("ines-moreau")
        // Listed as edited; off as they chose.
        assert.deepStrictEqual(approved, { record: { slug: "ines-moreau", ...edited }, available: false, listed: true })
        assert.deepStrictEqual(yield* accounts.linkOf(login.id), { slug: "ines-moreau", pending: false })
        assert.deepStrictEqual(yield* profiles.pending, [])
        for (const context of [yield* Effect.context<Services>(), elsewhere]) {
          const seen = yield* seenBy(context)
          assert.deepStrictEqual(seen.listed, ["ada", "bea", "ines-moreau"])
          assert.deepStrictEqual(yield* seen.byQuery("building"), ["ines-moreau"])
          assert.deepStrictEqual(seen.unavailable, ["ines-moreau"])
        }
        yield* profiles.setAvailable("ines-moreau", true)
        assert.include(yield* (yield* seenBy(elsewhere)).search("Building inspection in Lyon"), "ines-moreau")
        // Edits now go to the directory.
        yield* profiles.update("ines-moreau", profileOf({ tags: ["roofs"] }))
        assert.deepStrictEqual(yield* (yield* seenBy(elsewhere)).byQuery("roofs"), ["ines-moreau"])
        assert.strictEqual(yield* count("pending_participants"), 0)
      })
    )
  )

  it.effect("approval refuses an unknown slug and one already listed; of two at once, one lists it", () =>
    withProfiles(() =>
      Effect.gen(function* () {
        const profiles = yield* Profiles
        assert.strictEqual((yield* failureOf(profiles.approve("nobody")))._tag, "ProfileNotFound")
        assert.strictEqual((yield* failureOf(profiles.approve("ada")))._tag, "AlreadyListed")
        yield* profiles.signUp(signUpOf("ines@example.com"), "198.51.100.5")
        const both = yield* Effect.all(
          [profiles.approve("ines-moreau"), profiles.approve("ines-moreau")].map(Effect.result),
          {
            concurrency: "unbounded"
          }
        )
        assert.deepStrictEqual(
          both
            .map((result) => (Result.isSuccess(result) ? "listed" : (result.failure as { _tag: string })._tag))
            .sort(),
          ["AlreadyListed", "listed"]
        )
        assert.strictEqual(yield* count("participants"), 3)
        assert.strictEqual(yield* count("pending_participants"), 0)
      })
    )
  )
})
