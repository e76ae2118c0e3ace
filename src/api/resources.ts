/**
 * Response and request shapes of the endpoints that are not domain resources themselves:
 * lists, preflight and search results, the service index, capabilities and discovery documents.
 */
import * as Schema from "effect/Schema"
import { ResultSubmission as DomainResultSubmission, optionalReason, ReviewDecision } from "../domain/moves.ts"
import { Participant } from "../domain/participant.ts"
import { Task } from "../domain/task.ts"
import { TaskIssue } from "../domain/task_draft/issues.ts"
import { NormalizedDraft } from "../domain/task_draft/schema.ts"
import { DeliveryAttempt, DeliveryState, messageEventType, webhookEventType } from "../domain/webhooks.ts"
import { ErrorEnvelope } from "./envelope.ts"

const Url = Schema.String.annotate({ format: "uri" })

export const ParticipantList = Schema.Struct({
  object: Schema.Literal("list"),
  count: Schema.Int.annotate({ description: "Number of participants in data." }),
  data: Schema.Array(Participant),
  has_more: Schema.Boolean.annotate({ description: "Whether another page follows." }),
  next_cursor: Schema.NullOr(Schema.String).annotate({ description: "Pass as cursor to read the next page." })
}).annotate({ identifier: "ParticipantList" })
export type ParticipantList = typeof ParticipantList.Type

const deliveryFields = {
  state: DeliveryState,
  created_at: Schema.String.annotate({
    description: "When the transition happened, or the message was written.",
    format: "date-time"
  }),
  next_attempt_at: Schema.NullOr(Schema.String).annotate({
    description:
      "When the next attempt is due (pending only; while an attempt is under way, the latest it may end); null once delivered or failed.",
    format: "date-time"
  }),
  attempts: Schema.Array(DeliveryAttempt).annotate({ description: "Every attempt so far, oldest first." })
}

const deliveryId = Schema.String.annotate({ description: "The event's webhook-id header: the same on every attempt." })

export const TaskUpdatedDelivery = Schema.Struct({
  object: Schema.Literal("webhook_event"),
  id: deliveryId,
  type: Schema.Literal(webhookEventType),
  history_index: Schema.Int.annotate({
    description: "The entry of the task's history the event reports (from 0): one event per entry."
  }),
  ...deliveryFields
}).annotate({
  identifier: "WebhookDelivery",
  description: "One task.updated event of a task (it entered a state), with its attempts."
})

export const TaskMessageDelivery = Schema.Struct({
  object: Schema.Literal("webhook_event"),
  id: deliveryId,
  type: Schema.Literal(messageEventType),
  message_id: Schema.String.annotate({
    description: "The id of the participant's message the event carries (as GET /tasks/{reference}/messages lists it)."
  }),
  ...deliveryFields
}).annotate({
  identifier: "MessageDelivery",
  description: "One task.message event of a task (its participant wrote a message), with its attempts."
})

export const WebhookDelivery = Schema.Union([TaskUpdatedDelivery, TaskMessageDelivery]).annotate({
  description: "One webhook event of a task, with its attempts: told apart by type."
})
export type WebhookDelivery = typeof WebhookDelivery.Type

export const DeliveryList = Schema.Struct({
  object: Schema.Literal("list"),
  webhook_url: Schema.NullOr(Schema.String).annotate({
    description: "Where the task's events are sent: the draft's webhook_url, or null when it gave none."
  }),
  count: Schema.Int.annotate({ description: "Number of events in data." }),
  data: Schema.Array(WebhookDelivery).annotate({
    description:
      "The task's events in the order they are sent: its history's, with its participants' messages in between."
  })
}).annotate({ identifier: "DeliveryList", description: "A task's webhook events and their delivery." })
export type DeliveryList = typeof DeliveryList.Type

export const Feasibility = Schema.Struct({
  eligible_participants: Schema.Int,
  sample: Schema.Array(Schema.String).annotate({ description: "Up to five slugs of likely participants, best first." })
}).annotate({ identifier: "Feasibility", description: "Who could plausibly take the task." })

export const PreflightResult = Schema.Struct({
  object: Schema.Literal("preflight"),
  valid: Schema.Boolean,
  state: Schema.Literals(["draft", "preflight_failed"]),
  issues: Schema.Array(TaskIssue).annotate({ description: "Missing or ambiguous fields." }),
  warnings: Schema.Array(TaskIssue).annotate({ description: "Non-blocking advice." }),
  task: NormalizedDraft,
  feasibility: Feasibility
}).annotate({ identifier: "PreflightResult" })
export type PreflightResult = typeof PreflightResult.Type

/** Participants a search answers with, and the longest query it reads. */
export const searchLimit = { default: 10, max: 50 } as const
export const searchQueryMax = 4000

export const SearchRequest = Schema.Struct({
  query: Schema.String.check(
    Schema.isPattern(/\S/u, { message: "query must describe the task: it is blank" }),
    Schema.isMaxCodePoints(searchQueryMax, { message: `query is longer than ${searchQueryMax} characters` })
  ).annotate({
    description: `A natural-language description of the task: not blank, at most ${searchQueryMax} characters.`
  }),
  limit: Schema.optionalKey(
    Schema.Int.check(
      Schema.isBetween(
        { minimum: 1, maximum: searchLimit.max },
        { message: `limit must be a whole number from 1 to ${searchLimit.max}` }
      )
    ).annotate({
      description: `At most this many participants (1–${searchLimit.max}, default ${searchLimit.default}).`
    })
  )
}).annotate({ identifier: "SearchRequest" })
export type SearchRequest = typeof SearchRequest.Type

export const SearchMatch = Schema.Struct({
  participant: Participant,
  score: Schema.Number,
  matched: Schema.Array(Schema.String)
}).annotate({ identifier: "SearchMatch" })

export const SearchResult = Schema.Struct({
  object: Schema.Literal("search_result"),
  query: Schema.String,
  assessment: Schema.Struct({
    execution_mode: Schema.NullOr(Schema.String),
    location: Schema.NullOr(Schema.String),
    missing: Schema.Array(Schema.String),
    draft: NormalizedDraft,
    preflight: PreflightResult
  }),
  data: Schema.Array(SearchMatch),
  hint: Schema.optionalKey(
    Schema.String.annotate({
      description:
        "Present when nobody can take the task (data is empty) or only weak matches were found: why, and what to try."
    })
  )
}).annotate({ identifier: "SearchResult" })
export type SearchResult = typeof SearchResult.Type

export const EndpointSummary = Schema.Struct({ method: Schema.String, path: Schema.String, summary: Schema.String })

/**
 * Where participants sign in: the OAuth 2.1 authorization server in use, embedded (`<base>/oauth`)
 * or external (OAUTH_ISSUER). Its endpoints are listed when this service runs it; an external
 * one's are in its metadata.
 */
export const AuthorizationServer = Schema.Struct({
  issuer: Url,
  embedded: Schema.Boolean,
  metadata: Url,
  authorization_endpoint: Schema.optionalKey(Url),
  token_endpoint: Schema.optionalKey(Url),
  registration_endpoint: Schema.optionalKey(Url),
  scopes: Schema.Array(Schema.String),
  code_challenge_methods: Schema.Array(Schema.String),
  grant_types: Schema.Array(Schema.String)
}).annotate({ identifier: "AuthorizationServer" })
export type AuthorizationServer = typeof AuthorizationServer.Type

/** What a sandbox offers: its clock and its simulated participants. */
export const SandboxTools = Schema.Struct({
  clock: Url.annotate({
    description:
      'GET: the sandbox\'s time ({"now"}); POST {"advance": "PT25H"} (an ISO 8601 duration) moves it forward.'
  }),
  simulated_participants: Schema.Record(Schema.String, Schema.String).annotate({
    description: "Each simulated participant's slug and how it behaves; name one as participant_slug."
  })
}).annotate({ identifier: "SandboxTools", description: "A sandbox's clock and simulated participants." })

export const SandboxClockState = Schema.Struct({
  object: Schema.Literal("sandbox_clock"),
  now: Schema.String.annotate({ format: "date-time", description: "The sandbox's time." }),
  advanced_by: Schema.String.annotate({
    description: "How far the clock has been moved forward in all, as an ISO 8601 duration (PT0S at first)."
  })
}).annotate({ identifier: "SandboxClockState", description: "The sandbox's clock." })
export type SandboxClockState = typeof SandboxClockState.Type

export const AdvanceClockRequest = Schema.Struct({
  advance: Schema.String.annotate({
    description: "How far to move the clock forward: a positive ISO 8601 duration, e.g. PT25H, P3D or PT90M.",
    examples: ["PT25H"]
  })
}).annotate({ identifier: "AdvanceClockRequest" })

export const ServiceIndex = Schema.Struct({
  object: Schema.Literal("service"),
  name: Schema.String,
  version: Schema.Literal("v1"),
  description: Schema.String,
  base_url: Url,
  openapi: Url,
  documentation: Url,
  manifest: Url,
  agent_guidance: Url,
  mcp: Url,
  agent_card: Url,
  interfaces: Schema.Struct({
    rest: Schema.Struct({ base_url: Url, requires_installation: Schema.Literal(false), note: Schema.String }),
    mcp: Schema.Struct({ endpoint: Url, requires_installation: Schema.Literal(true), note: Schema.String }),
    mcp_participant: Schema.Struct({
      endpoint: Url,
      requires_installation: Schema.Literal(true),
      protected_resource_metadata: Url,
      note: Schema.String
    }).annotate({
      description: "The participant's MCP endpoint: OAuth 2.1 protected, for a participant's own assistant."
    }),
    participant_console: Schema.optionalKey(
      Schema.Struct({ url: Url, requires_installation: Schema.Literal(false), note: Schema.String }).annotate({
        description:
          "The participants' web console (served with the embedded authorization server): offers, work, evidence, profile."
      })
    )
  }),
  cold_start: Schema.Array(Schema.String),
  authentication: Schema.Struct({
    required: Schema.Literal(false),
    anonymous_discovery_supported: Schema.Literal(true),
    anonymous_preflight_supported: Schema.Literal(true),
    anonymous_task_submission_supported: Schema.Literal(true),
    description: Schema.String,
    documentation: Url,
    authorization_server: AuthorizationServer
  }),
  execution_modes: Schema.Array(Schema.String),
  task_states: Schema.Array(Schema.String),
  mcp_endpoint: Url,
  endpoints: Schema.Array(EndpointSummary),
  contact: Schema.String,
  sandbox: Schema.Boolean.annotate({
    description:
      "true when this service is a sandbox (SANDBOX=on): simulated participants and a clock that can be moved; its tasks are not real."
  }),
  sandbox_tools: Schema.optionalKey(SandboxTools)
}).annotate({ identifier: "ServiceIndex" })
export type ServiceIndex = typeof ServiceIndex.Type

const TransitionData = Schema.Struct({
  from: Schema.NullOr(Schema.String),
  to: Schema.String,
  actors: Schema.Array(Schema.String),
  trigger: Schema.String,
  reasons: Schema.optionalKey(Schema.Array(Schema.String))
})

export const Capabilities = Schema.Struct({
  object: Schema.Literal("capabilities"),
  version: Schema.String,
  execution_modes: Schema.Array(Schema.String),
  task_states: Schema.Array(Schema.String),
  terminal_states: Schema.Array(Schema.String),
  transitions: Schema.Array(TransitionData),
  draft: Schema.Struct({
    required: Schema.Array(Schema.String),
    conditionally_required: Schema.Array(Schema.Unknown),
    recommended: Schema.Array(Schema.String),
    optional: Schema.Array(Schema.String).annotate({ description: "Members that may be left out without a warning." }),
    limits: Schema.Record(Schema.String, Schema.Int).annotate({
      description:
        "Per member: the most characters (Unicode code points, after trimming); for result_schema, the most bytes of its JSON."
    }),
    issue_codes: Schema.Record(Schema.String, Schema.String)
  }),
  idempotency: Schema.Struct({
    header: Schema.String,
    body_member: Schema.String,
    precedence: Schema.String,
    replay: Schema.String,
    conflict: Schema.String,
    retention: Schema.String,
    secret: Schema.String,
    min_length: Schema.Int,
    max_length: Schema.Int
  }),
  authentication: Schema.Struct({
    anonymous: Schema.Array(Schema.String),
    task_token: Schema.String,
    participant: Schema.String,
    protected_resource_metadata: Url,
    authorization_server: AuthorizationServer
  }),
  interfaces: Schema.Struct({
    rest: Url,
    mcp: Schema.Struct({
      endpoint: Url,
      transport: Schema.Literal("streamable-http"),
      protocol_versions: Schema.Array(Schema.String),
      tools: Schema.Array(Schema.String).annotate({ description: "The MCP tools' names." }),
      resources: Schema.Array(Schema.String).annotate({ description: "Resource URIs and URI templates." }),
      prompts: Schema.Array(Schema.String),
      tasks: Schema.Struct({
        tools: Schema.Array(Schema.String).annotate({ description: "The tools that may run as an MCP Task." }),
        protocol_versions: Schema.Array(Schema.String).annotate({
          description:
            "Where MCP Tasks are served: 2026-07-28 through the Tasks extension (io.modelcontextprotocol/tasks), 2025-11-25 through its experimental tasks."
        }),
        poll_interval_seconds: Schema.Number,
        ttl_seconds: Schema.Number.annotate({ description: "How long an MCP task stays readable after it completes." })
      }).annotate({
        description:
          "submit_task as an MCP Task: answered at once, completed when there is a result to review or the task ends."
      })
    }),
    mcp_participant: Schema.Struct({
      endpoint: Url.annotate({ description: "Also the OAuth resource: the audience its access tokens carry." }),
      transport: Schema.Literal("streamable-http"),
      protocol_versions: Schema.Array(Schema.String),
      tools: Schema.Array(Schema.String).annotate({ description: "The participant's MCP tools' names." }),
      protected_resource_metadata: Url
    }),
    participant_console: Schema.optionalKey(Url.annotate({ description: "The participants' web console." })),
    openapi: Url
  }),
  lifecycle: Schema.Struct({
    offer_timeout_seconds: Schema.Number,
    review_window_seconds: Schema.Number,
    max_revisions: Schema.Int,
    long_poll_max_seconds: Schema.Int
  }),
  limits: Schema.Struct({
    max_body_bytes: Schema.Int,
    max_json_depth: Schema.Int.annotate({
      description:
        "The deepest a request body or an MCP tool's arguments may nest, in objects and arrays, the body itself counting as the first level; deeper is 400 invalid_request naming the member."
    }),
    participants_page: Schema.Struct({ default: Schema.Int, max: Schema.Int }),
    search_results: Schema.Struct({ default: Schema.Int, max: Schema.Int }),
    files: Schema.Struct({
      max_file_bytes: Schema.Int.annotate({ description: "The most bytes one uploaded file may have." }),
      max_files_per_result: Schema.Int.annotate({ description: "The most uploaded files one result may carry." })
    }).annotate({ description: "Evidence files a participant uploads and names in a result." })
  }),
  events: Schema.Struct({
    delivery: Schema.String,
    description: Schema.String,
    webhooks: Schema.Struct({
      draft_member: Schema.Literal("webhook_url"),
      secret: Schema.String,
      types: Schema.Array(Schema.String),
      payload: Schema.String,
      headers: Schema.Record(Schema.String, Schema.String),
      specification: Url,
      success: Schema.String,
      timeout_seconds: Schema.Number,
      retry_schedule_seconds: Schema.Array(Schema.Number).annotate({
        description: "The waits between attempts, in order; each is lengthened by up to a tenth at random."
      }),
      ordering: Schema.String,
      redirects: Schema.String,
      max_answer_bytes: Schema.Int,
      addresses: Schema.String,
      deliveries: Schema.String
    }).annotate({ description: "Signed webhooks: what is sent, how it is signed, and how it is retried." })
  }),
  errors: Schema.Record(Schema.String, Schema.Struct({ status: Schema.Int, meaning: Schema.String })),
  endpoints: Schema.Array(EndpointSummary),
  sandbox: Schema.Boolean,
  sandbox_tools: Schema.optionalKey(SandboxTools)
}).annotate({ identifier: "Capabilities" })
export type Capabilities = typeof Capabilities.Type

export const ProtectedResourceMetadata = Schema.Struct({
  resource: Url,
  authorization_servers: Schema.Array(Url),
  scopes_supported: Schema.Array(Schema.String),
  bearer_methods_supported: Schema.Array(Schema.String),
  resource_name: Schema.String,
  resource_documentation: Url
}).annotate({ identifier: "ProtectedResourceMetadata", description: "RFC 9728 protected-resource metadata." })
export type ProtectedResourceMetadata = typeof ProtectedResourceMetadata.Type

export const ApiCatalog = Schema.Struct({
  linkset: Schema.Array(Schema.Record(Schema.String, Schema.Unknown))
}).annotate({ identifier: "ApiCatalog", description: "RFC 9727 API catalog (linkset)." })

export const AgentCard = Schema.Struct({
  name: Schema.String,
  description: Schema.String,
  url: Url,
  version: Schema.String,
  documentation_url: Url,
  capabilities: Schema.Record(Schema.String, Schema.Unknown),
  skills: Schema.Array(Schema.Struct({ id: Schema.String, name: Schema.String, description: Schema.String }))
}).annotate({ identifier: "AgentCard" })

export { ErrorEnvelope }

export const HealthStatus = Schema.Struct({
  object: Schema.Literal("health"),
  status: Schema.Literals(["ok", "ready"]),
  checks: Schema.optionalKey(Schema.Struct({ database: Schema.String, migrations: Schema.String }))
}).annotate({ identifier: "HealthStatus" })

export const TaskList = Schema.Struct({
  object: Schema.Literal("list"),
  count: Schema.Int,
  data: Schema.Array(Task)
}).annotate({ identifier: "TaskList" })
export type TaskList = typeof TaskList.Type

export const CancelRequest = Schema.Struct({
  reason: optionalReason("Why the task is cancelled (kept in history).")
}).annotate({ identifier: "CancelRequest" })

export const ReviewRequest = ReviewDecision.annotate({ identifier: "ReviewRequest" })

export const DeclineRequest = Schema.Struct({
  reason: optionalReason("Why the offer is declined (kept in history).")
}).annotate({ identifier: "DeclineRequest" })

export const ResultSubmission = DomainResultSubmission.annotate({ identifier: "ResultSubmission" })

/** A file a participant uploaded to a task (POST /tasks/{reference}/artifacts). */
export const UploadedFile = Schema.Struct({
  object: Schema.Literal("file"),
  id: Schema.String.annotate({
    description: 'Name it in the result: {"kind": "file", "id": "<this id>"} among the artifacts.'
  }),
  reference: Schema.String.annotate({ description: "The task it belongs to." }),
  uploader: Schema.String.annotate({ description: "The slug of the participant who uploaded it." }),
  name: Schema.String.annotate({ description: "The name given, made safe (no path or control characters)." }),
  content_type: Schema.String.annotate({
    description: "Read from the bytes, not from the request; application/octet-stream when unknown."
  }),
  size: Schema.Int.annotate({ description: "Bytes." }),
  sha256: Schema.String.annotate({ description: "SHA-256 of the bytes, hex." }),
  created_at: Schema.String.annotate({ format: "date-time" }),
  attached: Schema.Boolean.annotate({
    description: "Whether a submitted result carries it. A file no result carries is removed an hour after its upload."
  }),
  url: Url.annotate({ description: "Where it is downloaded (by its uploader, and by the agent once attached)." })
}).annotate({ identifier: "UploadedFile", description: "An uploaded file (evidence)." })
export type UploadedFile = typeof UploadedFile.Type

export const Account = Schema.Struct({
  object: Schema.Literal("account"),
  subject: Schema.String.annotate({ description: "The access token's subject (sub)." }),
  participant: Participant
}).annotate({ identifier: "Account", description: "The signed-in participant." })
export type Account = typeof Account.Type
