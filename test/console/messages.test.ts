/**
 * The conversation on a task in the console, in a real browser on a phone, JavaScript off: the
 * participant reads what the agent wrote on the offer's page, answers through the form, and the
 * agent reads the answer over REST; a blank message and a form from elsewhere change nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { Browser } from "playwright-core"
import { launchBrowser, screenshots } from "../support/browser.ts"
import { invitePeople, signInToConsole } from "../support/console.ts"
import { freshDatabase, type TestDatabase } from "../support/database.ts"
import { awaitTask, json, startServer, submitTask, type TestServer, validDraft } from "../support/server.ts"

let database: TestDatabase
let server: TestServer
let browser: Browser

const lukas = { slug: "lukas-schmidt", email: "lukas.messages@example.com", password: "a long enough password 3" }

beforeAll(async () => {
  browser = await launchBrowser()
  database = await freshDatabase()
  server = await startServer({ database })
  await invitePeople(browser, database, server.url, [lukas])
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await server?.close()
  await database?.drop()
})

describe("a task's messages in the console", () => {
  it("the participant reads the agent's message on the offer and answers it; the agent reads the answer", async () => {
    const { reference, token } = await submitTask(server.api("/tasks"), validDraft({ participant_slug: lukas.slug }))
    await awaitTask(server.api(`/tasks/${reference}`), (task) => task.state === "awaiting_participant")
    const agent = { authorization: `Bearer ${token}` }
    const written = await fetch(
      server.api(`/tasks/${reference}/messages`),
      json({ body: "Please photograph the left door\nas well." }, agent)
    )
    expect(written.status).toBe(201)

    const { context, page } = await signInToConsole(browser, server.url, lukas)
    try {
      await page.goto(`${server.url}/console/tasks/${reference}`)
      // A brief without a result_schema asks for a summary and evidence only.
      await expect(page.getByRole("region", { name: "What you will hand back" }).innerText()).resolves.toMatch(
        /as the brief asks\.$/
      )
      const conversation = page.getByRole("region", { name: "Messages" })
      await expect(conversation.innerText()).resolves.toContain("The agent")
      await expect(conversation.innerText()).resolves.toContain("Please photograph the left door\nas well.")

      // A blank message is refused on the page, and nothing is written.
      const csrf = await page.locator('input[name="csrf"]').first().getAttribute("value")
      const cookie = (await context.cookies(`${server.url}/console`)).find((c) => c.name === "tm_console")!
      const blank = await fetch(`${server.url}/console/tasks/${reference}/messages`, {
        method: "POST",
        headers: { cookie: `tm_console=${cookie.value}`, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ csrf: csrf!, body: "   " }),
        redirect: "manual"
      })
      expect(blank.status).toBe(422)
      // A form from elsewhere (no CSRF token) is refused.
      const foreign = await fetch(`${server.url}/console/tasks/${reference}/messages`, {
        method: "POST",
        headers: { cookie: `tm_console=${cookie.value}`, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ body: "forged" }),
        redirect: "manual"
      })
      expect(foreign.status).toBe(403)

      await page.getByLabel("Write to the agent").fill("Which one is the left door, the green one?")
      await Promise.all([page.waitForNavigation(), page.getByRole("button", { name: "Send message" }).click()])
      await expect(page.getByRole("status").textContent()).resolves.toContain("Your message was sent")
      await expect(conversation.innerText()).resolves.toContain("Which one is the left door, the green one?")
      await page.screenshot({ path: `${screenshots}console-messages-phone.png`, fullPage: true })

      const list = await (await fetch(server.api(`/tasks/${reference}/messages`), { headers: agent })).json()
      expect(list.data.map((m: { from: string; body: string }) => [m.from, m.body])).toEqual([
        ["agent", "Please photograph the left door\nas well."],
        ["participant", "Which one is the left door, the green one?"]
      ])
    } finally {
      await context.close()
    }
  })
})
