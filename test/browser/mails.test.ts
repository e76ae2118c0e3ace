/**
 * Every kind of mail as its HTML is read: in a real browser on a phone, JavaScript off, one
 * screenshot per kind. Nothing runs wider than the screen (a long unbroken word in a message, a long
 * reason), every link is the address the mail was made with and is followed by name, and the words
 * of the plain-text part are the page's.
 */
import type { Browser, BrowserContext } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { MailContent } from "../../src/domain/mail.ts"
import { renderMail } from "../../src/pages/mail.ts"
import { launchBrowser, phone, screenshots } from "../support/browser.ts"

const base = "https://market.example/console"
const now = Date.parse("2030-06-01T08:00:00Z")
const link = { url: `${base}/password?token=${"t".repeat(43)}`, expiresAt: "2030-06-08T08:00:00Z" }
const task = { reference: "tsk_7x2kq4m9w3p5r8t6v1y0z2a4bc", title: "Photograph the storefront of Bäckerei Sonne" }
const taskUrl = `${base}/tasks/${task.reference}`
const unbroken = "https://example.org/a-very-long-address-someone-pasted-into-a-message-without-any-spaces-at-all"

const mails: ReadonlyArray<MailContent> = [
  { kind: "invitation", name: "Akiko Tanaka", ...link },
  { kind: "password_reset", ...link },
  { kind: "sign_up_confirmation", name: "Akiko Tanaka", ...link },
  { kind: "sign_up_approved", name: "Akiko Tanaka", url: base },
  { kind: "address_has_account", ...link },
  { kind: "offer", ...task, where: "Berlin, Germany", respondBy: "2030-06-02T08:00:00Z", url: taskUrl },
  { kind: "offer_reminder", ...task, where: "Berlin, Germany", respondBy: "2030-06-01T10:00:00Z", url: taskUrl },
  { kind: "revision_requested", ...task, url: taskUrl, reason: `The sign is cut off on the left. ${unbroken}` },
  { kind: "result_accepted", ...task, url: taskUrl },
  { kind: "result_rejected", ...task, url: taskUrl, reason: null },
  {
    kind: "message",
    ...task,
    url: taskUrl,
    messages: [
      { body: "The left door, please.\nThe one with the green frame.", createdAt: "2030-06-01T07:50:00Z" },
      { body: unbroken, createdAt: "2030-06-01T07:55:00Z" }
    ]
  }
]

let browser: Browser
let context: BrowserContext

beforeAll(async () => {
  browser = await launchBrowser()
  context = await browser.newContext({ ...phone, javaScriptEnabled: false })
}, 60_000)

afterAll(async () => {
  await context?.close()
  await browser?.close()
})

describe("mails read on a phone", () => {
  it.each(mails.map((mail) => [mail.kind, mail] as const))(
    "%s: fits the screen, its links are the mail's own, its words the plain text's",
    async (kind, mail) => {
      const unsubscribe = kind === "invitation" ? undefined : `${base}/unsubscribe?token=${"u".repeat(43)}`
      const rendered = renderMail(mail, now, unsubscribe)
      const page = await context.newPage()
      try {
        await page.setContent(rendered.html)
        const { scrollWidth, clientWidth } = await page.evaluate(() => ({
          scrollWidth: document.documentElement.scrollWidth,
          clientWidth: document.documentElement.clientWidth
        }))
        // Laid out at the phone's width (not a desktop's 980 pixels shrunk to fit), and nothing wider.
        expect(clientWidth).toBe(phone.viewport?.width)
        expect(scrollWidth, "nothing runs wider than the screen").toBeLessThanOrEqual(clientWidth)
        const links = await page
          .locator("a")
          .evaluateAll((as) => as.map((a) => ({ label: a.textContent ?? "", href: a.getAttribute("href") ?? "" })))
        expect(links.length).toBeGreaterThan(0)
        for (const { label, href } of links) {
          expect(href.startsWith(base), `${label} → ${href}`).toBe(true)
          expect(rendered.text).toContain(`${label}: ${href}`)
          expect(await page.getByRole("link", { name: label }).isVisible()).toBe(true)
        }
        const words = (await page.locator("body").innerText()).replace(/\s+/g, " ").trim()
        for (const line of rendered.text.split("\n").filter((l) => l.trim() !== "" && !l.includes(": http"))) {
          expect(words).toContain(line.replace(/^> /, "").replace(/\s+/g, " ").trim())
        }
        await page.screenshot({ path: `${screenshots}mail-${kind}.png`, fullPage: true })
      } finally {
        await page.close()
      }
    }
  )
})
