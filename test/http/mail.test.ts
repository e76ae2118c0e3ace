/**
 * The participant's notifications, end to end through a server and a real SMTP server
 * (smtp-server): an offer (what, where, the time left, its console page), the reminder before it
 * lapses (and none once it was answered), a revision request with the agent's reason, a result
 * accepted or rejected; each once, each with a one-click unsubscribe that works (RFC 8058) and a
 * refused one that changes nothing; a kind turned off is not mailed. The participant's moves are
 * made by another process's services on the same database (no mail of theirs is expected); the
 * agent's through REST.
 */
import { Effect, Layer, ManagedRuntime } from "effect"
import * as Redacted from "effect/Redacted"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { CommandServicesLayer } from "../../src/app.ts"
import { ParticipantOperations } from "../../src/operations/participant.ts"
import { Logins } from "../../src/services/logins/service.ts"
import { MailPreferences } from "../../src/services/mail_preferences.ts"
import { Profiles } from "../../src/services/profiles.ts"
import type { TestDatabase } from "../support/database.ts"
import {
  digitalDraft,
  json,
  type ServerOnDatabase,
  startOnFreshDatabase,
  submitTask,
  type TestServer
} from "../support/server.ts"
import { otherProcessOn } from "../support/services.ts"
import { testConfig } from "../support/settings.ts"
import { headerOf, linksOf, mailsArrived, type ReceivedMail, type SmtpSink, startSmtpSink } from "../support/smtp.ts"

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

const slug = "akiko-tanaka"
const address = "akiko@example.org"
const caller = { subject: "unused", slug }
const offerTimeoutMs = 8000
const mailSettings = () => ({
  transport: { smtpUrl: Redacted.make(sink.url), from: "Task marketplace <noreply@market.example>" },
  retryScheduleMs: [200, 200, 500, 1000]
})

let sink: SmtpSink
let env: ServerOnDatabase
let server: TestServer
let database: TestDatabase
let other: ReturnType<typeof otherProcessOn>

beforeAll(async () => {
  sink = await startSmtpSink()
  env = await startOnFreshDatabase({
    settings: {
      mail: mailSettings(),
      offerTimeoutMs,
      timerSweepMs: 100
    }
  })
  server = env.server
  database = env.database
  other = otherProcessOn(database)
  // Akiko's login (made by another process with mail off: no invitation is mailed).
  await other.runPromise(
    Effect.gen(function* () {
      yield* (yield* Logins).invite(slug, address)
    })
  )
}, 60_000)

afterAll(async () => {
  await other?.dispose()
  await env?.close()
  await sink?.close()
})

const participant = <A, E>(f: (operations: ParticipantOperations["Service"]) => Effect.Effect<A, E>) =>
  other.runPromise(
    Effect.gen(function* () {
      return yield* f(yield* ParticipantOperations)
    })
  )

const review = async (reference: string, token: string, body: unknown) => {
  const response = await fetch(
    server.api(`/tasks/${reference}/review`),
    json(body, { authorization: `Bearer ${token}` })
  )
  expect(response.status, await response.clone().text()).toBe(200)
}

/** The mails that arrived since `from`, once `count` have. */
const next = async (from: number, count: number, what: string) =>
  (await mailsArrived(sink, from + count, 15_000, what)).slice(from)

/** A header as sent (mailparser reads List-* headers into objects of its own). */
const rawHeader = headerOf

const unsubscribeOf = (mail: ReceivedMail) => {
  const url = rawHeader(mail, "list-unsubscribe")?.replace(/^<|>$/g, "")
  expect(url).toMatch(new RegExp(`^${server.url}/mail/unsubscribe/[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]{24}$`))
  expect(rawHeader(mail, "list-unsubscribe-post")).toBe("List-Unsubscribe=One-Click")
  return url!
}

const tasksToAkiko = (action: string) =>
  submitTask(server.api("/tasks"), digitalDraft({ participant_slug: slug, action, location: "Osaka, Japan" }))

describe("notifications by mail", { timeout: 90_000 }, () => {
  it("an offer says what, where and the time left, links its console page, and carries a one-click unsubscribe", async () => {
    const from = sink.mails.length
    const { reference } = await tasksToAkiko("Photograph the front door of the Osaka office")
    const [offer] = await next(from, 1, "the offer")
    expect(offer!.to).toEqual([address])
    expect(offer!.parsed.subject).toBe("New offer: Photograph the front door of the Osaka office")
    const text = offer!.parsed.text ?? ""
    expect(text).toContain("Where: Osaka, Japan.")
    expect(text).toMatch(/Answer by \d{4}-\d\d-\d\d \d\d:\d\d UTC \(in less than a minute\)/)
    const taskPage = `${server.url}/console/tasks/${reference}`
    expect(linksOf(offer!)).toEqual([taskPage, unsubscribeOf(offer!)])
    expect(offer!.parsed.html).toContain(`href="${taskPage}"`)
    // The console page is there (it asks a stranger to sign in first).
    const page = await fetch(taskPage, { redirect: "manual" })
    expect([200, 303]).toContain(page.status)

    // Unanswered, the reminder comes before the offer lapses.
    const [reminder] = await next(from + 1, 1, "the reminder")
    expect(reminder!.parsed.subject).toBe(
      'Reminder: the offer "Photograph the front door of the Osaka office" lapses soon'
    )
    expect(reminder!.parsed.messageId).not.toBe(offer!.parsed.messageId)
    expect(linksOf(reminder!)[0]).toBe(taskPage)
  })

  it("a revision request carries the agent's reason; a result accepted and one rejected are mailed; an answered offer's reminder is not", async () => {
    const from = sink.mails.length
    const first = await tasksToAkiko("Count the bicycles parked outside Umeda station")
    await next(from, 1, "the first offer")
    await participant((operations) => operations.accept(caller, first.reference))
    await participant((operations) => operations.start(caller, first.reference))
    await participant((operations) => operations.submitResult(caller, first.reference, { summary: "Forty-two." }))
    await review(first.reference, first.token, { decision: "revise", reason: "Please count the east side too." })
    const [revision] = await next(from + 1, 1, "the revision request")
    expect(revision!.parsed.subject).toBe("Revision requested: Count the bicycles parked outside Umeda station")
    expect(revision!.parsed.text).toContain("Its reason: Please count the east side too.")
    unsubscribeOf(revision!)
    await participant((operations) => operations.submitResult(caller, first.reference, { summary: "Sixty in all." }))
    await review(first.reference, first.token, { decision: "accept" })
    const [accepted] = await next(from + 2, 1, "the acceptance")
    expect(accepted!.parsed.subject).toBe("Result accepted: Count the bicycles parked outside Umeda station")

    const second = await tasksToAkiko("Photograph the menu of the noodle bar")
    await next(from + 3, 1, "the second offer")
    await participant((operations) => operations.accept(caller, second.reference))
    await participant((operations) => operations.start(caller, second.reference))
    await participant((operations) => operations.submitResult(caller, second.reference, { summary: "Blurred photo." }))
    await review(second.reference, second.token, { decision: "reject", reason: "The photo is unreadable." })
    const [rejected] = await next(from + 4, 1, "the rejection")
    expect(rejected!.parsed.subject).toBe("Result rejected: Photograph the menu of the noodle bar")
    expect(rejected!.parsed.text).toContain("The reason given: The photo is unreadable.")

    // The reminders of both offers fell due (before they would have lapsed) and were not sent.
    await sleep(offerTimeoutMs)
    expect(sink.mails.slice(from).map((mail) => mail.parsed.subject)).toEqual([
      "New offer: Count the bicycles parked outside Umeda station",
      "Revision requested: Count the bicycles parked outside Umeda station",
      "Result accepted: Count the bicycles parked outside Umeda station",
      "New offer: Photograph the menu of the noodle bar",
      "Result rejected: Photograph the menu of the noodle bar"
    ])
    const skipped = await database.rows("SELECT COUNT(*) AS n FROM mail_outbox WHERE state = 'skipped'")
    expect(Number(skipped[0]?.n)).toBeGreaterThanOrEqual(2)
  })

  it("one-click unsubscribe turns that kind off (a GET only asks); a forged token changes nothing; turned off, no offer is mailed", async () => {
    const from = sink.mails.length
    const { reference } = await tasksToAkiko("Check the opening hours of the library")
    const [offer] = await next(from, 1, "an offer")
    const url = unsubscribeOf(offer!)

    // A link scanner's GET changes nothing: the page asks, with a button.
    const asked = await fetch(url)
    expect(asked.status).toBe(200)
    expect(await asked.text()).toContain('<button type="submit">Unsubscribe</button>')
    const offOf = () =>
      other.runPromise(
        Effect.gen(function* () {
          return yield* (yield* MailPreferences).offFor(slug)
        })
      )
    expect(await offOf()).toEqual([])

    // A token changed by one character, or naming another kind, is refused; nothing changes.
    const [payload, signature] = url.split("/").pop()!.split(".")
    const forgedKind = `${Buffer.from(`${slug}/result_accepted`).toString("base64url")}.${signature}`
    const flipped = `${payload}.${signature!.slice(0, -1)}${signature!.endsWith("A") ? "B" : "A"}`
    for (const token of [forgedKind, flipped, "nonsense"]) {
      const refused = await fetch(`${server.url}/mail/unsubscribe/${token}`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: "List-Unsubscribe=One-Click"
      })
      expect(refused.status).toBe(404)
    }
    expect(await offOf()).toEqual([])

    // What a mail program sends (RFC 8058): a POST with List-Unsubscribe=One-Click, no cookie.
    const done = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "List-Unsubscribe=One-Click"
    })
    expect(done.status).toBe(200)
    expect(await done.text()).toContain("You will no longer receive mails of this kind: <strong>New offers</strong>")
    expect(await offOf()).toEqual(["offer"])
    // Again: still off, still answered.
    expect((await fetch(url, { method: "POST" })).status).toBe(200)
    expect(await offOf()).toEqual(["offer"])

    // The pending offer is declined; the next offer is not mailed. Its reminder is a kind of its own,
    // still on: it comes.
    await participant((operations) => operations.decline(caller, reference, undefined))
    const before = sink.mails.length
    await tasksToAkiko("Photograph the station clock")
    await sleep(offerTimeoutMs)
    expect(sink.mails.slice(before).map((mail) => mail.parsed.subject)).toEqual([
      'Reminder: the offer "Photograph the station clock" lapses soon'
    ])
  })
})

describe("account mails of an open sign-up", { timeout: 90_000 }, () => {
  /** Another process on the database with mail on (it queues; the server sends). */
  const mailing = () =>
    ManagedRuntime.make(
      CommandServicesLayer.pipe(
        Layer.provide(
          testConfig({
            database: database.config,
            seedSampleCatalogue: false,
            publicBaseUrl: server.url,
            participantSignup: "open",
            mail: mailSettings()
          })
        )
      )
    )
  const profile = {
    name: "Kofi Mensah",
    discipline: "Photography",
    location: "Accra, Ghana",
    task_type: "physical",
    tags: [],
    capabilities: [],
    returns: "",
    boundary: null
  } as const

  it("confirms the address by the link mailed (GET asks, POST confirms), mails the approval, and tells a second sign-up's address it has an account", async () => {
    const runtime = mailing()
    try {
      const from = sink.mails.length
      const signUp = (email: string) =>
        runtime.runPromise(
          Effect.gen(function* () {
            return yield* (yield* Profiles).signUp(
              { email, password: "correct horse battery staple", profile },
              "10.0.0.1"
            )
          }).pipe(Effect.result)
        )
      const made = await signUp("kofi@example.org")
      expect(made._tag).toBe("Success")
      const [confirmation] = await next(from, 1, "the confirmation")
      expect(confirmation!.to).toEqual(["kofi@example.org"])
      expect(confirmation!.parsed.subject).toBe("Confirm your address")
      const [link] = linksOf(confirmation!)
      expect(link).toMatch(new RegExp(`^${server.url}/mail/confirm/[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]{24}$`))
      const confirmed = async () =>
        (await database.rows("SELECT email_confirmed_at FROM participant_logins WHERE email = 'kofi@example.org'"))[0]
          ?.email_confirmed_at
      const asked = await fetch(link!)
      expect(asked.status).toBe(200)
      expect(await asked.text()).toContain("Confirm my address")
      expect(await confirmed()).toBeNull()
      // A forged token is refused and confirms nothing.
      const forged = await fetch(`${link!.slice(0, -2)}AA`, { method: "POST" })
      expect(forged.status).toBe(404)
      expect(await confirmed()).toBeNull()
      const done = await fetch(link!, { method: "POST" })
      expect(done.status).toBe(200)
      expect(await done.text()).toContain("Your address is confirmed")
      expect(await confirmed()).toMatch(/^\d{4}-/)

      const slug = made._tag === "Success" ? made.success.profile.record.slug : ""
      const pending = await runtime.runPromise(
        Effect.gen(function* () {
          return yield* (yield* Profiles).pending
        })
      )
      expect(pending.find((p) => p.slug === slug)?.addressConfirmed).toBe(true)
      await runtime.runPromise(
        Effect.gen(function* () {
          yield* (yield* Profiles).approve(slug)
        })
      )
      const [approved] = await next(from + 1, 1, "the approval")
      expect(approved!.parsed.subject).toBe("Your profile is approved")
      expect(linksOf(approved!)).toEqual([`${server.url}/console`])

      // The same address again (in another case): refused as taken, and its holder is told, with a
      // reset link that works.
      const again = await signUp("Kofi@Example.org")
      expect(again._tag === "Failure" && again.failure._tag).toBe("EmailTaken")
      const [taken] = await next(from + 2, 1, "the address-has-an-account mail")
      expect(taken!.to).toEqual(["kofi@example.org"])
      expect(taken!.parsed.subject).toBe("You already have an account")
      const [reset] = linksOf(taken!)
      expect(reset).toMatch(new RegExp(`^${server.url}/oauth/password\\?token=[A-Za-z0-9_-]{43}$`))
      expect((await fetch(reset!)).status).toBe(200)
      // Account mails carry no unsubscribe.
      for (const mail of [confirmation!, approved!, taken!]) {
        expect(mail.parsed.headerLines.some((line) => line.key === "list-unsubscribe")).toBe(false)
      }
      await sleep(500)
      expect(sink.mails).toHaveLength(from + 3)
    } finally {
      await runtime.dispose()
    }
  })
})
