/**
 * The endpoint table, read from the HttpApi description itself: the service index, /capabilities
 * and the 405 handling (which methods a path accepts) all use this, never a hand-kept list.
 */
import * as Context from "effect/Context"
import * as HttpApi from "effect/http-api/HttpApi"
import * as OpenApi from "effect/http-api/OpenApi"
import { MarketplaceApi } from "./api.ts"

export interface EndpointEntry {
  readonly method: string
  /** OpenAPI-style path, e.g. /api/public/v1/tasks/{reference}. */
  readonly path: string
  /** Router-style path, e.g. /api/public/v1/tasks/:reference. */
  readonly routerPath: string
  readonly summary: string
}

const collect = (): ReadonlyArray<EndpointEntry> => {
  const entries: Array<EndpointEntry> = []
  HttpApi.reflect(MarketplaceApi, {
    onGroup: () => {},
    onEndpoint: ({ endpoint, mergedAnnotations }) => {
      entries.push({
        method: endpoint.method,
        path: endpoint.path.replace(/:(\w+)/g, "{$1}"),
        routerPath: endpoint.path,
        summary: Context.getOrUndefined(mergedAnnotations, OpenApi.Summary) ?? endpoint.identifier
      })
    }
  })
  return entries
}

export const endpoints: ReadonlyArray<EndpointEntry> = collect()

/** The published summary list (method, path, summary) of the service index and /capabilities. */
export const endpointSummaries = endpoints.map(({ method, path, summary }) => ({ method, path, summary }))
