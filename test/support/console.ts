/**
 * Driving the participant console as a person does, in a real browser: choosing a password from
 * the operator's link, then signing in to `/console` (the console sends the browser to the
 * authorization server's sign-in page and back).
 */
import type { Browser, BrowserContextOptions, Page } from "playwright-core"
import { phone } from "./browser.ts"
import type { TestDatabase } from "./database.ts"
import { linkOf, operator } from "./oauth.ts"

export interface ConsolePerson {
  readonly slug: string
  readonly email: string
  readonly password: string
}

/** Opens the invitation or reset link and chooses `password`. */
export const choosePassword = async (browser: Browser, link: string, password: string) => {
  const context = await browser.newContext({ javaScriptEnabled: false })
  try {
    const page = await context.newPage()
    await page.goto(link)
    await page.getByLabel("Password", { exact: true }).fill(password)
    await page.getByLabel("Confirm password").fill(password)
    await Promise.all([page.waitForNavigation(), page.getByRole("button", { name: "Save password" }).click()])
  } finally {
    await context.close()
  }
}

/** A browser (a phone unless told otherwise; JavaScript off unless asked for) signed in to the console as `person`, showing the tasks. */
export const signInToConsole = async (
  browser: Browser,
  baseUrl: string,
  person: ConsolePerson,
  options: BrowserContextOptions = phone
) => {
  const context = await browser.newContext({ javaScriptEnabled: false, ...options })
  const page = await context.newPage()
  await page.goto(`${baseUrl}/console`)
  await signInOnPage(page, baseUrl, person)
  return { context, page }
}

/** On the authorization server's sign-in page the console led to: signs in as `person`, back on the tasks. */
export const signInOnPage = async (page: Page, baseUrl: string, person: ConsolePerson) => {
  await page.getByLabel("Email").fill(person.email)
  await page.getByLabel("Password", { exact: true }).fill(person.password)
  await Promise.all([page.waitForURL(`${baseUrl}/console`), page.getByRole("button", { name: "Sign in" }).click()])
}

/** Invites each person as the operator does (`participants invite`), and has them choose their password. */
export const invitePeople = async (
  browser: Browser,
  database: TestDatabase,
  baseUrl: string,
  people: ReadonlyArray<ConsolePerson>
) => {
  for (const person of people) {
    const link = linkOf(
      await operator(database, baseUrl, "participants", "invite", person.slug, "--email", person.email)
    )
    await choosePassword(browser, link, person.password)
  }
}
