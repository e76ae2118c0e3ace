// The page frame and its headers: the document every page is, and the policy that lets in only its
// own stylesheet (by hash) and lets its forms lead only where the caller says.
import { createHash } from "node:crypto"
import { describe, expect, it } from "@effect/vitest"
import { html } from "../../src/pages/html.ts"
import {
  contentSecurityPolicy,
  formActionSourceOf,
  page,
  pageHeaders,
  stylesheet,
  stylesheetHash
} from "../../src/pages/layout.ts"
import { pageResponse } from "../../src/pages/respond.ts"

const document = String(page({ title: "Sign <in>", body: html`<h1>Hello</h1>` }))

describe("page", () => {
  it("is a whole document: doctype, English, phone viewport, no referrer, a titled head", () => {
    expect(document.startsWith('<!doctype html>\n<html lang="en">')).toBe(true)
    expect(document).toContain('<meta charset="utf-8">')
    expect(document).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">')
    expect(document).toContain('<meta name="referrer" content="no-referrer">')
    expect(document).toContain("<title>Sign &lt;in&gt; – Task Marketplace</title>")
    expect(document).toContain("<main>\n<h1>Hello</h1>\n</main>")
  })

  it("has one inline stylesheet, the one the policy's hash names, and no script or style attribute", () => {
    const styles = [...document.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((match) => match[1])
    expect(styles).toEqual([stylesheet])
    expect(stylesheetHash).toBe(`'sha256-${createHash("sha256").update(styles[0]!).digest("base64")}'`)
    expect(document).not.toMatch(/<script|\sstyle=|<link rel="stylesheet"/)
  })
})

describe("pageResponse", () => {
  it("sends a page as UTF-8 HTML, saying so, with every page's headers", () => {
    const response = pageResponse({ status: 404, html: html`<h1>Nothing here</h1>` })
    expect(response.status).toBe(404)
    expect(response.body._tag === "Uint8Array" && response.body.contentType).toBe("text/html; charset=utf-8")
    expect(response.headers["content-security-policy"]).toBe(pageHeaders()["content-security-policy"])
  })
})

describe("pageHeaders", () => {
  it("sends HTML that is not cached, sniffed, framed or referred from", () => {
    expect(pageHeaders()).toEqual({
      "content-type": "text/html; charset=utf-8",
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
      "referrer-policy": "no-referrer",
      "x-frame-options": "DENY",
      "content-security-policy": `default-src 'none'; style-src ${stylesheetHash}; img-src 'self' data:; base-uri 'none'; frame-ancestors 'none'; form-action 'self'`
    })
  })

  it("lets forms lead to the origins the caller names, always with 'self', each once", () => {
    expect(
      contentSecurityPolicy({
        formActionOrigins: [
          "https://app.example/oauth/callback?x=1",
          "https://app.example",
          "http://127.0.0.1:53211/callback",
          "com.example.app:/oauth2redirect"
        ]
      })
    ).toMatch(/; form-action 'self' https:\/\/app\.example http:\/\/127\.0\.0\.1:53211 com\.example\.app:$/)
  })

  it("leaves out what is no plain origin or scheme, so no directive can be added", () => {
    for (const bad of [
      "https://app.example;script-src https://evil.example",
      "https://a,b.example",
      "javascript:alert(1)",
      "data:text/html,x",
      "'unsafe-inline'",
      "*",
      "not a url"
    ])
      expect(formActionSourceOf(bad), bad).toBeUndefined()
    expect(contentSecurityPolicy({ formActionOrigins: ["https://app.example;script-src *", "*"] })).toMatch(
      /; form-action 'self'$/
    )
    expect(formActionSourceOf("https://Bücher.example/cb")).toBe("https://xn--bcher-kva.example")
  })

  it("names an IPv6 loopback redirect by its scheme, as Chromium ignores an IPv6 host in a source", () => {
    expect(formActionSourceOf("http://[::1]:53211/callback")).toBe("http:")
    expect(contentSecurityPolicy({ formActionOrigins: ["http://[::1]:53211/callback"] })).toMatch(
      /; form-action 'self' http:$/
    )
  })
})
