/**
 * Driving the embedded authorization server as its users do: an OAuth client (openid-client, a
 * certified relying-party library) registers itself and exchanges codes; a person signs in and
 * approves the app in a real browser (Chromium through playwright-core); the operator invites
 * them with the real command line.
 */
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import * as client from "openid-client"
import type { BrowserContext, Page } from "playwright-core"
import type { TestDatabase } from "./database.ts"
import { type OperatorRun, runOperator } from "./operator.ts"

/** `npm run -s operator -- <args>` as the operator runs it, against the test's database. */
export const operator = (database: TestDatabase, baseUrl: string, ...args: ReadonlyArray<string>) =>
  runOperator({ DATABASE_URL: database.url, PUBLIC_BASE_URL: baseUrl }, ...args)

/** The one-time link `participants invite|reset` printed (its first line). */
export const linkOf = (run: OperatorRun): string => {
  if (run.code !== 0) throw new Error(`the operator command failed: ${run.stderr}`)
  return run.stdout.split("\n", 1)[0]!
}

/**
 * The app's redirect URI: a loopback server (as a native app or an MCP host on the person's machine
 * listens, RFC 8252) that only says the browser is back at the app.
 */
const callbackServer = createServer((_request, response) => {
  response.writeHead(200, { "content-type": "text/plain" })
  response.end("back at the app")
})
await new Promise<void>((resolve) => callbackServer.listen(0, "127.0.0.1", resolve))
callbackServer.unref()
export const callbackUri = `http://127.0.0.1:${(callbackServer.address() as AddressInfo).port}/callback`

const insecure = { execute: [client.allowInsecureRequests] }

/** A public client (PKCE, no secret) registered dynamically, as an MCP host registers itself. */
export const registerClient = (issuer: string, metadata: Partial<client.ClientMetadata> = {}) =>
  client.dynamicClientRegistration(
    new URL(issuer),
    {
      client_name: "Test Assistant",
      redirect_uris: [callbackUri],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
      ...metadata
    },
    client.None(),
    insecure
  )

export interface Person {
  readonly email: string
  readonly password: string
}

export interface AuthorizeOptions {
  /** Sign in as this person when the sign-in page shows. */
  readonly person?: Person
  /** Allow (default) or deny when the consent page shows. */
  readonly consent?: "allow" | "deny"
  /** Called with each page the flow shows, to look at or screenshot. */
  readonly onPage?: (page: Page, step: "sign-in" | "consent") => Promise<void>
}

/**
 * Opens `url` in the browser context and goes through whatever pages come (sign in, consent) until
 * the browser is sent to the client's redirect URI; returns that URL (with `code` or `error`).
 */
export const authorize = async (context: BrowserContext, url: URL, options: AuthorizeOptions = {}) => {
  const page = await context.newPage()
  const back = () => (page.url().startsWith(callbackUri) ? page.url() : undefined)
  try {
    await page.goto(url.href)
    for (let step = 0; step < 4 && back() === undefined; step++) {
      if (await page.getByRole("button", { name: "Sign in" }).isVisible()) {
        await options.onPage?.(page, "sign-in")
        if (options.person === undefined) throw new Error("the sign-in page showed, and no person was given")
        await page.getByLabel("Email").fill(options.person.email)
        await page.getByLabel("Password", { exact: true }).fill(options.person.password)
        await Promise.all([page.waitForNavigation(), page.getByRole("button", { name: "Sign in" }).click()])
      } else if (await page.getByRole("button", { name: "Allow" }).isVisible()) {
        await options.onPage?.(page, "consent")
        const choice = options.consent === "deny" ? "Deny" : "Allow"
        await Promise.all([page.waitForNavigation(), page.getByRole("button", { name: choice }).click()])
      } else break
    }
    const reached = back()
    if (reached === undefined) {
      throw new Error(`the flow stopped at ${page.url()}: ${await page.locator("h1").textContent()}`)
    }
    return new URL(reached)
  } finally {
    await page.close()
  }
}

export const pkce = async () => {
  const verifier = client.randomPKCECodeVerifier()
  return { verifier, challenge: await client.calculatePKCECodeChallenge(verifier) }
}

export { client }

/**
 * A page's form posted as a forger would: once with a wrong CSRF token (from our own origin), once
 * with the page's own token from another site's origin. The caller checks both were refused.
 */
export const postForged = async (
  context: BrowserContext,
  action: string,
  form: Record<string, string>,
  csrf: string,
  origin: string
) => ({
  wrongToken: await context.request.post(action, {
    form: { ...form, csrf: "not-the-token" },
    headers: { origin },
    maxRedirects: 0
  }),
  otherSite: await context.request.post(action, {
    form: { ...form, csrf },
    headers: { origin: "https://attacker.example" },
    maxRedirects: 0
  })
})
