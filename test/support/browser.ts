/**
 * The machine's Chromium (CHROMIUM_PATH, default /usr/bin/chromium: Debian's package, since test
 * tools' own browser downloads cannot be fetched here), driven through playwright-core.
 * vitest.config.ts runs the browser tests only where it is installed, and under CI=true requires it.
 */
import { mkdirSync } from "node:fs"
import { type Browser, type BrowserContextOptions, chromium } from "playwright-core"

/** Screenshots of what the tests saw, for a person to look at (not compared). */
export const screenshots = new URL("../../.cache/screenshots/", import.meta.url).pathname

/** A headless Chromium with nothing of its own running in the background. */
export const launchBrowser = (): Promise<Browser> => {
  mkdirSync(screenshots, { recursive: true })
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync"
    ]
  })
}

/** A phone of `width` × `height` CSS pixels (touch, a 2× screen). */
export const phoneAt = (width: number, height: number): BrowserContextOptions => ({
  viewport: { width, height },
  deviceScaleFactor: 2,
  isMobile: true,
  hasTouch: true
})

/** The phone the pages are looked at on, and a desktop. */
export const phone = phoneAt(390, 844)
export const desktop: BrowserContextOptions = { viewport: { width: 1280, height: 900 } }
