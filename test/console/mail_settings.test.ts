// The console profile's mail settings, in a real browser at phone width, on a server with mail on
// (a real SMTP server behind it): each notification ticked unless turned off, saving turns the
// unticked ones off and the ticked on, a turned-off kind is not mailed, and a form without the
// session's CSRF token changes nothing.
import { Effect } from "effect"
import * as Redacted from "effect/Redacted"
import type { Browser } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Logins } from "../../src/services/logins/service.ts"
import { MailPreferences } from "../../src/services/mail_preferences.ts"
import { launchBrowser, screenshots } from "../support/browser.ts"
import { choosePassword, signInToConsole } from "../support/console.ts"
import { digitalDraft, type ServerOnDatabase, startOnFreshDatabase, submitTask } from "../support/server.ts"
import { otherProcessOn } from "../support/services.ts"
import { mailsArrived, type SmtpSink, startSmtpSink } from "../support/smtp.ts"

const slug = "akiko-tanaka"
const address = "akiko@example.org"
const password = "akiko's long password 1"

let sink: SmtpSink
let env: ServerOnDatabase
let browser: Browser
let other: ReturnType<typeof otherProcessOn>

beforeAll(async () => {
  sink = await startSmtpSink()
  env = await startOnFreshDatabase({
    settings: {
      mail: {
        transport: { smtpUrl: Redacted.make(sink.url), from: "Task marketplace <noreply@market.example>" },
        retryScheduleMs: [200, 500]
      },
      timerSweepMs: 100
    }
  })
  other = otherProcessOn(env.database)
  browser = await launchBrowser()
  // Invited by another process (mail off there), the link opened on this server.
  const link = await other.runPromise(
    Effect.gen(function* () {
      return (yield* (yield* Logins).invite(slug, address)).url
    })
  )
  await choosePassword(browser, `${env.server.url}/oauth/password${new URL(link).search}`, password)
}, 90_000)

afterAll(async () => {
  await browser?.close()
  await other?.dispose()
  await env?.close()
  await sink?.close()
})

const offOf = () =>
  other.runPromise(
    Effect.gen(function* () {
      return yield* (yield* MailPreferences).offFor(slug)
    })
  )

describe("the profile's mail settings", { timeout: 90_000 }, () => {
  it("every kind ticked at first; saving turns the unticked off and the ticked on; an offer turned off is not mailed", async () => {
    const { context, page } = await signInToConsole(browser, env.server.url, { slug, email: address, password })
    try {
      await page.goto(`${env.server.url}/console/profile`)
      const box = (name: string) => page.getByRole("checkbox", { name })
      for (const name of [
        "New offers",
        "Reminders before an offer lapses",
        "Revision requests",
        "Results accepted",
        "Results rejected",
        "New messages from an agent"
      ]) {
        expect(await box(name).isChecked(), name).toBe(true)
      }
      // Each box sits beside its words, on one line (not above them).
      const boxAt = await box("New messages from an agent").boundingBox()
      const wordsAt = await page.getByText("New messages from an agent", { exact: true }).boundingBox()
      expect(wordsAt!.x).toBeGreaterThan(boxAt!.x + boxAt!.width)
      expect(Math.abs(wordsAt!.y + wordsAt!.height / 2 - (boxAt!.y + boxAt!.height / 2))).toBeLessThan(8)
      await page.screenshot({ path: `${screenshots}console-mail-settings.png` })
      await box("New offers").uncheck()
      await box("Results rejected").uncheck()
      await Promise.all([page.waitForNavigation(), page.getByRole("button", { name: "Save mail settings" }).click()])
      await expect(page.getByRole("status").textContent()).resolves.toContain("Your mail settings are saved")
      expect(await offOf()).toEqual(["offer", "result_rejected"])
      expect(await box("New offers").isChecked()).toBe(false)
      expect(await box("Revision requests").isChecked()).toBe(true)

      // Offers off: a task offered to Akiko is not mailed (its reminder is a kind of its own: on).
      const before = sink.mails.length
      await submitTask(env.server.api("/tasks"), digitalDraft({ participant_slug: slug }))
      await new Promise((resolve) => setTimeout(resolve, 1500))
      expect(sink.mails.slice(before).map((mail) => mail.parsed.subject)).toEqual([])

      // A form without the session's CSRF token is refused; nothing changes.
      const forged = await context.request.post(`${env.server.url}/console/profile/mail`, {
        form: { on: "result_rejected" },
        maxRedirects: 0
      })
      expect(forged.status()).toBeGreaterThanOrEqual(400)
      expect(await offOf()).toEqual(["offer", "result_rejected"])

      // Ticked again: mailed again.
      await box("New offers").check()
      await box("Results rejected").check()
      await Promise.all([page.waitForNavigation(), page.getByRole("button", { name: "Save mail settings" }).click()])
      expect(await offOf()).toEqual([])
      const { reference } = await submitTask(
        env.server.api("/tasks"),
        digitalDraft({ participant_slug: slug, action: "Photograph the station clock at noon" })
      )
      const [offer] = (await mailsArrived(sink, before + 1, 15_000, "the offer")).slice(before)
      expect(offer!.parsed.subject).toBe("New offer: Photograph the station clock at noon")
      expect(offer!.parsed.text).toContain(`/console/tasks/${reference}`)
    } finally {
      await context.close()
    }
  })
})
