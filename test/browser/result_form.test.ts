/**
 * The result form generated from a task's result_schema (src/pages/result_form/) in a real browser
 * (headless Chromium through playwright-core, JavaScript off), inside a page like the console's
 * Work page: a summary, the generated fields and "Submit result", posted as multipart/form-data (the
 * Work page also carries file uploads). A small node:http server in this file serves the page with
 * the project's `pageHeaders` and answers the post as the console would: `readFormFields`, then the
 * service's own check (`resultFieldFailures`), refusing with the page again — values kept, each
 * problem beside its control by `controlForPointer` — or accepting with a redirect.
 *
 * Checked: every control found by its label, focus order following the page, the browser's own
 * validation stopping a required empty field, typed values arriving as the schema's types, the
 * service's failures shown where they belong, nothing wider than a 360 px phone, contrast AA in
 * light and dark, hostile schema text shown as text. Screenshots (phone and desktop, light and dark)
 * go to .cache/screenshots/result-form-*.png, for a person to look at.
 *
 * vitest.config.ts runs this file only where Chromium is installed (CHROMIUM_PATH, default
 * /usr/bin/chromium), as it does the other browser tests.
 */
import { createServer, type IncomingMessage, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { Browser, BrowserContextOptions, Page } from "playwright-core"
import { resultFieldFailures } from "../../src/domain/result_schema.ts"
import { html } from "../../src/pages/html.ts"
import { page as documentOf, pageHeaders } from "../../src/pages/layout.ts"
import { type FormField, type FormValues, noValues } from "../../src/pages/result_form/fields.ts"
import { controlForPointer } from "../../src/pages/result_form/pointer.ts"
import { readFormFields } from "../../src/pages/result_form/read.ts"
import { renderFormFields } from "../../src/pages/result_form/render.ts"
import { formFieldsOf } from "../../src/pages/result_form/schema_fields.ts"
import { desktop, launchBrowser, phoneAt, screenshots } from "../support/browser.ts"

/** The narrowest phone the pages are held to. */
const phone = phoneAt(360, 740)

const inspection = {
  type: "object",
  properties: {
    inspected_on: { type: "string", format: "date", title: "Inspection date" },
    started_at: { type: "string", format: "date-time" },
    chairs: {
      type: "integer",
      minimum: 0,
      maximum: 500,
      description: "Count every chair in room 4, stacked ones too."
    },
    weight_kg: { type: "number", exclusiveMinimum: 0 },
    condition: { enum: ["good", "worn", "broken"], description: "As you found them." },
    colour: { enum: ["black", "white", "grey", "red", "green", "blue", "other"] },
    repairs_needed: { type: "boolean" },
    confirmed: { const: true, title: "I was on site" },
    rooms: { type: "array", items: { type: "string" }, minItems: 1, maxItems: 5 },
    tools: { type: "array", items: { enum: ["ladder", "drill", "tape measure"] } },
    contact: {
      type: "object",
      title: "Site contact",
      properties: {
        email: { type: "string", format: "email" },
        phone: {
          type: "string",
          pattern: "^\\+?[0-9 ]+$",
          description: "Digits and spaces, + in front if international."
        }
      },
      required: ["email"]
    },
    reference: {
      type: "string",
      pattern: "^[\\w.-]+$",
      description: "The sticker on the door: letters, digits, . and -."
    },
    notes: { type: "string", description: "Anything else the agent should know." },
    extra: { oneOf: [{ type: "string" }, { type: "array", items: { type: "string" } }] }
  },
  required: ["inspected_on", "chairs", "condition", "repairs_needed", "confirmed", "rooms", "contact", "reference"]
} as const

// ---------------------------------------------------------------------------------------------
// A page like the console's Work page, and a server answering its post as the console would

interface Form {
  readonly schema: Record<string, unknown>
  readonly fields: ReadonlyArray<FormField>
}
const forms = new Map<string, Form>()
/** Every post the server received and accepted: the path and the fields read from it. */
const accepted: Array<{ readonly path: string; readonly summary: string; readonly fields: Record<string, unknown> }> =
  []
let posts = 0

const workPage = (
  fields: ReadonlyArray<FormField>,
  values: FormValues,
  problems: ReadonlyMap<string, string>,
  summary = ""
) =>
  String(
    documentOf({
      title: "Hand in your result",
      body: html`<h1>Hand in your result</h1>
<p class="lead">Count the chairs in room 4</p>
${problems.size > 0 && html`<div class="alert" role="alert">The result was not accepted: see the fields marked below.</div>`}
<form method="post" enctype="multipart/form-data">
<div class="field">
<label for="summary">Summary <span class="req">(required)</span></label>
<textarea id="summary" name="summary" rows="3" required>${summary}</textarea>
</div>
${renderFormFields(fields, values, problems)}<div class="actions"><button type="submit" class="primary">Submit result</button></div>
</form>`
    })
  )

const bodyOf = async (request: IncomingMessage) => {
  const chunks: Array<Buffer> = []
  for await (const chunk of request) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks)
}

let server: Server
let base: string
let browser: Browser

beforeAll(async () => {
  server = createServer(async (request, response) => {
    const path = request.url ?? "/"
    const form = forms.get(path)
    if (path === "/done") return void response.writeHead(200, pageHeaders()).end(doneMarkup)
    if (form === undefined) return void response.writeHead(404, { "content-type": "text/plain" }).end("not found")
    if (request.method !== "POST")
      return void response.writeHead(200, pageHeaders()).end(workPage(form.fields, noValues, new Map()))
    posts++
    const data = await new Request(`${base}${path}`, {
      method: "POST",
      headers: { "content-type": request.headers["content-type"] ?? "" },
      body: await bodyOf(request)
    }).formData()
    const posted: FormValues = (name) => data.getAll(name).filter((value): value is string => typeof value === "string")
    const read = readFormFields(form.fields, posted)
    const problems = new Map(read.problems)
    if (problems.size === 0) {
      for (const failure of resultFieldFailures(form.schema, read.fields)) {
        const control = controlForPointer(form.fields, failure.pointer)
        if (control !== undefined && !problems.has(control)) problems.set(control, failure.message)
      }
    }
    const summary = posted("summary")[0] ?? ""
    if (problems.size > 0) {
      response.writeHead(422, pageHeaders()).end(workPage(form.fields, posted, problems, summary))
      return
    }
    accepted.push({ path, summary, fields: read.fields })
    response.writeHead(303, { location: "/done" }).end()
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  browser = await launchBrowser()
})
afterAll(async () => {
  await browser?.close()
  await new Promise((resolve) => server?.close(resolve))
})

const doneMarkup = String(documentOf({ title: "Submitted", body: html`<h1>Result submitted</h1>` }))

const serve = (path: string, schema: Record<string, unknown>) => {
  const form = { schema, fields: formFieldsOf(schema) }
  forms.set(path, form)
  return form
}

interface Opened {
  readonly page: Page
  readonly console: Array<string>
  readonly close: () => Promise<void>
}

const open = async (path: string, context: BrowserContextOptions = phone): Promise<Opened> => {
  const browserContext = await browser.newContext({ ...context, javaScriptEnabled: false })
  // A control not found fails at once, not at the test's timeout.
  browserContext.setDefaultTimeout(5_000)
  const page = await browserContext.newPage()
  const messages: Array<string> = []
  // Chromium logs the refusal's own 422 as a failed load: that one is expected.
  page.on("console", (message) => {
    if (!message.text().includes("status of 422")) messages.push(`${message.type()}: ${message.text()}`)
  })
  const response = await page.goto(`${base}${path}`, { waitUntil: "load" })
  expect(response?.status()).toBe(200)
  return { page, console: messages, close: () => browserContext.close() }
}

const onPage = async (path: string, check: (opened: Opened) => Promise<void>, context?: BrowserContextOptions) => {
  const opened = await open(path, context)
  try {
    await check(opened)
  } finally {
    await opened.close()
  }
}

const screenshot = (page: Page, name: string) =>
  page.screenshot({ path: `${screenshots}result-form-${name}.png`, fullPage: true })

/** The accessible name a control's label gives (the required mark is part of it). */
const labelOf = (field: FormField) => `${field.label}${field.enforced ? " (required)" : ""}`

const walk = (fields: ReadonlyArray<FormField>): ReadonlyArray<FormField> =>
  fields.flatMap((field) => (field.kind === "group" ? [field, ...walk(field.fields)] : [field]))

/** Fills in the inspection form with a result the schema accepts. */
const fillValid = (page: Page) => fillValidExcept(page)

/** The same, leaving the yes/no of repairs untouched when asked. */
const fillValidExcept = async (page: Page, untouched?: "repairs") => {
  await page.getByLabel("Summary").fill("Counted the chairs in room 4.\nTwo wobble.")
  await page.getByLabel("Inspection date (required)").fill("2026-05-01")
  await page.getByLabel("Started at", { exact: true }).fill("2026-05-01T14:30")
  await page.getByLabel("Chairs (required)").fill("42")
  await page.getByLabel("Weight kg").fill("3.25")
  await page.getByRole("group", { name: "Condition (required)" }).getByLabel("worn").check()
  await page.getByLabel("Colour").selectOption("grey")
  if (untouched !== "repairs")
    await page.getByRole("group", { name: "Repairs needed (required)" }).getByLabel("Yes").check()
  await page.getByLabel("I was on site (required)").check()
  await page.getByLabel("Rooms (required)").fill("Room 4\nHall")
  await page.getByRole("group", { name: "Tools" }).getByLabel("tape measure").check()
  await page.getByRole("group", { name: "Tools" }).getByLabel("ladder").check()
  await page.getByLabel("Email (required)").fill("ada@example.com")
  await page.getByLabel("Phone").fill("+33 1 23 45")
  await page.getByLabel("Reference (required)").fill("R4-door.2")
  await page.getByLabel("Notes").fill("Two chairs wobble.\nOne is missing a screw.")
  await page.getByLabel("Extra").fill('["spare key", "blue door"]')
}

const submit = async (page: Page) => {
  await page.getByRole("button", { name: "Submit result" }).click()
  await page.waitForLoadState("load")
}

/** WCAG contrast ratio of two `rgb(…)` colours. */
const contrast = (a: string, b: string) => {
  const luminance = (color: string) => {
    const [r, g, bl] = (color.match(/[\d.]+/g) ?? []).slice(0, 3).map((c) => {
      const s = Number(c) / 255
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4
    })
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * bl!
  }
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x)
  return (hi! + 0.05) / (lo! + 0.05)
}

/** The text colours of the form's parts against the card, in the page's current scheme. */
const expectReadable = async (page: Page) => {
  const card = await page.evaluate(() => getComputedStyle(document.querySelector("main")!).backgroundColor)
  for (const selector of [
    "label",
    "legend",
    ".hint",
    ".req",
    ".field-error",
    "textarea",
    "input[type=number]",
    "select"
  ]) {
    const colors = await page.locator(selector).evaluateAll((elements) =>
      elements.map((element) => {
        const style = getComputedStyle(element)
        const background = style.backgroundColor
        return { color: style.color, background: background === "rgba(0, 0, 0, 0)" ? null : background }
      })
    )
    for (const { color, background } of colors)
      expect(
        contrast(color, background ?? card),
        `${selector}: ${color} on ${background ?? card}`
      ).toBeGreaterThanOrEqual(4.5)
  }
}

// ---------------------------------------------------------------------------------------------

describe("the result form in a browser, JavaScript off", () => {
  it("every control is found by its label; focus follows the page; nothing is wider than a 360 px phone", async () => {
    const { fields } = serve("/work", inspection)
    await onPage("/work", async ({ page, console }) => {
      await screenshot(page, "phone")
      expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe("rgb(243, 244, 246)")
      expect(console).toEqual([])
      for (const field of walk(fields)) {
        const name = labelOf(field)
        switch (field.kind) {
          case "group":
          case "choices":
            expect(await page.getByRole("group", { name, exact: true }).count(), name).toBe(1)
            break
          case "choice":
            if (field.control === "radio") {
              const group = page.getByRole("group", { name, exact: true })
              for (const option of field.options)
                expect(await group.getByLabel(option.label, { exact: true }).count()).toBe(1)
            } else expect(await page.getByLabel(name, { exact: true }).evaluate((e) => e.tagName)).toBe("SELECT")
            break
          default:
            expect(await page.getByLabel(name, { exact: true }).count(), name).toBe(1)
        }
      }
      // Every control of the form has a label, and its hint as its description.
      const unlabelled = await page
        .locator("form input, form select, form textarea")
        .evaluateAll((controls) =>
          controls.filter((c) => (c as HTMLInputElement).labels?.length !== 1).map((c) => c.id)
        )
      expect(unlabelled).toEqual([])
      expect(await page.getByLabel("Chairs (required)").evaluate((e) => e.getAttribute("aria-describedby"))).toBe(
        "rf-fields.chairs-hint"
      )
      expect(await page.locator("#rf-fields\\.chairs-hint").textContent()).toBe(
        "Count every chair in room 4, stacked ones too. A whole number from 0 to 500."
      )
      // Focus order is the reading order: no tabindex, and each control below (or beside) the one before.
      expect(await page.locator("[tabindex]").count()).toBe(0)
      const tops = await page
        .locator("form input, form select, form textarea, form button")
        .evaluateAll((controls) => controls.map((c) => Math.round(c.getBoundingClientRect().top)))
      expect(tops).toEqual([...tops].sort((a, b) => a - b))
      // Nothing scrolls sideways; every control and every choice row is a thumb's target.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360)
      for (const target of await page
        .locator("form input:not([type=checkbox]):not([type=radio]), form select, form textarea, form button, .choice")
        .all())
        expect((await target.boundingBox())?.height ?? 0).toBeGreaterThanOrEqual(44)
      // A choice row is taken by a tap anywhere on its label.
      const worn = page.getByRole("group", { name: "Condition (required)" }).getByLabel("worn")
      await page.locator("label[for='rf-fields.condition-1']").click({ position: { x: 200, y: 10 } })
      expect(await worn.isChecked()).toBe(true)
      await expectReadable(page)
      expect(await page.locator("script").count()).toBe(0)
    })
  })

  it("a required field left empty stops the post (the browser's own check), and the page's constraints hold", async () => {
    serve("/work-required", inspection)
    await onPage("/work-required", async ({ page }) => {
      const before = posts
      await submit(page)
      expect(posts).toBe(before)
      await fillValid(page)
      // Each constraint the page can check stops the post on its own.
      const refusedBy = async (label: string, value: string, valid: string) => {
        const control = page.getByLabel(label, { exact: true })
        await control.fill(value)
        expect(await control.evaluate((e) => (e as HTMLInputElement).checkValidity()), `${label}: ${value}`).toBe(false)
        await submit(page)
        expect(posts, `${label}: ${value}`).toBe(before)
        await control.fill(valid)
      }
      await refusedBy("Chairs (required)", "501", "42")
      await refusedBy("Chairs (required)", "4.5", "42")
      await refusedBy("Email (required)", "not an email", "ada@example.com")
      await refusedBy("Phone", "call me", "+33 1 23 45")
      await refusedBy("Summary (required)", "", "Counted.")
      // A confirmation that must be checked.
      await page.getByLabel("I was on site (required)").uncheck()
      await submit(page)
      expect(posts).toBe(before)
      expect(
        await page.getByLabel("I was on site (required)").evaluate((e) => (e as HTMLInputElement).validationMessage)
      ).not.toBe("")
    })
    // A required yes/no left untouched: neither Yes nor No is chosen, and the browser will not send it as "no".
    await onPage("/work-required", async ({ page }) => {
      const before = posts
      await fillValid(page)
      await page.reload()
      await fillValidExcept(page, "repairs")
      await submit(page)
      expect(posts).toBe(before)
      const yes = page.getByRole("group", { name: "Repairs needed (required)" }).getByLabel("Yes")
      expect(await yes.evaluate((e) => (e as HTMLInputElement).validationMessage)).not.toBe("")
    })
  })

  it("typed values arrive as the schema's types, and the service accepts them", async () => {
    serve("/work-typed", inspection)
    await onPage("/work-typed", async ({ page }) => {
      await fillValid(page)
      await screenshot(page, "phone-filled")
      await submit(page)
      expect(page.url()).toBe(`${base}/done`)
      expect(accepted.at(-1)).toEqual({
        path: "/work-typed",
        summary: "Counted the chairs in room 4.\r\nTwo wobble.",
        fields: {
          inspected_on: "2026-05-01",
          started_at: "2026-05-01T14:30:00Z",
          chairs: 42,
          weight_kg: 3.25,
          condition: "worn",
          colour: "grey",
          repairs_needed: true,
          confirmed: true,
          rooms: ["Room 4", "Hall"],
          tools: ["ladder", "tape measure"],
          contact: { email: "ada@example.com", phone: "+33 1 23 45" },
          reference: "R4-door.2",
          notes: "Two chairs wobble.\nOne is missing a screw.",
          extra: ["spare key", "blue door"]
        }
      })
    })
    // Optional ones left empty are left out; No is an answer when chosen.
    await onPage("/work-typed", async ({ page }) => {
      await page.getByLabel("Summary").fill("Counted.")
      await page.getByLabel("Inspection date (required)").fill("2026-05-02")
      await page.getByLabel("Chairs (required)").fill("0")
      await page.getByRole("group", { name: "Condition (required)" }).getByLabel("good").check()
      await page.getByRole("group", { name: "Repairs needed (required)" }).getByLabel("No").check()
      await page.getByLabel("I was on site (required)").check()
      await page.getByLabel("Rooms (required)").fill("Room 4")
      await page.getByLabel("Email (required)").fill("ada@example.com")
      await page.getByLabel("Reference (required)").fill("R4")
      await submit(page)
      expect(page.url()).toBe(`${base}/done`)
      expect(accepted.at(-1)?.fields).toEqual({
        inspected_on: "2026-05-02",
        chairs: 0,
        condition: "good",
        repairs_needed: false,
        confirmed: true,
        rooms: ["Room 4"],
        contact: { email: "ada@example.com" },
        reference: "R4"
      })
    })
  })

  it("what only the service can check comes back beside its control, the typed values kept", async () => {
    serve("/work-refused", inspection)
    await onPage("/work-refused", async ({ page }) => {
      await fillValid(page)
      // The browser cannot read this pattern the service's way (`[\w.-]` under the `v` flag), nor an
      // exclusive bound of a number, nor JSON: the service refuses them.
      await page.getByLabel("Reference (required)").fill("door 4")
      await page.getByLabel("Weight kg").fill("0")
      await page.getByLabel("Extra").fill("\n{oops")
      const before = accepted.length
      await submit(page)
      expect(accepted.length).toBe(before)
      // The JSON that does not parse is reported first (nothing is judged until the form can be read).
      expect(await page.getByRole("alert").count()).toBe(1)
      const extra = page.getByLabel("Extra", { exact: true })
      expect(await extra.getAttribute("aria-invalid")).toBe("true")
      expect(await page.locator("#rf-fields\\.extra-error").textContent()).toMatch(/^Error: This is not valid JSON: /)
      // Shown as typed, its first line break too (the parser drops one just after <textarea>).
      expect(await extra.inputValue()).toBe("\n{oops")
      await extra.fill('"a note"')
      await submit(page)
      expect(accepted.length).toBe(before)
      await screenshot(page, "phone-refused")
      const reference = page.getByLabel("Reference (required)")
      expect(await reference.inputValue()).toBe("door 4")
      expect(await reference.getAttribute("aria-invalid")).toBe("true")
      expect(await reference.getAttribute("aria-describedby")).toBe(
        "rf-fields.reference-hint rf-fields.reference-error"
      )
      expect(await page.locator("#rf-fields\\.reference-error").textContent()).toBe(
        'Error: must match pattern "^[\\w.-]+$"'
      )
      expect(await page.locator("#rf-fields\\.weight_kg-error").textContent()).toBe("Error: must be > 0")
      // The error sits between the hint and the control.
      const hint = await page.locator("#rf-fields\\.reference-hint").boundingBox()
      const error = await page.locator("#rf-fields\\.reference-error").boundingBox()
      const control = await reference.boundingBox()
      expect(hint!.y < error!.y && error!.y < control!.y).toBe(true)
      // Everything else as typed.
      expect(await page.getByLabel("Summary").inputValue()).toBe("Counted the chairs in room 4.\nTwo wobble.")
      expect(await page.getByLabel("Rooms (required)").inputValue()).toBe("Room 4\nHall")
      expect(await page.getByRole("group", { name: "Condition (required)" }).getByLabel("worn").isChecked()).toBe(true)
      expect(await page.getByLabel("Colour").inputValue()).toBe("grey")
      expect(await page.getByRole("group", { name: "Tools" }).getByLabel("ladder").isChecked()).toBe(true)
      expect(await page.getByLabel("I was on site (required)").isChecked()).toBe(true)
      expect(await page.getByLabel("Started at", { exact: true }).inputValue()).toBe("2026-05-01T14:30")
      await expectReadable(page)
      // Fixed, it goes through.
      await reference.fill("door-4")
      await page.getByLabel("Weight kg").fill("0.5")
      await submit(page)
      expect(page.url()).toBe(`${base}/done`)
      expect(accepted.at(-1)?.fields).toMatchObject({ reference: "door-4", weight_kg: 0.5, extra: "a note" })
    })
  })

  it("on a desktop and in dark mode: styled, readable, within the page", async () => {
    serve("/work-looks", inspection)
    for (const [name, context] of [
      ["desktop", desktop],
      ["phone-dark", { ...phone, colorScheme: "dark" }],
      ["desktop-dark", { ...desktop, colorScheme: "dark" }]
    ] as const) {
      await onPage(
        "/work-looks",
        async ({ page, console }) => {
          await page.getByLabel("Reference (required)").fill("door 4")
          await page.getByRole("group", { name: "Repairs needed (required)" }).getByLabel("Yes").check()
          await fillValid(page)
          await page.getByLabel("Reference (required)").fill("door 4")
          await submit(page)
          await screenshot(page, name)
          expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
            context.viewport!.width
          )
          if (name.endsWith("dark"))
            expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe("rgb(13, 17, 23)")
          await expectReadable(page)
          expect(console).toEqual([])
        },
        context
      )
    }
  })

  it("a hostile schema's titles, descriptions and options are text, and its form still posts", async () => {
    const hostile = `<img src=x onerror=alert(1)>" onfocus="alert(2)`
    const schema = {
      type: "object",
      properties: {
        [hostile]: { type: "string", title: hostile, description: hostile },
        pick: { enum: [hostile, "plain"], title: `${hostile} pick` }
      },
      required: ["pick"]
    }
    serve("/work-hostile", schema)
    await onPage("/work-hostile", async ({ page, console }) => {
      expect(await page.locator("main img, [onfocus], [onerror]").count()).toBe(0)
      const text = page.getByRole("textbox", { name: hostile, exact: true })
      expect(await text.count()).toBe(1)
      await page.getByLabel("Summary").fill("Done.")
      await text.fill(hostile)
      await page
        .getByRole("group", { name: `${hostile} pick (required)` })
        .getByLabel(hostile)
        .check()
      await submit(page)
      expect(accepted.at(-1)?.fields).toEqual({ [hostile]: hostile, pick: hostile })
      expect(console).toEqual([])
    })
  })
})
