/**
 * Every error the server can produce leaves in the published envelope (DECISIONS §8): unknown
 * paths, wrong methods, unreadable or oversized bodies, bad query parameters, unknown resources,
 * handler defects and storage failures — always JSON, never HTML, never internals.
 */
import { connect } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { endpoints } from "../../src/api/endpoints.ts"
import { errorCodes } from "../../src/api/envelope.ts"
import { StorageUnavailable } from "../../src/domain/errors.ts"
import { ParticipantDirectory } from "../../src/services/participant_directory.ts"
import { TaskStore } from "../../src/services/task_store.ts"
import { expectEnvelope, json, startServer, type TestServer, validDraft } from "../support/server.ts"
import { serverServicesWith } from "../support/services.ts"

const saneRequestId = /^[A-Za-z0-9._:@/+=-]{1,128}$/
const unknownReference = "tsk_aaaaaaaaaaaaaaaaaaaaaaaaaa"
const knownSlug = "ahmed-hassan"
const bodyEndpoints = ["/preflight", "/tasks", "/search"] as const
const allMethods = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const

/** A minimal body each body endpoint accepts (preflight 200, tasks 201, search 200). */
const acceptedBody = (path: (typeof bodyEndpoints)[number]): Record<string, unknown> =>
  path === "/search" ? { query: "photograph a shop front in Berlin" } : validDraft()
const acceptedStatus = (path: (typeof bodyEndpoints)[number]) => (path === "/tasks" ? 201 : 200)

const post = (url: string, body: BodyInit | null, headers: Record<string, string> = {}): Promise<Response> =>
  fetch(url, { method: "POST", headers, body })

/** A body streamed with chunked transfer encoding: no content-length is sent. */
const chunked = (
  url: string,
  bytes: Uint8Array<ArrayBuffer>,
  headers: Record<string, string> = {}
): Promise<Response> =>
  fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < bytes.length; i += 8192) controller.enqueue(bytes.slice(i, i + 8192))
        controller.close()
      }
    }),
    duplex: "half"
  } as RequestInit)

/** The JSON text of `value` padded with trailing whitespace (valid JSON) to exactly `size` bytes. */
const paddedJson = (value: unknown, size: number): Uint8Array<ArrayBuffer> => {
  const text = JSON.stringify(value)
  const length = Buffer.byteLength(text)
  if (length > size) throw new Error("value too large to pad")
  return new TextEncoder().encode(text + " ".repeat(size - length))
}

/** Asserts a well-formed envelope whatever its code (for statuses the decisions give no code for). */
const expectAnyEnvelope = (status: number, contentType: string | null, text: string) => {
  expect(contentType ?? "").toContain("application/json")
  const body = JSON.parse(text)
  expect(Object.keys(body)).toEqual(["error"])
  expect(body.error.status).toBe(status)
  expect(typeof body.error.code).toBe("string")
  expect(typeof body.error.message).toBe("string")
  expect(body.error.documentation_url).toMatch(/^https?:\/\//)
  return body.error as { code: string; status: number; message: string }
}

/** The path of an endpoint with its parameters filled in. */
const concrete = (path: string) => path.replace("{slug}", knownSlug).replace("{reference}", unknownReference)

/** Every API path (from the HttpApi description) plus the OpenAPI documents, with the methods each accepts. */
const routes = (() => {
  const table = new Map<string, Set<string>>()
  for (const e of endpoints) {
    const methods = table.get(e.path) ?? new Set<string>()
    methods.add(e.method)
    table.set(e.path, methods)
  }
  for (const path of ["/openapi.json", "/api/openapi.json", "/.well-known/openapi.json"])
    table.set(path, new Set(["GET"]))
  return [...table].map(([path, methods]) => ({ path, url: concrete(path), methods: [...methods] }))
})()

/** The Allow header the service sends: GET implies HEAD; fixed method order. */
const allowFor = (methods: ReadonlyArray<string>) =>
  ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"]
    .filter((m) => methods.includes(m) || (m === "HEAD" && methods.includes("GET")))
    .join(", ")

/** Writes raw bytes on a fresh connection and returns everything the server sends back. */
const rawRequest = (port: number, data: string) =>
  new Promise<string>((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => socket.write(data))
    let out = ""
    const timer = setTimeout(() => {
      socket.destroy()
      resolve(out)
    }, 2000)
    socket.on("data", (chunk) => {
      out += chunk.toString("utf8")
    })
    socket.on("end", () => {
      clearTimeout(timer)
      resolve(out)
    })
    socket.on("error", (error) => {
      clearTimeout(timer)
      reject(error)
    })
  })

const parseRawResponse = (raw: string) => {
  const split = raw.indexOf("\r\n\r\n")
  const head = split === -1 ? raw : raw.slice(0, split)
  const [statusLine = "", ...headerLines] = head.split("\r\n")
  const headers = Object.fromEntries(
    headerLines.map((line) => [
      line.slice(0, line.indexOf(":")).trim().toLowerCase(),
      line.slice(line.indexOf(":") + 1).trim()
    ])
  )
  return { status: Number(statusLine.split(" ")[1]), headers, body: split === -1 ? "" : raw.slice(split + 4) }
}

describe("errors", () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startServer()
  })
  afterAll(() => server.close())

  describe("unknown paths → 404 not_found", () => {
    // (`/` is not unknown: it leads to the docs or the index, test/http/first_contact.test.ts.)
    const paths = [
      "/nope",
      "/api/public/v2",
      "/api/public/v1/unknown",
      "/api/public/v1/%E2%98%83",
      "/%zz/%2e%2e/%00",
      `/api/public/v1/${"x".repeat(6000)}`
    ]
    for (const path of paths) {
      it(`GET ${path.length > 60 ? `${path.slice(0, 40)}… (${path.length} chars)` : path}`, async () => {
        const response = await fetch(`${server.url}${path}`)
        const error = await expectEnvelope(response, 404, "not_found")
        expect(error.hint).toContain("/api/public/v1")
        expect(error.message.length).toBeLessThan(400)
        expect(response.headers.get("access-control-allow-origin")).toBe("*")
      })
    }

    it("POST with a JSON body to an unknown path", async () => {
      await expectEnvelope(await fetch(`${server.url}/api/public/v1/nope`, json({ a: 1 })), 404, "not_found")
    })

    it("OPTIONS on an unknown path is 404 not_found, not a preflight answer", async () => {
      await expectEnvelope(await fetch(`${server.url}/nope`, { method: "OPTIONS" }), 404, "not_found")
    })
  })

  describe("wrong method → 405 method_not_allowed with Allow and a hint naming the right method", () => {
    it("the route table covers every endpoint of the API", () => {
      const paths = routes.map((r) => r.path)
      for (const path of [
        "/api/public/v1",
        "/api/public/v1/tasks",
        "/api/public/v1/tasks/{reference}",
        "/openapi.json"
      ]) {
        expect(paths).toContain(path)
      }
      expect(routes.length).toBe(new Set(endpoints.map((e) => e.path)).size + 3)
    })

    for (const route of routes) {
      const wrong = allMethods.filter((m) => !route.methods.includes(m))
      for (const method of wrong) {
        it(`${method} ${route.path}`, async () => {
          const hasBody = method !== "GET"
          const response = await fetch(`${server.url}${route.url}`, {
            method,
            ...(hasBody ? { headers: { "content-type": "application/json" }, body: JSON.stringify(validDraft()) } : {})
          })
          const allow = response.headers.get("allow")
          const error = await expectEnvelope(response, 405, "method_not_allowed")
          expect(allow).toBe(allowFor(route.methods))
          expect(error.hint).toMatch(
            /^Use (?:GET|HEAD|POST|PUT|PATCH|DELETE)(?: or (?:GET|HEAD|POST|PUT|PATCH|DELETE))* /
          )
          for (const right of route.methods.filter((m) => m !== "HEAD")) expect(error.hint).toContain(right)
          expect(error.message).toContain(method)
        })
      }
    }

    it("an unusual method (PURGE) on a GET endpoint", async () => {
      const response = await fetch(server.api("/participants"), { method: "PURGE" })
      expect(response.headers.get("allow")).toBe("GET, HEAD")
      const error = await expectEnvelope(response, 405, "method_not_allowed")
      expect(error.hint).toContain("Use GET /api/public/v1/participants")
    })
  })

  describe("OPTIONS on a known path → 204 with Allow and CORS headers", () => {
    for (const route of routes) {
      it(`OPTIONS ${route.path}`, async () => {
        const response = await fetch(`${server.url}${route.url}`, {
          method: "OPTIONS",
          headers: { origin: "https://agent.example", "access-control-request-method": route.methods[0]! }
        })
        expect(response.status).toBe(204)
        expect(await response.text()).toBe("")
        expect(response.headers.get("allow")).toBe(`${allowFor(route.methods)}, OPTIONS`)
        expect(response.headers.get("access-control-allow-origin")).toBe("*")
        expect(response.headers.get("access-control-allow-methods")).toBe(`${allowFor(route.methods)}, OPTIONS`)
        const allowHeaders = response.headers.get("access-control-allow-headers") ?? ""
        for (const h of ["content-type", "idempotency-key", "authorization"]) expect(allowHeaders).toContain(h)
        expect(response.headers.get("x-request-id")).toMatch(saneRequestId)
      })
    }
  })

  describe("content type → 415 unsupported_media_type", () => {
    for (const path of bodyEndpoints) {
      const body = JSON.stringify(acceptedBody(path))
      it(`${path}: text/plain`, async () => {
        await expectEnvelope(
          await post(server.api(path), body, { "content-type": "text/plain" }),
          415,
          "unsupported_media_type"
        )
      })
      it(`${path}: application/x-www-form-urlencoded`, async () => {
        await expectEnvelope(
          await post(server.api(path), new URLSearchParams({ action: "x" })),
          415,
          "unsupported_media_type"
        )
      })
      it(`${path}: multipart/form-data`, async () => {
        const form = new FormData()
        form.set("action", "x")
        await expectEnvelope(await post(server.api(path), form), 415, "unsupported_media_type")
      })
      it(`${path}: no content-type with a non-empty body`, async () => {
        // A Uint8Array body makes fetch send no content-type at all.
        const response = await post(server.api(path), new TextEncoder().encode(body))
        const error = await expectEnvelope(response, 415, "unsupported_media_type")
        expect(error.message).toContain("none was sent")
      })
      it(`${path}: application/json; charset=utf-8 is accepted`, async () => {
        const response = await post(server.api(path), body, { "content-type": "application/json; charset=utf-8" })
        expect(response.status).toBe(acceptedStatus(path))
      })
    }
  })

  describe("malformed JSON → 400 invalid_json", () => {
    const malformed: ReadonlyArray<readonly [string, string]> = [
      ["truncated", '{"action": "Photograph the shop'],
      ["trailing garbage", '{"action": "x"} garbage'],
      ["two objects", '{"action": "x"}{"action": "y"}'],
      ["single quotes", "{'action': 'x'}"],
      ["trailing comma", '{"action": "x",}'],
      ["unquoted key", "{action: 1}"],
      ["NaN literal", '{"limit": NaN}'],
      ["comment", '{"action": "x" /* c */}'],
      ["raw control character in a string", '{"action": "a\u0001b"}'],
      ["empty body", ""],
      ["whitespace only", "  \n\t "]
    ]
    for (const path of bodyEndpoints) {
      for (const [name, text] of malformed) {
        it(`${path}: ${name}`, async () => {
          await expectEnvelope(
            await post(server.api(path), text, { "content-type": "application/json" }),
            400,
            "invalid_json"
          )
        })
      }
      it(`${path}: no body and no content-type`, async () => {
        await expectEnvelope(await fetch(server.api(path), { method: "POST" }), 400, "invalid_json")
      })
      it(`${path}: a UTF-8 BOM before the JSON is ignored (RFC 8259 §8.1 permits it) → accepted`, async () => {
        const response = await post(server.api(path), `\uFEFF${JSON.stringify(acceptedBody(path))}`, {
          "content-type": "application/json"
        })
        expect(response.status).toBe(acceptedStatus(path))
      })
    }
  })

  describe("a JSON value that is not an object → 400 invalid_request", () => {
    const values = ["null", "[]", "[1]", '"str"', "42", "true", "false", '[{"action":"x"}]']
    for (const path of bodyEndpoints) {
      for (const value of values) {
        it(`${path}: ${value}`, async () => {
          const error = await expectEnvelope(
            await post(server.api(path), value, { "content-type": "application/json" }),
            400,
            "invalid_request"
          )
          expect(error.message).toContain("JSON object")
        })
      }
    }
  })

  describe("bodies over 64 KiB → 413 payload_too_large", () => {
    const limit = 65536
    for (const path of bodyEndpoints) {
      it(`${path}: exactly 65536 bytes with content-length is accepted`, async () => {
        const bytes = paddedJson(acceptedBody(path), limit)
        expect(bytes.length).toBe(limit)
        const response = await post(server.api(path), bytes, { "content-type": "application/json" })
        expect(response.status).toBe(acceptedStatus(path))
      })
      it(`${path}: 65537 bytes with content-length`, async () => {
        const response = await post(server.api(path), paddedJson(acceptedBody(path), limit + 1), {
          "content-type": "application/json"
        })
        await expectEnvelope(response, 413, "payload_too_large")
      })
      it(`${path}: exactly 65536 bytes chunked (no content-length) is accepted`, async () => {
        const response = await chunked(server.api(path), paddedJson(acceptedBody(path), limit))
        expect(response.status).toBe(acceptedStatus(path))
      })
      it(`${path}: 65537 bytes chunked (no content-length)`, async () => {
        await expectEnvelope(
          await chunked(server.api(path), paddedJson(acceptedBody(path), limit + 1)),
          413,
          "payload_too_large"
        )
      })
      it(`${path}: 1 MiB chunked`, async () => {
        await expectEnvelope(
          await chunked(server.api(path), new Uint8Array(1 << 20).fill(0x20)),
          413,
          "payload_too_large"
        )
      })
      it(`${path}: size is checked before the content type (65537 bytes of text/plain)`, async () => {
        const response = await post(server.api(path), "x".repeat(limit + 1), { "content-type": "text/plain" })
        await expectEnvelope(response, 413, "payload_too_large")
      })
    }

    it("the server still answers normally after oversized bodies", async () => {
      const response = await fetch(server.api(""))
      expect(response.status).toBe(200)
    })
  })

  describe("unknown resources → 404", () => {
    // (No "..": fetch resolves dot segments before sending, so it would never reach the server.)
    const slugs = ["nobody-here", "AHMED-HASSAN", "a", "%00%27%20OR%201%3D1", "a..b", "x".repeat(100)]
    for (const slug of slugs) {
      it(`participant ${slug.length > 40 ? `${slug.slice(0, 10)}… (${slug.length} chars)` : slug}`, async () => {
        const error = await expectEnvelope(
          await fetch(server.api(`/participants/${slug}`)),
          404,
          "participant_not_found"
        )
        expect(error.hint).toContain("/api/public/v1/participants")
      })
    }

    const references = [
      unknownReference,
      "tsk_",
      "nope",
      "TSK_AAAAAAAAAAAAAAAAAAAAAAAAAA",
      `tsk_${"a".repeat(27)}`,
      "%27%3B%20DROP%20TABLE%20tasks%3B--",
      "..%2F..%2Fetc%2Fpasswd",
      "x".repeat(100)
    ]
    for (const reference of references) {
      it(`task ${reference}`, async () => {
        const error = await expectEnvelope(await fetch(server.api(`/tasks/${reference}`)), 404, "task_not_found")
        expect(error.hint).toContain("POST /api/public/v1/tasks")
      })
    }

    // The contract's "404 Error when unknown" holds whatever the length of the unknown value: the
    // endpoint exists, so "No endpoint at …" (not_found) would send the agent to the wrong fix.
    it("task with a 101-character garbage reference → task_not_found (not not_found)", async () => {
      await expectEnvelope(await fetch(server.api(`/tasks/${"x".repeat(101)}`)), 404, "task_not_found")
    })
    it("participant with a 200-character slug → participant_not_found (not not_found)", async () => {
      await expectEnvelope(await fetch(server.api(`/participants/${"a".repeat(200)}`)), 404, "participant_not_found")
    })
    it("DELETE on a task path with a 200-character reference → 405 (the path exists)", async () => {
      const response = await fetch(server.api(`/tasks/${"x".repeat(200)}`), { method: "DELETE" })
      await expectEnvelope(response, 405, "method_not_allowed")
    })
  })

  describe("query parameters → 400 invalid_request", () => {
    const bad = [
      "limit=0",
      "limit=501",
      "limit=abc",
      "limit=1.5",
      "limit=-1",
      "limit=",
      "limit=1e2",
      "limit=99999999999999999999",
      "cursor=garbage",
      "cursor=",
      `cursor=${"A".repeat(300)}`,
      `cursor=${Buffer.from("before:ahmed-hassan").toString("base64url")}`,
      "limit=1&limit=2"
    ]
    for (const query of bad) {
      it(`GET /participants?${query.length > 60 ? `${query.slice(0, 20)}…` : query}`, async () => {
        await expectEnvelope(await fetch(server.api(`/participants?${query}`)), 400, "invalid_request")
      })
    }

    it("the limits themselves are accepted (limit=1, limit=500)", async () => {
      expect((await fetch(server.api("/participants?limit=1"))).status).toBe(200)
      expect((await fetch(server.api("/participants?limit=500"))).status).toBe(200)
    })

    it("unknown query parameters are ignored", async () => {
      expect((await fetch(server.api("/participants?foo=bar&limit=2"))).status).toBe(200)
    })
  })

  describe("x-request-id", () => {
    const requests: ReadonlyArray<readonly [string, () => Promise<Response>]> = [
      ["200 index", () => fetch(server.api(""))],
      ["404 unknown path", () => fetch(`${server.url}/nope`)],
      ["405", () => fetch(server.api("/tasks"), { method: "DELETE" })],
      ["400 invalid_json", () => post(server.api("/preflight"), "{", { "content-type": "application/json" })],
      ["415", () => post(server.api("/preflight"), "{}", { "content-type": "text/plain" })],
      ["413", () => post(server.api("/preflight"), "x".repeat(70_000), { "content-type": "application/json" })],
      ["404 task", () => fetch(server.api(`/tasks/${unknownReference}`))],
      ["204 OPTIONS", () => fetch(server.api("/tasks"), { method: "OPTIONS" })]
    ]
    for (const [name, request] of requests) {
      it(`every response carries one: ${name}`, async () => {
        const response = await request()
        await response.arrayBuffer()
        expect(response.headers.get("x-request-id")).toMatch(saneRequestId)
      })
    }

    it("generated ids differ per request", async () => {
      const ids = await Promise.all(
        [1, 2, 3].map(() => fetch(server.api("")).then((r) => r.headers.get("x-request-id")))
      )
      expect(new Set(ids).size).toBe(3)
    })

    const sane = ["req_01HZX7Q-abc.def:ghi@example/x+y=", "a", "0f8fad5b-d9cb-469f-a165-70867728950e", "r".repeat(128)]
    for (const id of sane) {
      it(`a sane incoming id is echoed: ${id.slice(0, 40)}`, async () => {
        const response = await fetch(`${server.url}/nope`, { headers: { "x-request-id": id } })
        await response.arrayBuffer()
        expect(response.headers.get("x-request-id")).toBe(id)
      })
    }

    const insane = ["has spaces in it", "x".repeat(500), "r".repeat(129), "<script>", "a;b", '"quoted"', "tab\there"]
    for (const id of insane) {
      it(`an insane incoming id is replaced: ${JSON.stringify(id.slice(0, 30))}`, async () => {
        const response = await fetch(server.api(""), { headers: { "x-request-id": id } })
        await response.arrayBuffer()
        const echoed = response.headers.get("x-request-id")
        expect(echoed).not.toBe(id)
        expect(echoed).toMatch(saneRequestId)
      })
    }
  })

  describe("API paths never answer HTML, whatever Accept says", () => {
    const requests: ReadonlyArray<readonly [string, string, RequestInit]> = [
      ["index", "/api/public/v1", {}],
      ["capabilities", "/api/public/v1/capabilities", {}],
      ["participants", "/api/public/v1/participants", {}],
      ["participant 404", "/api/public/v1/participants/nobody-here", {}],
      ["task 404", `/api/public/v1/tasks/${unknownReference}`, {}],
      ["unknown API path", "/api/public/v1/nope", {}],
      ["unknown path", "/nope", {}],
      ["405", "/api/public/v1/preflight", {}],
      ["openapi.json", "/openapi.json", {}],
      [
        "preflight 400",
        "/api/public/v1/preflight",
        { method: "POST", body: "{", headers: { "content-type": "application/json" } }
      ],
      [
        "tasks 415",
        "/api/public/v1/tasks",
        { method: "POST", body: "<html></html>", headers: { "content-type": "text/html" } }
      ]
    ]
    for (const [name, path, init] of requests) {
      it(name, async () => {
        const response = await fetch(`${server.url}${path}`, {
          ...init,
          headers: { ...(init.headers as Record<string, string>), accept: "text/html,application/xhtml+xml;q=0.9" }
        })
        expect(response.headers.get("content-type")).toContain("application/json")
        const text = await response.text()
        expect(text.trimStart().startsWith("<")).toBe(false)
        expect(() => JSON.parse(text)).not.toThrow()
      })
    }
  })

  // Responses Node's HTTP parser sends before the app sees the request. The published document
  // says every response, including every error, is JSON.
  describe("errors produced before routing are the envelope too", () => {
    it("a request line over Node's 16 KiB header limit (GET /participants?q= of 20 KB) → a JSON envelope", async () => {
      const response = await fetch(server.api(`/participants?q=${"a".repeat(20_000)}`))
      expect(response.status).toBeGreaterThanOrEqual(400)
      expect(response.status).toBeLessThan(500)
      expectAnyEnvelope(response.status, response.headers.get("content-type"), await response.text())
    })

    it("a header over Node's 16 KiB header limit → a JSON envelope", async () => {
      const raw = await rawRequest(
        Number(new URL(server.url).port),
        `GET /api/public/v1 HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: ${"a".repeat(20_000)}\r\n\r\n`
      )
      const response = parseRawResponse(raw)
      expect(response.status).toBeGreaterThanOrEqual(400)
      expect(response.status).toBeLessThan(500)
      expectAnyEnvelope(response.status, response.headers["content-type"] ?? null, response.body)
    })

    it("a malformed request line → 400 with a JSON envelope", async () => {
      const raw = await rawRequest(Number(new URL(server.url).port), "GARBAGE\r\n\r\n")
      const response = parseRawResponse(raw)
      expect(response.status).toBe(400)
      expectAnyEnvelope(400, response.headers["content-type"] ?? null, response.body)
    })

    const port = () => Number(new URL(server.url).port)

    it("an HTTP/1.1 request without Host → 400 invalid_request in the envelope, connection closed", async () => {
      const response = parseRawResponse(await rawRequest(port(), "GET /api/public/v1 HTTP/1.1\r\n\r\n"))
      expect(response.status).toBe(400)
      expect(response.headers.connection?.toLowerCase()).toBe("close")
      expectAnyEnvelope(400, response.headers["content-type"] ?? null, response.body)
      expect(JSON.parse(response.body).error.code).toBe("invalid_request")
      expect(JSON.parse(response.body).error.message).toContain("Host")
    })

    it("an HTTP/1.0 request without Host is served (Host is HTTP/1.1's requirement)", async () => {
      const response = parseRawResponse(await rawRequest(port(), "GET /api/public/v1/capabilities HTTP/1.0\r\n\r\n"))
      expect(response.status).toBe(200)
      expect(JSON.parse(response.body).object).toBe("capabilities")
    })

    it("Expect: anything but 100-continue → 417 expectation_failed in the envelope, and nothing else runs", async () => {
      const response = parseRawResponse(
        await rawRequest(
          port(),
          "POST /api/public/v1/tasks HTTP/1.1\r\nHost: 127.0.0.1\r\nExpect: 200-ok\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n{}"
        )
      )
      expect(response.status).toBe(417)
      expectAnyEnvelope(417, response.headers["content-type"] ?? null, response.body)
      expect(JSON.parse(response.body).error.code).toBe("expectation_failed")
    })

    it("Expect: 100-continue still works", async () => {
      const raw = await rawRequest(
        port(),
        "POST /api/public/v1/preflight HTTP/1.1\r\nHost: 127.0.0.1\r\nExpect: 100-continue\r\ncontent-type: application/json\r\ncontent-length: 2\r\nConnection: close\r\n\r\n{}"
      )
      expect(raw).toContain("HTTP/1.1 200 OK")
      expect(JSON.parse(parseRawResponse(raw.slice(raw.indexOf("HTTP/1.1 200"))).body).object).toBe("preflight")
    })

    it("CONNECT → 400 invalid_request in the envelope (this server is not a proxy)", async () => {
      const response = parseRawResponse(
        await rawRequest(port(), "CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n")
      )
      expect(response.status).toBe(400)
      expectAnyEnvelope(400, response.headers["content-type"] ?? null, response.body)
      expect(JSON.parse(response.body).error.message).toContain("CONNECT")
    })
  })
})

// ------------------------------------------------------------------------------------------------
// Services that fail: the production composition (src/app.ts) with one layer swapped.
// ------------------------------------------------------------------------------------------------

const secret = "SELECT * FROM secret_table boom"
const boom = () => Effect.die(new Error(secret))

/** Reads, matching and search die; the seeding at start-up (count, upsertMany) still works. */
const DyingDirectory = Layer.succeed(
  ParticipantDirectory,
  ParticipantDirectory.of({
    list: boom,
    findBySlug: boom,
    everyone: boom(),
    matching: boom(),
    upsertMany: (records) => Effect.succeed(records.length),
    isAvailable: boom,
    setAvailable: boom,
    count: Effect.succeed(1)
  })
)

/** insert throws synchronously (not even an Effect), findByReference and versionOf die with a non-Error value. */
const DyingStore = Layer.succeed(
  TaskStore,
  TaskStore.of({
    insert: () => {
      throw new Error(`${secret} at Object.insert (/work/src/services/task_store.ts:42:7)`)
    },
    findByReference: () => Effect.die({ sql: secret, stack: "at x (task_store.ts:1:1)" }),
    findByIdempotencyKey: () => Effect.die({ sql: secret, stack: "at x (task_store.ts:1:1)" }),
    versionOf: () => Effect.die({ sql: secret, stack: "at x (task_store.ts:1:1)" }),
    update: () => Effect.die(new Error(secret)),
    due: () => Effect.succeed([]),
    forParticipant: () => Effect.die(new Error(secret)),
    heldBy: () => Effect.succeed([])
  })
)

const UnavailableStore = Layer.succeed(
  TaskStore,
  TaskStore.of({
    insert: () => Effect.fail(new StorageUnavailable({ cause: new Error(`SQLITE_BUSY: ${secret}`) })),
    findByReference: () => Effect.fail(new StorageUnavailable({ cause: new Error(`SQLITE_BUSY: ${secret}`) })),
    findByIdempotencyKey: () => Effect.fail(new StorageUnavailable({ cause: new Error(`SQLITE_BUSY: ${secret}`) })),
    versionOf: () => Effect.fail(new StorageUnavailable({ cause: new Error(`SQLITE_BUSY: ${secret}`) })),
    update: () => Effect.fail(new StorageUnavailable({ cause: new Error(`SQLITE_BUSY: ${secret}`) })),
    due: () => Effect.succeed([]),
    forParticipant: () => Effect.fail(new StorageUnavailable({ cause: new Error(`SQLITE_BUSY: ${secret}`) })),
    heldBy: () => Effect.succeed([])
  })
)

const completeDraft = { action: "a", execution_mode: "digital", expected_result: "r", acceptance_test: "t" }

const expectNothingInternal = (text: string) => {
  for (const leak of ["SELECT", "secret_table", "boom", "at ", ".ts", "SQLITE", "stack", "Error:"]) {
    expect(text).not.toContain(leak)
  }
}

describe("handler defects → 500 internal_error, nothing internal disclosed", () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startServer({ services: serverServicesWith(Layer.merge(DyingDirectory, DyingStore)) })
  })
  afterAll(() => server.close())

  const requests: ReadonlyArray<readonly [string, (s: TestServer) => Promise<Response>]> = [
    ["GET /participants (directory dies)", (s) => fetch(s.api("/participants"))],
    ["GET /participants/{slug} (directory dies)", (s) => fetch(s.api(`/participants/${knownSlug}`))],
    ["POST /preflight (matching dies)", (s) => fetch(s.api("/preflight"), json(validDraft()))],
    ["POST /search (directory dies)", (s) => fetch(s.api("/search"), json({ query: "photograph a shop" }))],
    [
      "POST /tasks (store.insert throws synchronously)",
      (s) => fetch(s.api("/tasks"), json(completeDraft, { "idempotency-key": "defect-probe-key-0001" }))
    ],
    ["GET /tasks/{reference} (store dies with a non-Error)", (s) => fetch(s.api(`/tasks/${unknownReference}`))],
    [
      "GET /tasks/{reference} with If-None-Match (store dies with a non-Error)",
      (s) => fetch(s.api(`/tasks/${unknownReference}`), { headers: { "if-none-match": '"aaaaaaaa-1"' } })
    ]
  ]
  for (const [name, request] of requests) {
    it(name, async () => {
      const response = await request(server)
      const requestId = response.headers.get("x-request-id")
      const clone = response.clone()
      const error = await expectEnvelope(response, 500, "internal_error")
      expectNothingInternal(await clone.text())
      expect(requestId).toMatch(saneRequestId)
      expect(error.hint).toContain(requestId!)
    })
  }

  it("the service still answers after the defects", async () => {
    expect((await fetch(server.api(""))).status).toBe(200)
  })
})

describe("storage unavailable → 503 with Retry-After", () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startServer({ services: serverServicesWith(UnavailableStore) })
  })
  afterAll(() => server.close())

  it("submission → 503 task_not_created, Retry-After, a hint to retry with the same key", async () => {
    const response = await fetch(
      server.api("/tasks"),
      json(completeDraft, { "idempotency-key": "retry-me-with-this-key" })
    )
    const retryAfter = response.headers.get("retry-after")
    const clone = response.clone()
    const error = await expectEnvelope(response, 503, "task_not_created")
    expect(retryAfter).toMatch(/^[1-9]\d*$/)
    expect(error.hint).toContain("idempotency key")
    expectNothingInternal(await clone.text())
  })

  for (const [name, headers] of [
    ["read", {}],
    ["revalidation (If-None-Match)", { "if-none-match": '"aaaaaaaa-1"' }]
  ] as const) {
    it(`${name} → 503 storage_unavailable with Retry-After`, async () => {
      const response = await fetch(server.api(`/tasks/${unknownReference}`), { headers })
      const retryAfter = response.headers.get("retry-after")
      const clone = response.clone()
      await expectEnvelope(response, 503, "storage_unavailable")
      expect(retryAfter).toMatch(/^[1-9]\d*$/)
      expectNothingInternal(await clone.text())
    })
  }

  it("an incomplete draft is still 422 (validation needs no storage)", async () => {
    const response = await fetch(server.api("/tasks"), json({ action: "a" }))
    await expectEnvelope(response, 422, "preflight_failed")
  })

  it("every code used above is a documented code with that status", () => {
    expect(errorCodes.task_not_created.status).toBe(503)
    expect(errorCodes.storage_unavailable.status).toBe(503)
    expect(errorCodes.internal_error.status).toBe(500)
  })
})
