/**
 * The docs page: Scalar's API reference over the OpenAPI document this deployment serves (with its
 * security schemes and folded error envelope, and its own server address).
 *
 * Scalar's browser bundle (6 MB of JavaScript, shipped inside `effect`) is loaded on the first
 * request for the page, not at start-up: loaded eagerly it was a quarter of the idle heap and a
 * tenth of start-up for a page few requests ever ask for. It is imported by its file path because
 * `effect` does not export its internal modules to bare specifiers.
 */
import * as Effect from "effect/Effect"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import type * as OpenApi from "effect/http-api/OpenApi"

const scalarBundle = new URL("./internal/httpApiScalar.js", import.meta.resolve("effect/http-api"))

/** JSON that is safe inside a `<script>` element. */
const scriptJson = (value: unknown) =>
  JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/[\u2028\u2029]/g, (c) => (c === "\u2028" ? "\\u2028" : "\\u2029"))

const escapeHtml = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;")

const render = (document: OpenApi.OpenAPISpec, javascript: string) => `<!doctype html>
<html>
  <head>
    <meta charset="utf-8" />
    <title>${escapeHtml(document.info.title)}</title>
    <meta name="viewport" content="width=device-width, initial-scale=1" />
  </head>
  <body>
    <div id="api-reference"></div>
    <script>${javascript}</script>
    <script>
      window.Scalar.createApiReference(document.getElementById("api-reference"), {
        _integration: "html",
        content: ${scriptJson(document)}
      })
    </script>
  </body>
</html>`

/** The handler of `GET /docs`: renders the page once, on the first request, and keeps it. */
export const docsPageHandler = (document: () => OpenApi.OpenAPISpec) => {
  let page: Promise<HttpServerResponse.HttpServerResponse> | undefined
  const load = () =>
    import(scalarBundle.href).then((module: { javascript: string }) =>
      HttpServerResponse.html(render(document(), module.javascript))
    )
  return Effect.promise(() => {
    // A failed load (a broken installation) is not kept: the next request tries again.
    page ??= load().catch((cause) => {
      page = undefined
      throw cause
    })
    return page
  })
}
