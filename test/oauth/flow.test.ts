/**
 * The embedded authorization server end to end, as its users meet it (on both backends): the
 * operator invites a participant; the person chooses a password in a real browser; an app
 * discovers the server, registers itself, sends the person through sign-in and consent, and
 * exchanges the code (PKCE) with a certified client library; the access token opens `/me`;
 * refresh tokens rotate. And every refusal the issue names, with nothing changed by it.
 */
import { request as httpRequest } from "node:http"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js"
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import type { OAuthClientInformationMixed, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js"
import type { Browser } from "playwright-core"
import { exchange } from "../support/api_client.ts"
import { launchBrowser, screenshots } from "../support/browser.ts"
import { movableClock } from "../support/clock.ts"
import { freshDatabase, type TestDatabase } from "../support/database.ts"
import {
  authorize,
  callbackUri,
  client,
  linkOf,
  operator,
  type Person,
  pkce,
  postForged,
  registerClient
} from "../support/oauth.ts"
import { startServer, type TestServer } from "../support/server.ts"

// biome-ignore lint/suspicious/noExplicitAny: JSON bodies are inspected member by member.
type Json = any

let database: TestDatabase
let server: TestServer
let shortLived: TestServer
let twin: TestServer
let browser: Browser
/** The clocks of `server` and `shortLived` (support/clock.ts), moved past a key check and an expiry. */
const serverClock = movableClock()
const shortLivedClock = movableClock()
let issuer: string
let api: string
let mcp: string

const lukas: Person = { email: "Lukas.Schmidt@example.com", password: "a long and quiet river" }
const emily: Person = { email: "emily@example.com", password: "twelve chars at least" }

/** Chooses a password on the page an invitation link opens. */
const choosePassword = async (link: string, password: string, confirm = password) => {
  const context = await browser.newContext({ javaScriptEnabled: false })
  const page = await context.newPage()
  try {
    await page.goto(link)
    await page.getByLabel("Password", { exact: true }).fill(password)
    await page.getByLabel("Confirm password").fill(confirm)
    await Promise.all([page.waitForNavigation(), page.getByRole("button", { name: "Save password" }).click()])
    return { heading: await page.locator("h1").textContent(), page, close: () => context.close() }
  } catch (error) {
    await context.close()
    throw error
  }
}

beforeAll(async () => {
  database = await freshDatabase()
  server = await startServer({ database, clock: serverClock.layer })
  // A second process on the same database whose access tokens last one second.
  shortLived = await startServer({
    database,
    settings: { oauthAccessTokenTtlMs: 1000 },
    clock: shortLivedClock.layer
  })
  // Another process of the same service (same public address), on another port.
  twin = await startServer({
    database,
    settings: {
      publicBaseUrl: server.url,
      oauthAudience: `${server.url}/api/public/v1`,
      mcpUrl: `${server.url}/mcp`,
      docsUrl: `${server.url}/docs`
    }
  })
  issuer = `${server.url}/oauth`
  api = `${server.url}/api/public/v1`
  mcp = `${server.url}/mcp/participant`
  browser = await launchBrowser()
  for (const [slug, person] of [
    ["lukas-schmidt", lukas],
    ["emily-hart", emily]
  ] as const) {
    const link = linkOf(await operator(database, server.url, "participants", "invite", slug, "--email", person.email))
    const chosen = await choosePassword(link, person.password)
    expect(chosen.heading).toBe("Your password is saved")
    await chosen.close()
  }
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await twin?.close()
  await shortLived?.close()
  await server?.close()
  await database?.drop()
})

describe("discovery", () => {
  it("publishes its metadata at the RFC 8414 and OpenID addresses, naming its own endpoints", async () => {
    for (const path of [
      "/.well-known/oauth-authorization-server/oauth",
      "/.well-known/openid-configuration/oauth",
      "/oauth/.well-known/openid-configuration",
      "/oauth/.well-known/oauth-authorization-server"
    ]) {
      const response = await fetch(`${server.url}${path}`)
      expect(response.status, path).toBe(200)
      const metadata: Json = await response.json()
      expect(metadata.issuer).toBe(issuer)
      expect(metadata.authorization_endpoint).toBe(`${issuer}/auth`)
      expect(metadata.token_endpoint).toBe(`${issuer}/token`)
      expect(metadata.registration_endpoint).toBe(`${issuer}/reg`)
      expect(metadata.jwks_uri).toBe(`${issuer}/jwks`)
      expect(metadata.code_challenge_methods_supported).toEqual(["S256"])
      expect(metadata.response_types_supported).toEqual(["code"])
      expect(metadata.scopes_supported).toEqual(expect.arrayContaining(["openid", "email", "profile"]))
    }
  })

  it("never takes its addresses from the request's Host header", async () => {
    const body = await new Promise<string>((resolve, reject) => {
      const request = httpRequest(
        `${server.url}/.well-known/oauth-authorization-server/oauth`,
        { headers: { host: "evil.example", "x-forwarded-host": "evil.example", "x-forwarded-proto": "https" } },
        (response) => {
          let text = ""
          response.on("data", (chunk) => {
            text += chunk
          })
          response.on("end", () => resolve(text))
        }
      )
      request.on("error", reject)
      request.end()
    })
    expect(body).not.toContain("evil.example")
    expect(JSON.parse(body).token_endpoint).toBe(`${issuer}/token`)
  })

  it("with an external issuer (OAUTH_ISSUER) nothing is served under /oauth, and the index names that issuer", async () => {
    const external = await startServer({ settings: { oauthIssuer: "https://auth.example.com/tenant" } })
    try {
      for (const path of [
        "/oauth/auth",
        "/oauth/.well-known/openid-configuration",
        "/.well-known/oauth-authorization-server/oauth"
      ]) {
        const response = await fetch(`${external.url}${path}`)
        expect(response.status, path).toBe(404)
        expect(((await response.json()) as Json).error.code).toBe("not_found")
      }
      const index: Json = await (await exchange(external, (c) => c.index())).json()
      expect(index.authentication.authorization_server).toEqual({
        issuer: "https://auth.example.com/tenant",
        embedded: false,
        metadata: "https://auth.example.com/.well-known/oauth-authorization-server/tenant",
        scopes: ["openid", "email", "profile"],
        code_challenge_methods: ["S256"],
        grant_types: ["authorization_code", "refresh_token"]
      })
    } finally {
      await external.close()
    }
  })

  it("the service index names the embedded server's endpoints", async () => {
    const index: Json = await (await exchange(server, (c) => c.index())).json()
    expect(index.authentication.authorization_server).toMatchObject({
      issuer,
      embedded: true,
      metadata: `${server.url}/.well-known/oauth-authorization-server/oauth`,
      authorization_endpoint: `${issuer}/auth`,
      token_endpoint: `${issuer}/token`,
      registration_endpoint: `${issuer}/reg`
    })
  })

  it("the protected-resource metadata names the embedded issuer", async () => {
    const metadata: Json = await (await exchange(server, (c) => c.protectedResource())).json()
    expect(metadata.authorization_servers).toEqual([issuer])
  })
})

describe("the whole flow", () => {
  it("registration, PKCE, sign-in, consent, code exchange, /me with the token, refresh rotation", async () => {
    const config = await registerClient(issuer)
    const { verifier, challenge } = await pkce()
    const state = client.randomState()
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } })
    const back = await authorize(context, authorizationUrl(config, challenge, { state }), {
      person: lukas,
      onPage: async (page, step) => {
        await page.screenshot({ path: `${screenshots}oauth-flow-${step}.png`, fullPage: true })
      }
    })
    // RFC 9207: the authorization response names its issuer (openid-client checks it too).
    expect(back.searchParams.get("iss")).toBe(issuer)
    const tokens = await client.authorizationCodeGrant(
      config,
      back,
      { pkceCodeVerifier: verifier, expectedState: state },
      { resource: api }
    )
    // The session's cookies: HttpOnly, SameSite=Lax (Secure only behind an https base URL).
    const cookies = await context.cookies(server.url)
    expect(cookies.map((cookie) => cookie.name)).toEqual(expect.arrayContaining(["_session"]))
    for (const cookie of cookies) {
      expect(cookie.httpOnly, cookie.name).toBe(true)
      expect(cookie.sameSite, cookie.name).toBe("Lax")
    }
    expect(tokens.token_type.toLowerCase()).toBe("bearer")
    expect(tokens.expires_in).toBeLessThanOrEqual(600)
    expect(tokens.refresh_token).toBeTypeOf("string")
    const [header, payload] = tokens.access_token
      .split(".")
      .slice(0, 2)
      .map((part) => JSON.parse(Buffer.from(part, "base64url").toString()))
    expect(header.typ).toBe("at+jwt")
    expect(payload.aud).toBe(api)
    expect(payload.iss).toBe(issuer)
    expect(tokens.claims()?.email).toBe(lukas.email)

    const me = await exchange(server, (c) => c.me(), { token: tokens.access_token })
    expect(me.status).toBe(200)
    const account: Json = await me.json()
    expect(account.participant.slug).toBe("lukas-schmidt")
    // The other process sharing the database accepts it too.
    const elsewhere = await exchange(twin, (c) => c.me(), { token: tokens.access_token })
    expect(elsewhere.status).toBe(200)

    // Refresh: a new refresh token each time; the old one, used again, revokes the grant.
    const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token!, { resource: api })
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token)
    expect((await exchange(server, (c) => c.me(), { token: refreshed.access_token })).status).toBe(200)
    await expect(client.refreshTokenGrant(config, tokens.refresh_token!, { resource: api })).rejects.toMatchObject({
      error: "invalid_grant"
    })
    await expect(client.refreshTokenGrant(config, refreshed.refresh_token!, { resource: api })).rejects.toMatchObject({
      error: "invalid_grant"
    })

    // Consent is remembered for this app: a second authorization needs no page at all. (The reuse
    // above revoked the grant; one more consent makes a new one.)
    const again = await pkce()
    await authorize(context, authorizationUrl(config, again.challenge))
    const pages: Array<string> = []
    const second = await authorize(context, authorizationUrl(config, again.challenge), {
      onPage: async (_page, step) => void pages.push(step)
    })
    expect(pages).toEqual([])
    expect(second.searchParams.get("code")).toBeTypeOf("string")
    await context.close()

    // …and across sessions: signed in again in a new browser, the person is not asked again.
    const fresh = await browser.newContext()
    const steps: Array<string> = []
    const third = await authorize(fresh, authorizationUrl(config, again.challenge), {
      person: lukas,
      onPage: async (_page, step) => void steps.push(step)
    })
    expect(steps).toEqual(["sign-in"])
    expect(third.searchParams.get("code")).toBeTypeOf("string")

    // Signing out: a page asks; the button ends the session and the grants it gave, so the next
    // authorization asks to sign in and to allow the app again.
    const page = await fresh.newPage()
    await page.goto(`${issuer}/session/end`)
    await page.screenshot({ path: `${screenshots}oauth-flow-sign-out.png` })
    await Promise.all([page.waitForNavigation(), page.getByRole("button", { name: "Sign out" }).click()])
    expect(await page.locator("h1").textContent()).toBe("You are signed out")
    await page.close()
    const afterSignOut: Array<string> = []
    await authorize(fresh, authorizationUrl(config, again.challenge), {
      person: lukas,
      onPage: async (_page, step) => void afterSignOut.push(step)
    })
    expect(afterSignOut).toEqual(["sign-in", "consent"])
    await fresh.close()
  })

  it("a denied consent sends the app access_denied and issues nothing", async () => {
    const config = await registerClient(issuer, { client_name: "Nosy App" })
    const { challenge } = await pkce()
    const context = await browser.newContext()
    const back = await authorize(context, authorizationUrl(config, challenge, { scope: "openid email" }), {
      person: lukas,
      consent: "deny"
    })
    expect(back.searchParams.get("error")).toBe("access_denied")
    expect(back.searchParams.get("code")).toBeNull()
    await context.close()
  })
})

describe("response_mode=form_post", () => {
  it("the page posts the code to the app at once, under a policy that allows that script and that form alone", async () => {
    const config = await registerClient(issuer, { client_name: "Form Post App" })
    const context = await browser.newContext()
    // Consent first (query mode), so that the form_post authorization shows no page of ours.
    await authorize(context, authorizationUrl(config, (await pkce()).challenge), { person: lukas })

    const violations: Array<string> = []
    context.on("console", (message) => {
      if (/Content.Security.Policy/i.test(message.text())) violations.push(message.text())
    })
    await context.addInitScript(() =>
      document.addEventListener("securitypolicyviolation", (event) =>
        console.error(`Content-Security-Policy violation: ${event.effectiveDirective} ${event.blockedURI}`)
      )
    )
    const formPostPages: Array<Record<string, string>> = []
    context.on("response", (response) => {
      if (response.url().startsWith(`${issuer}/auth`) && response.status() === 200) {
        formPostPages.push(response.headers())
      }
    })
    const posted: Array<string> = []
    context.on("request", (request) => {
      if (request.url() === callbackUri && request.method() === "POST") posted.push(request.postData() ?? "")
    })

    const { verifier, challenge } = await pkce()
    const state = client.randomState()
    const url = authorizationUrl(config, challenge, { state })
    url.searchParams.set("response_mode", "form_post")
    const page = await context.newPage()
    await page.goto(url.href)
    await page.waitForURL(callbackUri)
    await page.close()
    await context.close()

    expect(formPostPages).toHaveLength(1)
    const headers = formPostPages[0]!
    expect(headers["content-type"]).toBe("text/html; charset=utf-8")
    expect(headers["x-frame-options"]).toBe("DENY")
    expect(headers["cache-control"]).toBe("no-store")
    const policy = headers["content-security-policy"]!.split("; ")
    expect(policy).toContain("default-src 'none'")
    expect(policy).toContain("frame-ancestors 'none'")
    expect(policy).toContain(`form-action 'self' ${new URL(callbackUri).origin}`)
    expect(policy.find((d) => d.startsWith("script-src"))).toMatch(/^script-src 'sha256-[A-Za-z0-9+/]{43}='$/)
    expect(violations).toEqual([])

    // The app got the code and the state in the post, and the code is good.
    expect(posted).toHaveLength(1)
    const form = new URLSearchParams(posted[0])
    expect(form.get("state")).toBe(state)
    const exchanged = await tokenRequest(config, {
      grant_type: "authorization_code",
      code: form.get("code")!,
      redirect_uri: callbackUri,
      code_verifier: verifier,
      resource: api
    })
    expect(exchanged.status).toBe(200)
    expect((await exchanged.json()).access_token).toBeTypeOf("string")
  })
})

/** An authorization request with PKCE (S256) to the callback, for `resource` (the REST API by default). */
const authorizationUrl = (
  config: client.Configuration,
  codeChallenge: string,
  options: { scope?: string; resource?: string; state?: string } = {}
) =>
  client.buildAuthorizationUrl(config, {
    redirect_uri: callbackUri,
    scope: options.scope ?? "openid email profile",
    code_challenge: codeChallenge,
    code_challenge_method: "S256",
    resource: options.resource ?? api,
    ...(options.state === undefined ? {} : { state: options.state })
  })

/** A signed-in browser and a registered client, for the refusals. */
const signedIn = async () => {
  const config = await registerClient(issuer)
  const context = await browser.newContext()
  const codeFor = async (resource = api) => {
    const { verifier, challenge } = await pkce()
    const back = await authorize(
      context,
      client.buildAuthorizationUrl(config, {
        redirect_uri: callbackUri,
        scope: "openid email profile",
        code_challenge: challenge,
        code_challenge_method: "S256",
        resource
      }),
      { person: lukas }
    )
    return { back, verifier }
  }
  return { config, context, codeFor }
}

const tokenRequest = (config: client.Configuration, body: Record<string, string>) =>
  fetch(`${issuer}/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ client_id: config.clientMetadata().client_id, ...body })
  })

describe("an MCP host (the official SDK's client and its OAuth support)", () => {
  /** What an MCP host keeps for one server: its registration, tokens and PKCE verifier. */
  const hostStorage = () => {
    let information: OAuthClientInformationMixed | undefined
    let saved: OAuthTokens | undefined
    let verifier = ""
    let authorizationUrl: URL | undefined
    const provider: OAuthClientProvider = {
      redirectUrl: callbackUri,
      clientMetadata: {
        client_name: "Test MCP Host",
        redirect_uris: [callbackUri],
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
        token_endpoint_auth_method: "none"
      },
      clientInformation: () => information,
      saveClientInformation: (value) => {
        information = value
      },
      tokens: () => saved,
      saveTokens: (value) => {
        saved = value
      },
      redirectToAuthorization: (url) => {
        authorizationUrl = url
      },
      saveCodeVerifier: (value) => {
        verifier = value
      },
      codeVerifier: () => verifier
    }
    return { provider, tokens: () => saved, authorizationUrl: () => authorizationUrl }
  }

  it("starts from a 401, discovers, registers, signs the person in and calls my_tasks with the token", async () => {
    const bare = await fetch(mcp, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: {} })
    })
    expect(bare.status).toBe(401)
    expect(bare.headers.get("www-authenticate")).toBe(
      `Bearer resource_metadata="${server.url}/.well-known/oauth-protected-resource/mcp/participant"`
    )

    const host = hostStorage()
    const connect = () => {
      const transport = new StreamableHTTPClientTransport(new URL(mcp), { authProvider: host.provider })
      return { transport, mcpClient: new Client({ name: "test-host", version: "1.0.0" }) }
    }
    const first = connect()
    await expect(first.mcpClient.connect(first.transport)).rejects.toBeInstanceOf(UnauthorizedError)
    const authorizationUrl = host.authorizationUrl()!
    expect(authorizationUrl.origin + authorizationUrl.pathname).toBe(`${issuer}/auth`)
    expect(authorizationUrl.searchParams.get("resource")).toBe(mcp)
    expect(authorizationUrl.searchParams.get("code_challenge_method")).toBe("S256")

    const context = await browser.newContext()
    const back = await authorize(context, authorizationUrl, { person: lukas })
    await context.close()
    await first.transport.finishAuth(back.searchParams.get("code")!)
    const tokens = host.tokens()!
    expect(tokens.refresh_token).toBeTypeOf("string")

    const second = connect()
    await second.mcpClient.connect(second.transport)
    const mine = await second.mcpClient.callTool({ name: "my_tasks", arguments: {} })
    const rest = await exchange(server, (c) => c.myTasks(), { token: await restToken() })
    expect(mine.isError).toBeFalsy()
    expect(mine.structuredContent).toEqual(await rest.json())
    const me = await second.mcpClient.callTool({ name: "who_am_i", arguments: {} })
    expect((me.structuredContent as Json).participant.slug).toBe("lukas-schmidt")
    await second.mcpClient.close()

    // The MCP token is for the MCP endpoint only.
    const onRest = await exchange(server, (c) => c.me(), { token: tokens.access_token })
    expect(onRest.status).toBe(401)
  })
})

/** A fresh access token for the REST API, as lukas, through the whole flow. */
const restToken = async () => {
  const config = await registerClient(issuer)
  const context = await browser.newContext()
  const { verifier, challenge } = await pkce()
  const back = await authorize(context, authorizationUrl(config, challenge, { scope: "openid" }), { person: lukas })
  await context.close()
  return (await client.authorizationCodeGrant(config, back, { pkceCodeVerifier: verifier }, { resource: api }))
    .access_token
}

describe("key rotation", () => {
  it("after `keys rotate` new tokens are signed by the new key, and tokens of the old one still verify", async () => {
    const kidOf = (token: string) => JSON.parse(Buffer.from(token.split(".")[0]!, "base64url").toString()).kid
    const before = await restToken()
    const rotated = await operator(database, server.url, "keys", "rotate")
    expect(rotated.code).toBe(0)
    // Each process reads the keys again within five seconds (of its clock).
    serverClock.advance(5000)
    const after = await restToken()
    expect(kidOf(after)).not.toBe(kidOf(before))
    const jwks: Json = await (await fetch(`${issuer}/jwks`)).json()
    expect(jwks.keys.map((key: Json) => key.kid)).toEqual(expect.arrayContaining([kidOf(before), kidOf(after)]))
    for (const token of [before, after]) {
      for (const process of [server, twin]) {
        const me = await exchange(process, (c) => c.me(), { token })
        expect(me.status).toBe(200)
      }
    }
  }, 30_000)
})

describe("refusals", () => {
  it("registration is limited per client address, with Retry-After", async () => {
    const limited = await startServer({ settings: { oauthRegistrationsPerHour: 2 } })
    try {
      const register = () =>
        fetch(`${limited.url}/oauth/reg`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ redirect_uris: [callbackUri], token_endpoint_auth_method: "none" })
        })
      expect((await register()).status).toBe(201)
      expect((await register()).status).toBe(201)
      const third = await register()
      expect(third.status).toBe(429)
      expect(Number(third.headers.get("retry-after"))).toBeGreaterThan(0)
      expect(((await third.json()) as Json).error).toBe("too_many_requests")
    } finally {
      await limited.close()
    }
  })

  it("a Client ID Metadata Document is never fetched from an address inside the network", async () => {
    const page = await browser.newPage()
    const { challenge } = await pkce()
    const query = new URLSearchParams({
      client_id: "https://127.0.0.1/client.json",
      redirect_uri: callbackUri,
      response_type: "code",
      scope: "openid",
      code_challenge: challenge,
      code_challenge_method: "S256"
    })
    const response = await page.goto(`${issuer}/auth?${query}`)
    expect(response?.status()).toBe(400)
    expect(await page.locator("h1").textContent()).toBe("This app is not known here")
    await page.close()
  })

  it("an address under /oauth that nothing serves is a page for a browser and JSON for a client", async () => {
    const json = await fetch(`${issuer}/nowhere`)
    expect(json.status).toBe(404)
    expect(((await json.json()) as Json).error).toBe("not_found")
    const page = await browser.newPage()
    const response = await page.goto(`${issuer}/nowhere`)
    expect(response?.status()).toBe(404)
    expect(response?.headers()["content-security-policy"]).toContain("frame-ancestors 'none'")
    expect(await page.locator("h1").textContent()).toBe("Page not found")
    await page.close()
  })

  it("an authorization request without PKCE, or with plain PKCE, is refused", async () => {
    const { config, context } = await signedIn()
    const base = { redirect_uri: callbackUri, scope: "openid", resource: api }
    const none = await authorize(context, client.buildAuthorizationUrl(config, base), { person: lukas })
    expect(none.searchParams.get("error")).toBe("invalid_request")
    expect(none.searchParams.get("code")).toBeNull()
    const plain = await authorize(
      context,
      client.buildAuthorizationUrl(config, { ...base, code_challenge: "a".repeat(43), code_challenge_method: "plain" }),
      { person: lukas }
    )
    expect(plain.searchParams.get("error")).toBe("invalid_request")
    expect(plain.searchParams.get("code")).toBeNull()
    await context.close()
  })

  it("a redirect URI the client never registered gets a page, and no redirect", async () => {
    const config = await registerClient(issuer)
    const { challenge } = await pkce()
    const page = await browser.newPage()
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: "https://attacker.example/steal",
      scope: "openid",
      code_challenge: challenge,
      code_challenge_method: "S256"
    })
    const response = await page.goto(url.href)
    expect(response?.status()).toBe(400)
    expect(page.url()).toBe(url.href)
    expect(await page.locator("h1").textContent()).toBe("This app's return address is not allowed")
    await page.screenshot({ path: `${screenshots}oauth-flow-bad-redirect.png` })
    await page.close()
  })

  it("a code is redeemed once: reused it is refused; of 10 concurrent redemptions exactly one wins", async () => {
    const { config, context, codeFor } = await signedIn()
    const first = await codeFor()
    const code = first.back.searchParams.get("code")!
    const exchange = {
      grant_type: "authorization_code",
      code,
      redirect_uri: callbackUri,
      code_verifier: first.verifier
    }
    expect((await tokenRequest(config, exchange)).status).toBe(200)
    const reused = await tokenRequest(config, exchange)
    expect(reused.status).toBe(400)
    expect(((await reused.json()) as Json).error).toBe("invalid_grant")

    const race = await codeFor()
    const racing = {
      grant_type: "authorization_code",
      code: race.back.searchParams.get("code")!,
      redirect_uri: callbackUri,
      code_verifier: race.verifier
    }
    const answers = await Promise.all(Array.from({ length: 10 }, () => tokenRequest(config, racing)))
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, ...Array(9).fill(400)])
    await context.close()
  })

  it("a wrong code verifier is refused", async () => {
    const { config, context, codeFor } = await signedIn()
    const { back } = await codeFor()
    const wrong = await tokenRequest(config, {
      grant_type: "authorization_code",
      code: back.searchParams.get("code")!,
      redirect_uri: callbackUri,
      code_verifier: (await pkce()).verifier
    })
    expect(wrong.status).toBe(400)
    expect(((await wrong.json()) as Json).error).toBe("invalid_grant")
    await context.close()
  })

  it("a token for the other resource is refused, and an unknown resource is not granted", async () => {
    const { config, context, codeFor } = await signedIn()
    const { back, verifier } = await codeFor(mcp)
    const tokens = await client.authorizationCodeGrant(config, back, { pkceCodeVerifier: verifier }, { resource: mcp })
    const me = await exchange(server, (c) => c.me(), { token: tokens.access_token })
    expect(me.status).toBe(401)
    expect(((await me.json()) as Json).error.code).toBe("unauthorized")

    const { challenge } = await pkce()
    const unknown = await authorize(
      context,
      authorizationUrl(config, challenge, { scope: "openid", resource: "https://elsewhere.example/api" })
    )
    expect(unknown.searchParams.get("error")).toBe("invalid_target")
    await context.close()
  })

  it("an expired access token is refused", async () => {
    const config = await registerClient(`${shortLived.url}/oauth`)
    const context = await browser.newContext()
    const { verifier, challenge } = await pkce()
    const back = await authorize(
      context,
      authorizationUrl(config, challenge, { scope: "openid", resource: `${shortLived.url}/api/public/v1` }),
      { person: lukas }
    )
    const tokens = await client.authorizationCodeGrant(
      config,
      back,
      { pkceCodeVerifier: verifier },
      { resource: `${shortLived.url}/api/public/v1` }
    )
    expect(tokens.expires_in).toBe(1)
    const me = () => exchange(shortLived, (c) => c.me(), { token: tokens.access_token })
    expect((await me()).status).toBe(200)
    // One second of life, and the five seconds of clock skew every verifier allows.
    shortLivedClock.advance(6500)
    const expired = await me()
    expect(expired.status).toBe(401)
    await context.close()
  }, 30_000)

  it("a sign-in form with a wrong CSRF token, or posted from another site, is refused and changes nothing", async () => {
    const config = await registerClient(issuer)
    const context = await browser.newContext()
    const page = await context.newPage()
    const { challenge } = await pkce()
    await page.goto(authorizationUrl(config, challenge).href)
    const action = new URL((await page.locator("form").getAttribute("action"))!, server.url).href
    const csrf = (await page.locator('input[name="csrf"]').getAttribute("value"))!
    const form = { email: lukas.email, password: lukas.password }
    const { wrongToken, otherSite } = await postForged(context, action, form, csrf, server.url)
    expect(wrongToken.status()).toBe(403)
    expect(otherSite.status()).toBe(403)
    expect(await otherSite.text()).toContain("This form cannot be sent from here")
    // Nothing was signed in: the page's own form still asks, and then goes on.
    await page.reload()
    expect(await page.getByRole("button", { name: "Sign in" }).isVisible()).toBe(true)
    await page.close()
    const back = await authorize(context, authorizationUrl(config, (await pkce()).challenge), { person: lukas })
    expect(back.searchParams.get("code")).toBeTypeOf("string")
    await context.close()
  })

  it("passwords that do not match are refused and the link stays usable; an oversized form is a 413 page", async () => {
    const link = linkOf(
      await operator(database, server.url, "participants", "invite", "ahmed-hassan", "--email", "ahmed@example.com")
    )
    const mismatch = await choosePassword(link, "the first long password", "another long password")
    expect(await mismatch.page.getByRole("alert").textContent()).toContain("do not match")
    await mismatch.close()
    const chosen = await choosePassword(link, "the first long password")
    expect(chosen.heading).toBe("Your password is saved")
    await chosen.close()
    const oversized = await fetch(`${issuer}/password`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "text/html" },
      body: `token=x&password=${"a".repeat(20_000)}`
    })
    expect(oversized.status).toBe(413)
    expect(await oversized.text()).toContain("This form is too large")
  })

  it("an invitation link works once", async () => {
    const link = linkOf(
      await operator(database, server.url, "participants", "invite", "aisha-bello", "--email", "aisha@example.com")
    )
    const opened = await fetch(link, { headers: { accept: "text/html" } })
    expect(opened.headers.get("content-security-policy")).toContain("frame-ancestors 'none'")
    expect(opened.headers.get("x-frame-options")).toBe("DENY")
    expect(opened.headers.get("referrer-policy")).toBe("no-referrer")
    expect(opened.headers.get("cache-control")).toBe("no-store")
    const chosen = await choosePassword(link, "first choice of words")
    expect(chosen.heading).toBe("Your password is saved")
    await chosen.close()
    const context = await browser.newContext()
    const page = await context.newPage()
    const response = await page.goto(link)
    expect(response?.status()).toBe(410)
    expect(await page.getByRole("button", { name: "Save password" }).count()).toBe(0)
    await context.close()
  })

  it("repeated wrong passwords are throttled: then even the right one is refused", async () => {
    const config = await registerClient(issuer)
    const context = await browser.newContext()
    const page = await context.newPage()
    const { challenge } = await pkce()
    await page.goto(authorizationUrl(config, challenge, { scope: "openid" }).href)
    const attempt = async (password: string) => {
      await page.getByLabel("Email").fill(emily.email)
      await page.getByLabel("Password", { exact: true }).fill(password)
      const [response] = await Promise.all([
        page.waitForNavigation(),
        page.getByRole("button", { name: "Sign in" }).click()
      ])
      return { status: response?.status(), alert: await page.getByRole("alert").textContent() }
    }
    for (let i = 0; i < 5; i++) {
      const wrong = await attempt(`not the password ${i}`)
      expect(wrong.status).toBe(401)
      expect(wrong.alert).toContain("do not match")
    }
    const right = await attempt(emily.password)
    expect(right.status).toBe(429)
    expect(right.alert).toContain("Too many attempts")
    await page.screenshot({ path: `${screenshots}oauth-flow-throttled.png`, fullPage: true })
    await context.close()
  })

  it("strangers' wrong passwords do not lock out a browser that signed in before; any other device cookie is a stranger's", async () => {
    const config = await registerClient(issuer)
    const akiko: Person = { email: "akiko@example.com", password: "the owl flies at dusk" }
    const link = linkOf(
      await operator(database, server.url, "participants", "invite", "akiko-tanaka", "--email", akiko.email)
    )
    await (await choosePassword(link, akiko.password)).close()
    const deviceOf = async (person: Person) => {
      const context = await browser.newContext()
      const back = await authorize(context, authorizationUrl(config, (await pkce()).challenge), { person })
      expect(back.searchParams.get("code")).toBeTypeOf("string")
      const device = (await context.cookies()).find((cookie) => cookie.name === "tm_device")
      await context.close()
      if (device === undefined) throw new Error("no device cookie was set")
      return device
    }
    // Her own browser signs in once, and keeps a cookie for the sign-in pages alone, for a year.
    const device = await deviceOf(akiko)
    expect(device).toMatchObject({ path: "/oauth/interaction", httpOnly: true, sameSite: "Lax", secure: false })
    expect(device.expires - Date.now() / 1000).toBeGreaterThan(364 * 24 * 3600)
    const lukasDevice = await deviceOf(lukas)

    /** A browser holding `cookie` (or none) signs in as Akiko on a new authorization's page. */
    const attempt = async (password: string, cookie?: typeof device) => {
      const context = await browser.newContext()
      if (cookie !== undefined) await context.addCookies([cookie])
      const page = await context.newPage()
      try {
        await page.goto(authorizationUrl(config, (await pkce()).challenge).href)
        await page.getByLabel("Email").fill(akiko.email)
        await page.getByLabel("Password", { exact: true }).fill(password)
        const [response] = await Promise.all([
          page.waitForNavigation(),
          page.getByRole("button", { name: "Sign in" }).click()
        ])
        if (page.url().startsWith(callbackUri)) return { status: response?.status(), back: new URL(page.url()) }
        return { status: response?.status(), alert: await page.getByRole("alert").textContent() }
      } finally {
        await context.close()
      }
    }
    for (let i = 0; i < 5; i++) {
      const wrong = await attempt(`not her password ${i}`)
      expect(wrong).toMatchObject({ status: 401, alert: "That email and password do not match." })
    }
    const stranger = await attempt(akiko.password)
    expect(stranger).toMatchObject({ status: 429, alert: expect.stringContaining("Too many attempts") })
    // Another login's device cookie, a garbled one, one whose signature was altered: strangers all.
    for (const value of [lukasDevice.value, "garbage", `${device.value.slice(0, -2)}AA`]) {
      const shown = await attempt(akiko.password, { ...device, value })
      expect(shown, value).toMatchObject({ status: 429, alert: expect.stringContaining("Too many attempts") })
    }
    // Her browser (its session over, its device cookie kept) signs in with her password.
    const returning = await attempt(akiko.password, device)
    expect(returning.back?.searchParams.get("code")).toBeTypeOf("string")
    // A wrong password from it says what it says to anyone.
    expect(await attempt("not her password", device)).toMatchObject({
      status: 401,
      alert: "That email and password do not match."
    })
    // Strangers still wait the window out.
    expect(await attempt(akiko.password)).toMatchObject({ status: 429 })
  }, 90_000)
})
