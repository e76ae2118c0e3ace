/**
 * The HttpApi description of the published REST interface: the one source from which the server,
 * the OpenAPI document, the service index's `endpoints` and /capabilities are derived.
 */

import * as HttpApi from "effect/http-api/HttpApi"
import * as HttpApiEndpoint from "effect/http-api/HttpApiEndpoint"
import * as HttpApiGroup from "effect/http-api/HttpApiGroup"
import * as HttpApiSchema from "effect/http-api/HttpApiSchema"
import * as OpenApi from "effect/http-api/OpenApi"
import * as Schema from "effect/Schema"
import { apiPrefix } from "../domain/addresses.ts"
import { Message, MessageList, MessageRequest } from "../domain/messages.ts"
import { Participant } from "../domain/participant.ts"
import { CreatedTask, Task } from "../domain/task.ts"
import { TaskDraft } from "../domain/task_draft/schema.ts"
import { JsonBody, OptionalBody } from "./body.ts"
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
import {
  FileResponseHeaders,
  IdempotencyKeyHeader,
  IfNoneMatchHeader,
  PageCursor,
  PageLimit,
  ParticipantQuery,
  ReplayedHeader,
  TaskEtagHeader,
  TaskLocationHeader,
  UploadFileName,
  WaitSeconds
} from "./parameters.ts"
import {
  Account,
  AgentCard,
  ApiCatalog,
  CancelRequest,
  Capabilities,
  DeclineRequest,
  DeliveryList,
  HealthStatus,
  ParticipantList,
  PreflightResult,
  ProtectedResourceMetadata,
  ResultSubmission,
  ReviewRequest,
  SearchRequest,
  SearchResult,
  ServiceIndex,
  TaskList,
  UploadedFile
} from "./resources.ts"
import {
  AgentAuthentication,
  AgentOfTask,
  HolderOfTask,
  ParticipantAuthentication,
  PartyOfTask,
  TaskReaderAuthentication
} from "./security.ts"

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
        q: Schema.optionalKey(ParticipantQuery),
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
      payload: Schema.Record(Schema.String, Schema.Unknown).annotate({
        identifier: "DraftToPreflight",
        description:
          "A TaskDraft, taken as any JSON object: it is judged by the rules of TaskDraft (the body of task submission), and nothing in it is refused: every problem is named in the answer, as an issue or a warning."
      }),
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
    })
      .middleware(JsonBody)
      .annotateMerge(
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
      success: HttpApiSchema.WithHeaders(CreatedTask.annotate({ httpApiStatus: 201 }), {
        location: TaskLocationHeader,
        etag: TaskEtagHeader,
        "idempotent-replayed": Schema.optionalKey(ReplayedHeader)
      }),
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
      headers: {
        "if-none-match": Schema.optionalKey(IfNoneMatchHeader)
      },
      success: [
        HttpApiSchema.WithHeaders(Task, { etag: TaskEtagHeader }),
        HttpApiSchema.WithHeaders(
          HttpApiSchema.Empty(304).annotate({ description: "Not Modified: the task is as the ETag named it." }),
          { etag: TaskEtagHeader }
        )
      ],
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
    })
      .middleware(JsonBody)
      .middleware(AgentOfTask)
      .annotate(OptionalBody, true)
      .annotateMerge(
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
    })
      .middleware(JsonBody)
      .middleware(AgentOfTask)
      .annotateMerge(
        summary(
          "Review a submitted result (agent)",
          "Authorization: Bearer <task_token>. accept settles the task; revise (reason required, at most 3) sends it back; reject (reason required) declines it."
        )
      ),
    HttpApiEndpoint.get("listDeliveries", `${apiPrefix}/tasks/:reference/deliveries`, {
      params: { reference: Schema.String },
      success: DeliveryList,
      error: [Unauthorized, NotFound, ...commonErrors]
    }).annotateMerge(
      summary(
        "A task's webhook deliveries (agent)",
        "Authorization: Bearer <task_token>. Each event of the task (one per history entry) with its attempts (time, status or error) and its state: pending (with the next attempt's time), delivered or failed. Empty when the draft gave no webhook_url."
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
      })
        // No body is declared; a JSON object sent anyway is read by the body's rules and ignored.
        .middleware(JsonBody)
        .middleware(HolderOfTask)
        .annotate(OptionalBody, true)
        .annotateMerge(
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
    })
      .middleware(JsonBody)
      .middleware(HolderOfTask)
      .annotate(OptionalBody, true)
      .annotateMerge(summary("Decline an offer (participant)", "Authorization: Bearer <OAuth 2.1 access token>.")),
    HttpApiEndpoint.post("uploadArtifact", `${apiPrefix}/tasks/:reference/artifacts`, {
      params: { reference: Schema.String },
      query: {
        name: UploadFileName
      },
      payload: HttpApiSchema.StreamUint8Array({ contentType: "application/octet-stream" }).annotate({
        description:
          "The file's bytes, as they are (not a multipart form). Any content-type may be sent; the service reads the type from the bytes."
      }),
      success: UploadedFile.annotate({ httpApiStatus: 201 }),
      error: [
        BadRequest,
        PayloadTooLarge,
        UnsupportedMediaType,
        Unauthorized,
        Forbidden,
        NotFound,
        Conflict,
        Unprocessable,
        ...commonErrors
      ]
    })
      .middleware(HolderOfTask)
      .annotateMerge(
        summary(
          "Upload a file as evidence (participant)",
          'Authorization: Bearer <OAuth 2.1 access token>. The task\'s holder, while it is accepted or in_flight. The body is the file (at most limits.files.max_file_bytes of GET /capabilities). Name the returned id in the result\'s artifacts ({"kind": "file", "id": …}); a file no submitted result names is removed after an hour.'
        )
      ),
    HttpApiEndpoint.post("submitTask", `${apiPrefix}/tasks/:reference/submit`, {
      params: { reference: Schema.String },
      payload: ResultSubmission,
      success: Task,
      error: [...bodyErrors, Unauthorized, Forbidden, NotFound, Conflict, Unprocessable, ...commonErrors]
    })
      .middleware(JsonBody)
      .middleware(HolderOfTask)
      .annotateMerge(
        summary(
          "Submit the result (participant)",
          'Authorization: Bearer <OAuth 2.1 access token>. A structured result; when the task\'s brief has a result_schema, fields must satisfy it (else 422 result_invalid, details naming each field). An artifact {"kind": "file", "id": …} names a file uploaded to this task by this participant, each file once (else 422 artifact_invalid); at most limits.files.max_files_per_result of them.'
        )
      )
  )
  // Every endpoint of the group (added above) is the signed-in participant's.
  .middleware(ParticipantAuthentication)
  .annotateMerge(OpenApi.annotations({ title: "Participant" })) {}

/** A result's files, read by the task's agent (its task token) or by their uploader (an access token). */
export class EvidenceApi extends HttpApiGroup.make("evidence", { topLevel: true })
  .add(
    HttpApiEndpoint.get("downloadArtifact", `${apiPrefix}/tasks/:reference/artifacts/:id`, {
      params: { reference: Schema.String, id: Schema.String },
      success: HttpApiSchema.WithHeaders(
        HttpApiSchema.StreamUint8Array({ contentType: "*/*" }).annotate({
          description: "The file's bytes, with content-type the type read from them."
        }),
        FileResponseHeaders
      ),
      error: [Unauthorized, Forbidden, NotFound, ...commonErrors]
    }).annotateMerge(
      summary(
        "Download a result's file",
        "Authorization: Bearer <task_token> (the agent: files of a submitted result) or Bearer <OAuth 2.1 access token> (the participant who uploaded it). Anyone else is answered as if there were no such file (404 artifact_not_found), or 401 without valid credentials."
      )
    )
  )
  .middleware(TaskReaderAuthentication)
  .annotateMerge(OpenApi.annotations({ title: "Evidence" })) {}

export class MessagesApi extends HttpApiGroup.make("messages", { topLevel: true })
  .add(
    HttpApiEndpoint.post("postMessage", `${apiPrefix}/tasks/:reference/messages`, {
      params: { reference: Schema.String },
      payload: MessageRequest,
      success: Message.annotate({ httpApiStatus: 201 }),
      error: [...bodyErrors, Unauthorized, Forbidden, NotFound, Conflict, ...commonErrors]
    })
      .middleware(JsonBody)
      .middleware(PartyOfTask)
      .annotateMerge(
        summary(
          "Write a message on a task",
          "Authorization: Bearer <task_token> (the agent, to the participant the task is offered to or held by) or Bearer <OAuth 2.1 access token> (that participant, to the agent). From the first offer until the task ends (then 409). A message changes nothing of the task, nor its ETag. A participant's message is sent to the task's webhook_url as a task.message event; an agent's is mailed to the participant (gathered over ten minutes) when mail is on."
        )
      ),
    HttpApiEndpoint.get("listMessages", `${apiPrefix}/tasks/:reference/messages`, {
      params: { reference: Schema.String },
      success: MessageList,
      error: [Unauthorized, Forbidden, NotFound, ...commonErrors]
    })
      .middleware(PartyOfTask)
      .annotateMerge(
        summary(
          "Read a task's messages",
          "Oldest first. The agent reads every thread; a participant the thread with them, while the task is offered to or held by them."
        )
      )
  )
  .middleware(TaskReaderAuthentication)
  .annotateMerge(OpenApi.annotations({ title: "Messages" })) {}

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
  .add(EvidenceApi)
  .add(MessagesApi)
  .add(HealthApi)
  // A body refused by its schema names every member that fails, not only the first.
  .annotate(HttpApi.PayloadParseOptions, { errors: "all" })
  .annotateMerge(
    OpenApi.annotations({
      title: "Task Marketplace API",
      version: "1.0.0"
    })
  ) {}
