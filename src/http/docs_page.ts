/**
 * The docs page: Scalar's API reference over the OpenAPI document this deployment serves (with its
 * security schemes and folded error envelope, and its own server address).
 *
 * Scalar's browser bundle (6 MB of JavaScript, shipped inside `effect`) is loaded on the first
 * request for the page, not at start-up: loaded eagerly it was a quarter of the idle heap and a
 * tenth of start-up for a page few requests ever ask for. The page is sent with a
 * Content-Security-Policy that names its inline scripts by hash and forbids framing it.
 */
import * as HttpRouter from "effect/http/HttpRouter"
import * as HttpApi from "effect/http-api/HttpApi"
import type { ScalarConfig } from "effect/http-api/HttpApiScalar"
import * as OpenApi from "effect/http-api/OpenApi"
import { formActionSourceOf, htmlContentType, inlineScriptHashes } from "../pages/layout.ts"
import { staticDocument } from "./negotiation.ts"

/**
 * The plain anchors the API hands out — `#agent-guidance`, `#authentication`, `#contact` (the
 * service index) and `#error-<code>` (every `documentation_url`) — brought to what Scalar renders
 * for them. Scalar gives the description's headings its own ids (`api-1/description/<slug>`) and
 * renders after the browser has looked for the fragment, so the browser alone lands nowhere: this
 * waits for the target to exist, scrolls to it and marks an error's entry. Scalar's own routes
 * (`#tag/…`, `#description/…`, with a slash) are left to Scalar.
 */
const anchorScript = `(() => {
  let observer
  const find = (name) =>
    document.getElementById(name) ?? document.querySelector('[id$="/description/' + CSS.escape(name) + '"]')
  const land = () => {
    const name = decodeURIComponent(location.hash.slice(1))
    if (name === "" || name.includes("/")) return false
    const target = find(name)
    if (target === null) return false
    const row = target.closest("li, tr")
    for (const marked of document.querySelectorAll(".anchor-target")) marked.classList.remove("anchor-target")
    row?.classList.add("anchor-target")
    ;(row ?? target).scrollIntoView({ block: row === null ? "start" : "center" })
    return true
  }
  const follow = () => {
    observer?.disconnect()
    if (land()) return
    const watching = new MutationObserver(() => land() && watching.disconnect())
    watching.observe(document.body, { childList: true, subtree: true })
    // A hash that names nothing is not watched for ever.
    setTimeout(() => watching.disconnect(), 15000)
    observer = watching
  }
  addEventListener("hashchange", follow)
  follow()
})()`

/**
 * Scalar's page for `document`, as Effect's public `HttpApiScalar` renders it: an API with no
 * endpoints whose OpenAPI transform returns the document this deployment serves, mounted on a
 * router of its own and asked once for its page. The bundle (6 MB) is imported with the module,
 * on the first request for the page.
 *
 * Scalar's bundle mounts an app of its own on any element with the id `api-reference`; Effect's
 * page uses another id, so the page holds one app. Its first screen is the title and the
 * description, which opens with the agent guidance.
 */
const scalarPage = async (document: OpenApi.OpenAPISpec): Promise<string> => {
  const { layer } = await import("effect/http-api/HttpApiScalar")
  const api = HttpApi.make("docs").annotate(OpenApi.Transform, () => document)
  const scalar = { showDeveloperTools: "never", withDefaultFonts: false } as ScalarConfig
  const { handler, dispose } = HttpRouter.toWebHandler(layer(api, { path: "/docs", scalar }), {
    disableLogger: true
  })
  try {
    return await (await handler(new Request("http://docs.invalid/docs"))).text()
  } finally {
    await dispose()
  }
}

/**
 * `addition` placed in `page` before `marker`: its first occurrence (`</head>`, which comes before
 * Scalar's bundle) or its last (`</body>`, which comes after it: the bundle's own text holds both
 * words). A page without the marker gets the addition at its end, where a browser still reads it.
 */
const insert = (page: string, marker: string, occurrence: "first" | "last", addition: string) => {
  const at = occurrence === "first" ? page.indexOf(marker) : page.lastIndexOf(marker)
  return at === -1 ? page + addition : page.slice(0, at) + addition + page.slice(at)
}

/** `addition` placed right after the page's `<body …>` tag. */
const openingBody = (page: string, addition: string) => {
  const at = page.search(/<body[^>]*>/i)
  if (at === -1) return addition + page
  const end = page.indexOf(">", at) + 1
  return page.slice(0, end) + addition + page.slice(end)
}

/**
 * The page: Scalar's, with the page's language, an empty icon (no request for `/favicon.ico`),
 * the mark of an anchor's target, the anchor script, and the page without JavaScript first in its
 * body (docs_fallback.ts).
 */
const render = (page: string, fallback: string) => {
  const withLanguage = page.replace(/^<!doctype html>\s*<html>/i, '<!doctype html>\n<html lang="en">')
  const head = `<link rel="icon" href="data:," />
    <style>
      .anchor-target { background: var(--scalar-background-accent, #eef4ff); outline: 2px solid var(--scalar-color-accent, #0f62fe); border-radius: 4px; }
      [id] { scroll-margin-top: 1rem; }
    </style>
  `
  return insert(
    openingBody(insert(withLanguage, "</head>", "first", head), fallback),
    "</body>",
    "last",
    `<script>${anchorScript}</script>\n  `
  )
}

/**
 * The page's Content-Security-Policy. Scripts: the page's three inline scripts (Scalar's bundle,
 * the call that mounts it, the anchor script) by their hashes, and nothing else. Styles: inline,
 * since Scalar's app writes its own `<style>` elements and style attributes as it renders (a hash
 * cannot name them). Requests: this origin and the deployment's (the document's `servers`), which
 * Scalar's "Test Request" calls; the OpenAPI document is in the page, not fetched. No fonts (Scalar's
 * are off), no frames of it anywhere, no forms sent, no `<base>`.
 */
export const docsPagePolicy = (page: string, document: OpenApi.OpenAPISpec): string => {
  const hashes = inlineScriptHashes(page)
  const apiOrigins = new Set(["'self'"])
  for (const server of document.servers ?? []) {
    const source = formActionSourceOf(server.url)
    if (source?.includes("//")) apiOrigins.add(source)
  }
  return [
    "default-src 'none'",
    `script-src ${hashes.join(" ")}`,
    "style-src 'unsafe-inline'",
    "img-src 'self' data:",
    `connect-src ${[...apiOrigins].join(" ")}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'"
  ].join("; ")
}

/**
 * The handler of `GET /docs`: the page is rendered on the first request and kept, with its
 * compressed copies (3.2 MB; about 0.8 MB in gzip or br) and its policy.
 */
export const docsPageHandler = (document: () => OpenApi.OpenAPISpec) =>
  staticDocument(htmlContentType, async () => {
    const spec = document()
    // Like Scalar's bundle, the page without JavaScript (and its Markdown renderer) loads on the first request.
    const { docsFallback } = await import("./docs_fallback.ts")
    const page = render(await scalarPage(spec), docsFallback(spec))
    return {
      text: page,
      headers: {
        "content-security-policy": docsPagePolicy(page, spec),
        "x-frame-options": "DENY",
        "x-content-type-options": "nosniff"
      }
    }
  })
