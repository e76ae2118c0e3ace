/**
 * The embedded OAuth 2.1 authorization server: oidc-provider (a certified OpenID Provider),
 * configured for this marketplace. Its module is imported with the first request that needs it,
 * never at start-up (it costs a few hundred milliseconds and ~25 MiB).
 *
 * What it offers, and why (docs/decisions/authorization-server.md):
 * - the authorization code flow only, PKCE with S256 required (the library knows no `plain`);
 * - dynamic client registration (RFC 7591) and Client ID Metadata Documents (an https `client_id`
 *   whose document the library fetches through its SSRF-safe agent, 5 KiB at most);
 * - two resources (RFC 8707): the REST API and the participant MCP endpoint. An access token is
 *   a JWT (`at+jwt`) for one of them (`aud`), short-lived, verified by the resource in-process;
 * - refresh tokens rotated on each use; a reused one revokes its whole grant;
 * - consent remembered per account and client (an existing grant covering the request skips it).
 */

import { request as httpsRequest } from "node:https"
import type * as Context from "effect/Context"
import type { Configuration, KoaContextWithOIDC, default as Provider } from "oidc-provider"
import type { AppSettings } from "../config/settings.ts"
import { consoleClient } from "../domain/login.ts"
import { inlineScriptHashes, pageHeaders } from "../pages/layout.ts"
import type { OAuthRecords } from "../services/oauth_records.ts"
import type { KeySet } from "../services/signing_keys.ts"
import { adapterFor } from "./adapter.ts"
import {
  errorPage,
  errorPages,
  type RenderedPage,
  signedOutPage,
  signingOutPage,
  signOutPage,
  signOutScriptHash
} from "./pages.ts"

/** Scopes, as the published contract names them. */
export const oauthScopes = ["openid", "email", "profile"] as const

/**
 * A Client ID Metadata Document is fetched only from a plain https URL on the default port, naming
 * a host by its DNS name: not an IP literal, not `localhost`, no credentials. (The library's own
 * agent also refuses to connect to private, loopback and link-local addresses, times out after
 * 2.5 s and reads at most 5 KiB.)
 */
export const isFetchableClientId = (clientId: string): boolean => {
  if (!URL.canParse(clientId)) return false
  const url = new URL(clientId)
  const host = url.hostname.toLowerCase()
  return (
    url.protocol === "https:" &&
    url.port === "" &&
    url.username === "" &&
    url.password === "" &&
    host.includes(".") &&
    !host.startsWith("[") &&
    !/^[\d.]+$/.test(host) &&
    host !== "localhost" &&
    !host.endsWith(".localhost")
  )
}

/**
 * Where CLIENT_METADATA_ALLOW_PRIVATE (development and tests) lets a Client ID Metadata Document
 * come from: any https URL — loopback and private addresses, any port — fetched with a certificate
 * nobody vouches for accepted (a local server's). The library still validates the document.
 */
export const isFetchableClientIdAnywhere = (clientId: string): boolean =>
  URL.canParse(clientId) && new URL(clientId).protocol === "https:"

/** The most of a metadata document read when fetching anywhere (the library then holds it to its own limit). */
const anywhereBodyLimit = 64 * 1024

/** The library's fetch when CLIENT_METADATA_ALLOW_PRIVATE is on: no address filter, any certificate. */
const fetchAnywhere = (input: string | URL | Request, init?: RequestInit): Promise<Response> =>
  new Promise((resolve, reject) => {
    const url = new URL(input instanceof Request ? input.url : String(input))
    const outgoing = httpsRequest(
      url,
      {
        method: "GET",
        rejectUnauthorized: false,
        headers: { accept: "application/json" },
        ...(init?.signal ? { signal: init.signal } : {})
      },
      (incoming) => {
        const chunks: Array<Buffer> = []
        let size = 0
        incoming.on("data", (chunk: Buffer) => {
          size += chunk.length
          if (size > anywhereBodyLimit) incoming.destroy(new Error("response too large"))
          else chunks.push(chunk)
        })
        incoming.on("error", reject)
        incoming.on("end", () => {
          const headers = new Headers()
          for (const [name, value] of Object.entries(incoming.headers)) {
            for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value])
              headers.append(name, one)
          }
          resolve(new Response(Buffer.concat(chunks), { status: incoming.statusCode ?? 502, headers }))
        })
      }
    )
    outgoing.on("error", reject)
    outgoing.end()
  })

/** Where oidc-provider sends a browser that must sign in or consent (routes in interactions.ts). */
export const interactionPath = (basePath: string, uid: string) => `${basePath}/oauth/interaction/${uid}`

/** What a person's account gives the ID token and userinfo. */
export interface AccountProfile {
  readonly id: string
  readonly email: string
  readonly name: string
  readonly participantSlug: string
}

export interface ProviderInputs {
  readonly settings: AppSettings
  /** The issuer identifier: `<publicBaseUrl>/oauth`. */
  readonly issuer: string
  /** The resources a token may be for: the REST API and the participant MCP endpoint. */
  readonly resources: ReadonlyArray<string>
  readonly keys: KeySet
  /** Secrets signing the library's cookies, newest first. */
  readonly cookieKeys: ReadonlyArray<string>
  readonly records: Context.Context<OAuthRecords>
  readonly findAccount: (id: string) => Promise<AccountProfile | undefined>
  /** The grant an account gave a client before, if any. */
  readonly grantIdFor: (accountId: string, clientId: string) => Promise<string | undefined>
}

/** Lifetimes, in seconds. */
const ttl = {
  AuthorizationCode: 60,
  IdToken: 600,
  Interaction: 3600,
  Session: 14 * 24 * 3600,
  Grant: 365 * 24 * 3600,
  RefreshToken: 30 * 24 * 3600
}

/**
 * The page for an error the library would show a browser: the person's words for the common ones
 * (an unknown app, a return address it never registered, an expired sign-in), the library's own
 * description otherwise (never a stack trace: it describes the request, not the server).
 */
const pageForError = (status: number, error: string, description: string | undefined) => {
  if (status >= 500) return errorPages.serverError
  if (error === "invalid_client") return errorPages.unknownClient
  if (error === "invalid_redirect_uri" || description?.includes("redirect_uri") === true) {
    return errorPages.unregisteredRedirect
  }
  if (error === "session_not_found" || (error === "invalid_request" && description?.includes("interaction") === true)) {
    return errorPages.signInExpired
  }
  return {
    ...errorPages.invalidRequest,
    status,
    message: `${errorPages.invalidRequest.message} (${description ?? error})`
  }
}

const wantsJson = (ctx: KoaContextWithOIDC) => {
  const accept = ctx.get("accept")
  return accept.includes("json") && !accept.includes("text/html")
}

/** Builds a provider for the current keys (a new one is built when they change: oauth/host.ts). */
export const makeProvider = async (inputs: ProviderInputs): Promise<Provider> => {
  const { default: ProviderClass, errors } = await import("oidc-provider")
  const { settings } = inputs
  const secure = settings.publicBaseUrl.startsWith("https:")
  const basePath = new URL(settings.publicBaseUrl).pathname.replace(/\/+$/, "")
  const accessTokenTTL = Math.floor(settings.oauthAccessTokenTtlMs / 1000)

  /** A page of ours, from the library's own routes; its forms may lead on to `formActionOrigins`. */
  const render = (
    ctx: KoaContextWithOIDC,
    page: RenderedPage,
    formActionOrigins: ReadonlyArray<string> = [],
    scriptHashes: ReadonlyArray<string> = []
  ) => {
    ctx.status = page.status
    ctx.set(pageHeaders({ formActionOrigins, scriptHashes }))
    ctx.body = String(page.html)
  }
  /** Where the sign-out form sends the browser once done (the client's post-logout redirect URI). */
  const afterSignOut = (ctx: KoaContextWithOIDC) => {
    const uri = ctx.oidc.params?.post_logout_redirect_uri
    return typeof uri === "string" ? [uri] : []
  }

  const lifetimes: Configuration["ttl"] = {
    ...ttl,
    AccessToken: (_ctx, token) => token.resourceServer?.accessTokenTTL ?? accessTokenTTL,
    ClientCredentials: accessTokenTTL
  }

  const configuration: Configuration = {
    // The metadata documents' fetch (the one the library makes): its own, SSRF-filtered, unless
    // CLIENT_METADATA_ALLOW_PRIVATE lifts that for development and tests.
    ...(inputs.settings.clientMetadataAllowPrivate ? { fetch: fetchAnywhere as Configuration["fetch"] } : {}),
    adapter: adapterFor(inputs.records, () => new errors.InvalidGrant("grant request is invalid")),
    jwks: { keys: inputs.keys.keys.map((key) => ({ ...key })) },
    cookies: {
      keys: [...inputs.cookieKeys],
      long: { httpOnly: true, sameSite: "lax", secure },
      short: { httpOnly: true, sameSite: "lax", secure }
    },
    scopes: [...oauthScopes, "offline_access"],
    claims: {
      openid: ["sub"],
      email: ["email", "email_verified"],
      profile: ["name", "preferred_username"]
    },
    conformIdTokenClaims: false,
    // A browser app (an MCP host in a web page) may call the token and userinfo endpoints from the
    // origin of one of its redirect URIs, when it is a public client; no other origin.
    clientBasedCORS: (ctx, origin, client) =>
      origin !== "null" &&
      (ctx.oidc.route === "userinfo" || client.clientAuthMethod === "none") &&
      (client.redirectUris ?? []).some((uri) => URL.canParse(uri) && new URL(uri).origin === origin),
    // The console (src/console/): a first-party public client, registered here and nowhere else.
    clients: [
      {
        client_id: consoleClient.id,
        client_name: consoleClient.name,
        token_endpoint_auth_method: "none",
        grant_types: ["authorization_code"],
        response_types: ["code"],
        redirect_uris: [`${settings.publicBaseUrl.replace(/\/+$/, "")}${consoleClient.callbackPath}`],
        post_logout_redirect_uris: [`${settings.publicBaseUrl.replace(/\/+$/, "")}${consoleClient.signedOutPath}`]
      }
    ],
    responseTypes: ["code"],
    pkce: { required: () => true },
    clientDefaults: {
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      id_token_signed_response_alg: "RS256"
    },
    ttl: lifetimes,
    rotateRefreshToken: true,
    // Any client allowed the refresh_token grant gets one, without asking for offline_access:
    // an assistant must keep working after the access token's few minutes.
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed("refresh_token"),
    findAccount: async (_ctx, id) => {
      const account = await inputs.findAccount(id)
      if (account === undefined) return undefined
      return {
        accountId: account.id,
        claims: async () => ({
          sub: account.id,
          email: account.email,
          // The operator typed the address; nobody has proved they receive mail there.
          email_verified: false,
          name: account.name,
          preferred_username: account.participantSlug
        })
      }
    },
    // Consent is remembered per account and client, not per browser session — until the person
    // signs out, which ends the grants that session gave (the library's logout).
    loadExistingGrant: async (ctx) => {
      const session = ctx.oidc.session
      const client = ctx.oidc.client
      if (session?.accountId === undefined || client === undefined) return undefined
      const grantId =
        (ctx.oidc.result?.consent as { grantId?: string } | undefined)?.grantId ??
        session.grantIdFor(client.clientId) ??
        (await inputs.grantIdFor(session.accountId, client.clientId))
      return grantId === undefined ? undefined : ctx.oidc.provider.Grant.find(grantId)
    },
    interactions: { url: (_ctx, interaction) => interactionPath(basePath, interaction.uid) },
    features: {
      devInteractions: { enabled: false },
      // Tokens are bearer tokens: the resources verify no DPoP proof, so none is bound.
      dPoP: { enabled: false },
      registration: { enabled: true, initialAccessToken: false, issueRegistrationAccessToken: false },
      // A client revokes only its own tokens (anyone else's are left as they are, silently).
      revocation: { enabled: true, allowedPolicy: async (_ctx, client, token) => token.clientId === client.clientId },
      userinfo: { enabled: true },
      rpInitiatedLogout: {
        enabled: true,
        // The console asks nothing twice: its Sign out is a checked form of its own, so the person has
        // chosen already (docs/decisions/console.md). Any other client's person is asked.
        logoutSource: (ctx, form) =>
          ctx.oidc.client?.clientId === consoleClient.id
            ? render(ctx, signingOutPage({ formHtml: form }), afterSignOut(ctx), [signOutScriptHash])
            : render(ctx, signOutPage({ formHtml: form, clientName: ctx.oidc.client?.clientName }), afterSignOut(ctx)),
        postLogoutSuccessSource: (ctx) => render(ctx, signedOutPage({ clientName: ctx.oidc.client?.clientName }))
      },
      clientIdMetadataDocument: {
        enabled: true,
        ack: "draft-02",
        // Only a plain https URL naming a host; the library's own agent refuses private,
        // loopback and link-local addresses, times out after 2.5 s and reads at most 5 KiB.
        allowFetch: async (_ctx, clientId) =>
          inputs.settings.clientMetadataAllowPrivate
            ? isFetchableClientIdAnywhere(clientId)
            : isFetchableClientId(clientId)
      },
      resourceIndicators: {
        enabled: true,
        // No resource asked for: the REST API (what an OAuth client that knows nothing of
        // resource indicators means by "the service").
        defaultResource: async (_ctx, _client, oneOf) => (oneOf !== undefined ? oneOf[0] : inputs.resources[0]),
        useGrantedResource: async () => true,
        getResourceServerInfo: async (_ctx, resource) => {
          if (!inputs.resources.includes(resource)) throw new errors.InvalidTarget()
          return {
            scope: oauthScopes.join(" "),
            audience: resource,
            accessTokenTTL,
            accessTokenFormat: "jwt",
            jwt: { sign: { alg: "RS256" } }
          }
        }
      }
    },
    renderError: (ctx, out, error) => {
      const status = (error as { statusCode?: number }).statusCode ?? 400
      if (wantsJson(ctx)) {
        ctx.status = status
        ctx.type = "application/json"
        ctx.body = { error: out.error, error_description: out.error_description }
        return
      }
      render(ctx, errorPage(pageForError(status, out.error, out.error_description)))
    }
  }

  const provider = new ProviderClass(inputs.issuer, configuration)
  // The one page the library renders itself is the form_post response mode's: a form to the
  // client's redirect URI that its inline script submits at once. It is sent with every page's
  // headers, that script allowed by its hash and the redirect URI's origin as a form-action.
  provider.use(async (ctx, next) => {
    await next()
    if (ctx.res.hasHeader("content-security-policy") || !ctx.response.is("html")) return
    if (typeof ctx.body !== "string") return
    const redirectUri = ctx.oidc?.params?.redirect_uri
    ctx.set(
      pageHeaders({
        formActionOrigins: typeof redirectUri === "string" ? [redirectUri] : [],
        scriptHashes: inlineScriptHashes(ctx.body)
      })
    )
  })
  // Every request reaches the provider with Host and X-Forwarded-* set from the configured base
  // URL (host.ts), never from what the client sent: its endpoints' addresses follow PUBLIC_BASE_URL.
  provider.proxy = true
  return provider
}
