// Every path has one spelling (issue 33, finding 1; docs/decisions/canonical-paths.md). Another
// spelling of a path — a trailing or doubled slash, a percent-encoded unreserved character, the
// absolute form — is redirected (308) to the canonical one and served there with that route's guards;
// another case of a literal segment, a `;` or a broken escape is no route (404). No spelling reaches a
// route without its guards: the participant's MCP endpoint without its token check, MCP without its
// body limit, client registration without its limit.
import { connect } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { canonicalPathOf } from "../../src/http/canonical_path.ts"
import { initializeMessage, postMcp } from "../support/mcp.ts"
import { callbackUri } from "../support/oauth.ts"
import { type ServerOnDatabase, startOnFreshDatabase } from "../support/server.ts"

describe("canonicalPathOf", () => {
  it.each([
    ["/", "/"],
    ["/api/public/v1/tasks", "/api/public/v1/tasks"],
    ["/api/public/v1/tasks/", "/api/public/v1/tasks"],
    ["//mcp/participant", "/mcp/participant"],
    ["/mcp//participant///", "/mcp/participant"],
    ["/mcp/%70articipant", "/mcp/participant"],
    ["/mcp/%70%61rticipant", "/mcp/participant"],
    ["/a/%7e%2D%2e%5F", "/a/~-._"],
    // Reserved and other characters stay escaped, in upper-case hex.
    ["/api/public/v1/tasks/a%2fb", "/api/public/v1/tasks/a%2Fb"],
    ["/api/public/v1/tasks/%C3%A9", "/api/public/v1/tasks/%C3%A9"],
    ["/api/public/v1/tasks/%c3%a9", "/api/public/v1/tasks/%C3%A9"],
    // Case is the router's to judge (literal segments by case, parameters kept as sent).
    ["/MCP/Participant", "/MCP/Participant"],
    ["//", "/"],
    // Dot segments (RFC 3986 §5.2.4), also when escaped.
    ["/oauth/token/../reg", "/oauth/reg"],
    ["/mcp/./participant", "/mcp/participant"],
    ["/mcp/participant/.", "/mcp/participant"],
    ["/mcp/x/%2e%2E/participant", "/mcp/participant"],
    ["/../../mcp", "/mcp"],
    ["/a/..", "/"],
    ["/a/.b/..c", "/a/.b/..c"]
  ])("%s → %s", (path, canonical) => {
    expect(canonicalPathOf(path)).toBe(canonical)
  })

  it.each(["/mcp/participant;x", "/mcp;/participant", "/api/%zz", "/api/%7", "*", "mcp"])(
    "%s has no canonical spelling",
    (path) => {
      expect(canonicalPathOf(path)).toBeUndefined()
    }
  )
})

/** One raw HTTP/1.1 request (a request target fetch would not send as it is): the whole answer, as text. */
const rawRequest = (port: number, lines: ReadonlyArray<string>, body = "") =>
  new Promise<string>((resolve, reject) => {
    const socket = connect(port, "127.0.0.1")
    let received = ""
    socket.on("data", (chunk) => {
      received += chunk.toString("latin1")
    })
    socket.on("end", () => resolve(received))
    socket.on("error", reject)
    socket.write(`${lines.join("\r\n")}\r\n\r\n${body}`)
  })

let app: ServerOnDatabase
let url: string
beforeAll(async () => {
  app = await startOnFreshDatabase({ settings: { oauthRegistrationsPerHour: 2 } })
  url = app.server.url
})
afterAll(() => app.close())

const noRedirect = { redirect: "manual" } as const

describe("another spelling of a path", () => {
  it.each([
    ["/api/public/v1/participants/", "/api/public/v1/participants"],
    ["//api/public/v1/participants", "/api/public/v1/participants"],
    ["/api/public//v1/participants", "/api/public/v1/participants"],
    ["/api/public/v1/%70articipants", "/api/public/v1/participants"],
    ["/api/public/v1/participants/lukas%2Dschmidt", "/api/public/v1/participants/lukas-schmidt"],
    ["/api/public/v1/participants/?q=berlin&limit=1", "/api/public/v1/participants?q=berlin&limit=1"],
    ["/docs/", "/docs"],
    ["/console/", "/console"],
    ["/oauth//.well-known/openid-configuration", "/oauth/.well-known/openid-configuration"]
  ])("GET %s is redirected (308) to %s", async (sent, canonical) => {
    const response = await fetch(`${url}${sent}`, noRedirect)
    expect(response.status).toBe(308)
    expect(response.headers.get("location")).toBe(`${url}${canonical}`)
    // Answered by the service like any other request: with its request id.
    expect(response.headers.get("x-request-id")).toBeTruthy()
    const followed = await fetch(`${url}${sent}`)
    expect(followed.status).toBe((await fetch(`${url}${canonical}`)).status)
  })

  it.each([
    "/API/public/v1/participants",
    "/api/Public/v1/participants",
    "/api/public/v1/Participants",
    "/Docs",
    "/api/public/v1/participants;x",
    "/api/public/v1/%zzparticipants"
  ])("GET %s is no endpoint (404 in the envelope)", async (sent) => {
    const response = await fetch(`${url}${sent}`, noRedirect)
    expect(response.status).toBe(404)
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe("not_found")
  })

  it("keeps the case of a path parameter", async () => {
    const lower = await fetch(`${url}/api/public/v1/participants/lukas-schmidt`)
    expect(lower.status).toBe(200)
    // Not folded to the slug above: this participant does not exist, and the 404 says so (not "no endpoint").
    const upper = await fetch(`${url}/api/public/v1/participants/LUKAS-SCHMIDT`)
    expect(upper.status).toBe(404)
    expect(((await upper.json()) as { error: { message: string } }).error.message).not.toMatch(/No endpoint/)
  })

  it("serves a request in absolute form as its path, with that route's guards", async () => {
    const port = Number(new URL(url).port)
    const answer = await rawRequest(port, [
      `GET http://127.0.0.1:${port}/mcp/participant HTTP/1.1`,
      `Host: 127.0.0.1:${port}`,
      "Connection: close"
    ])
    expect(answer).toMatch(/^HTTP\/1\.1 401 /)
    const absolute = await rawRequest(port, [
      `GET http://127.0.0.1:${port}/mcp/participant/ HTTP/1.1`,
      `Host: 127.0.0.1:${port}`,
      "Connection: close"
    ])
    expect(absolute).toMatch(/^HTTP\/1\.1 308 /)
    expect(absolute).toMatch(new RegExp(`\\r\\nlocation: ${url}/mcp/participant\\r\\n`, "i"))
  })
})

describe("the participant's MCP endpoint under another spelling", () => {
  const variants = [
    "/mcp/participant/",
    "//mcp/participant",
    "/mcp//participant",
    "/MCP/participant",
    "/mcp/Participant",
    "/mcp/%70articipant",
    "/mcp/participant;x",
    "/mcp/participant?x=1&"
  ]

  it.each(variants)("%s: initialize and tools/list without a token are never served", async (path) => {
    for (const message of [initializeMessage("2025-11-25"), { jsonrpc: "2.0", id: 2, method: "tools/list" }]) {
      const response = await fetch(`${url}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify(message),
        redirect: "manual"
      })
      expect([308, 401, 404]).toContain(response.status)
      if (response.status === 308) expect(response.headers.get("location")).toMatch(/\/mcp\/participant(\?|$)/)
      // Followed, the redirect meets the endpoint's own door.
      const followed = await fetch(`${url}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify(message)
      })
      expect([401, 404]).toContain(followed.status)
    }
  })

  it("the canonical path still asks for the token (401 with the endpoint's metadata)", async () => {
    const response = await postMcp(`${url}/mcp/participant`, initializeMessage("2025-11-25"))
    expect(response.status).toBe(401)
    expect(response.headers.get("www-authenticate")).toContain("/.well-known/oauth-protected-resource/mcp/participant")
  })

  it.each(["/mcp/", "//mcp", "/mcp/participant/"])(
    "%s: a body over the limit is never read into memory (308 or 413, not served)",
    async (path) => {
      const big = JSON.stringify({ ...initializeMessage("2025-11-25"), padding: "x".repeat(2 * 1024 * 1024) })
      const response = await fetch(`${url}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: big,
        redirect: "manual"
      })
      expect([308, 413]).toContain(response.status)
      const followed = await postMcp(`${url}/mcp`, big)
      expect(followed.status).toBe(413)
    }
  )

  it("the agents' endpoint answers a method it does not take with 405 and Allow", async () => {
    const response = await fetch(`${url}/mcp`, { method: "PUT", body: "{}" })
    expect(response.status).toBe(405)
    const options = await fetch(`${url}/mcp`, { method: "OPTIONS" })
    expect(options.status).toBe(204)
    expect(options.headers.get("allow")).toBe("POST, DELETE, OPTIONS")
  })
})

describe("client registration under another spelling (finding 2)", () => {
  const register = (path: string, redirect: "manual" | "follow") =>
    fetch(`${url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ redirect_uris: [callbackUri], token_endpoint_auth_method: "none" }),
      redirect
    })
  const clients = async () =>
    Number((await app.database.rows("SELECT COUNT(*) AS n FROM oauth_records WHERE model = 'Client'"))[0]?.n)

  it("stores no more clients than the limit, whatever the spelling", async () => {
    expect((await register("/oauth/reg", "follow")).status).toBe(201)
    expect((await register("/oauth/reg", "follow")).status).toBe(201)
    const stored = await clients()
    expect(stored).toBe(2)
    for (const path of [
      "/oauth/reg/",
      "//oauth/reg",
      "/oauth//reg",
      "/oauth/%72eg",
      "/OAUTH/reg",
      "/oauth/REG",
      "/oauth/reg;x"
    ]) {
      const sent = await register(path, "manual")
      expect([308, 404]).toContain(sent.status)
      const followed = await register(path, "follow")
      expect([404, 429]).toContain(followed.status)
    }
    // Dot segments, which fetch would resolve before sending: the library behind the catch-all
    // route must never see a path that it might resolve to registration.
    const port = Number(new URL(url).port)
    const body = JSON.stringify({ redirect_uris: [callbackUri], token_endpoint_auth_method: "none" })
    for (const path of ["/oauth/token/../reg", "/oauth/jwks/%2e%2e/reg", "/oauth/./reg"]) {
      const answer = await rawRequest(
        port,
        [
          `POST ${path} HTTP/1.1`,
          `Host: 127.0.0.1:${port}`,
          "Content-Type: application/json",
          `Content-Length: ${Buffer.byteLength(body)}`,
          "Connection: close"
        ],
        body
      )
      expect(answer).toMatch(/^HTTP\/1\.1 308 /)
      expect(answer).toMatch(new RegExp(`\\r\\nlocation: ${url}/oauth/reg\\r\\n`, "i"))
    }
    expect(await clients()).toBe(stored)
  })
})
