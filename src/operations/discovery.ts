/**
 * What the service says about itself: the service index and /capabilities, each built once from
 * the same definitions the code runs on (the lifecycle table, the draft rules, the limits, the
 * endpoints, the MCP tools). REST serves them as documents, MCP as resources.
 */

import { coldStart } from "../api/description.ts"
import { endpointSummaries } from "../api/endpoints.ts"
import { errorCodes } from "../api/envelope.ts"
import {
  mcpPromptNames,
  mcpProtocolVersions,
  mcpResources,
  mcpTaskPollIntervalMs,
  mcpTaskTtlMs,
  mcpToolNames,
  participantMcpToolNames,
  sandboxMcpToolNames
} from "../api/mcp.ts"
import { maxBodyBytes, maxJsonDepth, maxWaitSeconds, pageSize } from "../api/parameters.ts"
import {
  type AuthorizationServer,
  type Capabilities,
  type ProtectedResourceMetadata,
  type ServiceIndex,
  searchLimit
} from "../api/resources.ts"
import {
  type AppSettings,
  isEmbeddedIssuer,
  issuerOf,
  participantMcpUrlOf,
  pathOnThisServer
} from "../config/settings.ts"
import { apiPrefix } from "../domain/addresses.ts"
import { maxRevisions, taskStates, terminalStates, transitions } from "../domain/lifecycle.ts"
import { consoleClient } from "../domain/login.ts"
import { simulatedBehaviours } from "../domain/sandbox.ts"
import { executionModes } from "../domain/task_draft/execution_mode.ts"
import { draftRules } from "../domain/task_draft/fields.ts"
import { IDEMPOTENCY_KEY_MIN, idempotencyKeyRule } from "../domain/task_draft/idempotency.ts"
import { IssueCode } from "../domain/task_draft/issues.ts"
import { webhookAnswerMaxBytes, webhookEventTypes } from "../domain/webhooks.ts"

/** Where the REST API's protected-resource metadata is (RFC 9728 §3), from the server's base. */
export const protectedResourceMetadataPath = "/.well-known/oauth-protected-resource"

/**
 * Where the participant's MCP endpoint's metadata is: the well-known path followed by the
 * resource's own path (RFC 9728 §3.1), `<base>/.well-known/oauth-protected-resource/mcp/participant`
 * by default. For an endpoint elsewhere (MCP_URL on another host), the same form at its origin.
 */
export const participantMcpMetadataUrlOf = (config: Pick<AppSettings, "mcpUrl" | "publicBaseUrl">): string => {
  const resource = participantMcpUrlOf(config)
  const path = pathOnThisServer(config, resource)
  if (path !== undefined) return `${config.publicBaseUrl}${protectedResourceMetadataPath}${path}`
  const url = new URL(resource)
  return `${url.origin}${protectedResourceMetadataPath}${url.pathname.replace(/\/+$/, "")}`
}

/**
 * The protected-resource metadata (RFC 9728) of one of the service's OAuth resources — the REST
 * API and the participant's MCP endpoint are told alike: the issuer in use (external, or the
 * embedded one at `<base>/oauth`), the scopes it grants, tokens in the Authorization header only.
 */
export const protectedResourceMetadata = (
  config: Pick<AppSettings, "oauthIssuer" | "publicBaseUrl">,
  resource: { readonly resource: string; readonly name: string; readonly documentation: string }
): ProtectedResourceMetadata => ({
  resource: resource.resource,
  authorization_servers: [issuerOf(config)],
  scopes_supported: ["openid", "email", "profile"],
  bearer_methods_supported: ["header"],
  resource_name: resource.name,
  resource_documentation: resource.documentation
})

/** The REST API's metadata, at `/.well-known/oauth-protected-resource`. */
export const apiResourceMetadata = (config: AppSettings) =>
  protectedResourceMetadata(config, {
    resource: `${config.publicBaseUrl}${apiPrefix}`,
    name: "Task Marketplace API",
    documentation: `${config.docsUrl}#authentication`
  })

/** The participant's MCP endpoint's metadata (`participantMcpMetadataUrlOf`). */
export const participantMcpResourceMetadata = (config: AppSettings) =>
  protectedResourceMetadata(config, {
    resource: participantMcpUrlOf(config),
    name: "Task Marketplace for participants (MCP)",
    documentation: `${config.docsUrl}#interfaces`
  })

/** The RFC 8414 address of an issuer's metadata: the well-known segment goes before the issuer's path. */
const authorizationServerMetadataUrl = (issuer: string) => {
  const url = new URL(issuer)
  const path = url.pathname.replace(/\/+$/, "")
  return `${url.origin}/.well-known/oauth-authorization-server${path}`
}

/** The authorization server participants sign in with, as the index and /capabilities describe it. */
export const authorizationServerOf = (config: AppSettings): AuthorizationServer => {
  const issuer = issuerOf(config)
  const common = {
    scopes: ["openid", "email", "profile"],
    code_challenge_methods: ["S256"],
    grant_types: ["authorization_code", "refresh_token"]
  }
  if (!isEmbeddedIssuer(config)) {
    return { issuer, embedded: false, metadata: authorizationServerMetadataUrl(issuer), ...common }
  }
  return {
    issuer,
    embedded: true,
    metadata: `${config.publicBaseUrl}/.well-known/oauth-authorization-server/oauth`,
    authorization_endpoint: `${issuer}/auth`,
    token_endpoint: `${issuer}/token`,
    registration_endpoint: `${issuer}/reg`,
    ...common
  }
}

/** A sandbox's clock address and simulated participants (SANDBOX=on only). */
export const sandboxToolsOf = (config: AppSettings) => ({
  clock: `${config.publicBaseUrl}${apiPrefix}/sandbox/clock`,
  simulated_participants: { ...simulatedBehaviours }
})

export const serviceIndex = (config: AppSettings): ServiceIndex => {
  const base = config.publicBaseUrl
  return {
    object: "service",
    name: "Task Marketplace",
    version: "v1",
    description:
      "A marketplace where software agents hire humans (participants) for bounded digital, physical or hybrid tasks, and get a structured human result back.",
    base_url: `${base}${apiPrefix}`,
    openapi: `${base}/openapi.json`,
    documentation: config.docsUrl,
    manifest: `${base}/.well-known/api-catalog`,
    agent_guidance: `${config.docsUrl}#agent-guidance`,
    mcp: config.mcpUrl,
    agent_card: `${base}/.well-known/agent-card.json`,
    interfaces: {
      rest: {
        base_url: `${base}${apiPrefix}`,
        requires_installation: false,
        note: "Usable at once over HTTP(S) with any client; no installation, no credential for discovery, preflight, submission or status."
      },
      mcp: {
        endpoint: config.mcpUrl,
        requires_installation: true,
        note: `Served here: MCP over Streamable HTTP (protocol ${mcpProtocolVersions.join(", ")}), with no credential. The same tasks, participants and lifecycle as REST, as tools (${mcpToolNames.join(", ")}), resources and the prompt hire_a_human. Add the endpoint to an MCP host's configuration as a streamable-http (or "http") server.`
      },
      mcp_participant: {
        endpoint: participantMcpUrlOf(config),
        requires_installation: true,
        protected_resource_metadata: participantMcpMetadataUrlOf(config),
        note: `For participants (the humans doing tasks): their own AI assistant, as an MCP host, sees their offers and tasks and makes their moves (tools ${participantMcpToolNames.join(", ")}). An OAuth 2.1 protected resource: every request carries an access token issued for this endpoint (its audience), whose subject is linked to a participant; a host without one gets 401 with WWW-Authenticate naming the metadata, and signs in by itself.`
      },
      ...(isEmbeddedIssuer(config)
        ? {
            participant_console: {
              url: `${base}${consoleClient.path}`,
              requires_installation: false as const,
              note: "For participants: a web page (phone first, no JavaScript needed) where they sign in, answer offers, do the work, hand in results with files, and keep their profile and availability."
            }
          }
        : {})
    },
    cold_start: [...coldStart],
    authentication: {
      required: false,
      anonymous_discovery_supported: true,
      anonymous_preflight_supported: true,
      anonymous_task_submission_supported: true,
      description:
        "No credential is needed to discover participants, preflight, submit or read tasks. A task's agent-side actions use the task_token from its 201 response as a bearer token; participants use OAuth 2.1 access tokens (authorization code with PKCE S256; clients may register dynamically), issued for one resource: this API or the participant's MCP endpoint.",
      documentation: `${config.docsUrl}#authentication`,
      authorization_server: authorizationServerOf(config)
    },
    execution_modes: [...executionModes],
    task_states: [...taskStates],
    mcp_endpoint: config.mcpUrl,
    endpoints: endpointSummaries,
    contact: `${base}/docs#contact`,
    sandbox: config.sandbox,
    ...(config.sandbox ? { sandbox_tools: sandboxToolsOf(config) } : {})
  }
}

export const capabilities = (config: AppSettings): Capabilities => ({
  object: "capabilities",
  version: "v1",
  execution_modes: [...executionModes],
  task_states: [...taskStates],
  terminal_states: [...terminalStates],
  transitions: transitions.map((t) => ({
    from: t.from,
    to: t.to,
    actors: [...t.actors],
    trigger: t.trigger,
    ...(t.reasons === undefined ? {} : { reasons: [...t.reasons] })
  })),
  draft: {
    required: [...draftRules.required],
    conditionally_required: [...draftRules.conditionally_required],
    recommended: [...draftRules.recommended],
    optional: [...draftRules.optional],
    limits: { ...draftRules.limits },
    issue_codes: Object.fromEntries(Object.entries(IssueCode).map(([code, meaning]) => [code, String(meaning)]))
  },
  idempotency: {
    header: "idempotency-key",
    body_member: "idempotency_key",
    precedence:
      "Either may be sent; the header is preferred. Both present and equal count as one key; both present and different → 400 idempotency_key_mismatch.",
    replay:
      "The same key with the same normalised draft returns the original task: 201, the same body, and the header idempotent-replayed: true. Never a second task.",
    conflict:
      "The same key with a different draft → 422 idempotency_key_reused. A submission that fails validation stores nothing under its key.",
    retention: "For the life of the task (tasks are never deleted).",
    secret: `A key is a secret: a replay returns the task's token, so anyone who knows the key and the draft could act as the task's agent. A key must be ${idempotencyKeyRule} (characters counted after trimming, as for max_length). A shorter key, in the header or the body, is 400 invalid_request, and nothing is created or looked up by it (a task recorded under a shorter key before this rule cannot be replayed).`,
    min_length: IDEMPOTENCY_KEY_MIN,
    max_length: draftRules.limits.idempotency_key ?? 255
  },
  authentication: {
    anonymous: ["discovery", "preflight", "search", "task submission", "task status"],
    task_token: "Authorization: Bearer <task_token> (from the 201 response) for the agent's cancel and review actions.",
    participant: "OAuth 2.1 access token (Authorization: Bearer) whose subject is linked to a participant.",
    protected_resource_metadata: `${config.publicBaseUrl}/.well-known/oauth-protected-resource`,
    authorization_server: authorizationServerOf(config)
  },
  interfaces: {
    rest: `${config.publicBaseUrl}${apiPrefix}`,
    mcp: {
      endpoint: config.mcpUrl,
      transport: "streamable-http",
      protocol_versions: [...mcpProtocolVersions],
      tools: config.sandbox ? [...mcpToolNames, ...sandboxMcpToolNames] : [...mcpToolNames],
      resources: Object.values(mcpResources),
      prompts: [...mcpPromptNames],
      tasks: {
        tools: ["submit_task"],
        protocol_versions: ["2026-07-28", "2025-11-25"],
        poll_interval_seconds: mcpTaskPollIntervalMs / 1000,
        ttl_seconds: mcpTaskTtlMs(config.reviewWindowMs) / 1000
      }
    },
    mcp_participant: {
      endpoint: participantMcpUrlOf(config),
      transport: "streamable-http",
      protocol_versions: [...mcpProtocolVersions],
      tools: [...participantMcpToolNames],
      protected_resource_metadata: participantMcpMetadataUrlOf(config)
    },
    ...(isEmbeddedIssuer(config) ? { participant_console: `${config.publicBaseUrl}${consoleClient.path}` } : {}),
    openapi: `${config.publicBaseUrl}/openapi.json`
  },
  lifecycle: {
    offer_timeout_seconds: config.offerTimeoutMs / 1000,
    review_window_seconds: config.reviewWindowMs / 1000,
    max_revisions: maxRevisions,
    long_poll_max_seconds: maxWaitSeconds
  },
  limits: {
    max_body_bytes: maxBodyBytes,
    max_json_depth: maxJsonDepth,
    participants_page: { default: pageSize.default, max: pageSize.max },
    search_results: { default: searchLimit.default, max: searchLimit.max },
    files: { max_file_bytes: config.artifacts.maxFileBytes, max_files_per_result: config.artifacts.maxFiles }
  },
  events: {
    delivery: "polling and webhooks",
    description:
      "State changes are observed by polling GET /api/public/v1/tasks/{reference}: send If-None-Match with the last ETag to get 304 when nothing changed, and ?wait=N (≤ 60 s) to hold the request until the task changes. A task submitted with a webhook_url also has each change POSTed to it, signed (webhooks).",
    webhooks: {
      draft_member: "webhook_url",
      secret:
        "webhook_secret in the 201 (and its idempotent replays only): whsec_ followed by 32 bytes in base64, one per task (derived from the service's secret, kept nowhere).",
      types: [...webhookEventTypes],
      payload:
        "JSON {type, timestamp, data}. task.updated: one event per entry of the task's history, timestamp that entry's time, data the task as GET returns it once that entry was recorded. task.message: one event per message a participant writes on the task (the agent's own send none), timestamp the message's time, data the message as GET /tasks/{reference}/messages lists it plus the task's reference.",
      headers: {
        "webhook-id": "the event's id: the same on every attempt (deduplicate on it)",
        "webhook-timestamp": "the attempt's time, in whole seconds since 1970 (reject old ones)",
        "webhook-signature":
          "v1,<base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<body>`, keyed with the secret's base64 part decoded>"
      },
      specification: "https://www.standardwebhooks.com/",
      success: `a 2xx answer within ${config.webhooks.timeoutMs / 1000} s; anything else is retried`,
      timeout_seconds: config.webhooks.timeoutMs / 1000,
      retry_schedule_seconds: config.webhooks.retryScheduleMs.map((ms) => ms / 1000),
      ordering:
        "A task's events are sent in the order they were written (its history's, with its participants' messages in between): an event waits until the one before it is delivered or has failed.",
      redirects: "never followed",
      max_answer_bytes: webhookAnswerMaxBytes,
      addresses: config.webhooks.allowPrivate
        ? "any http or https URL (WEBHOOK_ALLOW_PRIVATE is on: for development only)"
        : "https only, to public addresses: loopback, private, link-local, multicast and unspecified addresses are refused in the URL and again at every connection",
      deliveries: `${config.publicBaseUrl}${apiPrefix}/tasks/{reference}/deliveries (Authorization: Bearer <task_token>)`
    }
  },
  errors: Object.fromEntries(
    Object.entries(errorCodes).map(([code, e]) => [code, { status: e.status, meaning: e.meaning }])
  ),
  endpoints: endpointSummaries,
  sandbox: config.sandbox,
  ...(config.sandbox ? { sandbox_tools: sandboxToolsOf(config) } : {})
})
