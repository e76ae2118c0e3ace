/**
 * The docs page: Scalar's API reference over the OpenAPI document this deployment serves (with its
 * security schemes and folded error envelope, and its own server address).
 *
 * Scalar's browser bundle (6 MB of JavaScript, shipped inside `effect`) is loaded on the first
 * request for the page, not at start-up: loaded eagerly it was a quarter of the idle heap and a
 * tenth of start-up for a page few requests ever ask for. It is imported by its file path because
 * `effect` does not export its internal modules to bare specifiers.
 */
import type * as OpenApi from "effect/http-api/OpenApi"
import { staticDocument } from "./negotiation.ts"

const scalarBundle = new URL("./internal/httpApiScalar.js", import.meta.resolve("effect/http-api"))

/** JSON that is safe inside a `<script>` element. */
const scriptJson = (value: unknown) =>
  JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/[\u2028\u2029]/g, (c) => (c === "\u2028" ? "\\u2028" : "\\u2029"))

const escapeHtml = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;")

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
 * The page. Scalar's bundle mounts an app of its own on any element with the id `api-reference`
 * (its `<script id="api-reference" data-url>` way of use): with that id on our element the page
 * held two apps, an empty one (a grey loading skeleton a screen high) above the real one. Our
 * element has another id, so the one app is ours. Its first screen is the title and the
 * description, which opens with the agent guidance.
 */
const render = (document: OpenApi.OpenAPISpec, javascript: string) => `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>${escapeHtml(document.info.title)}</title>
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <link rel="icon" href="data:," />
    <style>
      .anchor-target { background: var(--scalar-background-accent, #eef4ff); outline: 2px solid var(--scalar-color-accent, #0f62fe); border-radius: 4px; }
      [id] { scroll-margin-top: 1rem; }
    </style>
  </head>
  <body>
    <div id="reference"></div>
    <script>${javascript}</script>
    <script>
      window.Scalar.createApiReference(document.getElementById("reference"), {
        _integration: "html",
        showDeveloperTools: "never",
        withDefaultFonts: false,
        content: ${scriptJson(document)}
      })
    </script>
    <script>${anchorScript}</script>
  </body>
</html>`

/**
 * The handler of `GET /docs`: the page is rendered on the first request and kept, with its
 * compressed copies (3.2 MB; about 0.8 MB in gzip or br).
 */
export const docsPageHandler = (document: () => OpenApi.OpenAPISpec) =>
  staticDocument("text/html; charset=utf-8", () =>
    import(scalarBundle.href).then((module: { javascript: string }) => render(document(), module.javascript))
  )
