/**
 * The HttpApi description of the published REST interface: the one source from which the server,
 * the OpenAPI document, the service index's `endpoints` and /capabilities are derived.
 */

import * as HttpApi from "effect/http-api/HttpApi"
import * as HttpApiEndpoint from "effect/http-api/HttpApiEndpoint"
import * as HttpApiGroup from "effect/http-api/HttpApiGroup"
import * as OpenApi from "effect/http-api/OpenApi"
import * as Schema from "effect/Schema"
import { Participant } from "../domain/participant.ts"
import { CreatedTask, Task } from "../domain/task.ts"
import { TaskDraft } from "../domain/task_draft.ts"
import { apiDescription } from "./description.ts"
import {
  BadRequest,
  Conflict,
  Forbidden,
  InternalError,
  MethodNotAllowed,
  NotFound,
  PayloadTooLarge,
  RateLimited,
  ServiceUnavailable,
  Unauthorized,
  Unprocessable,
  UnsupportedMediaType
} from "./envelope.ts"
import { IdempotencyKeyHeader, PageCursor, PageLimit, WaitSeconds } from "./parameters.ts"
import {
  Account,
  AgentCard,
  ApiCatalog,
  CancelRequest,
  Capabilities,
  DeclineRequest,
  HealthStatus,
  ParticipantList,
  PreflightResult,
  ProtectedResourceMetadata,
  ResultSubmission,
  ReviewRequest,
  SearchRequest,
  SearchResult,
  ServiceIndex,
  TaskList
} from "./resources.ts"
import { AgentAuthentication, ParticipantAuthentication } from "./security.ts"

export const apiPrefix = "/api/public/v1"

const summary = (text: string, description?: string) =>
  OpenApi.annotations(description === undefined ? { summary: text } : { summary: text, description })

/** Errors any endpoint can answer, documented everywhere. */
const commonErrors = [MethodNotAllowed, RateLimited, InternalError, ServiceUnavailable] as const
/** Errors any endpoint that reads a JSON body can answer. */
const bodyErrors = [BadRequest, PayloadTooLarge, UnsupportedMediaType] as const

export class DiscoveryApi extends HttpApiGroup.make("discovery", { topLevel: true })
  .add(
    HttpApiEndpoint.get("index", apiPrefix, { success: ServiceIndex, error: commonErrors }).annotateMerge(
      summary("Service index", "What the service is, how an agent starts, and every endpoint.")
    ),
    HttpApiEndpoint.get("capabilities", `${apiPrefix}/capabilities`, {
      success: Capabilities,
      error: commonErrors
    }).annotateMerge(
      summary(
        "Capabilities",
        "A machine-readable statement of what the service does: states, transitions, draft rules, limits."
      )
    ),
    HttpApiEndpoint.get("protectedResource", "/.well-known/oauth-protected-resource", {
      success: ProtectedResourceMetadata,
      error: commonErrors
    }).annotateMerge(summary("OAuth protected-resource metadata (RFC 9728)")),
    HttpApiEndpoint.get("apiCatalog", "/.well-known/api-catalog", {
      success: ApiCatalog,
      error: commonErrors
    }).annotateMerge(summary("API catalog (RFC 9727), the service manifest")),
    HttpApiEndpoint.get("agentCard", "/.well-known/agent-card.json", {
      success: AgentCard,
      error: commonErrors
    }).annotateMerge(summary("Agent card: the service described for agent frameworks"))
  )
  .annotateMerge(OpenApi.annotations({ title: "Discovery" })) {}

export class ParticipantsApi extends HttpApiGroup.make("participants", { topLevel: true })
  .add(
    HttpApiEndpoint.get("listParticipants", `${apiPrefix}/participants`, {
      query: {
        q: Schema.optionalKey(
          Schema.String.annotate({
            description: "Case-insensitive filter across name, discipline, location, task type and tags."
          })
        ),
        limit: Schema.optionalKey(PageLimit),
        cursor: Schema.optionalKey(PageCursor)
      },
      success: ParticipantList,
      error: [BadRequest, ...commonErrors]
    }).annotateMerge(summary("List participants", "Participants available for hire, ordered by slug; filter with q.")),
    HttpApiEndpoint.get("getParticipant", `${apiPrefix}/participants/:slug`, {
      params: { slug: Schema.String },
      success: Participant,
      error: [NotFound, ...commonErrors]
    }).annotateMerge(summary("Read a participant"))
  )
  .annotateMerge(OpenApi.annotations({ title: "Participants" })) {}

export class DraftsApi extends HttpApiGroup.make("drafts", { topLevel: true })
  .add(
    HttpApiEndpoint.post("preflight", `${apiPrefix}/preflight`, {
      payload: TaskDraft,
      success: PreflightResult,
      error: [...bodyErrors, ...commonErrors]
    }).annotateMerge(
      summary(
        "Preflight a task draft",
        "Validates a draft with the same rules as task submission and returns every issue, warning and the normalised task. Stores nothing."
      )
    ),
    HttpApiEndpoint.post("search", `${apiPrefix}/search`, {
      payload: SearchRequest,
      success: SearchResult,
      error: [...bodyErrors, ...commonErrors]
    }).annotateMerge(
      summary(
        "Assess a task and find relevant humans",
        "From a natural-language description: an assessment and ranked participants."
      )
    )
  )
  .annotateMerge(OpenApi.annotations({ title: "Drafts" })) {}

export class TasksApi extends HttpApiGroup.make("tasks", { topLevel: true })
  .add(
    HttpApiEndpoint.post("createTask", `${apiPrefix}/tasks`, {
      payload: TaskDraft,
      headers: {
        "idempotency-key": Schema.optionalKey(IdempotencyKeyHeader)
      },
      success: CreatedTask.annotate({ httpApiStatus: 201 }),
      error: [...bodyErrors, Unprocessable, ...commonErrors]
    }).annotateMerge(
      summary(
        "Submit a task",
        "Runs the preflight rules (a deadline already passed is an issue); a valid draft is recorded in state open (201), even when nobody can take it, in which case next_step says why and what to change. Replaying an idempotency key returns the original task."
      )
    ),
    HttpApiEndpoint.get("getTask", `${apiPrefix}/tasks/:reference`, {
      params: { reference: Schema.String },
      query: {
        wait: Schema.optionalKey(WaitSeconds)
      },
      success: Task,
      error: [BadRequest, NotFound, ...commonErrors]
    }).annotateMerge(
      summary(
        "Read a task",
        "The current state, result and outcome. Supports ETag / If-None-Match, and ?wait=N to wait for a change."
      )
    )
  )
  .annotateMerge(OpenApi.annotations({ title: "Tasks" })) {}

/** The agent's moves on its task, each authorised by the task's token (AgentAuthentication). */
export class AgentApi extends HttpApiGroup.make("agent", { topLevel: true })
  .add(
    HttpApiEndpoint.post("cancelTask", `${apiPrefix}/tasks/:reference/cancel`, {
      params: { reference: Schema.String },
      payload: CancelRequest,
      success: Task,
      error: [...bodyErrors, Unauthorized, NotFound, Conflict, ...commonErrors]
    }).annotateMerge(
      summary(
        "Cancel a task (agent)",
        "Authorization: Bearer <task_token>. Allowed while the task is open, matching, awaiting_participant or accepted."
      )
    ),
    HttpApiEndpoint.post("reviewTask", `${apiPrefix}/tasks/:reference/review`, {
      params: { reference: Schema.String },
      payload: ReviewRequest,
      success: Task,
      error: [...bodyErrors, Unauthorized, NotFound, Conflict, ...commonErrors]
    }).annotateMerge(
      summary(
        "Review a submitted result (agent)",
        "Authorization: Bearer <task_token>. accept settles the task; revise (reason required, at most 3) sends it back; reject (reason required) declines it."
      )
    )
  )
  .middleware(AgentAuthentication)
  .annotateMerge(OpenApi.annotations({ title: "Agent" })) {}

export class ParticipantAccountApi extends HttpApiGroup.make("account", { topLevel: true })
  .add(
    HttpApiEndpoint.get("me", `${apiPrefix}/me`, {
      success: Account,
      error: [Unauthorized, Forbidden, ...commonErrors]
    }).annotateMerge(summary("The signed-in participant", "Authorization: Bearer <OAuth 2.1 access token>.")),
    HttpApiEndpoint.get("myTasks", `${apiPrefix}/me/tasks`, {
      success: TaskList,
      error: [Unauthorized, Forbidden, ...commonErrors]
    }).annotateMerge(
      summary("My offers and tasks", "Tasks offered to or held by the signed-in participant, newest first.")
    ),
    ...(["accept", "start"] as const).map((action) =>
      HttpApiEndpoint.post(`${action}Task`, `${apiPrefix}/tasks/:reference/${action}`, {
        params: { reference: Schema.String },
        success: Task,
        error: [...bodyErrors, Unauthorized, Forbidden, NotFound, Conflict, ...commonErrors]
      }).annotateMerge(
        summary(
          action === "accept" ? "Accept an offer (participant)" : "Start work (participant)",
          "Authorization: Bearer <OAuth 2.1 access token>."
        )
      )
    ),
    HttpApiEndpoint.post("declineTask", `${apiPrefix}/tasks/:reference/decline`, {
      params: { reference: Schema.String },
      payload: DeclineRequest,
      success: Task,
      error: [...bodyErrors, Unauthorized, Forbidden, NotFound, Conflict, ...commonErrors]
    }).annotateMerge(summary("Decline an offer (participant)", "Authorization: Bearer <OAuth 2.1 access token>.")),
    HttpApiEndpoint.post("submitTask", `${apiPrefix}/tasks/:reference/submit`, {
      params: { reference: Schema.String },
      payload: ResultSubmission,
      success: Task,
      error: [...bodyErrors, Unauthorized, Forbidden, NotFound, Conflict, Unprocessable, ...commonErrors]
    }).annotateMerge(
      summary(
        "Submit the result (participant)",
        "Authorization: Bearer <OAuth 2.1 access token>. A structured result; when the task's brief has a result_schema, fields must satisfy it (else 422 result_invalid, details naming each field)."
      )
    )
  )
  // Every endpoint of the group (added above) is the signed-in participant's.
  .middleware(ParticipantAuthentication)
  .annotateMerge(OpenApi.annotations({ title: "Participant" })) {}

export class HealthApi extends HttpApiGroup.make("health", { topLevel: true })
  .add(
    HttpApiEndpoint.get("healthz", "/healthz", { success: HealthStatus, error: commonErrors }).annotateMerge(
      summary("Liveness", "The process is up and answering.")
    ),
    HttpApiEndpoint.get("readyz", "/readyz", { success: HealthStatus, error: commonErrors }).annotateMerge(
      summary("Readiness", "The database answers and every migration is applied; 503 otherwise.")
    )
  )
  .annotateMerge(OpenApi.annotations({ title: "Health" })) {}

export class MarketplaceApi extends HttpApi.make("task-marketplace")
  .add(DiscoveryApi)
  .add(ParticipantsApi)
  .add(DraftsApi)
  .add(TasksApi)
  .add(AgentApi)
  .add(ParticipantAccountApi)
  .add(HealthApi)
  .annotateMerge(
    OpenApi.annotations({
      title: "Task Marketplace API",
      version: "1.0.0",
      description: apiDescription
    })
  ) {}
