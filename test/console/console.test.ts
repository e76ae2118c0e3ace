/**
 * The participant console in a real browser (Chromium through playwright-core), on both backends:
 * a participant invited by the operator signs in through the embedded authorization server (the
 * console is its first-party client: no consent page), sees a task an agent submitted naming them,
 * answers it, and every refusal leaves the task as it was.
 */
import { request as httpRequest } from "node:http"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { Browser, BrowserContextOptions, Page } from "playwright-core"
import { maxJsonDepth } from "../../src/api/parameters.ts"
import { maxFormTextBytes } from "../../src/console/submission.ts"
import { exchange } from "../support/api_client.ts"
import { launchBrowser, phone, screenshots } from "../support/browser.ts"
import { type ConsolePerson, choosePassword, invitePeople, signInOnPage, signInToConsole } from "../support/console.ts"
import { freshDatabase, type TestDatabase } from "../support/database.ts"
import { linkOf, operator } from "../support/oauth.ts"
import { digitalDraft, startServer, submitTask, type TestServer, validDraft } from "../support/server.ts"

let database: TestDatabase
let server: TestServer
let browser: Browser

const lukas = { slug: "lukas-schmidt", email: "lukas@example.com", password: "a long enough password 1" }
const emily = { slug: "emily-hart", email: "emily@example.com", password: "another long password 2" }

/** A browser on a phone, signed in to the console as `person`; the page shows the tasks. */
const signIn = (person: ConsolePerson, options?: BrowserContextOptions) =>
  signInToConsole(browser, server.url, person, options)

const readTask = (on: TestServer, reference: string) =>
  exchange(on, (c) => c.getTask({ params: { reference }, query: {}, headers: {} }))

const readParticipant = (slug: string) => exchange(server, (c) => c.getParticipant({ params: { slug } }))

const taskState = async (reference: string) => {
  const response = await readTask(server, reference)
  return ((await response.json()) as { state: string }).state
}

const noHorizontalScroll = async (page: Page) =>
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true)

beforeAll(async () => {
  browser = await launchBrowser()
  database = await freshDatabase()
  server = await startServer({ database })
  await invitePeople(browser, database, server.url, [lukas, emily])
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await server?.close()
  await database?.drop()
})

describe("signing in", () => {
  it("is announced by the service index and /capabilities", async () => {
    const index = (await (await exchange(server, (c) => c.index())).json()) as {
      interfaces: { participant_console?: { url: string; requires_installation: boolean } }
    }
    expect(index.interfaces.participant_console).toMatchObject({
      url: `${server.url}/console`,
      requires_installation: false
    })
    const capabilities = (await (await exchange(server, (c) => c.capabilities())).json()) as {
      interfaces: { participant_console?: string }
    }
    expect(capabilities.interfaces.participant_console).toBe(`${server.url}/console`)
  })

  it("sends a person who is not signed in to the authorization server, and back to the page they asked for", async () => {
    const { context, page } = await signIn(lukas)
    try {
      await expect(page.locator("h1").textContent()).resolves.toBe("Your tasks")
      // No consent page for the console: it is the marketplace's own.
      const cookies = await context.cookies(`${server.url}/console`)
      const session = cookies.find((cookie) => cookie.name === "tm_console")
      expect(session?.httpOnly).toBe(true)
      expect(session?.sameSite).toBe("Lax")
      expect(session?.path).toBe("/console")
      await noHorizontalScroll(page)
    } finally {
      await context.close()
    }
  })

  it("refuses a replayed or foreign callback, and a page without a session sends the browser to sign in", async () => {
    const replay = await fetch(`${server.url}/console/callback?code=x&state=forged`, { redirect: "manual" })
    expect(replay.status).toBe(400)
    expect(replay.headers.get("content-type")).toContain("text/html")
    expect(await replay.text()).toContain("Signing in did not finish")
    const anonymous = await fetch(`${server.url}/console`, { redirect: "manual" })
    expect(anonymous.status).toBe(303)
    expect(anonymous.headers.get("location")).toContain(`${server.url}/oauth/auth?`)
    expect(anonymous.headers.get("location")).toContain("code_challenge_method=S256")
    const post = await fetch(`${server.url}/console/tasks/x/accept`, { method: "POST", redirect: "manual" })
    expect(post.status).toBe(401)
    expect(post.headers.get("content-type")).toContain("text/html")
  })

  it("comes back after signing in only to a console page: any other return= leads home, with no header injected", async () => {
    const context = await browser.newContext({ javaScriptEnabled: false, ...phone })
    const answers: Array<{ url: string; status: number; injected: string | undefined }> = []
    context.on("response", (response) =>
      answers.push({ url: response.url(), status: response.status(), injected: response.headers()["x-evil"] })
    )
    try {
      const page = await context.newPage()
      // The first sign-in asks for the password; the others pass through the authorization server's session.
      await page.goto(`${server.url}/console/sign-in?return=%0d%0aX-Evil:1`)
      await signInOnPage(page, server.url, lukas)
      await expect(page.locator("h1").textContent()).resolves.toBe("Your tasks")
      for (const unsafe of [
        "/%0d%0a",
        "//evil.example",
        "https://evil.example/console",
        "/console/%0d%0aX-Evil:1",
        "/console/tasks/x%0aX-Evil:%201",
        "/console/%C3%A9",
        "/console/callback"
      ]) {
        const response = await page.goto(`${server.url}/console/sign-in?return=${unsafe}`)
        expect(page.url(), unsafe).toBe(`${server.url}/console`)
        expect(response?.status(), unsafe).toBe(200)
        await expect(page.locator("h1").textContent()).resolves.toBe("Your tasks")
      }
      // A console page is returned to, as before.
      await page.goto(`${server.url}/console/sign-in?return=/console/profile`)
      expect(page.url()).toBe(`${server.url}/console/profile`)
      expect(answers.filter((answer) => answer.status >= 500 || answer.injected !== undefined)).toEqual([])
    } finally {
      await context.close()
    }
  })

  it("sends every kind of page, and its script, with charset=utf-8", async () => {
    const typeOf = async (path: string, init: RequestInit = {}) =>
      (await fetch(`${server.url}${path}`, { redirect: "manual", ...init })).headers.get("content-type")
    const html = { headers: { accept: "text/html" } }
    // The console's pages: a failed callback, signed out, not found, a form without a session.
    expect(await typeOf("/console/callback?code=x&state=forged")).toBe("text/html; charset=utf-8")
    expect(await typeOf("/console/signed-out")).toBe("text/html; charset=utf-8")
    expect(await typeOf("/console/no-such-page")).toBe("text/html; charset=utf-8")
    expect(await typeOf("/console/tasks/x/accept", { method: "POST" })).toBe("text/html; charset=utf-8")
    expect(await typeOf("/console/live.js")).toBe("text/javascript; charset=utf-8")
    // The authorization server's: an unknown address, an error, the sign-in page.
    expect(await typeOf("/oauth/no-such-page", html)).toBe("text/html; charset=utf-8")
    expect(await typeOf("/oauth/auth?client_id=nobody", html)).toBe("text/html; charset=utf-8")
    const context = await browser.newContext({ javaScriptEnabled: false })
    try {
      const page = await context.newPage()
      const signInPage = await page.goto(`${server.url}/console`)
      await expect(page.getByRole("button", { name: "Sign in" }).isVisible()).resolves.toBe(true)
      expect(signInPage?.headers()["content-type"]).toBe("text/html; charset=utf-8")
    } finally {
      await context.close()
    }
    // The docs page.
    expect(await typeOf("/docs")).toBe("text/html; charset=utf-8")
  })

  it("signs out at once, no second question: the session ends in the database and at the authorization server", async () => {
    const { context, page } = await signIn(emily, { ...phone, javaScriptEnabled: true })
    try {
      const cookie = (await context.cookies(`${server.url}/console`)).find((c) => c.name === "tm_console")!
      await Promise.all([
        page.waitForURL(/\/console\/signed-out$/),
        page.getByRole("button", { name: /Sign out/ }).click()
      ])
      await page.screenshot({ path: `${screenshots}console-signed-out.png` })
      await expect(page.locator("h1").textContent()).resolves.toBe("You are signed out")
      const stale = await fetch(`${server.url}/console`, {
        headers: { cookie: `tm_console=${cookie.value}` },
        redirect: "manual"
      })
      expect(stale.status).toBe(303)
      // Signed out at the authorization server too: signing in again asks for the password.
      await page.goto(`${server.url}/console`)
      await expect(page.getByLabel("Password", { exact: true }).isVisible()).resolves.toBe(true)
    } finally {
      await context.close()
    }
  })

  it('signs out without JavaScript too: one button, no "Stay signed in"', async () => {
    const { context, page } = await signIn(emily)
    try {
      await Promise.all([page.waitForNavigation(), page.getByRole("button", { name: /Sign out/ }).click()])
      await page.screenshot({ path: `${screenshots}console-signing-out-without-javascript.png` })
      await expect(page.locator("h1").textContent()).resolves.toBe("Signing out")
      await expect(page.getByRole("button").allTextContents()).resolves.toEqual(["Sign out"])
      await Promise.all([
        page.waitForURL(/\/console\/signed-out$/),
        page.getByRole("button", { name: "Sign out" }).click()
      ])
      await expect(page.locator("h1").textContent()).resolves.toBe("You are signed out")
    } finally {
      await context.close()
    }
  })
})

describe("a one-time link leads to the console", () => {
  it("after choosing a password, and when the link was used already; a replaced link says so", async () => {
    const first = linkOf(await operator(database, server.url, "participants", "reset", lukas.slug))
    const link = linkOf(await operator(database, server.url, "participants", "reset", lukas.slug))
    const context = await browser.newContext({ ...phone, javaScriptEnabled: false })
    try {
      const page = await context.newPage()
      await page.goto(link)
      await page.getByLabel("Password", { exact: true }).fill(lukas.password)
      await page.getByLabel("Confirm password").fill(lukas.password)
      await Promise.all([page.waitForNavigation(), page.getByRole("button", { name: "Save password" }).click()])
      await page.screenshot({ path: `${screenshots}password-saved-to-console.png` })
      await expect(page.locator("h1").textContent()).resolves.toBe("Your password is saved")
      await Promise.all([page.waitForNavigation(), page.getByRole("link", { name: "Open your console" }).click()])
      // The console's sign-in: the new password signs in.
      await signInOnPage(page, server.url, lukas)
      await expect(page.locator("h1").textContent()).resolves.toBe("Your tasks")

      const used = await page.goto(link)
      expect(used?.status()).toBe(410)
      await expect(page.locator("h1").textContent()).resolves.toBe("This link has already been used")
      await Promise.all([page.waitForNavigation(), page.getByRole("link", { name: "Go to your console" }).click()])
      expect(page.url()).toBe(`${server.url}/console`)

      const replaced = await page.goto(first)
      expect(replaced?.status()).toBe(410)
      await page.screenshot({ path: `${screenshots}link-replaced.png` })
      await expect(page.locator("h1").textContent()).resolves.toBe("A newer link replaced this one")
      await expect(page.locator("main").textContent()).resolves.not.toContain("copied only in part")
    } finally {
      await context.close()
    }
  })
})

describe("sessions", () => {
  it("a new password ends the console's sessions, as it ends the login's others", async () => {
    const { context } = await signIn(emily)
    try {
      const cookie = (await context.cookies(`${server.url}/console`)).find((c) => c.name === "tm_console")!
      const page = (headers: Record<string, string>) => fetch(`${server.url}/console`, { headers, redirect: "manual" })
      expect((await page({ cookie: `tm_console=${cookie.value}` })).status).toBe(200)
      const link = linkOf(await operator(database, server.url, "participants", "reset", emily.slug))
      await choosePassword(browser, link, emily.password)
      expect((await page({ cookie: `tm_console=${cookie.value}` })).status).toBe(303)
    } finally {
      await context.close()
    }
  })

  it("marks its cookies Secure when the service is served over https", async () => {
    const secure = await startServer({ database, settings: { publicBaseUrl: "https://console.example" } })
    try {
      const start = await fetch(`${secure.url}/console`, { redirect: "manual" })
      expect(start.status).toBe(303)
      expect(start.headers.get("location")).toMatch(/^https:\/\/console\.example\/oauth\/auth\?/)
      const setCookie = start.headers.get("set-cookie") ?? ""
      expect(setCookie).toMatch(/^tm_console_state=/)
      expect(setCookie).toMatch(/; Secure/)
      expect(setCookie).toMatch(/; HttpOnly/)
      expect(setCookie).toMatch(/; SameSite=Lax/)
      const plain = await fetch(`${server.url}/console`, { redirect: "manual" })
      expect(plain.headers.get("set-cookie") ?? "").not.toMatch(/; Secure/)
    } finally {
      await secure.close()
    }
  })
})

describe("offers", () => {
  it("shows an offer with its brief and time left; Accept, then Start work", async () => {
    const { reference } = await submitTask(server.api("/tasks"), validDraft({ participant_slug: lukas.slug }))
    const { context, page } = await signIn(lukas)
    try {
      const offers = page.getByRole("region", { name: /Offers/ })
      await expect(offers.getByRole("link", { name: /Photograph the storefront/ }).count()).resolves.toBe(1)
      await expect(offers.textContent()).resolves.toMatch(/Answer within (23|24) hours/)
      await page.screenshot({ path: `${screenshots}console-tasks-phone.png`, fullPage: true })
      await Promise.all([
        page.waitForNavigation(),
        offers.getByRole("link", { name: /Photograph the storefront/ }).click()
      ])
      const brief = await page.locator("dl.brief").textContent()
      for (const term of ["Expected result", "Acceptance test", "Principal", "ACME Retail Research GmbH", "Agent"]) {
        expect(brief).toContain(term)
      }
      await page.screenshot({ path: `${screenshots}console-offer-phone.png`, fullPage: true })
      await Promise.all([page.waitForNavigation(), page.getByRole("button", { name: "Accept" }).click()])
      await expect(page.getByRole("status").textContent()).resolves.toContain("You accepted the task")
      expect(await taskState(reference)).toBe("accepted")
      await Promise.all([page.waitForNavigation(), page.getByRole("button", { name: "Start work" }).click()])
      expect(await taskState(reference)).toBe("in_flight")
      await expect(page.getByRole("button", { name: "Submit result" }).count()).resolves.toBe(1)
      await noHorizontalScroll(page)
    } finally {
      await context.close()
    }
  })

  it("declines with a reason: the history keeps it, the task leaves the offers", async () => {
    const { reference } = await submitTask(server.api("/tasks"), digitalDraft({ participant_slug: emily.slug }))
    const { context, page } = await signIn(emily)
    try {
      await page.goto(`${server.url}/console/tasks/${reference}`)
      await page.getByLabel("Reason for declining (optional)").fill("Away that week")
      await Promise.all([page.waitForNavigation(), page.getByRole("button", { name: "Decline" }).click()])
      const task = (await (await readTask(server, reference)).json()) as {
        state: string
        history: Array<{ reason?: string }>
      }
      expect(task.state).toBe("declined")
      expect(task.history.at(-1)?.reason).toContain("Away that week")
      await expect(page.locator("main").textContent()).resolves.toContain("You declined")
      await page.goto(`${server.url}/console`)
      await expect(page.getByRole("region", { name: /History/ }).textContent()).resolves.toContain("You declined")
      await expect(page.getByRole("region", { name: /Offers/ }).textContent()).resolves.not.toContain(reference)
    } finally {
      await context.close()
    }
  })

  it("refuses a form without the session's CSRF token or from another site, and nothing changes", async () => {
    const { reference } = await submitTask(server.api("/tasks"), digitalDraft({ participant_slug: emily.slug }))
    const { context } = await signIn(emily)
    try {
      const cookie = (await context.cookies(`${server.url}/console`)).find((c) => c.name === "tm_console")!
      const post = (body: string, headers: Record<string, string> = {}) =>
        fetch(`${server.url}/console/tasks/${reference}/accept`, {
          method: "POST",
          headers: {
            cookie: `tm_console=${cookie.value}`,
            "content-type": "application/x-www-form-urlencoded",
            ...headers
          },
          body,
          redirect: "manual"
        })
      expect((await post("csrf=wrong")).status).toBe(403)
      expect((await post("")).status).toBe(403)
      const page = await context.newPage()
      await page.goto(`${server.url}/console/tasks/${reference}`)
      const csrf = await page.locator('input[name="csrf"]').first().getAttribute("value")
      expect((await post(`csrf=${csrf}`, { origin: "https://evil.example" })).status).toBe(403)
      expect(await taskState(reference)).toBe("awaiting_participant")
      // Another participant's task is nobody's page here.
      const other = await submitTask(server.api("/tasks"), validDraft({ participant_slug: lukas.slug }))
      await page.goto(`${server.url}/console/tasks/${other.reference}`)
      await expect(page.locator("h1").textContent()).resolves.toBe("Nothing here")
      expect((await post(`csrf=${csrf}`)).status).toBe(303)
      expect(await taskState(reference)).toBe("accepted")
      // A result form whose file comes before the token is not our page's: refused, no file kept.
      const files = await database.count("artifacts")
      const form = new FormData()
      form.set("files", new Blob(["evidence"], { type: "text/plain" }), "notes.txt")
      form.set("csrf", csrf!)
      form.set("summary", "Done")
      const early = await fetch(`${server.url}/console/tasks/${reference}/submit`, {
        method: "POST",
        headers: { cookie: `tm_console=${cookie.value}` },
        body: form,
        redirect: "manual"
      })
      expect(early.status).toBe(403)
      expect(await database.count("artifacts")).toBe(files)
      expect(await taskState(reference)).toBe("accepted")
    } finally {
      await context.close()
    }
  })
})

describe("the result form's body", () => {
  /** Emily signed in, with a task of hers in progress: her session cookie and the page's token. */
  const working = async () => {
    const { reference } = await submitTask(server.api("/tasks"), digitalDraft({ participant_slug: emily.slug }))
    const { context, page } = await signIn(emily)
    const cookie = `tm_console=${(await context.cookies(`${server.url}/console`)).find((c) => c.name === "tm_console")!.value}`
    await page.goto(`${server.url}/console/tasks/${reference}`)
    const csrf = (await page.locator('input[name="csrf"]').first().getAttribute("value"))!
    for (const move of ["accept", "start"]) {
      const moved = await fetch(`${server.url}/console/tasks/${reference}/${move}`, {
        method: "POST",
        headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
        body: `csrf=${encodeURIComponent(csrf)}`,
        redirect: "manual"
      })
      expect(moved.status, move).toBe(303)
    }
    expect(await taskState(reference)).toBe("in_flight")
    return { reference, cookie, csrf, page, close: () => context.close() }
  }

  const boundary = "----formboundary7MA4YWxkTrZu0gW"
  const textPart = (name: string, value: string) =>
    `--${boundary}\r\ncontent-disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`

  /**
   * Streams a form to the submit route as a slow client would: `head` (its first parts), then
   * text controls of 32 KiB each (under the one-control limit), never finished, up to `cap` bytes.
   * Tells the answer's status and how many bytes had been sent when it came (all of them if it
   * only came once the body was complete).
   */
  const streamForm = (reference: string, cookie: string, head: string, cap: number) =>
    new Promise<{ status: number; sentWhenAnswered: number }>((resolve, reject) => {
      const url = new URL(`${server.url}/console/tasks/${reference}/submit`)
      let sent = 0
      let answered = false
      const request = httpRequest(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: "POST",
          headers: { cookie, "content-type": `multipart/form-data; boundary=${boundary}` }
        },
        (response) => {
          answered = true
          resolve({ status: response.statusCode ?? 0, sentWhenAnswered: sent })
          response.resume()
        }
      )
      // The server may close the connection while this side still writes: only the answer matters.
      request.on("error", (error) => (answered ? undefined : reject(error)))
      const part = textPart("notes", "x".repeat(32 * 1024))
      const more = () => {
        while (!answered && sent < cap) {
          sent += part.length
          if (!request.write(part)) return void request.once("drain", more)
        }
        if (!answered) request.end(`--${boundary}--\r\n`)
      }
      request.write(head)
      more()
    })

  it("a form whose first part is not the session's token is refused before the rest is read; nothing is kept", async () => {
    const { reference, cookie, csrf, close } = await working()
    try {
      const files = await database.count("artifacts")
      const cap = 32 * 1024 * 1024
      for (const head of [
        "", // no token at all: the text comes first
        textPart("csrf", "not-the-token"),
        textPart("summary", "Done") + textPart("csrf", csrf) // the token, but not first
      ]) {
        const { status, sentWhenAnswered } = await streamForm(reference, cookie, head, cap)
        expect(status).toBe(403)
        // Answered while the body was still coming: the server did not read the rest.
        expect(sentWhenAnswered).toBeLessThan(cap)
      }
      expect(await database.count("artifacts")).toBe(files)
      expect(await taskState(reference)).toBe("in_flight")
    } finally {
      await close()
    }
  })

  it(`an honest form with more than ${maxFormTextBytes / 1024} KiB of text is refused with a readable page (413); nothing is kept`, async () => {
    const { reference, cookie, csrf, close } = await working()
    try {
      const files = await database.count("artifacts")
      const form = new FormData()
      form.set("csrf", csrf)
      form.set("summary", "Done")
      form.set("files", new Blob(["evidence"], { type: "text/plain" }), "notes.txt")
      // Each under the one-control limit (64 KiB), together over the form's.
      form.set("links", "y".repeat(60 * 1024))
      form.set("notes", "z".repeat(60 * 1024))
      form.set("fields.*", "w".repeat(60 * 1024))
      const refused = await fetch(`${server.url}/console/tasks/${reference}/submit`, {
        method: "POST",
        headers: { cookie },
        body: form,
        redirect: "manual"
      })
      expect(refused.status).toBe(413)
      expect(refused.headers.get("content-type")).toContain("text/html")
      expect(await refused.text()).toContain("This form is too large")
      expect(await database.count("artifacts")).toBe(files)
      expect(await taskState(reference)).toBe("in_flight")
      // The same result within the bound is taken.
      form.set("notes", "z".repeat(2000))
      form.delete("fields.*")
      form.set("links", "https://example.com/evidence")
      const taken = await fetch(`${server.url}/console/tasks/${reference}/submit`, {
        method: "POST",
        headers: { cookie },
        body: form,
        redirect: "manual"
      })
      expect(taken.status).toBe(303)
      expect(await taskState(reference)).toBe("submitted")
    } finally {
      await close()
    }
  })
  it("in a real browser, text pasted far past the bound (2 MiB in one box) shows the 413 page", async () => {
    const { reference, page, close } = await working()
    try {
      await page.goto(`${server.url}/console/tasks/${reference}`)
      await page.getByLabel(/Summary/).fill("Done")
      // 2 MiB in the Links box: past one control's limit, and far past the form's.
      await page.locator("#links").evaluate((box) => {
        ;(box as HTMLTextAreaElement).value = `https://x.example/${"a".repeat(2 * 1024 * 1024)}`
      })
      await Promise.all([page.waitForNavigation(), page.getByRole("button", { name: "Submit result" }).click()])
      await expect(page.locator("h1").textContent()).resolves.toBe("This form is too large")
      expect(await taskState(reference)).toBe("in_flight")
    } finally {
      await close()
    }
  })

  it(`result fields nested deeper than ${maxJsonDepth} levels are refused beside their box; nothing changes`, async () => {
    const { reference, cookie, csrf, close } = await working()
    try {
      const form = new FormData()
      form.set("csrf", csrf)
      form.set("summary", "Done")
      // The audit's 4,400 levels, typed into the "Other fields (JSON)" box.
      form.set("fields.*", `{"a":${"[".repeat(4400)}${"]".repeat(4400)}}`)
      const refused = await fetch(`${server.url}/console/tasks/${reference}/submit`, {
        method: "POST",
        headers: { cookie },
        body: form,
        redirect: "manual"
      })
      expect(refused.status).toBe(422)
      const text = await refused.text()
      expect(text).toMatch(/id="rf-fields\.\*-error">.*This is nested deeper than 64 levels/)
      expect(await taskState(reference)).toBe("in_flight")
    } finally {
      await close()
    }
  })
})

describe("profile and availability", () => {
  it("saves the profile; a blank name is refused beside its field and nothing changes", async () => {
    const { context, page } = await signIn(emily)
    try {
      await Promise.all([page.waitForNavigation(), page.getByRole("link", { name: "Profile" }).click()])
      await page.getByLabel("Name").fill("   ")
      await Promise.all([page.waitForNavigation(), page.getByRole("button", { name: "Save profile" }).click()])
      await expect(page.getByRole("alert").textContent()).resolves.toContain("need a change")
      await expect(page.getByLabel("Name").getAttribute("aria-invalid")).resolves.toBe("true")
      const unchanged = (await (await readParticipant(emily.slug)).json()) as { name: string }
      expect(unchanged.name).toBe("Emily Hart")
      await page.getByLabel("Name").fill("Emily J. Hart")
      await page.getByLabel("Tags").fill("copy editing, proofreading, british english")
      await Promise.all([page.waitForNavigation(), page.getByRole("button", { name: "Save profile" }).click()])
      await expect(page.getByRole("status").textContent()).resolves.toContain("Your profile is saved")
      const saved = (await (await readParticipant(emily.slug)).json()) as {
        name: string
        tags: Array<string>
      }
      expect(saved.name).toBe("Emily J. Hart")
      expect(saved.tags).toEqual(["copy editing", "proofreading", "british english"])
      await noHorizontalScroll(page)
      await page.screenshot({ path: `${screenshots}console-profile-phone.png`, fullPage: true })
    } finally {
      await context.close()
    }
  })

  it("switched off, a participant is offered nothing; switched on again, they are", async () => {
    const { context, page } = await signIn(emily)
    try {
      await page.goto(`${server.url}/console/profile`)
      await Promise.all([page.waitForNavigation(), page.getByRole("button", { name: "Stop taking offers" }).click()])
      await expect(page.getByRole("status").textContent()).resolves.toContain("You are not taking offers")
      const off = await submitTask(server.api("/tasks"), digitalDraft({ participant_slug: emily.slug }))
      await expect.poll(() => taskState(off.reference)).toBe("declined")
      await Promise.all([page.waitForNavigation(), page.getByRole("button", { name: "Take offers again" }).click()])
      const on = await submitTask(server.api("/tasks"), digitalDraft({ participant_slug: emily.slug }))
      await expect.poll(() => taskState(on.reference)).toBe("awaiting_participant")
    } finally {
      await context.close()
    }
  })
})

describe("live updates", () => {
  it("with JavaScript, a new offer appears without a reload", async () => {
    const { context, page } = await signIn(lukas, { ...phone, javaScriptEnabled: true })
    try {
      // The page checks every 15 s: it runs on the browser's test clock, which the test moves on.
      await page.clock.install()
      await page.reload()
      // Its first check (at load) has been answered: what it saw is the board before the offer.
      await page.waitForLoadState("networkidle")
      const before = await page.getByRole("region", { name: /Offers/ }).textContent()
      const { reference } = await submitTask(
        server.api("/tasks"),
        validDraft({ participant_slug: lukas.slug, action: "Check the lift certificate at Torstraße 12" })
      )
      expect(before).not.toContain("Check the lift certificate")
      await page.clock.runFor(15_000)
      await expect
        .poll(() => page.getByRole("region", { name: /Offers/ }).textContent(), { timeout: 10_000, interval: 200 })
        .toContain("Check the lift certificate")
      await expect(page.getByRole("status").first().textContent()).resolves.toContain("Updated")
      await readTask(server, reference)
    } finally {
      await context.close()
    }
  }, 40_000)
})

describe("open sign-up", () => {
  it("a person who signs up from the console is welcomed as pending; once approved, offers reach them", async () => {
    const open = await startServer({ database, settings: { participantSignup: "open" } })
    const context = await browser.newContext({ ...phone, javaScriptEnabled: false })
    try {
      const page = await context.newPage()
      await page.goto(`${open.url}/console`)
      await Promise.all([page.waitForNavigation(), page.getByRole("link", { name: "Create an account" }).click()])
      await page.getByLabel("Email").fill("kofi@example.com")
      await page.getByLabel("Password", { exact: true }).fill("a long enough password 3")
      await page.getByLabel("Confirm password").fill("a long enough password 3")
      await page.getByLabel("Name").fill("Kofi Mensah")
      await page.getByLabel("What you do").fill("Market research")
      await page.getByLabel("Where you are").fill("Accra, Ghana")
      await page.getByLabel("How you work").selectOption("physical")
      // Asked to sign in with what they chose (the same answer an address with an account gets).
      await Promise.all([page.waitForNavigation(), page.getByRole("button", { name: "Create account" }).click()])
      await page.getByLabel("Password", { exact: true }).fill("a long enough password 3")
      await Promise.all([page.waitForURL(`${open.url}/console`), page.getByRole("button", { name: "Sign in" }).click()])
      await expect(page.locator("main").textContent()).resolves.toContain("Your profile awaits the operator's approval")
      await page.screenshot({ path: `${screenshots}console-pending-phone.png`, fullPage: true })
      const approve = await operator(database, open.url, "participants", "approve", "kofi-mensah")
      expect(approve.code, approve.stderr).toBe(0)
      await page.reload()
      await expect(page.locator("main").textContent()).resolves.not.toContain("awaits the operator's approval")
      const { reference } = await submitTask(
        open.api("/tasks"),
        validDraft({
          participant_slug: "kofi-mensah",
          location: "Accra, Ghana",
          action: "Photograph the shelf prices at Makola Market"
        })
      )
      await expect
        .poll(() => readTask(open, reference).then(async (r) => ((await r.json()) as { state: string }).state))
        .toBe("awaiting_participant")
      await page.reload()
      await expect(page.getByRole("region", { name: /Offers/ }).textContent()).resolves.toContain("Makola Market")
    } finally {
      await context.close()
      await open.close()
    }
  })
})
