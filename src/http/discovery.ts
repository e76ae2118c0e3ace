/**
 * Handlers of the discovery group: the service index, /capabilities, and the well-known
 * documents. Each is built once from the same definitions the code runs on.
 */
import * as Effect from "effect/Effect"
import * as HttpRouter from "effect/http/HttpRouter"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import { AppConfig } from "../config/app_config.ts"
import { participantMcpUrlOf, pathOnThisServer } from "../config/settings.ts"
import { apiPrefix } from "../domain/addresses.ts"
import {
  apiResourceMetadata,
  capabilities,
  participantMcpResourceMetadata,
  protectedResourceMetadataPath,
  serviceIndex
} from "../operations/discovery.ts"
import { handlersLayer } from "./group_layer.ts"

export const DiscoveryHandlers = handlersLayer(
  "discovery",
  Effect.gen(function* () {
    const config = yield* AppConfig
    const base = config.publicBaseUrl
    const index = serviceIndex(config)
    const caps = capabilities(config)
    const protectedResource = apiResourceMetadata(config)
    const catalog = {
      linkset: [
        {
          anchor: `${base}${apiPrefix}`,
          "service-desc": [{ href: `${base}/openapi.json`, type: "application/openapi+json" }],
          "service-doc": [{ href: config.docsUrl, type: "text/html" }],
          "service-meta": [{ href: `${base}${apiPrefix}/capabilities`, type: "application/json" }]
        }
      ]
    }
    const card = {
      name: "Task Marketplace",
      description: index.description,
      url: `${base}${apiPrefix}`,
      version: "1.0.0",
      documentation_url: config.docsUrl,
      capabilities: { streaming: false, push_notifications: false, polling: true },
      skills: [
        { id: "find_participants", name: "Find participants", description: "Discover humans available for a task." },
        { id: "preflight_task", name: "Preflight a task", description: "Validate a task brief before submitting it." },
        { id: "submit_task", name: "Submit a task", description: "Hire a human for a bounded task, idempotently." },
        {
          id: "track_task",
          name: "Track a task",
          description: "Poll a task until its structured human result is back."
        }
      ]
    }
    return (handlers) =>
      handlers
        .handle("index", () => Effect.succeed(index))
        .handle("capabilities", () => Effect.succeed(caps))
        .handle("protectedResource", () => Effect.succeed(protectedResource))
        .handle("apiCatalog", () => Effect.succeed(catalog))
        .handle("agentCard", () => Effect.succeed(card))
  })
)

/**
 * The protected-resource metadata of the participant's MCP endpoint (RFC 9728 §3.1: the well-known
 * path followed by the resource's path, `/.well-known/oauth-protected-resource/mcp/participant`),
 * served when that endpoint is. Not part of the REST API's description (its path follows MCP_URL):
 * an MCP host finds it from the endpoint's 401 (`WWW-Authenticate: Bearer resource_metadata=…`).
 * A browser host reads it across origins, sending MCP's protocol-version header: its CORS
 * preflight is answered here.
 */
export const ParticipantMcpMetadataRoute = HttpRouter.use(
  Effect.fnUntraced(function* (router) {
    const config = yield* AppConfig
    const resourcePath = pathOnThisServer(config, participantMcpUrlOf(config))
    if (resourcePath === undefined) return
    const path = `${protectedResourceMetadataPath}${resourcePath}` as const
    const document = HttpServerResponse.jsonUnsafe(participantMcpResourceMetadata(config))
    const methods = "GET, OPTIONS"
    const preflight = HttpServerResponse.empty({
      status: 204,
      headers: {
        allow: methods,
        "access-control-allow-methods": methods,
        "access-control-allow-headers": "mcp-protocol-version, authorization, x-request-id",
        "access-control-max-age": "600"
      }
    })
    yield* router.add("GET", path, Effect.succeed(document))
    yield* router.add("OPTIONS", path, Effect.succeed(preflight))
  })
)
