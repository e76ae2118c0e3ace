/**
 * Participants for the fuzzer's stateful phase (docs/testing.md, "Fuzzing"): each gets an OAuth 2.0
 * access token the way the document's `participantAccessToken` scheme says one is got — the
 * authorization code flow with PKCE (S256) at the addresses its `flows.authorizationCode` names,
 * for the resource `/.well-known/oauth-protected-resource` names — through the real endpoints:
 *
 * 1. the operator invites the participant (`npm run -s operator -- participants invite`, or `reset`
 *    when a password was chosen in an earlier run): the scheme's description says the operator links
 *    the token's subject to a participant, and an invitation is how a catalogue participant gets a
 *    sign-in; the fuzzer then opens the one-time link and chooses a password, as the person would;
 * 2. a client registers itself (dynamic client registration, as an MCP host does), sends the person
 *    to the authorization endpoint, which signs them in and asks their consent on its own pages
 *    (plain HTTP with a cookie jar: the pages work without JavaScript), and exchanges the code at
 *    the token endpoint with the PKCE verifier.
 *
 * Nothing here reaches into the service's storage: the operator tool is the operator's, and
 * everything else is HTTP a client and a person's browser send.
 */
import { createHash, randomBytes } from "node:crypto"
import { runOperator } from "../test/support/operator.ts"

export interface SignedInParticipant {
  readonly slug: string
  /** The participant's access token for the API, refreshed (refresh_token grant) before it expires. */
  readonly token: () => Promise<string>
  /**
   * Their access token for the participant's MCP endpoint (the index's `interfaces.mcp_participant`),
   * got by the refresh_token grant for that resource (both were asked for at authorization).
   */
  readonly mcpToken: () => Promise<string>
}

interface SecurityScheme {
  readonly flows?: { readonly authorizationCode?: { readonly authorizationUrl: string; readonly tokenUrl: string } }
}

/** A browser's cookies for one origin: enough for the authorization server's pages. */
const cookieJar = () => {
  const cookies = new Map<string, string>()
  return {
    take: (response: Response) => {
      for (const line of response.headers.getSetCookie()) {
        const [pair = ""] = line.split(";", 1)
        const at = pair.indexOf("=")
        if (at > 0) cookies.set(pair.slice(0, at).trim(), pair.slice(at + 1).trim())
      }
    },
    header: () => [...cookies].map(([name, value]) => `${name}=${value}`).join("; ")
  }
}

const unescapeHtml = (text: string) =>
  text
    .replaceAll("&quot;", '"')
    .replaceAll("&#39;", "'")
    .replaceAll("&#x27;", "'")
    .replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">")
    .replaceAll("&amp;", "&")

/** A page's first form: its action and hidden inputs, and whether it asks for a password. */
const formOf = (html: string, at: string) => {
  const form = /<form[^>]*method="post"[^>]*action="([^"]*)"[^>]*>([\s\S]*?)<\/form>/i.exec(html)
  if (form === null) return undefined
  const hidden: Record<string, string> = {}
  for (const input of (form[2] ?? "").matchAll(/<input[^>]*>/gi)) {
    const tag = input[0]
    const name = /name="([^"]*)"/.exec(tag)?.[1]
    const value = /value="([^"]*)"/.exec(tag)?.[1]
    if (name !== undefined && /type="hidden"/.test(tag) && value !== undefined) hidden[name] = unescapeHtml(value)
  }
  return {
    action: new URL(unescapeHtml(form[1] ?? ""), at).href,
    hidden,
    asksPassword: /name="password"/.test(form[2] ?? ""),
    asksConsent: /name="decision"\s+value="allow"/.test(form[2] ?? "")
  }
}

/** A token endpoint's answer: the access token, until when to use it (a minute early), the refresh token. */
const tokensFrom = async (response: Response) => {
  const tokens = (await response.json()) as { access_token?: string; refresh_token?: string; expires_in?: number }
  if (response.status !== 200 || tokens.access_token === undefined)
    throw new Error(`the token endpoint answered ${response.status}: ${JSON.stringify(tokens).slice(0, 300)}`)
  return {
    access: tokens.access_token,
    refresh: tokens.refresh_token ?? "",
    until: Date.now() + Math.max(0, (tokens.expires_in ?? 300) - 60) * 1000
  }
}

const s256 = (verifier: string) => createHash("sha256").update(verifier).digest("base64url")

/**
 * Signs each participant in (see the module's comment) and answers their access tokens; throws,
 * saying where, when a step does not go as the document and the authorization server's metadata say.
 */
export const signInParticipants = async (options: {
  readonly base: string
  readonly document: { readonly components: { readonly securitySchemes?: Record<string, unknown> } }
  readonly slugs: ReadonlyArray<string>
  /** The service's database, for the operator's invitation. */
  readonly databaseUrl: string
}): Promise<ReadonlyArray<SignedInParticipant>> => {
  const { base } = options
  const scheme = options.document.components.securitySchemes?.participantAccessToken as SecurityScheme | undefined
  const flow = scheme?.flows?.authorizationCode
  if (flow === undefined) throw new Error("the document describes no authorization code flow for participants")
  const protectedResource = (await (await fetch(`${base}/.well-known/oauth-protected-resource`)).json()) as {
    resource: string
    authorization_servers: ReadonlyArray<string>
  }
  const issuer = new URL(protectedResource.authorization_servers[0] ?? "")
  // RFC 8414: the metadata's address is the issuer's path after the well-known prefix.
  const metadata = (await (
    await fetch(`${issuer.origin}/.well-known/oauth-authorization-server${issuer.pathname.replace(/\/$/, "")}`)
  ).json()) as { registration_endpoint?: string }
  if (metadata.registration_endpoint === undefined) throw new Error("the authorization server registers no clients")
  // A loopback redirect (RFC 8252): the browser is never sent there; its address is read off the redirect.
  const redirectUri = "http://127.0.0.1:9/fuzz-callback"
  const registered = await fetch(metadata.registration_endpoint, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      client_name: "Fuzzer",
      redirect_uris: [redirectUri],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none"
    })
  })
  const client = (await registered.json()) as { client_id?: string }
  if (registered.status !== 201 || client.client_id === undefined)
    throw new Error(`client registration answered ${registered.status}: ${JSON.stringify(client).slice(0, 300)}`)
  const clientId = client.client_id

  // The operator's tool runs with the server's settings: a sandbox's database only with SANDBOX=on.
  const index = (await (await fetch(`${base}/api/public/v1`)).json()) as {
    sandbox?: boolean
    interfaces?: { mcp_participant?: { protected_resource_metadata?: string } }
  }
  // The participant's MCP endpoint is a resource of its own: its metadata names it.
  const mcpMetadata = index.interfaces?.mcp_participant?.protected_resource_metadata
  const mcpResource =
    mcpMetadata === undefined
      ? undefined
      : ((await (await fetch(mcpMetadata)).json()) as { resource?: string }).resource
  const settings = {
    DATABASE_URL: options.databaseUrl,
    PUBLIC_BASE_URL: base,
    SANDBOX: index.sandbox === true ? "on" : "off"
  }
  // The invitations first, all at once (each is a process of the operator's tool).
  const invite = async (slug: string) => {
    const run = await runOperator(settings, "participants", "invite", slug, "--email", `fuzz+${slug}@example.com`)
    // Invited in an earlier run, with a password chosen: a reset link instead.
    if (run.code !== 0 && /already chosen a password/.test(run.stderr))
      return runOperator(settings, "participants", "reset", slug)
    return run
  }
  const invitations = await Promise.all(options.slugs.map(invite))
  const signed: Array<SignedInParticipant> = []
  for (const [i, slug] of options.slugs.entries()) {
    const email = `fuzz+${slug}@example.com`
    const password = `fuzz ${slug} ${randomBytes(9).toString("base64url")}`
    const run = invitations[i] as { code: number; stdout: string; stderr: string }
    if (run.code !== 0) throw new Error(`the operator could not invite ${slug}: ${run.stderr.trim()}`)
    const link = run.stdout.split("\n", 1)[0] ?? ""
    const invited = /\(([^)]+@[^)]+)\)/.exec(run.stdout)?.[1] ?? email

    // The person opens the link and chooses a password.
    const page = await fetch(link)
    const chooser = formOf(await page.text(), link)
    if (page.status !== 200 || chooser === undefined) throw new Error(`the invitation link answered ${page.status}`)
    const chosen = await fetch(chooser.action, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ ...chooser.hidden, username: invited, password, confirm: password })
    })
    const chosenPage = await chosen.text()
    if (chosen.status !== 200 || formOf(chosenPage, link)?.asksPassword === true)
      throw new Error(`choosing ${slug}'s password answered ${chosen.status}`)

    // The app sends the person to the authorization endpoint, with PKCE.
    const verifier = randomBytes(32).toString("base64url")
    const state = randomBytes(12).toString("base64url")
    const authorize = new URL(flow.authorizationUrl)
    for (const [name, value] of Object.entries({
      client_id: clientId,
      redirect_uri: redirectUri,
      response_type: "code",
      scope: "openid email",
      code_challenge: s256(verifier),
      code_challenge_method: "S256",
      state,
      resource: protectedResource.resource
    }))
      authorize.searchParams.set(name, value)
    if (mcpResource !== undefined) authorize.searchParams.append("resource", mcpResource)
    const jar = cookieJar()
    let url = authorize.href
    let init: RequestInit = {}
    let code: string | undefined
    for (let step = 0; step < 12 && code === undefined; step++) {
      const response = await fetch(url, {
        ...init,
        redirect: "manual",
        headers: { ...init.headers, cookie: jar.header() }
      })
      jar.take(response)
      const location = response.headers.get("location")
      if (response.status >= 300 && response.status < 400 && location !== null) {
        const next = new URL(location, url)
        await response.text()
        if (next.href.startsWith(redirectUri)) {
          if (next.searchParams.get("state") !== state) throw new Error(`the authorization response's state differs`)
          code = next.searchParams.get("code") ?? undefined
          if (code === undefined) throw new Error(`the authorization was refused: ${next.search}`)
          break
        }
        url = next.href
        init = {}
        continue
      }
      const form = formOf(await response.text(), url)
      if (response.status !== 200 || form === undefined)
        throw new Error(`the authorization flow stopped at ${url} (${response.status})`)
      const fields = form.asksPassword
        ? { ...form.hidden, email: invited, password }
        : form.asksConsent
          ? { ...form.hidden, decision: "allow" }
          : form.hidden
      url = form.action
      init = {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", origin: new URL(base).origin },
        body: new URLSearchParams(fields).toString()
      }
    }
    if (code === undefined) throw new Error(`the authorization flow for ${slug} never came back to the client`)
    const exchanged = await fetch(flow.tokenUrl, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "authorization_code",
        code,
        redirect_uri: redirectUri,
        client_id: clientId,
        code_verifier: verifier,
        resource: protectedResource.resource
      })
    })
    let tokens = await tokensFrom(exchanged)
    let refreshToken = tokens.refresh
    // One refresh token for both resources, rotated at each use: the two are got one at a time.
    let refreshing: Promise<unknown> = Promise.resolve()
    const refreshed = (resource: string) => {
      const got = refreshing.then(async () => {
        const response = await fetch(flow.tokenUrl, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({
            grant_type: "refresh_token",
            refresh_token: refreshToken,
            client_id: clientId,
            resource
          })
        })
        const fresh = await tokensFrom(response)
        if (fresh.refresh !== "") refreshToken = fresh.refresh
        return fresh
      })
      refreshing = got.catch(() => undefined)
      return got
    }
    let mcpTokens: Awaited<ReturnType<typeof tokensFrom>> | undefined
    signed.push({
      slug,
      token: async () => {
        if (Date.now() > tokens.until) tokens = await refreshed(protectedResource.resource)
        return tokens.access
      },
      mcpToken: async () => {
        if (mcpResource === undefined) throw new Error("the index names no participant's MCP endpoint")
        if (mcpTokens === undefined || Date.now() > mcpTokens.until) mcpTokens = await refreshed(mcpResource)
        return mcpTokens.access
      }
    })
  }
  return signed
}
