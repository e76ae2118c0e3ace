/**
 * A test OAuth 2.1 authorization server, as far as a resource server sees one: an RS256 key pair
 * (jose), its metadata at `/.well-known/oauth-authorization-server` (or, for the discovery
 * fallback, `/.well-known/openid-configuration`) naming `jwks_uri`, the key set at `/jwks.json`,
 * and `token()` to sign access tokens — valid ones, and on request expired, not yet valid, for
 * another audience or issuer, or signed by a foreign key. `linkAccount` links a subject to a
 * participant the way the operator's `Accounts.link` does, straight in the database.
 */
import { randomUUID } from "node:crypto"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { DatabaseSync } from "node:sqlite"
import { type CryptoKey, exportJWK, generateKeyPair, type JWK, SignJWT, UnsecuredJWT } from "jose"
import { onPostgres, type TestDatabase } from "./database.ts"
import { json, type TestServer } from "./server.ts"

export interface KeyPair {
  readonly kid: string
  readonly privateKey: CryptoKey
  readonly publicJwk: JWK
}

/** A fresh RS256 key pair; also the "foreign" key of negative tests when it is never published. */
export const makeKeyPair = async (): Promise<KeyPair> => {
  const { privateKey, publicKey } = await generateKeyPair("RS256", { extractable: true })
  const kid = `k-${randomUUID().slice(0, 8)}`
  return { kid, privateKey, publicJwk: { ...(await exportJWK(publicKey)), kid, alg: "RS256", use: "sig" } }
}

export interface TokenOptions {
  /** Subject; omit with `sub: null` to sign a token without one. */
  readonly sub: string | null
  /** Audience; defaults to `issuer.audience`. */
  readonly aud?: string | ReadonlyArray<string>
  /** Issuer claim; defaults to the issuer's URL. */
  readonly iss?: string
  /** Expiry, seconds since the epoch; defaults to now + 10 minutes. */
  readonly exp?: number
  /** Not-before, seconds since the epoch; absent by default. */
  readonly nbf?: number
  /** Issued-at, seconds since the epoch; defaults to now. */
  readonly iat?: number
  /** Signing key; defaults to the published one. Pass a foreign key pair for a forged token. */
  readonly key?: KeyPair
  /** `kid` header; defaults to the signing key's. `null` leaves it out. */
  readonly kid?: string | null
}

export interface TestIssuer {
  /** The issuer identifier, e.g. http://127.0.0.1:41234 (what the service's OAUTH_ISSUER names). */
  readonly url: string
  readonly jwksUri: string
  readonly key: KeyPair
  /** Default `aud` of `token()`: `testAudience` unless a test changes it. */
  audience: string
  /** Requests served, per path (to see discovery happen). */
  readonly hits: Record<string, number>
  token(options: TokenOptions): Promise<string>
  close(): Promise<void>
}

export interface IssuerOptions {
  /** Where the metadata is published: the OAuth path (default) or only the OpenID Connect one. */
  readonly metadata?: "oauth" | "openid"
}

const now = () => Math.floor(Date.now() / 1000)

/**
 * The audience tests configure (`settings.oauthAudience`) and tokens carry by default. The
 * service's own default, `<base>/api/public/v1`, is applied by `loadSettings` only; a test server's
 * base (its random port) is not known before it starts, so tests name the audience explicitly.
 */
export const testAudience = "https://marketplace.test/api/public/v1"

/** Starts an issuer on a random loopback port. Close it in `afterAll`. */
export const startIssuer = async (options: IssuerOptions = {}): Promise<TestIssuer> => {
  const key = await makeKeyPair()
  const hits: Record<string, number> = {}
  const metadataPath =
    options.metadata === "openid" ? "/.well-known/openid-configuration" : "/.well-known/oauth-authorization-server"
  let url = ""
  const server: Server = createServer((request, response) => {
    const path = (request.url ?? "/").split("?", 1)[0] ?? "/"
    hits[path] = (hits[path] ?? 0) + 1
    const send = (status: number, body: unknown) => {
      response.writeHead(status, { "content-type": "application/json", "cache-control": "no-store" })
      response.end(JSON.stringify(body))
    }
    if (path === metadataPath) {
      return send(200, {
        issuer: url,
        jwks_uri: `${url}/jwks.json`,
        token_endpoint: `${url}/token`,
        response_types_supported: ["code"],
        grant_types_supported: ["authorization_code", "refresh_token"],
        code_challenge_methods_supported: ["S256"]
      })
    }
    if (path === "/jwks.json") return send(200, { keys: [key.publicJwk] })
    return send(404, { error: "not_found" })
  })
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => resolve())
  })
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`

  const issuer: TestIssuer = {
    url,
    jwksUri: `${url}/jwks.json`,
    key,
    audience: testAudience,
    hits,
    token: (o) => signToken(o, { iss: url, aud: issuer.audience, key }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
  return issuer
}

const signToken = async (o: TokenOptions, defaults: { iss: string; aud: string; key: KeyPair }) => {
  const key = o.key ?? defaults.key
  const kid = o.kid === undefined ? key.kid : o.kid
  const aud = o.aud ?? defaults.aud
  const jwt = new SignJWT({})
    .setProtectedHeader(kid === null ? { alg: "RS256", typ: "at+jwt" } : { alg: "RS256", typ: "at+jwt", kid })
    .setIssuer(o.iss ?? defaults.iss)
    .setAudience(typeof aud === "string" ? aud : [...aud])
    .setIssuedAt(o.iat ?? now())
    .setExpirationTime(o.exp ?? now() + 600)
    .setJti(randomUUID())
  if (o.sub !== null) jwt.setSubject(o.sub)
  if (o.nbf !== undefined) jwt.setNotBefore(o.nbf)
  return jwt.sign(key.privateKey)
}

/** An unsigned token (`alg: none`) with otherwise valid claims: must never be accepted. */
export const unsignedToken = (issuer: TestIssuer, sub: string) =>
  new UnsecuredJWT({})
    .setIssuer(issuer.url)
    .setAudience(issuer.audience)
    .setSubject(sub)
    .setIssuedAt()
    .setExpirationTime(now() + 600)
    .encode()

/**
 * Links an OAuth subject to a participant, as the operator's `Accounts.link` does (same table,
 * same upsert). SQLite needs a file database (`freshDatabase()`), shared with `startServer`.
 */
export const linkAccount = async (database: TestDatabase, subject: string, slug: string): Promise<void> => {
  const linkedAt = new Date().toISOString()
  const statement =
    "INSERT INTO participant_accounts (subject, participant_slug, linked_at) VALUES ($1, $2, $3) " +
    "ON CONFLICT (subject) DO UPDATE SET participant_slug = excluded.participant_slug, linked_at = excluded.linked_at"
  if (database.config._tag === "Sqlite") {
    if (database.config.filename === ":memory:") throw new Error("linkAccount needs a file database")
    const db = new DatabaseSync(database.config.filename)
    try {
      db.exec("PRAGMA busy_timeout = 5000")
      db.prepare(statement.replaceAll(/\$\d/g, "?")).run(subject, slug, linkedAt)
    } finally {
      db.close()
    }
    return
  }
  await onPostgres(database.url, (sql) => sql.unsafe(statement, [subject, slug, linkedAt]))
}

/**
 * A participant signed in with a real access token whose subject is linked to `slug`: the returned
 * function posts one of their moves on a task of `env` (`accept`, `start`, `submit` with its body,
 * …) and gives the task it answers with, failing on anything but 200.
 */
export const actingParticipant = async (
  env: { readonly server: TestServer; readonly database: TestDatabase },
  issuer: TestIssuer,
  slug: string
) => {
  const subject = `user-${slug}-${randomUUID().slice(0, 8)}`
  await linkAccount(env.database, subject, slug)
  const headers = { authorization: `Bearer ${await issuer.token({ sub: subject })}` }
  // biome-ignore lint/suspicious/noExplicitAny: tests inspect the task member by member
  return async (reference: string, move: string, body?: unknown): Promise<any> => {
    const response = await fetch(
      env.server.api(`/tasks/${reference}/${move}`),
      body === undefined ? { method: "POST", headers } : json(body, headers)
    )
    const text = await response.text()
    if (response.status !== 200) throw new Error(`${move} ${reference}: expected 200, got ${response.status}: ${text}`)
    return JSON.parse(text)
  }
}
