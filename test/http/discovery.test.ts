/**
 * The service index, /capabilities, the OpenAPI document and the well-known documents: every
 * published member, and each derived from the definitions the code runs on.
 */
import { createHash } from "node:crypto"
import { readFileSync } from "node:fs"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { endpoints } from "../../src/api/endpoints.ts"
import { errorCodes } from "../../src/api/envelope.ts"
import { defaultSettings } from "../../src/config/load.ts"
import { taskStates, transitions } from "../../src/domain/lifecycle.ts"
import { draftRules } from "../../src/domain/task_draft/fields.ts"
import { openApiDocument } from "../../src/http/openapi.ts"
import { publishedTaskStates } from "../support/contract.ts"
import { startServer, type TestServer } from "../support/server.ts"

interface Operation {
  readonly responses: Record<string, { content: Record<string, { schema: { $ref: string } }> }>
}

let server: TestServer
beforeAll(async () => {
  server = await startServer()
})
afterAll(() => server.close())

const get = async (path: string) => {
  const response = await fetch(`${server.url}${path}`)
  expect(response.status).toBe(200)
  expect(response.headers.get("content-type")).toContain("application/json")
  return response.json()
}

describe("service index (GET /api/public/v1)", () => {
  it("has every member the published document lists, with the published constants", async () => {
    const index = await get("/api/public/v1")
    for (const member of [
      "name",
      "version",
      "description",
      "base_url",
      "openapi",
      "documentation",
      "manifest",
      "agent_guidance",
      "mcp",
      "agent_card",
      "interfaces",
      "cold_start",
      "authentication",
      "execution_modes",
      "task_states",
      "mcp_endpoint",
      "endpoints",
      "contact"
    ]) {
      expect(index, member).toHaveProperty(member)
    }
    expect(index.version).toBe("v1")
    expect(index.base_url).toBe(`${server.url}/api/public/v1`)
    expect(index.openapi).toBe(`${server.url}/openapi.json`)
    expect(index.interfaces.rest.requires_installation).toBe(false)
    expect(index.interfaces.rest.base_url).toBe(index.base_url)
    expect(typeof index.interfaces.rest.note).toBe("string")
    expect(index.interfaces.mcp.requires_installation).toBe(true)
    expect(index.interfaces.mcp.endpoint).toBe(index.mcp)
    expect(index.mcp_endpoint).toBe(index.mcp)
    expect(index.authentication).toMatchObject({
      required: false,
      anonymous_discovery_supported: true,
      anonymous_preflight_supported: true,
      anonymous_task_submission_supported: true
    })
    expect(typeof index.authentication.description).toBe("string")
    expect(typeof index.authentication.documentation).toBe("string")
    expect(index.execution_modes).toEqual(["digital", "physical", "hybrid"])
    expect(index.task_states).toEqual([...publishedTaskStates])
    expect(index.cold_start.length).toBeGreaterThan(3)
    for (const step of index.cold_start) expect(typeof step).toBe("string")
  })

  it("lists exactly the endpoints of the HttpApi description, each with method, path and summary", async () => {
    const index = await get("/api/public/v1")
    expect(index.endpoints).toEqual(endpoints.map(({ method, path, summary }) => ({ method, path, summary })))
    const pairs = index.endpoints.map((e: { method: string; path: string }) => `${e.method} ${e.path}`)
    for (const published of [
      "GET /api/public/v1",
      "GET /api/public/v1/capabilities",
      "POST /api/public/v1/search",
      "GET /api/public/v1/participants",
      "GET /api/public/v1/participants/{slug}",
      "POST /api/public/v1/preflight",
      "POST /api/public/v1/tasks",
      "GET /api/public/v1/tasks/{reference}"
    ]) {
      expect(pairs).toContain(published)
    }
    for (const e of index.endpoints) expect(e.summary.length).toBeGreaterThan(3)
  })

  it("every address it names is absolute and answers", async () => {
    const index = await get("/api/public/v1")
    for (const member of ["openapi", "documentation", "manifest", "agent_card", "base_url"]) {
      expect(index[member]).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//)
      const response = await fetch(index[member])
      expect(response.status, member).toBe(200)
    }
  })
})

describe("capabilities (GET /api/public/v1/capabilities)", () => {
  it("is generated from the state machine, the draft rules and the error table", async () => {
    const caps = await get("/api/public/v1/capabilities")
    expect(caps.object).toBe("capabilities")
    expect(caps.task_states).toEqual([...taskStates])
    expect(caps.transitions).toHaveLength(transitions.length)
    expect(caps.transitions[0]).toEqual({ from: null, to: "open", actors: ["agent"], trigger: "POST /tasks accepted" })
    expect(caps.draft.required).toEqual(["action", "execution_mode", "expected_result", "acceptance_test"])
    expect(caps.draft.required).toEqual([...draftRules.required])
    expect(caps.draft.recommended).toEqual(["timing", "principal", "agent"])
    expect(caps.draft.limits.action).toBe(4000)
    expect(caps.draft.limits.idempotency_key).toBe(255)
    expect(Object.keys(caps.errors)).toEqual(Object.keys(errorCodes))
    expect(caps.idempotency.header).toBe("idempotency-key")
    // A key is a secret (issue 33): the minimum is published with the maximum.
    expect(caps.idempotency.min_length).toBe(16)
    expect(caps.idempotency.max_length).toBe(255)
    expect(caps.idempotency.secret).toMatch(/at least 16 characters; a UUID is recommended/)
    expect(caps.idempotency.retention).toMatch(/life of the task/)
    expect(caps.limits.max_body_bytes).toBe(65536)
    for (const key of ["version", "execution_modes", "authentication", "interfaces", "events"]) {
      expect(caps).toHaveProperty(key)
    }
  })

  it("every transition's states are task states", async () => {
    const caps = await get("/api/public/v1/capabilities")
    for (const t of caps.transitions) {
      if (t.from !== null) expect(taskStates).toContain(t.from)
      expect(taskStates).toContain(t.to)
    }
  })
})

describe("OpenAPI 3.1", () => {
  it("is served identically at /openapi.json, /api/openapi.json and /.well-known/openapi.json", async () => {
    const [a, b, c] = await Promise.all(["/openapi.json", "/api/openapi.json", "/.well-known/openapi.json"].map(get))
    expect(a.openapi).toBe("3.1.0")
    expect(a.info.version).toBe("1.0.0")
    expect(b).toEqual(a)
    expect(c).toEqual(a)
    expect(a.servers).toEqual([{ url: server.url, description: "This deployment" }])
  })

  it("documents every error response with the envelope", async () => {
    const doc = await get("/openapi.json")
    expect(doc.components.schemas.Error.properties.error.$ref).toBe("#/components/schemas/ErrorBody")
    for (const [path, operations] of Object.entries<Record<string, Operation>>(doc.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        const statuses = Object.keys(operation.responses)
        expect(statuses, `${method} ${path}`).toContain("405")
        expect(statuses, `${method} ${path}`).toContain("500")
        for (const status of statuses.filter((s) => Number(s) >= 400)) {
          expect(
            operation.responses[status]?.content["application/json"]?.schema.$ref,
            `${method} ${path} ${status}`
          ).toBe("#/components/schemas/Error")
        }
      }
    }
    expect(Object.keys(doc.paths["/api/public/v1/tasks"].post.responses)).toEqual(
      expect.arrayContaining(["201", "400", "413", "415", "422", "503"])
    )
    expect(Object.keys(doc.paths["/api/public/v1/tasks/{reference}"].get.responses)).toContain("404")
    expect(Object.keys(doc.paths["/api/public/v1/participants/{slug}"].get.responses)).toContain("404")
  })

  it("documents the two bearer credentials on the operations that take them", async () => {
    const doc = await get("/openapi.json")
    expect(Object.keys(doc.components.securitySchemes)).toEqual(
      expect.arrayContaining(["taskToken", "participantAccessToken"])
    )
    for (const path of ["/api/public/v1/tasks/{reference}/cancel", "/api/public/v1/tasks/{reference}/review"]) {
      expect(doc.paths[path].post.security).toEqual([{ taskToken: [] }])
    }
    for (const action of ["accept", "decline", "start", "submit"]) {
      expect(doc.paths[`/api/public/v1/tasks/{reference}/${action}`].post.security).toEqual([
        { participantAccessToken: [] }
      ])
    }
    expect(doc.paths["/api/public/v1/me"].get.security).toEqual([{ participantAccessToken: [] }])
    expect(doc.paths["/api/public/v1/me/tasks"].get.security).toEqual([{ participantAccessToken: [] }])
    expect(doc.paths["/api/public/v1/tasks"].post.security ?? []).toEqual([])
  })

  it("describes the participant's credential as OAuth 2.0, authorization code with PKCE, at the embedded server's addresses", async () => {
    const doc = await get("/openapi.json")
    const scheme = doc.components.securitySchemes.participantAccessToken
    expect(scheme.type).toBe("oauth2")
    expect(scheme.description).toContain("PKCE")
    // The addresses are those the authorization server's own metadata names (RFC 8414).
    const metadata = await get("/.well-known/oauth-authorization-server/oauth")
    expect(metadata.code_challenge_methods_supported).toContain("S256")
    expect(scheme.flows.authorizationCode.authorizationUrl).toBe(metadata.authorization_endpoint)
    expect(scheme.flows.authorizationCode.tokenUrl).toBe(metadata.token_endpoint)
    expect(Object.keys(scheme.flows.authorizationCode.scopes).sort()).toEqual(
      [...metadata.scopes_supported].filter((scope: string) => ["openid", "email", "profile"].includes(scope)).sort()
    )
    // Another issuer is named by its discovery document.
    const elsewhere = openApiDocument({
      ...defaultSettings(),
      publicBaseUrl: server.url,
      oauthIssuer: "https://auth.example.com"
    })
    expect(elsewhere.components.securitySchemes.participantAccessToken).toMatchObject({
      type: "openIdConnect",
      openIdConnectUrl: "https://auth.example.com/.well-known/openid-configuration"
    })
  })

  it("links the 201 of POST /tasks to the operations on the task it created, by its reference", async () => {
    const doc = await get("/openapi.json")
    const created = doc.paths["/api/public/v1/tasks"].post.responses["201"]
    expect(Object.keys(created.headers)).toEqual(expect.arrayContaining(["location", "etag", "idempotent-replayed"]))
    const links: Record<string, { operationId: string; parameters: Record<string, string> }> = created.links
    expect(Object.keys(links).sort()).toEqual(["cancelTask", "getTask", "listDeliveries", "reviewTask"])
    const operations = Object.values<
      Record<string, { operationId: string; parameters: Array<{ name: string; in: string }> }>
    >(doc.paths).flatMap((methods) => Object.values(methods))
    expect(doc.components.schemas.CreatedTask.required).toContain("reference")
    for (const link of Object.values(links)) {
      const target = operations.find((operation) => operation.operationId === link.operationId)
      expect(target, link.operationId).toBeDefined()
      expect(link.parameters.reference).toBe("$response.body#/reference")
      for (const qualified of Object.keys(link.parameters)) {
        const [where, name] = qualified.includes(".") ? qualified.split(".") : ["path", qualified]
        expect(
          target?.parameters.some((p) => p.name === name && p.in === where),
          `${link.operationId} ${qualified}`
        ).toBe(true)
      }
    }
    expect(links.getTask?.parameters["header.if-none-match"]).toBe("$response.header.etag")
  })

  it("documents GET /tasks/{reference}'s conditional form from the endpoint: If-None-Match, the 304 and the ETag", async () => {
    const doc = await get("/openapi.json")
    const getTask = doc.paths["/api/public/v1/tasks/{reference}"].get
    expect(getTask.parameters).toContainEqual(
      expect.objectContaining({ name: "if-none-match", in: "header", required: false })
    )
    expect(getTask.parameters).toContainEqual(
      expect.objectContaining({ name: "wait", in: "query", schema: expect.objectContaining({ type: "number" }) })
    )
    for (const status of ["200", "304"]) expect(Object.keys(getTask.responses[status].headers)).toContain("etag")
    expect(getTask.responses["304"].content).toBeUndefined()
  })

  it("matches the committed snapshot (a contract change is a deliberate snapshot update)", () => {
    // With the default settings, as `npm run openapi -- --write` writes it.
    const current = `${JSON.stringify(openApiDocument(defaultSettings()), null, 2)}\n`
    const committed = readFileSync(new URL("./__snapshots__/openapi.json", import.meta.url), "utf8")
    expect(current).toBe(committed)
  })
})

describe("well-known documents and docs", () => {
  it("serves RFC 9728 protected-resource metadata", async () => {
    const meta = await get("/.well-known/oauth-protected-resource")
    expect(meta.resource).toBe(`${server.url}/api/public/v1`)
    expect(Array.isArray(meta.authorization_servers)).toBe(true)
    expect(meta.scopes_supported).toEqual(["openid", "email", "profile"])
    expect(meta.bearer_methods_supported).toEqual(["header"])
  })

  it("names the configured OAuth issuer", async () => {
    const other = await startServer({ settings: { oauthIssuer: "https://auth.example.com" } })
    try {
      const meta = await (await fetch(`${other.url}/.well-known/oauth-protected-resource`)).json()
      expect(meta.authorization_servers).toEqual(["https://auth.example.com"])
    } finally {
      await other.close()
    }
  })

  it("sends the docs page with a policy: its inline scripts by hash, no framing, no eval", async () => {
    const response = await fetch(`${server.url}/docs`)
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8")
    expect(response.headers.get("x-frame-options")).toBe("DENY")
    expect(response.headers.get("x-content-type-options")).toBe("nosniff")
    const policy = Object.fromEntries(
      (response.headers.get("content-security-policy") ?? "")
        .split("; ")
        .map((d) => [d.split(" ")[0], d.slice(d.indexOf(" ") + 1)])
    )
    expect(policy["default-src"]).toBe("'none'")
    expect(policy["frame-ancestors"]).toBe("'none'")
    expect(policy["base-uri"]).toBe("'none'")
    expect(policy["form-action"]).toBe("'none'")
    expect(policy["connect-src"]).toBe(`'self' ${server.url}`)
    // Every inline script of the page, and nothing more: no 'unsafe-inline', no 'unsafe-eval'.
    const page = await response.text()
    const scripts = [...page.matchAll(/<script>([\s\S]*?)<\/script>/g)].map(([, text]) => text!)
    expect(scripts).toHaveLength(3)
    expect(policy["script-src"]).toBe(
      scripts.map((text) => `'sha256-${createHash("sha256").update(text).digest("base64")}'`).join(" ")
    )
  })

  it("states this deployment's timeouts and limits on the docs page, read from its settings", async () => {
    const statements = [
      "valid up to 5 minutes",
      "Answer 2xx within 3 seconds",
      "retried after 1 s, 90 s and 2 h (each wait lengthened by up to a tenth at random: a little over 2 hours in all)",
      "7 reads and 3 writes per 30 seconds",
      "must arrive within 2 seconds and the whole request within 4 seconds",
      "an uploaded file at most 1 MiB, and a result carries at most 3 files",
      "An offer not accepted within 2 hours",
      "not reviewed within 5 days",
      '{\\"advance\\": \\"PT3H\\"}',
      '\\"url\\": \\"https://agents.example.com/mcp\\"'
    ]
    const configured = await startServer({
      settings: {
        mcpUrl: "https://agents.example.com/mcp",
        oauthAccessTokenTtlMs: 5 * 60_000,
        offerTimeoutMs: 2 * 3600_000,
        reviewWindowMs: 5 * 24 * 3600_000,
        rateLimit: { readsPerWindow: 7, writesPerWindow: 3, windowMs: 30_000 },
        httpTimeouts: { headersMs: 2000, requestMs: 4000, keepAliveMs: 5000 },
        artifacts: { store: undefined, maxFileBytes: 1024 * 1024, maxFiles: 3 },
        webhooks: { allowPrivate: false, retryScheduleMs: [1000, 90_000, 7_200_000], timeoutMs: 3000 }
      }
    })
    try {
      const described = JSON.stringify((await (await fetch(`${configured.url}/openapi.json`)).json()).info.description)
      const page = await (await fetch(`${configured.url}/docs`)).text()
      const byDefault = JSON.stringify((await get("/openapi.json")).info.description)
      for (const statement of statements) {
        expect(described, statement).toContain(statement)
        expect(page, statement).toContain(statement)
        expect(byDefault, statement).not.toContain(statement)
      }
    } finally {
      await configured.close()
    }
  })

  it("serves an RFC 9727 API catalog and an agent card", async () => {
    const catalog = await get("/.well-known/api-catalog")
    expect(catalog.linkset[0]["service-desc"][0].href).toBe(`${server.url}/openapi.json`)
    const card = await get("/.well-known/agent-card.json")
    expect(card.url).toBe(`${server.url}/api/public/v1`)
  })

  it("serves the docs page at /docs, with an anchor for every error code", async () => {
    const response = await fetch(`${server.url}/docs`)
    expect(response.status).toBe(200)
    expect(response.headers.get("content-type")).toContain("text/html")
    const page = await response.text()
    // Scalar's bundled script (loaded on this first request), rendering the document this server
    // serves — its own address and security schemes included.
    expect(page).toContain("@scalar/api-reference")
    expect(page).toContain("window.Scalar.createApiReference")
    expect(page).toContain(`"servers":[{"url":"${server.url}"`)
    expect(page).toContain('"participantAccessToken"')
    // Rendered once: a second request answers the same page, with the same headers.
    const again = await fetch(`${server.url}/docs`, { headers: { "accept-encoding": "br" } })
    expect(again.headers.get("content-security-policy")).toBe(response.headers.get("content-security-policy"))
    expect(await again.text()).toBe(page)
    const doc = await get("/openapi.json")
    for (const code of Object.keys(errorCodes)) expect(doc.info.description).toContain(`id="error-${code}"`)
  })
})

describe("health", () => {
  it("GET /healthz answers while the process is up", async () => {
    expect(await get("/healthz")).toEqual({ object: "health", status: "ok" })
  })

  it("GET /readyz answers ready when the database answers and is migrated", async () => {
    expect(await get("/readyz")).toEqual({
      object: "health",
      status: "ready",
      checks: { database: "ok", migrations: "ok" }
    })
  })
})
