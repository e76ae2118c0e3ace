/**
 * The authorization server's pages in a real browser (headless Chromium, through playwright-core),
 * as a participant meets them: JavaScript off, on a phone (390×844) and on a desktop. Each page is
 * served with its `pageHeaders` by a small node:http server inside this file (the pages are pure
 * rendering; the flow that serves them is tested elsewhere). Every page: its fields found by their
 * labels and its buttons by their names, nothing wider than the phone, the stylesheet applied
 * under the page's own Content-Security-Policy with no violation reported, and the forms posting
 * what the authorization server reads — then, for the forms that lead on to an app, the redirect
 * to that app's origin allowed by form-action (and stopped when it is not named).
 *
 * Screenshots at phone size go to .cache/screenshots/oauth-<page>.png, for a person to look at.
 *
 * vitest.config.ts runs this file only where Chromium is installed (CHROMIUM_PATH, default
 * /usr/bin/chromium), as it does the docs page's browser test.
 */
import { createServer, type IncomingMessage, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { Browser, BrowserContextOptions, Page } from "playwright-core"
import {
  choosePasswordPage,
  consentPage,
  errorPage,
  errorPages,
  linkProblemPage,
  passwordChosenPage,
  type RenderedPage,
  resourceDescriptions,
  signedOutPage,
  signInPage,
  signOutPage,
  signUpPage
} from "../../src/oauth/pages.ts"
import { html } from "../../src/pages/html.ts"
import { page as documentOf, type PageHeadersOptions, pageHeaders } from "../../src/pages/layout.ts"
import { desktop, launchBrowser, phone, screenshots } from "../support/browser.ts"

// ---------------------------------------------------------------------------------------------
// Two loopback servers: ours (the pages and where their forms post) and an app's (its redirect URI)

interface Served {
  readonly status: number
  readonly headers: Record<string, string>
  readonly body: string
}

const listen = async (server: Server) => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

const bodyOf = async (request: IncomingMessage) => {
  const chunks: Array<Buffer> = []
  for await (const chunk of request) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString("utf8")
}

const routes = new Map<string, Served>()
/** Every form post our server received: its path and its fields. */
const posts: Array<{ readonly path: string; readonly fields: Record<string, string> }> = []
/** Every request the app's server received (its redirect URI reached). */
const appHits: Array<string> = []

let ours: Server
let app: Server
let oursUrl: string
let appUrl: string
let browser: Browser

beforeAll(async () => {
  ours = createServer(async (request, response) => {
    const path = request.url ?? "/"
    if (request.method === "POST") {
      posts.push({ path, fields: Object.fromEntries(new URLSearchParams(await bodyOf(request))) })
      // As the authorization server does: on, to the app's redirect URI.
      response.writeHead(303, { location: `${appUrl}/callback?code=abc&from=${encodeURIComponent(path)}` }).end()
      return
    }
    const served = routes.get(path)
    if (served === undefined) response.writeHead(404, { "content-type": "text/plain" }).end("not found")
    else response.writeHead(served.status, served.headers).end(served.body)
  })
  app = createServer((request, response) => {
    appHits.push(request.url ?? "/")
    response.writeHead(200, { "content-type": "text/plain; charset=utf-8" }).end("Back in the app.")
  })
  oursUrl = await listen(ours)
  appUrl = await listen(app)
  browser = await launchBrowser()
})
afterAll(async () => {
  await browser?.close()
  await new Promise((resolve) => ours?.close(resolve))
  await new Promise((resolve) => app?.close(resolve))
})

/** Serves a rendered page at `path` with its headers; forms may lead to the app's origin unless told otherwise. */
const serve = (path: string, rendered: RenderedPage, options: PageHeadersOptions = { formActionOrigins: [appUrl] }) =>
  routes.set(path, { status: rendered.status, headers: pageHeaders(options), body: String(rendered.html) })

// ---------------------------------------------------------------------------------------------
// Opening a page as a participant would

interface Opened {
  readonly page: Page
  /** What the console reported: CSP violations land here (as errors), with JavaScript off too. */
  readonly console: Array<string>
  readonly close: () => Promise<void>
}

const open = async (path: string, context: BrowserContextOptions = phone): Promise<Opened> => {
  const status = routes.get(path)?.status
  const browserContext = await browser.newContext({ ...context, javaScriptEnabled: false })
  const page = await browserContext.newPage()
  // Chromium logs a page's own error status (404, 410, 422) as a failed load: that one is expected.
  const ownStatus = `Failed to load resource: the server responded with a status of ${status} `
  const messages: Array<string> = []
  page.on("console", (message) => {
    if (!message.text().startsWith(ownStatus)) messages.push(`${message.type()}: ${message.text()}`)
  })
  const response = await page.goto(`${oursUrl}${path}`, { waitUntil: "load" })
  expect(response?.status()).toBe(status)
  return { page, console: messages, close: () => browserContext.close() }
}

/** What every page must be on a phone: no script, styled under its policy, nothing too wide, big targets. */
const expectSoundOnPhone = async ({ page, console }: Opened) => {
  // The stylesheet applied (the policy allowed it by its hash): the page's background and font.
  expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe("rgb(243, 244, 246)")
  expect(await page.evaluate(() => getComputedStyle(document.body).fontFamily)).toContain("system-ui")
  expect(console.filter((message) => /Content.Security.Policy|Refused/i.test(message))).toEqual([])
  expect(console).toEqual([])
  // Nothing scrolls sideways at 390 px.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
  expect(await page.evaluate(() => document.body.scrollWidth)).toBeLessThanOrEqual(390)
  // One h1; every visible field and button at least 44 px high (a thumb's target).
  expect(await page.locator("h1").count()).toBe(1)
  for (const target of await page.locator("button, input:visible").all()) {
    const box = await target.boundingBox()
    expect(box?.height ?? 0).toBeGreaterThanOrEqual(44)
  }
  expect(await page.locator("script").count()).toBe(0)
}

const screenshot = (page: Page, name: string) =>
  page.screenshot({ path: `${screenshots}oauth-${name}.png`, fullPage: true })

/** Runs `check` on the page at `path`, closing it afterwards. */
const onPage = async (path: string, check: (opened: Opened) => Promise<void>, context?: BrowserContextOptions) => {
  const opened = await open(path, context)
  try {
    await check(opened)
  } finally {
    await opened.close()
  }
}

const lastPost = () => posts.at(-1)

// ---------------------------------------------------------------------------------------------

const hostileName = `<img src=x onerror=alert(1)>" onmouseover="alert(2)' \`x\``
const logoutForm = (xsrf: string) =>
  `<form id="op.logoutForm" method="post" action="/oauth/session/end/confirm"><input type="hidden" name="xsrf" value="${xsrf}"/></form>`

describe("the authorization server's pages in a browser, JavaScript off", () => {
  it("sign in: labelled fields, the button, and a post of csrf, email and password that goes on to the app", async () => {
    serve(
      "/sign-in",
      signInPage({ action: "/oauth/interaction/abc/login", csrfToken: "csrf-sign-in", clientName: "Claude" })
    )
    await onPage("/sign-in", async (opened) => {
      const { page } = opened
      await expectSoundOnPhone(opened)
      await screenshot(page, "sign-in")
      expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Sign in")
      expect(await page.getByText("to continue to Claude").count()).toBe(1)
      const email = page.getByLabel("Email")
      const password = page.getByLabel("Password", { exact: true })
      expect(await email.getAttribute("type")).toBe("email")
      expect(await email.getAttribute("autocomplete")).toBe("username")
      expect(await password.getAttribute("type")).toBe("password")
      expect(await password.getAttribute("autocomplete")).toBe("current-password")
      // The label sits above its field.
      const labelBox = await page.locator('label[for="email"]').boundingBox()
      const fieldBox = await email.boundingBox()
      expect(labelBox!.y + labelBox!.height).toBeLessThanOrEqual(fieldBox!.y)
      // Required fields: an empty form is not sent (the browser's own check, no script).
      const before = posts.length
      await page.getByRole("button", { name: "Sign in" }).click()
      expect(posts.length).toBe(before)
      await email.fill("ada@example.com")
      await password.fill("correct horse battery staple")
      await Promise.all([page.waitForURL(`${appUrl}/**`), page.getByRole("button", { name: "Sign in" }).click()])
      expect(lastPost()).toEqual({
        path: "/oauth/interaction/abc/login",
        fields: { csrf: "csrf-sign-in", email: "ada@example.com", password: "correct horse battery staple" }
      })
      expect(await page.textContent("body")).toBe("Back in the app.")
    })
  })

  it("sign in, refused: the error announced above the form, describing the fields, the email kept", async () => {
    serve(
      "/sign-in-error",
      signInPage({
        action: "/oauth/interaction/abc/login",
        csrfToken: "c",
        clientName: "Claude",
        email: "ada@example.com",
        error: "Too many attempts. Try again in 14 minutes."
      })
    )
    await onPage("/sign-in-error", async (opened) => {
      const { page } = opened
      await expectSoundOnPhone(opened)
      await screenshot(page, "sign-in-error")
      const alert = page.getByRole("alert")
      expect(await alert.textContent()).toBe("Too many attempts. Try again in 14 minutes.")
      expect(await page.getByLabel("Email").inputValue()).toBe("ada@example.com")
      const password = page.getByLabel("Password", { exact: true })
      expect(await password.evaluate((input) => input === document.activeElement)).toBe(true)
      // Accessible descriptions: what a screen reader says after the field's name.
      const description = (id: string) =>
        page.evaluate(
          (id) =>
            (document.getElementById(id)?.getAttribute("aria-describedby") ?? "")
              .split(" ")
              .map((ref) => document.getElementById(ref)?.textContent)
              .join(" "),
          id
        )
      expect(await description("email")).toBe("Too many attempts. Try again in 14 minutes.")
      expect(await description("password")).toBe("Too many attempts. Try again in 14 minutes.")
      // Above the form.
      expect((await alert.boundingBox())!.y).toBeLessThan((await page.getByLabel("Email").boundingBox())!.y)
      expect(await page.locator(".alert").evaluate((element) => getComputedStyle(element).borderLeftWidth)).toBe("4px")
    })
  })

  it("sign in with sign-up open: a link to create an account, below the form", async () => {
    serve(
      "/sign-in-open",
      signInPage({
        action: "/oauth/interaction/abc/login",
        csrfToken: "c",
        clientName: "Claude",
        signUpUrl: "/oauth/interaction/abc/sign-up"
      })
    )
    await onPage("/sign-in-open", async (opened) => {
      const { page } = opened
      await expectSoundOnPhone(opened)
      const link = page.getByRole("link", { name: "Create an account" })
      expect(await link.getAttribute("href")).toBe("/oauth/interaction/abc/sign-up")
      expect((await link.boundingBox())!.y).toBeGreaterThan(
        (await page.getByRole("button", { name: "Sign in" }).boundingBox())!.y
      )
    })
  })

  const signUp = {
    action: "/oauth/interaction/abc/sign-up",
    csrfToken: "csrf-sign-up",
    clientName: "Claude",
    signInUrl: "/oauth/interaction/abc"
  }

  it("sign up: every field labelled for people and password managers, a select and text areas as wide and tall, the post", async () => {
    serve("/sign-up", signUpPage(signUp))
    await onPage("/sign-up", async (opened) => {
      const { page } = opened
      await expectSoundOnPhone(opened)
      await screenshot(page, "sign-up")
      expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Create an account")
      const autocomplete = async (label: string, exact = false) =>
        page.getByLabel(label, { exact }).getAttribute("autocomplete")
      expect(await autocomplete("Email")).toBe("username")
      expect(await autocomplete("Password", true)).toBe("new-password")
      expect(await autocomplete("Confirm password")).toBe("new-password")
      expect(await autocomplete("Name")).toBe("name")
      expect(await autocomplete("What you do")).toBe("organization-title")
      expect(await autocomplete("Where you are")).toBe("address-level2")
      for (const label of ["Tags", "What you can do", "What you hand back"])
        expect(await autocomplete(label)).toBe("off")
      // The select and the text areas are as wide as the fields, and tall enough for a thumb.
      const width = (await page.getByLabel("Email").boundingBox())!.width
      for (const label of ["How you work", "What you can do", "What you hand back"]) {
        const box = (await page.getByLabel(label).boundingBox())!
        expect(box.width, label).toBe(width)
        expect(box.height, label).toBeGreaterThanOrEqual(44)
      }
      // Hints describe their fields.
      expect(await page.getByLabel("Where you are").getAttribute("aria-describedby")).toBe("location-hint")
      // Required fields and a chosen task type: the browser's own checks, no script.
      const before = posts.length
      await page.getByRole("button", { name: "Create account" }).click()
      expect(posts.length).toBe(before)
      await page.getByLabel("Email").fill("ada@example.com")
      await page.getByLabel("Password", { exact: true }).fill("correct horse battery staple")
      await page.getByLabel("Confirm password").fill("correct horse battery staple")
      await page.getByLabel("Name").fill("Ada Lovelace")
      await page.getByLabel("What you do").fill("Mathematics")
      await page.getByLabel("Where you are").fill("London, United Kingdom")
      await page.getByRole("button", { name: "Create account" }).click()
      expect(posts.length).toBe(before)
      await page.getByLabel("How you work").selectOption("digital")
      await page.getByLabel("What you can do").fill("Analytical engines\nNotes on them")
      await Promise.all([page.waitForURL(`${appUrl}/**`), page.getByRole("button", { name: "Create account" }).click()])
      expect(lastPost()).toEqual({
        path: "/oauth/interaction/abc/sign-up",
        fields: {
          csrf: "csrf-sign-up",
          email: "ada@example.com",
          password: "correct horse battery staple",
          confirm: "correct horse battery staple",
          name: "Ada Lovelace",
          discipline: "Mathematics",
          location: "London, United Kingdom",
          task_type: "digital",
          tags: "",
          capabilities: "Analytical engines\r\nNotes on them",
          returns: ""
        }
      })
    })
  })

  it("sign up, refused: each problem beside its field and listed above, linked to it, the first focused", async () => {
    serve(
      "/sign-up-problems",
      signUpPage({
        ...signUp,
        values: { email: "ada@example.com", name: hostileName, location: "London", task_type: "hybrid" },
        problems: {
          email: "An account with this email already exists.",
          discipline: "Say what you do.",
          tags: "Each tag must be at most 40 characters."
        }
      })
    )
    await onPage("/sign-up-problems", async (opened) => {
      const { page } = opened
      await expectSoundOnPhone(opened)
      await screenshot(page, "sign-up-problems")
      const alert = page.getByRole("alert")
      expect(await alert.getByRole("link").allTextContents()).toEqual([
        "An account with this email already exists.",
        "Say what you do.",
        "Each tag must be at most 40 characters."
      ])
      expect(await alert.getByRole("link").first().getAttribute("href")).toBe("#email")
      const email = page.getByLabel("Email")
      expect(await email.evaluate((input) => input === document.activeElement)).toBe(true)
      expect(await email.getAttribute("aria-invalid")).toBe("true")
      expect(await page.getByLabel("What you do").getAttribute("aria-describedby")).toBe(
        "discipline-hint discipline-error"
      )
      // The error sits between the label and the field, in the alert's colour, the field's border thicker.
      const error = (await page.locator("#discipline-error").boundingBox())!
      expect(error.y).toBeLessThan((await page.getByLabel("What you do").boundingBox())!.y)
      expect(await page.getByLabel("What you do").evaluate((input) => getComputedStyle(input).borderTopWidth)).toBe(
        "2px"
      )
      // What was typed is back, as text: the hostile name is a value, not markup.
      expect(await page.getByLabel("Name").inputValue()).toBe(hostileName)
      expect(await page.getByLabel("How you work").inputValue()).toBe("hybrid")
      expect(await page.locator("img").count()).toBe(0)
    })
  })

  const consent = {
    action: "/oauth/interaction/abc/consent",
    csrfToken: "csrf-consent",
    clientName: "Claude",
    clientUri: "https://claude.ai",
    redirectUri: "https://claude.ai/api/mcp/auth_callback",
    scopes: ["openid", "email", "profile"],
    resources: [
      { url: "https://tasks.example.org/api/public/v1", description: resourceDescriptions.api },
      { url: "https://tasks.example.org/mcp", description: resourceDescriptions.mcp }
    ],
    accountEmail: "ada@example.com",
    signOutUrl: "https://tasks.example.org/oauth/session/end"
  }

  it("consent: what the app may do, where it sends you, Allow and Deny posting the decision on to the app", async () => {
    serve("/consent", consentPage(consent))
    await onPage("/consent", async (opened) => {
      const { page } = opened
      await expectSoundOnPhone(opened)
      await screenshot(page, "consent")
      expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Allow Claude?")
      expect(await page.getByText("Signed in as ada@example.com").count()).toBe(1)
      for (const ability of [
        "Confirm who you are",
        "See your email address",
        "See your name and profile",
        resourceDescriptions.api,
        resourceDescriptions.mcp
      ])
        expect(await page.getByRole("listitem").filter({ hasText: ability }).count(), ability).toBe(1)
      expect(await page.getByText("Where it will send you: claude.ai").count()).toBe(1)
      expect(await page.getByText("https://claude.ai/api/mcp/auth_callback").count()).toBe(1)
      // On a phone the two buttons are stacked, each the column's width.
      const allow = await page.getByRole("button", { name: "Allow" }).boundingBox()
      const deny = await page.getByRole("button", { name: "Deny" }).boundingBox()
      expect(deny!.y).toBeGreaterThan(allow!.y)
      expect(allow!.width).toBeGreaterThan(300)
      await Promise.all([page.waitForURL(`${appUrl}/**`), page.getByRole("button", { name: "Deny" }).click()])
      expect(lastPost()).toEqual({
        path: "/oauth/interaction/abc/consent",
        fields: { csrf: "csrf-consent", decision: "deny" }
      })
    })
    await onPage("/consent", async ({ page }) => {
      await Promise.all([page.waitForURL(`${appUrl}/**`), page.getByRole("button", { name: "Allow" }).click()])
      expect(lastPost()?.fields).toEqual({ csrf: "csrf-consent", decision: "allow" })
    })
  })

  it("consent on a desktop and in dark mode: side by side, calm, styled", async () => {
    serve("/consent", consentPage(consent))
    await onPage(
      "/consent",
      async ({ page, console }) => {
        await screenshot(page, "consent-desktop")
        const allow = await page.getByRole("button", { name: "Allow" }).boundingBox()
        const deny = await page.getByRole("button", { name: "Deny" }).boundingBox()
        expect(deny!.y).toBe(allow!.y)
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280)
        expect(console).toEqual([])
      },
      desktop
    )
    await onPage(
      "/consent",
      async ({ page, console }) => {
        await screenshot(page, "consent-dark")
        expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe("rgb(13, 17, 23)")
        expect(console).toEqual([])
      },
      { ...phone, colorScheme: "dark" }
    )
  })

  it("consent: a form-action without the app's origin stops the redirect that follows the post", async () => {
    // Why pageHeaders takes the redirect origins: Chromium applies form-action to the redirect too.
    serve("/consent-self-only", consentPage(consent), {})
    await onPage("/consent-self-only", async ({ page, console }) => {
      const hits = appHits.length
      const before = posts.length
      await page.getByRole("button", { name: "Allow" }).click()
      await expect
        .poll(() => console.some((message) => message.includes("form-action")), { timeout: 10_000 })
        .toBe(true)
      // The post to our own origin went through; the redirect on to the app did not.
      expect(posts.length).toBe(before + 1)
      expect(appHits.length).toBe(hits)
      expect(page.url().startsWith(appUrl)).toBe(false)
    })
  })

  it("consent: a hostile app name is text, in the heading and everywhere else", async () => {
    serve(
      "/consent-hostile",
      consentPage({ ...consent, clientName: hostileName, clientUri: "javascript:alert(1)", redirectUri: hostileName })
    )
    await onPage("/consent-hostile", async (opened) => {
      const { page } = opened
      await expectSoundOnPhone(opened)
      await screenshot(page, "consent-hostile")
      expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe(`Allow ${hostileName}?`)
      expect(await page.locator("main img, main [onmouseover], a[href^='javascript']").count()).toBe(0)
      expect(await page.getByText(`Where it will send you: ${hostileName}`).count()).toBe(1)
    })
  })

  it("choose password: the rule describes both fields, a short one is not sent, a good one is, with the email", async () => {
    serve(
      "/choose-password",
      choosePasswordPage({ action: "/oauth/links/tok-1", token: "tok-1", email: "ada@example.com", purpose: "invite" })
    )
    await onPage("/choose-password", async (opened) => {
      const { page } = opened
      await expectSoundOnPhone(opened)
      await screenshot(page, "choose-password")
      expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Choose your password")
      expect(await page.getByText("ada@example.com").count()).toBe(1)
      const password = page.getByLabel("Password", { exact: true })
      const confirm = page.getByLabel("Confirm password")
      for (const field of [password, confirm]) {
        expect(await field.getAttribute("autocomplete")).toBe("new-password")
        expect(await field.getAttribute("minlength")).toBe("12")
        const described = await field.getAttribute("aria-describedby")
        expect(await page.locator(`#${described}`).textContent()).toBe("At least 12 characters.")
      }
      const before = posts.length
      await password.fill("short")
      await confirm.fill("short")
      await page.getByRole("button", { name: "Save password" }).click()
      expect(posts.length).toBe(before)
      await password.fill("a long enough passphrase")
      await confirm.fill("a long enough passphrase")
      await Promise.all([page.waitForURL(`${appUrl}/**`), page.getByRole("button", { name: "Save password" }).click()])
      expect(lastPost()).toEqual({
        path: "/oauth/links/tok-1",
        fields: {
          token: "tok-1",
          username: "ada@example.com",
          password: "a long enough passphrase",
          confirm: "a long enough passphrase"
        }
      })
    })
  })

  it("choose a new password, refused: the error announced and the fields marked", async () => {
    serve(
      "/choose-password-error",
      choosePasswordPage({
        action: "/oauth/links/tok-2",
        token: "tok-2",
        email: "ada@example.com",
        purpose: "reset",
        error: "The two passwords do not match."
      })
    )
    await onPage("/choose-password-error", async (opened) => {
      const { page } = opened
      await expectSoundOnPhone(opened)
      await screenshot(page, "choose-password-error")
      expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Choose a new password")
      expect(await page.getByRole("alert").textContent()).toBe("The two passwords do not match.")
      expect(await page.getByLabel("Confirm password").getAttribute("aria-invalid")).toBe("true")
      expect(await page.getByRole("button", { name: "Save password" }).count()).toBe(1)
    })
  })

  it("password saved, link problems, signed out and errors: readable on a phone", async () => {
    serve(
      "/password-chosen",
      passwordChosenPage({ email: "ada@example.com", consoleUrl: "/console", docsUrl: "/docs#authentication" })
    )
    serve("/link-used", linkProblemPage({ reason: "used", consoleUrl: "/console" }))
    serve("/link-expired", linkProblemPage({ reason: "expired", consoleUrl: "/console" }))
    serve("/link-unknown", linkProblemPage({ reason: "unknown", consoleUrl: "/console" }))
    serve("/link-replaced", linkProblemPage({ reason: "replaced", consoleUrl: "/console" }))
    serve("/signed-out", signedOutPage({ clientName: "Claude" }))
    serve("/error-expired", errorPage(errorPages.signInExpired))
    serve("/error-redirect", errorPage(errorPages.unregisteredRedirect))
    serve("/error-server", errorPage(errorPages.serverError))
    const expected: ReadonlyArray<readonly [string, string, string]> = [
      ["/password-chosen", "password-chosen", "Your password is saved"],
      ["/link-used", "link-used", "This link has already been used"],
      ["/link-expired", "link-expired", "This link has expired"],
      ["/link-unknown", "link-unknown", "This link does not work"],
      ["/link-replaced", "link-replaced", "A newer link replaced this one"],
      ["/signed-out", "signed-out", "You are signed out"],
      ["/error-expired", "error-expired", errorPages.signInExpired.title],
      ["/error-redirect", "error-redirect", errorPages.unregisteredRedirect.title],
      ["/error-server", "error-server", errorPages.serverError.title]
    ]
    for (const [path, name, heading] of expected)
      await onPage(path, async (opened) => {
        await expectSoundOnPhone(opened)
        await screenshot(opened.page, name)
        expect(await opened.page.getByRole("heading", { level: 1 }).textContent(), path).toBe(heading)
      })
    await onPage("/error-server", async ({ page }) => {
      expect(await page.getByText("Error 500").count()).toBe(1)
    })
  })

  it("sign out: Sign out posts oidc-provider's form with logout=yes, Stay signed in without it", async () => {
    serve("/sign-out", signOutPage({ formHtml: logoutForm("xsrf-1"), clientName: "Claude" }))
    await onPage("/sign-out", async (opened) => {
      const { page } = opened
      await expectSoundOnPhone(opened)
      await screenshot(page, "sign-out")
      await Promise.all([page.waitForURL(`${appUrl}/**`), page.getByRole("button", { name: "Sign out" }).click()])
      expect(lastPost()).toEqual({ path: "/oauth/session/end/confirm", fields: { xsrf: "xsrf-1", logout: "yes" } })
    })
    await onPage("/sign-out", async ({ page }) => {
      await Promise.all([page.waitForURL(`${appUrl}/**`), page.getByRole("button", { name: "Stay signed in" }).click()])
      expect(lastPost()).toEqual({ path: "/oauth/session/end/confirm", fields: { xsrf: "xsrf-1" } })
    })
  })

  it("reports a stylesheet the policy does not allow (so a clean console above means it was allowed)", async () => {
    const headers = pageHeaders()
    routes.set("/wrong-hash", {
      status: 200,
      headers: {
        ...headers,
        "content-security-policy": headers["content-security-policy"]!.replace(/'sha256-[^']+'/, "'sha256-AAAA'")
      },
      body: String(documentOf({ title: "Wrong hash", body: html`<h1>Unstyled</h1>` }))
    })
    await onPage("/wrong-hash", async ({ page, console }) => {
      await expect
        .poll(() => console.some((message) => /Content.Security.Policy/i.test(message)), { timeout: 10_000 })
        .toBe(true)
      expect(await page.evaluate(() => getComputedStyle(document.body).margin)).toBe("8px")
    })
  })
})
