/**
 * Handlers of the discovery group: the service index, /capabilities, and the well-known
 * documents. Each is built once from the same definitions the code runs on.
 */
import * as Effect from "effect/Effect"
import { apiPrefix, MarketplaceApi } from "../api/api.ts"
import { AppConfig } from "../config.ts"
import { capabilities, serviceIndex } from "../operations/discovery.ts"
import { group as handlerGroup } from "./handler_group.ts"

export const DiscoveryHandlers = handlerGroup(MarketplaceApi, "discovery", (handlers) =>
  Effect.gen(function* () {
    const config = yield* AppConfig
    const base = config.publicBaseUrl
    const index = serviceIndex(config)
    const caps = capabilities(config)
    const protectedResource = {
      resource: `${base}${apiPrefix}`,
      authorization_servers: config.oauthIssuer === undefined ? [] : [config.oauthIssuer],
      scopes_supported: ["openid", "email", "profile"],
      bearer_methods_supported: ["header"],
      resource_name: "Task Marketplace API",
      resource_documentation: `${config.docsUrl}#authentication`
    }
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
    return handlers
      .handle("index", () => Effect.succeed(index))
      .handle("capabilities", () => Effect.succeed(caps))
      .handle("protectedResource", () => Effect.succeed(protectedResource))
      .handle("apiCatalog", () => Effect.succeed(catalog))
      .handle("agentCard", () => Effect.succeed(card))
  })
)
