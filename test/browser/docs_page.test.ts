/**
 * The docs page in a real browser (headless Chromium, through playwright-core): its first screen
 * shows the API's title and the agent guidance (one Scalar app, no empty one before it), and every
 * anchor the API hands out — the index's `#agent-guidance`, `#authentication`, `#contact`, and the
 * `documentation_url` of every error code — opens at its own section; its Interfaces section shows
 * how to connect an MCP host.
 *
 * vitest.config.ts runs this file only where Chromium is installed (CHROMIUM_PATH, default
 * /usr/bin/chromium): elsewhere it leaves it out with a loud warning, and under CI=true a missing
 * Chromium fails the run.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { Browser, Locator, Page } from "playwright-core"
import { errorCodes } from "../../src/api/envelope.ts"
import { mcpToolNames } from "../../src/api/mcp.ts"
import { launchBrowser, screenshots } from "../support/browser.ts"
import { startServer, type TestServer } from "../support/server.ts"

let server: TestServer
let browser: Browser
beforeAll(async () => {
  server = await startServer()
  browser = await launchBrowser()
})
afterAll(async () => {
  await browser?.close()
  await server?.close()
})

const viewport = { width: 1280, height: 800 }

/**
 * What the page's Content-Security-Policy stopped, as the page was told (`securitypolicyviolation`)
 * and as Chromium logs it. One is expected and harmless: Scalar's bundled Zod probes whether
 * `new Function("")` runs (in a try/catch, once) and, refused, validates without compiling; the
 * page names no 'unsafe-eval' for it. Anything else is a part of the page the policy broke.
 */
const violationsOf = async (page: Page, logged: ReadonlyArray<string>) => {
  const reported = await page.evaluate(
    () => (window as unknown as { violations?: Array<{ directive: string; blocked: string }> }).violations ?? []
  )
  const probes = reported.filter(({ directive, blocked }) => directive === "script-src" && blocked === "eval")
  expect(probes.length).toBeLessThanOrEqual(1)
  return [...reported.filter((v) => !probes.includes(v)).map((v) => `${v.directive} ${v.blocked}`), ...logged]
}

/** A new page that records what the policy stops (see `violationsOf`) and what the console logs. */
const newPage = async () => {
  const page = await browser.newPage({ viewport })
  const logged: Array<string> = []
  page.on("console", (message) => {
    if (/Content.Security.Policy/i.test(message.text()) && !/'unsafe-eval'/.test(message.text())) {
      logged.push(message.text())
    }
  })
  await page.addInitScript(() => {
    const violations: Array<{ directive: string; blocked: string }> = []
    ;(window as unknown as { violations: typeof violations }).violations = violations
    document.addEventListener("securitypolicyviolation", (event) =>
      violations.push({ directive: event.effectiveDirective, blocked: event.blockedURI })
    )
  })
  return { page, violations: () => violationsOf(page, logged) }
}

const open = async (url: string): Promise<Page> => {
  const { page, violations } = await newPage()
  const errors: Array<string> = []
  page.on("pageerror", (error) => errors.push(error.message))
  await page.goto(url, { waitUntil: "load" })
  // Scalar renders the reference once its script has run.
  await page.locator(".scalar-api-reference h1").first().waitFor()
  expect(errors).toEqual([])
  expect(await violations()).toEqual([])
  return page
}

/** Whether the element is on the screen the reader sees (wholly inside the viewport). */
const onScreen = async (locator: Locator) => {
  const box = await locator.boundingBox()
  return box !== null && box.height > 0 && box.y >= 0 && box.y + box.height <= viewport.height
}

/** Waits until the element is on screen (the page scrolls to an anchor once Scalar rendered it). */
const landsOn = async (page: Page, selector: string) => {
  await expect.poll(() => onScreen(page.locator(selector)), { timeout: 10_000, interval: 100 }).toBe(true)
  // And it stays there: nothing Scalar does afterwards scrolls the reader away.
  await page.waitForTimeout(300)
  return onScreen(page.locator(selector))
}

const heading = (slug: string) => `h2[id$="/description/${slug}"]`
const errorItem = (code: string) => `li:has(> a[id="error-${code}"])`

describe("the docs page in a browser", () => {
  it("is Effect's Scalar page with the service's additions: English, an empty icon, one anchor script", async () => {
    const page = await browser.newPage({ viewport })
    try {
      await page.goto(`${server.url}/docs`, { waitUntil: "load" })
      await page.locator(".scalar-api-reference h1").first().waitFor()
      expect(await page.locator("html").getAttribute("lang")).toBe("en")
      // Headless Chromium asks for no icon at all; a browser with tabs would ask for /favicon.ico.
      expect(await page.locator('link[rel="icon"]').getAttribute("href")).toBe("data:,")
      const scripts = await page.locator("script").evaluateAll((all) => all.map((script) => script.textContent ?? ""))
      expect(scripts.filter((text) => text.includes('addEventListener("hashchange", follow)'))).toHaveLength(1)
    } finally {
      await page.close()
    }
  })

  it("opens on the API's title and the agent guidance, in one Scalar app", async () => {
    const page = await open(`${server.url}/docs`)
    try {
      await page.screenshot({ path: `${screenshots}docs-first-screen.png` })
      expect(await page.locator(".scalar-api-reference").count()).toBe(1)
      expect(await page.evaluate(() => scrollY)).toBe(0)
      expect(await page.locator(".scalar-api-reference h1").first().textContent()).toBe("Task Marketplace API")
      expect(await onScreen(page.locator(".scalar-api-reference h1").first())).toBe(true)
      expect(await page.locator(heading("agent-guidance")).textContent()).toBe("Agent guidance")
      expect(await onScreen(page.locator(heading("agent-guidance")))).toBe(true)
      // The guidance's first steps, not only its heading, are on the first screen.
      const firstStep = page.locator("li", { hasText: "GET /api/public/v1 (this index)" })
      expect(await firstStep.count()).toBe(1)
      expect(await onScreen(firstStep)).toBe(true)
    } finally {
      await page.close()
    }
  })

  it("works under its Content-Security-Policy, Test Request included, and cannot be framed", async () => {
    const { page, violations } = await newPage()
    try {
      const response = await page.goto(`${server.url}/docs`, { waitUntil: "load" })
      expect(response?.headers()["content-security-policy"]).toContain("frame-ancestors 'none'")
      expect(response?.headers()["x-frame-options"]).toBe("DENY")
      await page.locator(".scalar-api-reference h1").first().waitFor()
      // Scalar's API client calls the deployment (connect-src) and shows the answer.
      await page.locator("button", { hasText: "Test Request" }).first().click()
      await page.locator("button", { hasText: /^Send/ }).first().click()
      await page.getByText("200 OK").first().waitFor()
      await page.screenshot({ path: `${screenshots}docs-test-request.png` })
      expect(await violations()).toEqual([])

      // Another page that frames it gets Chromium's error page in the frame, nothing of the docs.
      const framing = await browser.newPage({ viewport })
      try {
        await framing.setContent(`<iframe src="${server.url}/docs" width="800" height="600"></iframe>`)
        const frame = framing.frames().find((f) => f !== framing.mainFrame())
        expect(frame?.url()).toMatch(/^chrome-error:/)
        expect(await frame?.locator("#api-reference-container").count()).toBe(0)
      } finally {
        await framing.close()
      }
    } finally {
      await page.close()
    }
  })

  it("is where GET / takes a browser", async () => {
    const page = await open(`${server.url}/`)
    try {
      expect(page.url()).toBe(`${server.url}/docs`)
    } finally {
      await page.close()
    }
  })

  for (const [anchor, slug, text] of [
    ["agent-guidance", "agent-guidance", "Agent guidance"],
    ["authentication", "authentication", "Authentication"],
    ["contact", "contact", "Contact"]
  ] as const) {
    it(`opens #${anchor} (named by the service index) at its section`, async () => {
      const index = await (await fetch(server.api(""))).json()
      const named = [index.agent_guidance, index.authentication.documentation, index.contact]
      expect(named).toContain(`${server.url}/docs#${anchor}`)
      const page = await open(`${server.url}/docs#${anchor}`)
      try {
        expect(await landsOn(page, heading(slug))).toBe(true)
        expect(await page.locator(heading(slug)).textContent()).toBe(text)
      } finally {
        await page.close()
      }
    })
  }

  it("shows an agent how to connect an MCP host, in its Interfaces section", async () => {
    const page = await open(`${server.url}/docs#interfaces`)
    try {
      expect(await landsOn(page, heading("interfaces"))).toBe(true)
      await page.screenshot({ path: `${screenshots}docs-interfaces.png` })
      // The host configuration, as a code block a developer can copy.
      const config = page.locator("pre", { hasText: '"mcpServers"' })
      expect(await config.count()).toBe(1)
      expect(await config.textContent()).toContain("/mcp")
      // All of it in sight: nothing scrolls out of the column sideways.
      expect(await config.evaluate((pre) => pre.scrollWidth <= pre.clientWidth)).toBe(true)
      for (const tool of mcpToolNames) expect(await page.locator("code", { hasText: tool }).count()).toBeGreaterThan(0)
      expect(await page.locator("code", { hasText: "npx @modelcontextprotocol/inspector" }).count()).toBe(1)
    } finally {
      await page.close()
    }
  })

  it("opens an error's documentation_url at that error, marked", async () => {
    const answer = await (await fetch(server.api("/tasks/no-such-task"))).json()
    expect(answer.error.documentation_url).toBe(`${server.url}/docs#error-task_not_found`)
    const page = await open(answer.error.documentation_url)
    try {
      expect(await landsOn(page, errorItem("task_not_found"))).toBe(true)
      await page.screenshot({ path: `${screenshots}docs-error-anchor.png` })
      expect(await page.locator(errorItem("task_not_found")).textContent()).toBe(
        `task_not_found (404): ${errorCodes.task_not_found.meaning}`
      )
      expect(await page.locator(".anchor-target").count()).toBe(1)
      expect(await page.locator(`.anchor-target > a[id="error-task_not_found"]`).count()).toBe(1)
    } finally {
      await page.close()
    }
  })

  // One page, every code in turn: up to 60 s, where a slow machine may need more than the default 30.
  it("has a section at the documentation_url of every error code the service emits", async () => {
    const page = await open(`${server.url}/docs`)
    try {
      for (const [code, { status }] of Object.entries(errorCodes)) {
        // Following a link on the page: the hash changes without a new load.
        await page.evaluate((hash) => {
          location.hash = hash
        }, `error-${code}`)
        expect(await landsOn(page, errorItem(code)), code).toBe(true)
        expect(await page.locator(errorItem(code)).textContent()).toContain(`${code} (${status})`)
        expect(await page.locator(`.anchor-target > a[id="error-${code}"]`).count(), code).toBe(1)
        expect(await page.locator(".anchor-target").count(), code).toBe(1)
      }
    } finally {
      await page.close()
    }
  }, 60_000)
})

describe("the docs page without JavaScript", () => {
  /** A phone-sized page of a browser that runs no script. */
  const openWithoutScripts = async (url: string) => {
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 390, height: 844 } })
    const page = await context.newPage()
    await page.goto(url)
    return { page, close: () => context.close() }
  }

  it("shows the guidance and every endpoint as plain text, and the API's anchors land on their sections", async () => {
    const { page, close } = await openWithoutScripts(`${server.url}/docs#error-task_not_found`)
    try {
      await page.screenshot({ path: `${screenshots}docs-without-javascript-error.png` })
      expect(await page.locator("main.fallback h1").textContent()).toContain("Task Marketplace")
      for (const anchor of ["agent-guidance", "authentication", "contact"]) {
        expect(await page.locator(`main.fallback [id="${anchor}"]`).count(), anchor).toBe(1)
      }
      const guidance = await page.locator("main.fallback").textContent()
      expect(guidance).toContain("Validate it with POST /api/public/v1/preflight")
      for (const code of Object.keys(errorCodes)) {
        expect(await page.locator(`main.fallback a[id="error-${code}"]`).count(), code).toBe(1)
      }
      const document = await (await fetch(`${server.url}/openapi.json`)).json()
      const endpoints = await page.locator("main.fallback .endpoints > li").allTextContents()
      let operations = 0
      for (const [path, item] of Object.entries(document.paths as Record<string, Record<string, unknown>>)) {
        for (const method of Object.keys(item).filter((key) => key !== "parameters")) {
          operations++
          expect(
            endpoints.some((text) => text.startsWith(`${method.toUpperCase()} ${path}`)),
            `${method} ${path}`
          ).toBe(true)
        }
      }
      expect(endpoints).toHaveLength(operations)
      // The fragment's target is scrolled into view by the browser alone.
      const box = await page.locator(`main.fallback a[id="error-task_not_found"]`).boundingBox()
      expect(box?.y).toBeGreaterThanOrEqual(0)
      expect(box?.y).toBeLessThan(844)
      await page.goto(`${server.url}/docs`)
      await page.screenshot({ path: `${screenshots}docs-without-javascript.png` })
    } finally {
      await close()
    }
  })

  it("is not shown where JavaScript runs: one reference, Scalar's", async () => {
    const page = await open(`${server.url}/docs`)
    try {
      expect(await page.locator("main.fallback").count()).toBe(0)
    } finally {
      await page.close()
    }
  })
})
