/**
 * The pages a person reaches from a mail, in a real browser on a phone, JavaScript off: an offer's
 * one-click unsubscribe asks first (a link scanner's GET changes nothing), then turns that kind of
 * mail off; a sign-up's address confirmation asks first too, then confirms; a link that names
 * nothing is a readable page, not an error body.
 */
import { Effect, Layer, ManagedRuntime } from "effect"
import * as Redacted from "effect/Redacted"
import type { Browser } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { CommandServicesLayer } from "../../src/app.ts"
import { Logins } from "../../src/services/logins/service.ts"
import { Profiles } from "../../src/services/profiles.ts"
import { launchBrowser, phone, screenshots } from "../support/browser.ts"
import { digitalDraft, type ServerOnDatabase, startOnFreshDatabase, submitTask } from "../support/server.ts"
import { otherProcessOn } from "../support/services.ts"
import { testConfig } from "../support/settings.ts"
import { headerOf, linksOf, mailsArrived, type SmtpSink, startSmtpSink } from "../support/smtp.ts"

let sink: SmtpSink
let env: ServerOnDatabase
let browser: Browser

const mailSettings = () => ({
  transport: { smtpUrl: Redacted.make(sink.url), from: "Task marketplace <noreply@market.example>" },
  retryScheduleMs: [200, 200, 500]
})

const slug = "akiko-tanaka"

beforeAll(async () => {
  sink = await startSmtpSink()
  browser = await launchBrowser()
  env = await startOnFreshDatabase({
    settings: {
      mail: mailSettings(),
      timerSweepMs: 100
    }
  })
  // Akiko's login, made by another process with mail off (no invitation is mailed).
  const other = otherProcessOn(env.database)
  try {
    await other.runPromise(
      Effect.gen(function* () {
        yield* (yield* Logins).invite(slug, "akiko@example.org")
      })
    )
  } finally {
    await other.dispose()
  }
}, 60_000)

afterAll(async () => {
  await browser?.close()
  await env?.close()
  await sink?.close()
})

describe("a mail's links in a browser", () => {
  it("unsubscribe asks, then turns that kind off; a link naming nothing is a readable page", async () => {
    const from = sink.mails.length
    await submitTask(env.server.api("/tasks"), digitalDraft({ participant_slug: slug }))
    await mailsArrived(sink, from + 1, 15_000, "the offer")
    const offer = sink.mails[from]!
    const url = String(headerOf(offer, "list-unsubscribe")).replace(/^<|>$/g, "")
    expect(url).toMatch(/\/mail\/unsubscribe\//)

    const context = await browser.newContext({ ...phone, javaScriptEnabled: false })
    try {
      const page = await context.newPage()
      const asked = await page.goto(url)
      expect(asked?.status()).toBe(200)
      await expect(page.locator("h1").textContent()).resolves.toBe("Unsubscribe?")
      await page.screenshot({ path: `${screenshots}mail-unsubscribe-ask.png` })
      await Promise.all([page.waitForNavigation(), page.getByRole("button", { name: "Unsubscribe" }).click()])
      await expect(page.locator("h1").textContent()).resolves.toBe("Unsubscribed")
      await page.screenshot({ path: `${screenshots}mail-unsubscribed.png` })
      const off = await env.database.rows(`SELECT kind FROM mail_preferences WHERE participant_slug = '${slug}'`)
      expect(off.map((row) => row.kind)).toEqual(["offer"])

      const nothing = await page.goto(`${env.server.url}/mail/unsubscribe/nonsense`)
      expect(nothing?.status()).toBe(404)
      expect(await page.locator("h1").count()).toBe(1)
      expect(nothing?.headers()["content-type"]).toContain("text/html")
    } finally {
      await context.close()
    }
  })

  it("a sign-up's address confirmation asks, then confirms; a link cut short is a readable page", async () => {
    // A sign-up made by another process with mail on, on an open service (it queues; the server sends).
    const other = ManagedRuntime.make(
      CommandServicesLayer.pipe(
        Layer.provide(
          testConfig({
            database: env.database.config,
            seedSampleCatalogue: false,
            publicBaseUrl: env.server.url,
            participantSignup: "open",
            mail: mailSettings()
          })
        )
      )
    )
    const from = sink.mails.length
    try {
      await other.runPromise(
        Effect.gen(function* () {
          yield* (yield* Profiles).signUp(
            {
              email: "kofi@example.org",
              password: "correct horse battery staple",
              profile: {
                name: "Kofi Mensah",
                discipline: "Photography",
                location: "Accra, Ghana",
                task_type: "physical",
                tags: [],
                capabilities: [],
                returns: "",
                boundary: null
              }
            },
            "10.0.0.1"
          )
        })
      )
    } finally {
      await other.dispose()
    }
    await mailsArrived(sink, from + 1, 15_000, "the confirmation")
    const [url] = linksOf(sink.mails[from]!)
    expect(url).toMatch(/\/mail\/confirm\//)
    const confirmed = async () =>
      (await env.database.rows("SELECT email_confirmed_at FROM participant_logins WHERE email = 'kofi@example.org'"))[0]
        ?.email_confirmed_at

    const context = await browser.newContext({ ...phone, javaScriptEnabled: false })
    try {
      const page = await context.newPage()
      const cut = await page.goto(url!.slice(0, -6))
      expect(cut?.status()).toBe(404)
      await expect(page.locator("h1").textContent()).resolves.toBe("This confirmation link is not valid")
      await page.screenshot({ path: `${screenshots}mail-confirm-cut-short.png` })

      const asked = await page.goto(url!)
      expect(asked?.status()).toBe(200)
      await expect(page.locator("h1").textContent()).resolves.toBe("Confirm your address")
      // It names the address, and says that leaving changes nothing.
      const asking = await page.locator("main").textContent()
      expect(asking).toContain("You signed up to the task marketplace with kofi@example.org.")
      expect(asking).toContain("nothing happens unless you confirm")
      await page.screenshot({ path: `${screenshots}mail-confirm-ask.png` })
      expect(await confirmed()).toBeNull()
      await Promise.all([page.waitForNavigation(), page.getByRole("button", { name: "Confirm my address" }).click()])
      await expect(page.locator("h1").textContent()).resolves.toBe("Your address is confirmed")
      await expect(page.locator("main").textContent()).resolves.toContain(
        "a mail tells you when it is approved and listed"
      )
      await page.screenshot({ path: `${screenshots}mail-confirm-done.png` })
      expect(await confirmed()).toMatch(/^\d{4}-/)
    } finally {
      await context.close()
    }
  })
})
