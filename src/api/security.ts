/**
 * The two credentials of the API, as HttpApi security middleware: the agent's task token and the
 * participant's OAuth 2.1 access token. Each middleware reads its bearer credential and provides a
 * typed caller to the handlers of the endpoints it guards; the OpenAPI document's security schemes
 * and each operation's `security` are derived from them (`taskToken`, `participantAccessToken`;
 * the document describes the latter as the OAuth 2.0 scheme it is, http/openapi.ts).
 * The layers that implement them are in src/http/authentication.ts.
 */
import * as Context from "effect/Context"
import * as HttpApiMiddleware from "effect/http-api/HttpApiMiddleware"
import * as HttpApiSecurity from "effect/http-api/HttpApiSecurity"
import * as OpenApi from "effect/http-api/OpenApi"
import { Conflict, Forbidden, NotFound, ServiceUnavailable, Unauthorized } from "./envelope.ts"

/**
 * The agent, holding a task token. The token is per task, so the middleware knows only that one
 * was sent; the service checks it against the task the request names.
 */
export class AgentCaller extends Context.Service<AgentCaller, { readonly taskToken: string }>()(
  "task-marketplace/api/AgentCaller"
) {}

/** The participant an access token's subject is linked to: verified by the middleware. */
export class ParticipantCaller extends Context.Service<
  ParticipantCaller,
  { readonly subject: string; readonly slug: string }
>()("task-marketplace/api/ParticipantCaller") {}

// `HttpApiSecurity.bearer` names its scheme "Bearer"; the document has always said "bearer" (the
// IANA registry's spelling). Credentials are read alike: the scheme is matched ignoring case.
const bearer = HttpApiSecurity.http({ scheme: "bearer" })

const taskToken = bearer.pipe(
  HttpApiSecurity.annotateMerge(
    OpenApi.annotations({
      description:
        "The task_token of the 201 that created the task (POST /tasks; the createTask response's links lead to the operations it authorises): one per task, a secret."
    })
  )
)

const participantAccessToken = bearer.pipe(
  HttpApiSecurity.annotateMerge(
    OpenApi.annotations({
      format: "JWT",
      description:
        "An OAuth 2.1 access token of the authorization server named by /.well-known/oauth-protected-resource."
    })
  )
)

export class AgentAuthentication extends HttpApiMiddleware.Service<AgentAuthentication, { provides: AgentCaller }>()(
  "task-marketplace/api/AgentAuthentication",
  {
    error: Unauthorized,
    security: { taskToken }
  }
) {}

export class ParticipantAuthentication extends HttpApiMiddleware.Service<
  ParticipantAuthentication,
  { provides: ParticipantCaller }
>()("task-marketplace/api/ParticipantAuthentication", {
  // 403 when the token's subject is linked to no participant; 503 when the link cannot be read.
  error: [Unauthorized, Forbidden, ServiceUnavailable],
  security: { participantAccessToken }
}) {}

/**
 * Who reads a task's files: its agent (a task token; the service checks it is this task's) or a
 * participant (a verified access token linked to them; the service checks they uploaded the file).
 */
export class TaskReader extends Context.Service<
  TaskReader,
  | { readonly _tag: "Agent"; readonly taskToken: string }
  | { readonly _tag: "Participant"; readonly subject: string; readonly slug: string }
>()("task-marketplace/api/TaskReader") {}

/**
 * Either credential, for the endpoints both parties read (a result's files). The schemes are tried
 * in order: a task token (`tt_…`) is the agent's, anything else must be a participant's access
 * token, whose refusal (401, 403, 503) is the answer.
 */
export class TaskReaderAuthentication extends HttpApiMiddleware.Service<
  TaskReaderAuthentication,
  { provides: TaskReader }
>()("task-marketplace/api/TaskReaderAuthentication", {
  error: [Unauthorized, Forbidden, ServiceUnavailable],
  security: { taskToken, participantAccessToken }
}) {}

/**
 * A move on a task is refused to the wrong party before its body is judged (a wrong token with a
 * malformed body is 401, not 400): these run after the credential is read and before the body
 * (api/body.ts). The agent's: the task token is this task's (the path's `reference`).
 */
export class AgentOfTask extends HttpApiMiddleware.Service<AgentOfTask, { requires: AgentCaller }>()(
  "task-marketplace/api/AgentOfTask",
  { error: [Unauthorized, NotFound, ServiceUnavailable] }
) {}

/**
 * Either party's, on the endpoints both use (a task's conversation): the agent's task token is this
 * task's, or the task is offered to or held by the participant.
 */
export class PartyOfTask extends HttpApiMiddleware.Service<PartyOfTask, { requires: TaskReader }>()(
  "task-marketplace/api/PartyOfTask",
  { error: [Unauthorized, Forbidden, NotFound, ServiceUnavailable] }
) {}

/** The participant's: the task the path names is offered to or held by them, in a state for the move. */
export class HolderOfTask extends HttpApiMiddleware.Service<HolderOfTask, { requires: ParticipantCaller }>()(
  "task-marketplace/api/HolderOfTask",
  { error: [Forbidden, NotFound, Conflict, ServiceUnavailable] }
) {}
