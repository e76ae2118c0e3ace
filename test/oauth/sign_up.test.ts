/**
 * The open sign-up end to end, on both backends, in a real browser (headless Chromium, JavaScript
 * off, a phone's screen): with PARTICIPANT_SIGNUP=open a person follows "Create an account" from
 * the sign-in page an app sent them to, creates an account and a profile, signs in with it and goes
 * on to the app; the profile awaits the operator's approval (not listed, no task can name it, `/me`
 * says so) until `participants approve`, when it is listed and offered tasks. An address that has
 * an account gets the very page a new one gets, and nothing is made or changed. Refused and changing
 * nothing: a form from another site or without its token, a form with problems (said beside each
 * field). Closed (the default): no link, and the sign-up addresses are the 404 page.
 *
 * Screenshots at phone size go to .cache/screenshots/oauth-sign-up-*.png.
 */
import { randomUUID } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { Browser, Page } from "playwright-core"
import { TaskDraft } from "../../src/domain/task_draft/schema.ts"
import { asPayload, exchange } from "../support/api_client.ts"
import { launchBrowser, screenshots } from "../support/browser.ts"
import { freshDatabase, type TestDatabase } from "../support/database.ts"
import { callbackUri, client, operator, pkce, postForged, registerClient } from "../support/oauth.ts"
import { expectEnvelope, startServer, type TestServer, validDraft } from "../support/server.ts"

// biome-ignore lint/suspicious/noExplicitAny: JSON bodies are inspected member by member.
type Json = any

let database: TestDatabase
let open: TestServer
let closed: TestServer
let browser: Browser

beforeAll(async () => {
  database = await freshDatabase()
  open = await startServer({ database, settings: { participantSignup: "open", timerSweepMs: 50 } })
  closed = await startServer()
  browser = await launchBrowser()
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await closed?.close()
  await open?.close()
  await database?.drop()
})

const phone = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true }

const shot = (page: Page, name: string) =>
  page.screenshot({ path: `${screenshots}oauth-sign-up-${name}.png`, fullPage: true })

/** A registered app's authorization request (PKCE), for the REST API of `server`. */
const authorizationRequest = async (server: TestServer) => {
  const config = await registerClient(`${server.url}/oauth`, { client_name: "Field Assistant" })
  const { verifier, challenge } = await pkce()
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: callbackUri,
    scope: "openid email profile",
    code_challenge: challenge,
    code_challenge_method: "S256",
    resource: server.api("")
  })
  return { config, verifier, url }
}

/** A browser on a phone, at the sign-in page an app sent it to. */
const atSignIn = async (server: TestServer) => {
  const request = await authorizationRequest(server)
  const context = await browser.newContext({ ...phone, javaScriptEnabled: false })
  const page = await context.newPage()
  await page.goto(request.url.href)
  expect(await page.locator("h1").textContent()).toBe("Sign in")
  return { ...request, context, page }
}

interface Person {
  readonly email: string
  readonly password: string
  readonly name: string
}

/** Fills the sign-up form as a person would, by its labels. */
const fillSignUp = async (page: Page, person: Person, confirm = person.password) => {
  await page.getByLabel("Email").fill(person.email)
  await page.getByLabel("Password", { exact: true }).fill(person.password)
  await page.getByLabel("Confirm password").fill(confirm)
  await page.getByLabel("Name").fill(person.name)
  await page.getByLabel("What you do").fill("Pharmacy inspection")
  await page.getByLabel("Where you are").fill("Lagos, Nigeria")
  await page.getByLabel("How you work").selectOption("physical")
  await page.getByLabel("Tags").fill("pharmacy, inspection, retail")
  await page.getByLabel("What you can do").fill("Pharmacy visits in Lagos\nInterviews with pharmacists")
  await page.getByLabel("What you hand back").fill("Photos of the shop front and a checklist.")
}

const createAccount = (page: Page) =>
  Promise.all([page.waitForNavigation(), page.getByRole("button", { name: "Create account" }).click()])

const sentNotice =
  "Thank you for signing up. Sign in with the email address and password you chose to continue. Your profile is listed once the marketplace operator approves it."

/** Signs in on the sign-in page the browser is at. */
const signIn = async (page: Page, password: string) => {
  await page.getByLabel("Password", { exact: true }).fill(password)
  return Promise.all([page.waitForNavigation(), page.getByRole("button", { name: "Sign in" }).click()])
}

const counts = async () => ({
  pending: await database.count("pending_participants"),
  logins: await database.count("participant_logins")
})

describe("PARTICIPANT_SIGNUP=open", () => {
  it("a person creates an account from the sign-in page and signs in with it; approved, they are listed and offered tasks", async () => {
    const person: Person = { email: "kofi@example.com", password: "a long and quiet river", name: "Kofi Mensah" }
    const { page, context, config, verifier } = await atSignIn(open)
    await shot(page, "sign-in-with-link")
    const link = page.getByRole("link", { name: "Create an account" })
    expect(await link.count()).toBe(1)
    await Promise.all([page.waitForNavigation(), link.click()])
    expect(await page.locator("h1").textContent()).toBe("Create an account")
    expect(await page.getByText("to continue to Field Assistant").count()).toBe(1)
    await shot(page, "form")

    await fillSignUp(page, person)
    const [sent] = await createAccount(page)
    // Asked to sign in with what they chose (the address kept); then the app's consent follows.
    expect(sent?.status()).toBe(200)
    expect(await page.locator("h1").textContent()).toBe("Sign in")
    expect(await page.getByRole("status").textContent()).toBe(sentNotice)
    expect(await page.getByLabel("Email").inputValue()).toBe(person.email)
    await shot(page, "sent")
    await signIn(page, person.password)
    expect(await page.locator("h1").textContent()).toBe("Allow Field Assistant?")
    expect(await page.locator(".signed-in").textContent()).toContain(person.email)
    await Promise.all([
      page.waitForURL((url) => url.href.startsWith(callbackUri)),
      page.getByRole("button", { name: "Allow" }).click()
    ])
    const tokens = await client.authorizationCodeGrant(
      config,
      new URL(page.url()),
      { pkceCodeVerifier: verifier },
      { resource: open.api("") }
    )
    await context.close()
    expect(tokens.claims()).toMatchObject({ email: person.email, name: person.name, preferred_username: "kofi-mensah" })
    const token = tokens.access_token

    // Pending: /me says so; agents do not see them, and no task can name them.
    const me = await expectEnvelope(await exchange(open, (c) => c.me(), { token }), 403, "forbidden")
    expect(me.message).toContain("awaits the marketplace operator's approval")
    const listed: Json = await (await exchange(open, (c) => c.listParticipants({ query: { limit: 500 } }))).json()
    expect(listed.data.map((p: Json) => p.slug)).not.toContain("kofi-mensah")
    const draft = validDraft({
      action: "Visit the pharmacy at 12 Allen Avenue and photograph its opening hours",
      location: "Lagos, Nigeria",
      participant_slug: "kofi-mensah"
    })
    const submit = () =>
      exchange(open, (c) =>
        c.createTask({ payload: asPayload(TaskDraft, draft), headers: { "idempotency-key": randomUUID() } })
      )
    const refused = await submit()
    expect(refused.status).toBe(422)
    const rows = await database.rows("SELECT slug, name, location, task_type, tags FROM pending_participants")
    expect(rows).toEqual([
      {
        slug: "kofi-mensah",
        name: "Kofi Mensah",
        location: "Lagos, Nigeria",
        task_type: "physical",
        tags: '["pharmacy","inspection","retail"]'
      }
    ])

    // The operator approves: listed, and a task naming them is offered to them.
    const pending = await operator(database, open.url, "participants", "pending")
    expect(pending.stdout).toMatch(/^kofi-mensah {2}"Kofi Mensah" {2}kofi@example\.com {2}signed up /)
    const approved = await operator(database, open.url, "participants", "approve", "kofi-mensah")
    expect(approved).toMatchObject({ code: 0, stderr: "" })
    const account: Json = await (await exchange(open, (c) => c.me(), { token })).json()
    expect(account.participant).toMatchObject({
      slug: "kofi-mensah",
      name: "Kofi Mensah",
      discipline: "Pharmacy inspection",
      capabilities: ["Pharmacy visits in Lagos", "Interviews with pharmacists"],
      returns: "Photos of the shop front and a checklist."
    })
    const created = await submit()
    expect(created.status).toBe(201)
    const { reference }: Json = await created.json()
    let task: Json
    for (let i = 0; i < 10; i++) {
      task = await (
        await exchange(open, (c) => c.getTask({ params: { reference }, query: { wait: i === 0 ? 0 : 5 }, headers: {} }))
      ).json()
      if (task.state !== "open") break
    }
    expect(task).toMatchObject({ state: "awaiting_participant", participant_slug: "kofi-mensah" })
    const mine: Json = await (await exchange(open, (c) => c.myTasks(), { token })).json()
    expect(mine.data.map((t: Json) => t.reference)).toEqual([reference])
  })

  it("a form with problems comes back saying each beside its field, keeping what was typed but the passwords", async () => {
    const before = await counts()
    const { page, context } = await atSignIn(open)
    await Promise.all([page.waitForNavigation(), page.getByRole("link", { name: "Create an account" }).click()])
    await fillSignUp(
      page,
      { email: "ama@example.com", password: "a long and quiet river", name: "   " },
      "another long password"
    )
    // Spaces satisfy the browser's own `required`: the service says the name is blank.
    const [response] = await createAccount(page)
    expect(response?.status()).toBe(422)
    const alert = page.getByRole("alert")
    expect(await alert.textContent()).toContain("Check the fields below:")
    expect(await alert.getByRole("link").allTextContents()).toEqual([
      "The two passwords do not match.",
      "Enter your name."
    ])
    const name = page.getByLabel("Name")
    expect(await name.getAttribute("aria-invalid")).toBe("true")
    expect(await name.getAttribute("aria-describedby")).toBe("name-error")
    expect(await page.locator("#name-error").textContent()).toBe("Enter your name.")
    expect(await page.getByLabel("Confirm password").getAttribute("aria-invalid")).toBe("true")
    // Kept: the address and the profile; never a password.
    expect(await page.getByLabel("Email").inputValue()).toBe("ama@example.com")
    expect(await page.getByLabel("Where you are").inputValue()).toBe("Lagos, Nigeria")
    expect(await page.getByLabel("How you work").inputValue()).toBe("physical")
    expect(await page.getByLabel("What you can do").inputValue()).toBe(
      "Pharmacy visits in Lagos\nInterviews with pharmacists"
    )
    expect(await page.getByLabel("Password", { exact: true }).inputValue()).toBe("")
    expect(await page.getByLabel("Confirm password").inputValue()).toBe("")
    await shot(page, "problems")
    expect(await counts()).toEqual(before)

    // Mended, it goes through.
    await fillSignUp(page, { email: "ama@example.com", password: "a long and quiet river", name: "Ama Owusu" })
    await createAccount(page)
    expect(await page.getByRole("status").textContent()).toBe(sentNotice)
    await context.close()
    expect(await counts()).toEqual({ pending: before.pending + 1, logins: before.logins + 1 })
  })

  it("an address that has an account gets the page a new one gets; nothing is made, its login unchanged", async () => {
    /** Signs up as `person` from a fresh browser: what the browser is answered, and its cookies before and after. */
    const signUpAs = async (person: Person) => {
      const { page, context } = await atSignIn(open)
      await Promise.all([page.waitForNavigation(), page.getByRole("link", { name: "Create an account" }).click()])
      const uid = new URL(page.url()).pathname.split("/")[3]!
      const cookies = async () =>
        (await context.cookies())
          .map(({ name, value, path }) => `${name}=${value} ${path}`.replaceAll(uid, "<uid>"))
          .sort()
      const before = await cookies()
      const csrf = (await page.locator('input[name="csrf"]').getAttribute("value"))!
      await fillSignUp(page, person)
      const [response] = await createAccount(page)
      const markup = (await page.content())
        .replaceAll(uid, "<uid>")
        .replaceAll(csrf, "<csrf>")
        .replaceAll(person.email, "<email>")
      return {
        page,
        context,
        status: response?.status(),
        headers: { ...(await response!.allHeaders()), date: "", "x-request-id": "", "content-length": "" },
        url: page.url().replace(uid, "<uid>"),
        markup,
        cookies: { before, after: await cookies() }
      }
    }
    const newcomer = await signUpAs({
      email: "esi@example.com",
      password: "a long and quiet river",
      name: "Esi Boateng"
    })
    await newcomer.context.close()
    const login = () => database.rows("SELECT * FROM participant_logins WHERE email_key = 'esi@example.com'")
    const esi = await login()
    expect(esi).toHaveLength(1)
    const before = await counts()
    // The same address again (typed in another case), with another password and name.
    const again = await signUpAs({ email: "ESI@example.com", password: "another long password", name: "Esi Again" })
    expect(again.status).toBe(newcomer.status)
    expect(again.url).toBe(newcomer.url)
    expect(again.headers).toEqual(newcomer.headers)
    expect(again.markup).toBe(newcomer.markup)
    // No cookie set or changed, in either browser (they differ only in the values that sign them).
    const names = (cookies: ReadonlyArray<string>) => cookies.map((cookie) => cookie.replace(/=\S*/, ""))
    expect(names(again.cookies.after)).toEqual(names(newcomer.cookies.after))
    expect(newcomer.cookies.after).toEqual(newcomer.cookies.before)
    expect(again.cookies.after).toEqual(again.cookies.before)
    await shot(again.page, "address-used")
    // Nothing made, nothing changed: the login is as it was, and only its own password opens it.
    expect(await counts()).toEqual(before)
    expect(await login()).toEqual(esi)
    const [refused] = await signIn(again.page, "another long password")
    expect(refused?.status()).toBe(401)
    await signIn(again.page, "a long and quiet river")
    expect(await again.page.locator("h1").textContent()).toBe("Allow Field Assistant?")
    expect(await again.page.locator(".signed-in").textContent()).toContain("esi@example.com")
    await again.context.close()
  }, 60_000)

  it("a sign-up form with a wrong CSRF token, or posted from another site, is refused and changes nothing", async () => {
    const { page, context } = await atSignIn(open)
    await Promise.all([page.waitForNavigation(), page.getByRole("link", { name: "Create an account" }).click()])
    const action = new URL((await page.locator("form").getAttribute("action"))!, open.url).href
    const csrf = (await page.locator('input[name="csrf"]').getAttribute("value"))!
    const form = {
      email: "mallory@example.com",
      password: "a long and quiet river",
      confirm: "a long and quiet river",
      name: "Mallory",
      discipline: "Mischief",
      location: "Lagos, Nigeria",
      task_type: "digital"
    }
    const before = await counts()
    const { wrongToken, otherSite } = await postForged(context, action, form, csrf, open.url)
    expect(wrongToken.status()).toBe(403)
    expect(otherSite.status()).toBe(403)
    expect(await otherSite.text()).toContain("This form cannot be sent from here")
    expect(await counts()).toEqual(before)
    // Nothing was signed in: the sign-in page still asks.
    await page.goto(new URL(action.replace(/\/sign-up$/, "")).href)
    expect(await page.getByRole("button", { name: "Sign in" }).isVisible()).toBe(true)
    await context.close()
  })
})

describe("PARTICIPANT_SIGNUP=closed (the default)", () => {
  it("the sign-in page has no link, and the sign-up addresses are the 404 page", async () => {
    const { page, context } = await atSignIn(closed)
    expect(await page.getByRole("link", { name: "Create an account" }).count()).toBe(0)
    expect(await page.content()).not.toContain("sign-up")
    const signUp = `${page.url().split("?")[0]}/sign-up`
    const shown = await page.goto(signUp)
    expect(shown?.status()).toBe(404)
    expect(await page.locator("h1").textContent()).toBe("Page not found")
    const posted = await context.request.post(signUp, {
      form: { email: "x@example.com" },
      headers: { origin: closed.url, accept: "text/html" },
      maxRedirects: 0
    })
    expect(posted.status()).toBe(404)
    expect(await posted.text()).toContain("Page not found")
    await context.close()
  })
})
