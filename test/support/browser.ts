/**
 * The machine's Chromium (CHROMIUM_PATH, default /usr/bin/chromium: Debian's package, since test
 * tools' own browser downloads cannot be fetched here), driven through playwright-core.
 * vitest.config.ts runs the browser tests only where it is installed, and under CI=true requires it.
 */
import { mkdirSync } from "node:fs"
import { type Browser, chromium } from "playwright-core"

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
