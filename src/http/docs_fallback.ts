/**
 * The docs page without JavaScript: the document's description (the agent guidance,
 * authentication, interfaces, limits, every error code with its anchor) and every endpoint with its
 * summary and description, rendered on the server inside `<noscript>`. A browser running
 * JavaScript ignores it and shows Scalar's reference; one that does not (or a reader, or a crawler)
 * gets the same guidance and the same anchors: `#agent-guidance`, `#authentication`, `#contact`
 * and `#error-<code>` land on their sections without any script.
 *
 * The description is Markdown written by this service (`api/description.ts`), rendered by `marked`.
 */
import type * as OpenApi from "effect/http-api/OpenApi"
import { Marked } from "marked"
import { escapeHtml } from "../pages/html.ts"

const slugOf = (text: string) =>
  text
    .toLowerCase()
    .replace(/<[^>]*>/g, "")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "")

/** Markdown with headings given ids (`## Agent guidance` → `id="agent-guidance"`), as the API's anchors name them. */
const markdown = new Marked({
  gfm: true,
  renderer: {
    heading({ tokens, depth, text }) {
      return `<h${depth} id="${slugOf(text)}">${this.parser.parseInline(tokens)}</h${depth}>\n`
    }
  }
})

const methods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const

interface Operation {
  readonly summary?: string
  readonly description?: string
  readonly tags?: ReadonlyArray<string>
}

/** Every endpoint, in the document's order: method, path, summary and description. */
const endpointsOf = (document: OpenApi.OpenAPISpec): string => {
  const items: Array<string> = []
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of methods) {
      const operation = (item as Record<string, Operation | undefined>)[method]
      if (operation === undefined) continue
      const title = `<code>${method.toUpperCase()} ${escapeHtml(path)}</code>${operation.summary === undefined ? "" : ` — ${escapeHtml(operation.summary)}`}`
      const description =
        operation.description === undefined ? "" : markdown.parse(operation.description, { async: false })
      items.push(`<li><p>${title}</p>${description}</li>`)
    }
  }
  return `<h2 id="endpoints">Endpoints</h2>\n<ul class="endpoints">${items.join("\n")}</ul>`
}

const style = `
  .fallback { max-width: 48rem; margin: 0 auto; padding: 1rem; font: 16px/1.5 system-ui, sans-serif; color: #1a1a1a; }
  .fallback code, .fallback pre { font-family: ui-monospace, monospace; font-size: 0.9em; }
  .fallback pre { overflow-x: auto; background: #f4f4f4; padding: 0.75rem; }
  .fallback .endpoints > li { margin-bottom: 1rem; }
  .fallback :target, .fallback li:has(> a:target) { background: #eef4ff; outline: 2px solid #0f62fe; }
  .fallback [id] { scroll-margin-top: 1rem; }
`

/** The `<noscript>` block the docs page carries (docs_page.ts). */
export const docsFallback = (document: OpenApi.OpenAPISpec): string => {
  const title = escapeHtml(document.info.title)
  const version = escapeHtml(document.info.version)
  const description = markdown.parse(document.info.description ?? "", { async: false })
  return `<noscript><style>${style}</style><main class="fallback">
<h1>${title} <small>${version}</small></h1>
<p>The interactive reference needs JavaScript; this is the same guidance and every endpoint as plain text. The OpenAPI document is at <a href="/openapi.json">/openapi.json</a>.</p>
${description}
${endpointsOf(document)}
</main></noscript>`
}
