/**
 * A task from offer to settlement, across both sides, as issue 24 tells it — in a real browser
 * (Chromium) on both backends: a participant invited by the operator signs in to the console; a
 * task an agent submitted through REST, naming them and carrying a `result_schema`, is their
 * offer; they accept, start, fill the fields generated from the schema, upload a PNG and a PDF and
 * submit; the agent reads the result through REST and MCP and downloads both files with its task
 * token (bytes and sha256 equal); the agent asks for a revision, the participant sees the reason
 * and submits again; the agent accepts; the console's history shows the task settled. Nobody else
 * reads the files, and a result failing its schema is refused with the field named.
 *
 * Screenshots, phone and desktop, go to .cache/screenshots/console-*.png (and docs/ has copies).
 */
import { createHash } from "node:crypto"
import { deflateSync } from "node:zlib"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import type { Browser, BrowserContext, BrowserContextOptions, Page } from "playwright-core"
import type { ReviewRequest } from "../../src/api/resources.ts"
import { exchange } from "../support/api_client.ts"
import { desktop, launchBrowser, screenshots } from "../support/browser.ts"
import { type ConsolePerson, invitePeople, signInToConsole } from "../support/console.ts"
import { freshDatabase, type TestDatabase } from "../support/database.ts"
import { startServer, submitTask, type TestServer, validDraft } from "../support/server.ts"

let database: TestDatabase
let server: TestServer
let browser: Browser

const lukas = { slug: "lukas-schmidt", email: "lukas.delivery@example.com", password: "a long enough password 1" }
const emily = { slug: "emily-hart", email: "emily.delivery@example.com", password: "another long password 2" }

const resultSchema = {
  type: "object",
  required: ["photos_taken", "sign_legible", "opening_hours"],
  properties: {
    photos_taken: { type: "integer", title: "Photos taken", minimum: 1, maximum: 20 },
    sign_legible: { type: "boolean", title: "Opening-hours sign legible" },
    opening_hours: { type: "string", title: "Opening hours as shown", minLength: 3, maxLength: 200 },
    weather: { type: "string", enum: ["sunny", "cloudy", "rain"], description: "At the time of the photos." }
  },
  additionalProperties: false
}

/** A real PNG (a 2×2 image), so that its type is read from its bytes. */
const png = (() => {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4)
    length.writeUInt32BE(data.length)
    const body = Buffer.concat([Buffer.from(type, "ascii"), data])
    const crc = Buffer.alloc(4)
    crc.writeUInt32BE(crc32(body))
    return Buffer.concat([length, body, crc])
  }
  const header = Buffer.alloc(13)
  header.writeUInt32BE(2, 0)
  header.writeUInt32BE(2, 4)
  header[8] = 8
  header[9] = 2
  const rows = Buffer.from([0, 255, 0, 0, 0, 255, 0, 0, 0, 0, 255, 255, 255, 0])
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(rows)),
    chunk("IEND", Buffer.alloc(0))
  ])
})()

function crc32(bytes: Buffer) {
  let crc = 0xffffffff
  for (const byte of bytes) {
    crc ^= byte
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1
  }
  return (crc ^ 0xffffffff) >>> 0
}

const pdf = Buffer.from(
  "%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n",
  "latin1"
)
const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex")

const signIn = (person: ConsolePerson, options?: BrowserContextOptions) =>
  signInToConsole(browser, server.url, person, options)

interface FileArtifact {
  kind: "file"
  id: string
  name: string
  value: string
  content_type: string
  size: number
  sha256: string
  url: string
}
interface TaskBody {
  state: string
  result: { summary: string; fields: Record<string, unknown>; artifacts: Array<FileArtifact | { kind: string }> } | null
  history: Array<{ to: string; reason?: string }>
}

const readTask = async (reference: string) =>
  (await (
    await exchange(server, (c) => c.getTask({ params: { reference }, query: {}, headers: {} }))
  ).json()) as TaskBody

const review = (reference: string, token: string, decision: typeof ReviewRequest.Type) =>
  exchange(server, (c) => c.reviewTask({ params: { reference }, payload: decision }), { token })

const shoot = (page: Page, name: string) => page.screenshot({ path: `${screenshots}${name}.png`, fullPage: true })

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

describe("a task from offer to settlement", () => {
  let reference: string
  let token: string
  let lukasBrowser: { context: BrowserContext; page: Page }

  it("the offer shows with the brief; accepted and started, the form has the schema's fields", async () => {
    ;({ reference, token } = await submitTask(
      server.api("/tasks"),
      validDraft({ participant_slug: lukas.slug, result_schema: resultSchema })
    ))
    lukasBrowser = await signIn(lukas)
    const { page } = lukasBrowser
    await expect(page.getByRole("region", { name: /Offers/ }).textContent()).resolves.toContain(
      "Photograph the storefront"
    )
    await page.goto(`${server.url}/console/tasks/${reference}`)
    // Before accepting: what will be handed back, read-only, under the schema's titles.
    const handBack = await page.getByRole("region", { name: "What you will hand back" }).innerText()
    expect(handBack).toContain("Photos taken (required): A whole number.")
    expect(handBack).toContain("Opening-hours sign legible (required): One of: Yes, No.")
    expect(handBack).toContain("Opening hours as shown (required): Text.")
    expect(handBack).toContain("Weather: One of: sunny, cloudy, rain.")
    await expect(page.getByRole("region", { name: "What you will hand back" }).locator("input").count()).resolves.toBe(
      0
    )
    await shoot(page, "console-offer-phone")
    await Promise.all([page.waitForNavigation(), page.getByRole("button", { name: "Accept" }).click()])
    await Promise.all([page.waitForNavigation(), page.getByRole("button", { name: "Start work" }).click()])
    for (const label of [/Photos taken/, /Opening hours as shown/, /Summary/, /Files/]) {
      await expect(page.getByLabel(label).count(), String(label)).resolves.toBe(1)
    }
    // A required yes/no: Yes and No, neither chosen, nothing that an untouched page could send as "no".
    const legible = page.getByRole("group", { name: /Opening-hours sign legible/ }).getByRole("radio")
    await expect(legible.count()).resolves.toBe(2)
    await expect(
      legible.evaluateAll((radios) =>
        radios.map((r) => [(r as HTMLInputElement).checked, (r as HTMLInputElement).required])
      )
    ).resolves.toEqual([
      [false, true],
      [false, true]
    ])
    // Three choices: radio buttons (and "No answer", the property being optional) in a group named by it.
    await expect(
      page
        .getByRole("group", { name: /Weather/ })
        .getByRole("radio")
        .count()
    ).resolves.toBe(4)
    await shoot(page, "console-work-phone")
  })

  it("a result failing its schema is refused with the field named, and nothing is kept", async () => {
    const { context, page } = lukasBrowser
    // The page's own checks stop a number below the minimum; sent anyway (as a script or an old
    // browser could), the service refuses it and the page names the field.
    const csrf = await page.locator('input[name="csrf"]').first().getAttribute("value")
    const cookie = (await context.cookies(`${server.url}/console`)).find((c) => c.name === "tm_console")!
    const body = new FormData()
    body.set("csrf", csrf!)
    body.set("summary", "Took the photos")
    body.set("fields.photos_taken", "0")
    body.set("fields.opening_hours", "Mo–Fr 7–18")
    body.set("files", new Blob([png], { type: "image/png" }), "front.png")
    const response = await fetch(`${server.url}/console/tasks/${reference}/submit`, {
      method: "POST",
      headers: { cookie: `tm_console=${cookie.value}` },
      body,
      redirect: "manual"
    })
    expect(response.status).toBe(422)
    const text = await response.text()
    expect(text).toContain("Choose your files again")
    expect(text).toMatch(/aria-invalid="true"[^>]*|photos_taken/)
    const task = await readTask(reference)
    expect(task.state).toBe("in_flight")
    expect(task.result).toBeNull()
  })

  it("submits the generated fields with a PNG and a PDF", async () => {
    const { page } = lukasBrowser
    await page.goto(`${server.url}/console/tasks/${reference}`)
    await page.getByLabel(/Summary/).fill("Five photos of the storefront; the sign is legible.")
    await page.getByLabel(/Photos taken/).fill("5")
    await page
      .getByRole("group", { name: /Opening-hours sign legible/ })
      .getByRole("radio", { name: "Yes" })
      .check()
    await page.getByLabel(/Opening hours as shown/).fill("Mo–Fr 7:00–18:00, Sa 8:00–13:00")
    await page
      .getByRole("group", { name: /Weather/ })
      .getByRole("radio", { name: /cloudy/i })
      .check()
    await page.getByLabel(/Files/).setInputFiles([
      { name: "storefront.png", mimeType: "image/png", buffer: png },
      { name: "checklist.pdf", mimeType: "application/pdf", buffer: pdf }
    ])
    await page.getByLabel(/Links/).fill("https://maps.example.com/place/baeckerei-sonne")
    await Promise.all([page.waitForNavigation(), page.getByRole("button", { name: "Submit result" }).click()])
    await expect(page.getByRole("status").textContent()).resolves.toContain("Your result was submitted")
    await shoot(page, "console-submitted-phone")
    // The result as sent, read back under the schema's titles and in words.
    const shown = await page.getByRole("region", { name: "Your result" }).innerText()
    for (const line of ["Photos taken\n5", "Opening-hours sign legible\nYes", "Weather\ncloudy"])
      expect(shown).toContain(line)
    expect(shown).not.toContain("sign_legible")
    expect(shown).not.toContain("true")
    const task = await readTask(reference)
    expect(task.state).toBe("submitted")
    expect(task.result?.fields).toEqual({
      photos_taken: 5,
      sign_legible: true,
      opening_hours: "Mo–Fr 7:00–18:00, Sa 8:00–13:00",
      weather: "cloudy"
    })
  })

  it("the agent reads the files through REST and MCP, and downloads them with its task token", async () => {
    const task = await readTask(reference)
    const files = task.result!.artifacts.filter((a): a is FileArtifact => a.kind === "file")
    expect(files.map((f) => [f.name, f.content_type, f.size, f.sha256])).toEqual([
      ["storefront.png", "image/png", png.length, sha256(png)],
      ["checklist.pdf", "application/pdf", pdf.length, sha256(pdf)]
    ])
    expect(task.result!.artifacts).toContainEqual(expect.objectContaining({ kind: "url" }))

    const mcp = new Client({ name: "delivery-test", version: "1.0.0" })
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)))
    try {
      const read = await mcp.callTool({ name: "get_task", arguments: { reference } })
      expect((read.structuredContent as TaskBody).result).toEqual(task.result)
    } finally {
      await mcp.close()
    }

    for (const [file, bytes] of [
      [files[0]!, png],
      [files[1]!, pdf]
    ] as const) {
      expect(file.url).toBe(server.api(`/tasks/${reference}/artifacts/${file.id}`))
      const download = await fetch(file.url, { headers: { authorization: `Bearer ${token}` } })
      expect(download.status).toBe(200)
      expect(download.headers.get("content-type")).toContain(file.content_type)
      const received = Buffer.from(await download.arrayBuffer())
      expect(received.equals(bytes)).toBe(true)
      expect(sha256(received)).toBe(file.sha256)
    }
  })

  it("nobody else reads the files: another participant, an anonymous client, a wrong token", async () => {
    const file = (await readTask(reference)).result!.artifacts.find((a): a is FileArtifact => a.kind === "file")!
    const anonymous = await fetch(file.url)
    expect(anonymous.status).toBe(401)
    expect(anonymous.headers.get("content-type")).toContain("application/json")
    const wrong = await fetch(file.url, { headers: { authorization: "Bearer not-a-task-token" } })
    expect([401, 403]).toContain(wrong.status)
    const other = await submitTask(server.api("/tasks"), validDraft({ participant_slug: lukas.slug }))
    const foreign = await fetch(file.url, { headers: { authorization: `Bearer ${other.token}` } })
    // Another task's token is no token for this task (401, as on the agent's other endpoints).
    expect([401, 404]).toContain(foreign.status)
    expect(await foreign.text()).not.toContain("PNG")
    // The uploader reads it in the console; another participant does not.
    const mine = await lukasBrowser.context.request.get(`${server.url}/console/tasks/${reference}/files/${file.id}`)
    expect(mine.status()).toBe(200)
    expect(Buffer.from(await mine.body()).equals(png)).toBe(true)
    const { context } = await signIn(emily)
    try {
      const theirs = await context.request.get(`${server.url}/console/tasks/${reference}/files/${file.id}`)
      expect(theirs.status()).toBe(404)
    } finally {
      await context.close()
    }
  })

  it("a revision: the participant sees the reason, submits again, the agent accepts, history shows it settled", async () => {
    const revise = await review(reference, token, {
      decision: "revise",
      reason: "Please add a photo of the side entrance."
    })
    expect(revise.status).toBe(200)
    const { page } = lukasBrowser
    await page.goto(`${server.url}/console`)
    await expect(page.getByRole("region", { name: /In progress/ }).textContent()).resolves.toContain(
      "Please add a photo of the side entrance."
    )
    await page.goto(`${server.url}/console/tasks/${reference}`)
    await expect(page.locator("main").textContent()).resolves.toContain("The agent asked for a revision")
    await shoot(page, "console-revision-phone")
    await page.getByLabel(/Summary/).fill("Six photos now, the side entrance included.")
    await page.getByLabel(/Photos taken/).fill("6")
    // The revision's form holds the result sent before: Yes is still chosen.
    await expect(
      page
        .getByRole("group", { name: /Opening-hours sign legible/ })
        .getByRole("radio", { name: "Yes" })
        .isChecked()
    ).resolves.toBe(true)
    await page.getByLabel(/Opening hours as shown/).fill("Mo–Fr 7:00–18:00, Sa 8:00–13:00")
    await page.getByLabel(/Files/).setInputFiles([{ name: "side-entrance.png", mimeType: "image/png", buffer: png }])
    await Promise.all([page.waitForNavigation(), page.getByRole("button", { name: "Submit result" }).click()])
    expect((await readTask(reference)).state).toBe("submitted")

    const accept = await review(reference, token, { decision: "accept" })
    expect(accept.status).toBe(200)
    await page.goto(`${server.url}/console`)
    const history = page.getByRole("region", { name: /History/ })
    await expect(history.textContent()).resolves.toContain("Photograph the storefront")
    await expect(history.textContent()).resolves.toContain("Result accepted")
    await shoot(page, "console-tasks-settled-phone")
    await lukasBrowser.context.close()

    const wide = await signIn(lukas, desktop)
    await shoot(wide.page, "console-tasks-desktop")
    await wide.page.goto(`${server.url}/console/tasks/${reference}`)
    await shoot(wide.page, "console-task-desktop")
    await wide.page.goto(`${server.url}/console/profile`)
    await shoot(wide.page, "console-profile-desktop")
    await wide.context.close()
  })
})
