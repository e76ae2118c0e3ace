// Current MCP authorization on the embedded authorization server (issue 37): Client ID Metadata
// Documents (a client_id that is an https URL to the client's metadata), advertised in the
// server's metadata beside dynamic registration, and fetched under the webhooks' rules against
// server-side request forgery — never from inside the network unless CLIENT_METADATA_ALLOW_PRIVATE
// is on (development and tests: then from a local https server with a self-signed certificate);
// and `iss` in authorization responses (RFC 9207), advertised. No browser: the authorization
// request's first answer says whether the client was known.
import { execFileSync } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { createServer, type Server } from "node:https"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { pkce } from "../support/oauth.ts"
import { type ServerOnDatabase, startOnFreshDatabase } from "../support/server.ts"

// biome-ignore lint/suspicious/noExplicitAny: JSON bodies are inspected member by member.
type Json = any

let directory: string
let documents: Server
let clientId: string
let fetches = 0
let open: ServerOnDatabase
let strict: ServerOnDatabase
const redirectUri = "https://app.example.com/callback"

beforeAll(async () => {
  // A self-signed certificate for 127.0.0.1, as a developer's local https server has.
  directory = mkdtempSync(join(tmpdir(), "cimd-"))
  execFileSync(
    "openssl",
    [
      ...["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1"],
      ...["-addext", "subjectAltName=IP:127.0.0.1"],
      ...["-keyout", join(directory, "key.pem"), "-out", join(directory, "cert.pem")]
    ],
    { stdio: "ignore" }
  )
  documents = createServer(
    { key: readFileSync(join(directory, "key.pem")), cert: readFileSync(join(directory, "cert.pem")) },
    (request, response) => {
      fetches++
      if (request.url !== "/client.json") {
        response.writeHead(404).end()
        return
      }
      response.writeHead(200, { "content-type": "application/json" }).end(
        JSON.stringify({
          client_id: clientId,
          client_name: "A local MCP host",
          redirect_uris: [redirectUri],
          grant_types: ["authorization_code", "refresh_token"],
          response_types: ["code"],
          token_endpoint_auth_method: "none"
        })
      )
    }
  )
  await new Promise<void>((resolve) => documents.listen(0, "127.0.0.1", resolve))
  clientId = `https://127.0.0.1:${(documents.address() as AddressInfo).port}/client.json`
  ;[open, strict] = await Promise.all([
    startOnFreshDatabase({ settings: { clientMetadataAllowPrivate: true } }),
    startOnFreshDatabase({})
  ])
})
afterAll(async () => {
  await open?.close()
  await strict?.close()
  await new Promise((resolve) => documents?.close(resolve))
  if (directory !== undefined) rmSync(directory, { recursive: true, force: true })
})

/** The authorization request's first answer (no browser follows it). */
const authorize = async (env: ServerOnDatabase, client_id: string) => {
  const { challenge } = await pkce()
  const query = new URLSearchParams({
    client_id,
    redirect_uri: redirectUri,
    response_type: "code",
    scope: "openid",
    code_challenge: challenge,
    code_challenge_method: "S256"
  })
  return fetch(`${env.server.url}/oauth/auth?${query}`, { redirect: "manual", headers: { accept: "text/html" } })
}

describe("the authorization server's metadata", () => {
  it("advertises Client ID Metadata Documents beside registration, and iss in authorization responses", async () => {
    for (const env of [open, strict]) {
      const metadata: Json = await (
        await fetch(`${env.server.url}/.well-known/oauth-authorization-server/oauth`)
      ).json()
      expect(metadata.client_id_metadata_document_supported).toBe(true)
      expect(metadata.registration_endpoint).toBe(`${env.server.url}/oauth/reg`)
      expect(metadata.authorization_response_iss_parameter_supported).toBe(true)
    }
  })
})

describe("Client ID Metadata Documents", () => {
  it("are never fetched from inside the network by default: the client is unknown", async () => {
    const before = fetches
    const response = await authorize(strict, clientId)
    expect(response.status).toBe(400)
    expect(await response.text()).toContain("This app is not known here")
    expect(fetches).toBe(before)
  })

  it("with CLIENT_METADATA_ALLOW_PRIVATE on, are fetched from a local https server and the client is known", async () => {
    const before = fetches
    const response = await authorize(open, clientId)
    // On to sign-in: the library found the client from its document.
    expect(response.status).toBe(303)
    expect(response.headers.get("location")).toContain("/oauth/interaction/")
    expect(fetches).toBe(before + 1)
    // A document that names another client_id is refused.
    const other = await authorize(open, clientId.replace("client.json", "other.json"))
    expect(other.status).toBe(400)
  })

  it("still only from https", async () => {
    const response = await authorize(open, clientId.replace("https:", "http:"))
    expect(response.status).toBe(400)
  })
})
