// HTML escaped by construction: the `html` template escapes what it interpolates, and no input of
// any page — however hostile — changes the page's markup, only its text.
import { describe, expect, it } from "@effect/vitest"
import {
  choosePasswordPage,
  consentPage,
  errorPage,
  linkProblemPage,
  passwordChosenPage,
  type RenderedPage,
  signedOutPage,
  signInPage,
  signOutPage
} from "../../src/oauth/pages.ts"
import { escapeHtml, html, isHtml, rawHtml, webUrlOf } from "../../src/pages/html.ts"

describe("the html template", () => {
  it("escapes & < > \" ' and ` in what it interpolates, never in its own literal parts", () => {
    const text = `<a href="x" title='y'>\`&amp;\``
    expect(String(html`<p class="a">${text}</p>`)).toBe(
      `<p class="a">&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&#96;&amp;amp;&#96;</p>`
    )
    expect(escapeHtml("plain words")).toBe("plain words")
  })

  it("keeps Html as it is (no double escaping) and escapes a string that only looks like markup", () => {
    const inner = html`<strong>${"a & b"}</strong>`
    expect(String(html`<p>${inner}</p>`)).toBe("<p><strong>a &amp; b</strong></p>")
    // An object with Html's outward shape is not Html.
    const forged = { toString: () => "<script>alert(1)</script>" } as unknown as string
    expect(String(html`${forged}`)).toBe("&lt;script&gt;alert(1)&lt;/script&gt;")
    expect(isHtml(inner)).toBe(true)
    expect(isHtml("<b>")).toBe(false)
  })

  it("joins lists (nested ones too) with nothing between, escaping their strings", () => {
    const items = ["<one>", "two"].map((item) => html`<li>${item}</li>`)
    expect(String(html`<ul>${items}</ul>`)).toBe("<ul><li>&lt;one&gt;</li><li>two</li></ul>")
    expect(String(html`${["a", ["<b>", html`<i>c</i>`]]}`)).toBe("a&lt;b&gt;<i>c</i>")
    expect(String(html`${[]}`)).toBe("")
  })

  it("renders nothing for undefined, null and false, and numbers as text", () => {
    const absent: string | undefined = undefined
    expect(String(html`[${absent}${null}${false}${false && html`<b>never</b>`}]`)).toBe("[]")
    expect(String(html`${0} ${429} ${1.5}`)).toBe("0 429 1.5")
  })

  it("takes rawHtml as it is: trusted markup only", () => {
    const form = `<form id="op.logoutForm" method="post" action="/oauth/session/end/confirm"><input type="hidden" name="xsrf" value="abc"/></form>`
    expect(String(html`<div>${rawHtml(form)}</div>`)).toBe(`<div>${form}</div>`)
  })

  it("lets only absolute http(s) URLs through webUrlOf", () => {
    expect(webUrlOf("https://app.example/about")).toBe("https://app.example/about")
    expect(webUrlOf("http://127.0.0.1:8080")).toBe("http://127.0.0.1:8080/")
    for (const bad of ["javascript:alert(1)", " JavaScript:alert(1)", "data:text/html,<b>", "/relative", "", undefined])
      expect(webUrlOf(bad)).toBeUndefined()
  })
})

// ---------------------------------------------------------------------------------------------
// Every page's inputs, hostile

const hostileText = [
  "<script>alert(1)</script>",
  `" onmouseover="alert(1)`,
  `' onfocus='alert(1)' x='`,
  // A backtick-quoted template placeholder, as text.
  "`$" + "{alert(1)}`",
  "</textarea></form><img src=x onerror=alert(1)>",
  "&lt;b&gt; already escaped"
].join(" ")
// URL-shaped, so that a page takes the same branch for it as for a harmless URL.
const hostileUrl = `https://evil.example/cb?next=<script>alert(1)</script>&q="onmouseover='x'\`#"><img src=x>`
const hostileCustomScheme = `com.evil.app:/cb?x="><script>alert(1)</script>`

/** Every page, built with every one of its inputs set from `text` and `url`. */
const everyPage = (text: string, url: string, customScheme: string): Record<string, RenderedPage> => ({
  signIn: signInPage({ action: url, csrfToken: text, clientName: text, email: text, error: text }),
  consent: consentPage({
    action: url,
    csrfToken: text,
    clientName: text,
    clientUri: url,
    redirectUri: url,
    scopes: ["openid", text],
    resources: [{ url, description: text }],
    accountEmail: text,
    signOutUrl: url
  }),
  consentNativeApp: consentPage({
    action: url,
    csrfToken: text,
    clientName: text,
    redirectUri: customScheme,
    scopes: [text],
    resources: [],
    accountEmail: text
  }),
  choosePassword: choosePasswordPage({ action: url, token: text, email: text, purpose: "invite", error: text }),
  passwordChosen: passwordChosenPage({ email: text, consoleUrl: url, docsUrl: url }),
  signOut: signOutPage({
    formHtml: `<form id="op.logoutForm" method="post" action="/x"><input type="hidden" name="xsrf" value="y"/></form>`,
    clientName: text
  }),
  signedOut: signedOutPage({ clientName: text }),
  error: errorPage({ status: 400, title: text, message: text, hint: text })
})

/** A page's markup without its text: each tag's name and attribute names, in order. */
const skeletonOf = (markup: string) =>
  (markup.match(/<[^>]*>/g) ?? []).map((tag) => tag.replace(/"[^"]*"/g, '""').replace(/\s+/g, " "))

describe("every page, given hostile inputs", () => {
  const hostile = everyPage(hostileText, hostileUrl, hostileCustomScheme)
  const harmless = everyPage("words", "https://app.example/cb", "com.example.app:/cb")

  for (const name of Object.keys(hostile)) {
    it(`${name}: shows them as text and its markup is what harmless inputs give`, () => {
      const markup = String(hostile[name]!.html)
      expect(markup).not.toMatch(/<script|<img|<\/textarea|["'] ?on(mouseover|focus)=|`/)
      expect(skeletonOf(markup)).toEqual(skeletonOf(String(harmless[name]!.html)))
      expect(markup).toContain("&lt;script&gt;alert(1)&lt;/script&gt;")
    })
  }

  it("does not link a client's homepage or a sign-out URL that is not http(s)", () => {
    const { html: consent } = consentPage({
      action: "/oauth/interaction/1/consent",
      csrfToken: "t",
      clientName: "App",
      clientUri: "javascript:alert(1)",
      redirectUri: "https://app.example/cb",
      scopes: ["openid"],
      resources: [],
      accountEmail: "a@example.com",
      signOutUrl: "javascript:alert(2)"
    })
    expect(String(consent)).not.toContain("javascript:")
    expect(String(consent)).not.toContain("<a ")
  })

  it("shows a hostile redirect URI that is no URL at all as text", () => {
    const { html: consent } = consentPage({
      action: "/a",
      csrfToken: "t",
      clientName: "App",
      redirectUri: hostileText,
      scopes: [],
      resources: [],
      accountEmail: "a@example.com"
    })
    expect(String(consent)).toContain(`Where it will send you: <strong>${escapeHtml(hostileText)}</strong>`)
    expect(String(consent)).not.toMatch(/<script|<img/)
  })

  it("names an unknown scope as it is, even one that is a property of every object", () => {
    const { html: consent } = consentPage({
      action: "/a",
      csrfToken: "t",
      clientName: "App",
      redirectUri: "https://app.example/cb",
      scopes: ["constructor", "__proto__", "toString"],
      resources: [],
      accountEmail: "a@example.com"
    })
    expect(String(consent)).toContain("<li>Use the permission “constructor”</li>")
    expect(String(consent)).toContain("<li>Use the permission “__proto__”</li>")
    expect(String(consent)).not.toContain("native code")
  })

  it("link problems have no inputs but their reason (and the console they lead to)", () => {
    for (const reason of ["unknown", "used", "replaced", "expired"] as const)
      expect(skeletonOf(String(linkProblemPage({ reason, consoleUrl: "/console" }).html))).toContain("<h1>")
  })
})
