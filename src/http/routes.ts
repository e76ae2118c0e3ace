/**
 * Which methods each path accepts — the API's endpoints (from the HttpApi description) plus the
 * few plain routes (OpenAPI mirrors, docs, `/`) — so an unknown method gets 405 with `Allow`, and an
 * unknown path 404.
 */
import * as FindMyWay from "effect/http/FindMyWay"
import { endpoints } from "../api/endpoints.ts"

export const openApiPaths = ["/openapi.json", "/api/openapi.json", "/.well-known/openapi.json"] as const
export const docsPath = "/docs"
/** `/`: the docs page for a browser, the service index for anyone else (server.ts). */
export const rootPath = "/"

const plainRoutes = [...openApiPaths, docsPath, rootPath].map((path) => ({ method: "GET", routerPath: path, path }))

const table = new Map<string, { path: string; methods: Set<string> }>()
for (const route of [...endpoints, ...plainRoutes]) {
  const entry = table.get(route.routerPath) ?? { path: route.path, methods: new Set<string>() }
  entry.methods.add(route.method)
  if (route.method === "GET") entry.methods.add("HEAD")
  table.set(route.routerPath, entry)
}

/**
 * The router settings of the server and of this table alike. Path parameters may be long (an agent
 * may send anything as a reference): a long one must still reach its endpoint and get that
 * endpoint's 404, not "no endpoint"; Node's 16 KiB header limit bounds the URL anyway.
 *
 * A path matches only as it is spelled: literal segments by case, no slash ignored. Other spellings
 * of a path never reach its route unguarded; they are redirected to the canonical one before the
 * router is asked (canonical_path.ts), or, in another case, are no route at all.
 */
export const routerConfig = {
  maxParamLength: 16 * 1024,
  caseSensitive: true,
  ignoreTrailingSlash: false,
  ignoreDuplicateSlashes: false
} as const

// Looked up by path alone, so each path is registered under one method (GET) whatever it accepts:
// `all` would register it under each of the 35 methods FindMyWay knows, and its registration
// checks every route registered before for a duplicate (~20 ms of start-up for this table).
const router = FindMyWay.make<{ path: string; methods: ReadonlySet<string> }>(routerConfig)
for (const [routerPath, entry] of table) router.on("GET", routerPath as `/${string}`, entry)

/** The methods the path accepts and its documented form, or undefined when no endpoint has this path. */
export const routeFor = (
  url: string
): { readonly path: string; readonly methods: ReadonlyArray<string> } | undefined => {
  const found = router.find("GET", url)
  if (found === undefined) return undefined
  const order = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"]
  return { path: found.handler.path, methods: order.filter((m) => found.handler.methods.has(m)) }
}
