/**
 * First contact over HTTP: `GET /` leads a browser to the docs and anyone else to the index; the
 * large static documents (docs page, OpenAPI) are compressed for clients that accept it, and sent
 * as they are to those that do not; the MCP address the index announces answers MCP.
 * (The docs page in a real browser: test/browser/docs_page.test.ts.)
 */
import { request } from "node:http"
import { brotliDecompressSync, gunzipSync } from "node:zlib"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { preferredEncoding } from "../../src/http/negotiation.ts"
import { prefersHtml } from "../../src/pages/accept.ts"
import { initializeMessage, postMcp } from "../support/mcp.ts"
import { startServer, type TestServer } from "../support/server.ts"

let server: TestServer
beforeAll(async () => {
  server = await startServer()
})
afterAll(() => server.close())

interface Raw {
  readonly status: number
  readonly headers: Record<string, string | Array<string> | undefined>
  readonly body: Buffer
}

/** A request with exactly the headers given (fetch would add Accept-Encoding and decode the body). */
const raw = (path: string, headers: Record<string, string> = {}, method = "GET") =>
  new Promise<Raw>((resolve, reject) => {
    const req = request(`${server.url}${path}`, { method, headers }, (response) => {
      const chunks: Array<Buffer> = []
      response.on("data", (chunk: Buffer) => chunks.push(chunk))
      response.on("end", () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) })
      )
      response.on("error", reject)
    })
    req.on("error", reject)
    req.end()
  })

const browserAccept = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8"

describe("GET /", () => {
  it("redirects a browser to the docs page", async () => {
    const response = await raw("/", { accept: browserAccept })
    expect(response.status).toBe(302)
    expect(response.headers.location).toBe(`${server.url}/docs`)
    expect(response.headers.vary).toBe("accept")
  })

  it("answers anyone else with the service index itself, no redirect to follow", async () => {
    const index = JSON.parse((await raw("/api/public/v1")).body.toString())
    for (const accept of [undefined, "*/*", "application/json", "text/html;q=0.5, application/json"]) {
      const response = await raw("/", accept === undefined ? {} : { accept })
      expect(response.status, String(accept)).toBe(200)
      expect(response.headers["content-type"]).toContain("application/json")
      expect(response.headers["content-location"]).toBe("/api/public/v1")
      expect(response.headers.vary).toBe("accept")
      expect(JSON.parse(response.body.toString())).toEqual(index)
    }
  })

  it("accepts GET and HEAD only", async () => {
    const response = await raw("/", {}, "POST")
    expect(response.status).toBe(405)
    expect(response.headers.allow).toBe("GET, HEAD")
    expect(JSON.parse(response.body.toString()).error.code).toBe("method_not_allowed")
  })

  it("leaves the API's own paths JSON for a browser too", async () => {
    const response = await raw("/api/public/v1", { accept: browserAccept })
    expect(response.status).toBe(200)
    expect(response.headers["content-type"]).toContain("application/json")
  })

  it("reads Accept by quality and specificity", () => {
    expect(prefersHtml(browserAccept)).toBe(true)
    expect(prefersHtml("text/html")).toBe(true)
    expect(prefersHtml("text/*, application/json;q=0.9")).toBe(true)
    expect(prefersHtml(undefined)).toBe(false)
    expect(prefersHtml("*/*")).toBe(false)
    expect(prefersHtml("application/json, text/html")).toBe(false)
    expect(prefersHtml("text/html;q=0, */*")).toBe(false)
    expect(prefersHtml("text/html;q=bogus, application/json;q=0.1")).toBe(false)
  })
})

describe("compression of the docs page and the OpenAPI document", () => {
  for (const path of ["/docs", "/openapi.json", "/.well-known/openapi.json"]) {
    it(`${path}: as it is without Accept-Encoding, gzip or br when accepted, the same bytes`, async () => {
      const plain = await raw(path)
      expect(plain.status).toBe(200)
      expect(plain.headers["content-encoding"]).toBeUndefined()
      expect(plain.headers.vary).toBe("accept-encoding")
      expect(Number(plain.headers["content-length"])).toBe(plain.body.length)
      expect(plain.body.length).toBeGreaterThan(50_000)

      const gzipped = await raw(path, { "accept-encoding": "gzip, deflate" })
      expect(gzipped.headers["content-encoding"]).toBe("gzip")
      expect(gzipped.headers.vary).toBe("accept-encoding")
      expect(Number(gzipped.headers["content-length"])).toBe(gzipped.body.length)
      expect(gzipped.body.length).toBeLessThan(plain.body.length / 3)
      expect(gunzipSync(gzipped.body).equals(plain.body)).toBe(true)

      const brotli = await raw(path, { "accept-encoding": "gzip, deflate, br" })
      expect(brotli.headers["content-encoding"]).toBe("br")
      expect(Number(brotli.headers["content-length"])).toBe(brotli.body.length)
      expect(brotliDecompressSync(brotli.body).equals(plain.body)).toBe(true)

      // Kept: a second request gets the same compressed bytes.
      expect((await raw(path, { "accept-encoding": "br" })).body.equals(brotli.body)).toBe(true)
    })
  }

  it("sends identity when the client refuses every encoding it could get", async () => {
    for (const acceptEncoding of ["identity", "br;q=0, gzip;q=0", "deflate"]) {
      const response = await raw("/openapi.json", { "accept-encoding": acceptEncoding })
      expect(response.headers["content-encoding"], acceptEncoding).toBeUndefined()
      expect(() => JSON.parse(response.body.toString())).not.toThrow()
    }
  })

  it("leaves API answers uncompressed (nothing added to their path)", async () => {
    const response = await raw("/api/public/v1/capabilities", { "accept-encoding": "gzip, br" })
    expect(response.status).toBe(200)
    expect(response.headers["content-encoding"]).toBeUndefined()
  })

  it("picks the encoding by the client's qualities", () => {
    expect(preferredEncoding(undefined)).toBeUndefined()
    expect(preferredEncoding("gzip, deflate, br")).toBe("br")
    expect(preferredEncoding("br;q=0.5, gzip")).toBe("gzip")
    expect(preferredEncoding("br;q=0, gzip")).toBe("gzip")
    expect(preferredEncoding("*")).toBe("br")
    expect(preferredEncoding("*;q=0")).toBeUndefined()
    expect(preferredEncoding("x-gzip")).toBe("gzip")
    expect(preferredEncoding("identity, deflate")).toBeUndefined()
  })
})

describe("the MCP interface the index announces", () => {
  it("is served at the index's address, as the index and /capabilities say", async () => {
    const index = JSON.parse((await raw("/api/public/v1")).body.toString())
    expect(index.interfaces.mcp.note).toMatch(/^Served here: MCP over Streamable HTTP/)
    expect(index.mcp).toBe(`${server.url}/mcp`)
    expect(index.mcp_endpoint).toBe(index.mcp)
    const caps = JSON.parse((await raw("/api/public/v1/capabilities")).body.toString())
    expect(caps.interfaces.mcp).toMatchObject({ endpoint: index.mcp, transport: "streamable-http" })
    const response = await postMcp(index.mcp, initializeMessage())
    expect(response.status).toBe(200)
    expect(response.headers.get("mcp-session-id")).toMatch(/\S/)
    // Only that address: any other unknown path is still "no endpoint".
    const other = JSON.parse((await raw("/mcpx")).body.toString())
    expect(other.error.message).toBe("No endpoint at /mcpx.")
  })
})
