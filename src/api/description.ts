/**
 * The prose of the API description (rendered by the docs page): agent guidance, authentication and
 * every error code — built from the same data the service runs on, its numbers (timeouts, limits,
 * windows, sizes) from the deployment's settings.
 */
import { slowWorkMs } from "../domain/sandbox.ts"
import { webhookAnswerMaxBytes } from "../domain/webhooks.ts"
import { bytesInWords, durationAtLeast, durationInWords, listInWords, shortDuration } from "./durations.ts"
import { errorCodes } from "./envelope.ts"
import { mcpPromptNames, mcpProtocolVersions, mcpResources, mcpToolNames, participantMcpToolNames } from "./mcp.ts"
import { maxBodyBytes } from "./parameters.ts"

/**
 * The settings the description states (the fields of the service's settings of the same names):
 * what a caller can count on in this deployment.
 */
export interface DescribedSettings {
  readonly mcpUrl: string
  readonly oauthAccessTokenTtlMs: number
  readonly offerTimeoutMs: number
  readonly reviewWindowMs: number
  readonly rateLimit:
    | { readonly readsPerWindow: number; readonly writesPerWindow: number; readonly windowMs: number }
    | undefined
  readonly httpTimeouts: { readonly headersMs: number; readonly requestMs: number }
  readonly artifacts: { readonly maxFileBytes: number; readonly maxFiles: number }
  readonly webhooks: { readonly retryScheduleMs: ReadonlyArray<number>; readonly timeoutMs: number }
}

export const coldStart = [
  "GET /api/public/v1 (this index) and GET /api/public/v1/capabilities for the rules.",
  "Find people: GET /api/public/v1/participants?q=<words>, or POST /api/public/v1/search with a plain-language description.",
  "Build a brief: action, execution_mode (digital | physical | hybrid), expected_result, acceptance_test; location for physical and hybrid; add timing, principal and agent.",
  "Validate it with POST /api/public/v1/preflight until valid is true (fix every issue; consider the warnings: no_eligible_participant and participant_ineligible mean nobody can take the task as drafted, and say what to change).",
  "Submit it with POST /api/public/v1/tasks and an idempotency-key header (a fresh UUID); retry with the same key on any network error or 503.",
  "Keep the reference and task_token from the 201 response.",
  "Poll GET /api/public/v1/tasks/{reference} (send If-None-Match with the last ETag) until state is settled, declined or cancelled, or give the draft a webhook_url and be called at each change; read result and outcome. A result's uploaded files (result.artifacts of kind file) are downloaded from their url with Authorization: Bearer <task_token>."
] as const

/** The limits a caller meets, as this deployment is configured. */
const limits = (settings: DescribedSettings) => {
  const { rateLimit, httpTimeouts, artifacts } = settings
  const window = durationInWords(rateLimit?.windowMs ?? 0).replace(/^1 /, "")
  return [
    rateLimit === undefined
      ? "Requests are not rate limited on this server."
      : `Each client address may make ${rateLimit.readsPerWindow} reads and ${rateLimit.writesPerWindow} writes per ${window}, in bursts up to those numbers (GET and HEAD are reads, other methods writes; an MCP tool call counts as the REST operation it performs); past them the answer is 429 \`rate_limited\` with \`Retry-After\`, and API answers carry \`ratelimit-*\` headers.`,
    `A request's line and headers must arrive within ${durationInWords(httpTimeouts.headersMs)} and the whole request within ${durationInWords(httpTimeouts.requestMs)} (else 408 \`request_timeout\`); answering is not limited, so a long poll (\`?wait=60\`) is fine. A JSON body is at most ${bytesInWords(maxBodyBytes)}; an uploaded file at most ${bytesInWords(artifacts.maxFileBytes)}, and a result carries at most ${artifacts.maxFiles} files.`,
    `An offer not accepted within ${durationInWords(settings.offerTimeoutMs)} goes to the next participant (a task naming its participant is declined); a submitted result not reviewed within ${durationInWords(settings.reviewWindowMs)} is accepted.`
  ].join(" ")
}

/** The webhooks' timeout and retries, as this deployment is configured. */
const webhookRetries = (settings: DescribedSettings) => {
  const { retryScheduleMs, timeoutMs } = settings.webhooks
  const total = retryScheduleMs.reduce((sum, ms) => sum + ms, 0)
  return `Answer 2xx within ${durationInWords(timeoutMs)} (do the work afterwards). Anything else — another status, no answer, a refused connection — is retried after ${listInWords(retryScheduleMs.map(shortDuration))} (each wait lengthened by up to a tenth at random: a little over ${durationAtLeast(total)} in all), then the event is marked failed; a task's next event waits until the one before it is delivered or has failed. Redirects are not followed; at most ${bytesInWords(webhookAnswerMaxBytes)} of an answer is read.`
}

/** The API's description for a deployment: the docs page's text, its numbers from `settings`. */
export const describeApi = (settings: DescribedSettings): string =>
  [
    "Software agents hire humans (participants) for bounded digital, physical or hybrid tasks: discover participants, preflight a brief, submit it idempotently, and poll it until a structured human result comes back. Every response, including every error, is JSON.",
    "",
    "## Agent guidance",
    "",
    // Requests as code spans: Markdown would take `<words>` in a path for an HTML tag and drop it.
    ...coldStart.map((step, i) => `${i + 1}. ${step.replace(/\b(GET|POST) (\/[^\s,]+)/g, "`$1 $2`")}`),
    "",
    "## Authentication",
    "",
    "Discovery, preflight, search, task submission and task status need no credential. The 201 response of a submission carries `task_token`: present it as `Authorization: Bearer <task_token>` for the agent's actions on that task. Participants use OAuth 2.1 access tokens; the protected-resource metadata is at `/.well-known/oauth-protected-resource` (the participant's MCP endpoint, a resource of its own, has its metadata at `/.well-known/oauth-protected-resource/mcp/participant`).",
    "",
    "Participants sign in with OAuth 2.1. Unless the operator names an external issuer, the service runs its own authorization server, issuer `/oauth`: metadata at `/.well-known/oauth-authorization-server/oauth` (RFC 8414) and `/oauth/.well-known/openid-configuration`; authorization endpoint `/oauth/auth`; token endpoint `/oauth/token`; dynamic client registration at `/oauth/reg` (RFC 7591; an https `client_id` naming a Client ID Metadata Document works without registering). The service index's `authentication.authorization_server` names the one in use.",
    "",
    "1. The operator invites the person (`participants invite <slug> --email <address>`); the one-time link lets them choose a password. Where sign-up is open, a person may instead create an account from the sign-in page; their profile then awaits the operator's approval, and until it is approved `GET /me` answers 403 `forbidden` saying so.",
    "2. The app (or MCP host) sends the person to the authorization endpoint: authorization code flow, PKCE with `S256` (required; `plain` is refused), scopes `openid email profile`, and `resource` = the resource the token is for — this API (`/api/public/v1`) or the participant's MCP endpoint (`/mcp/participant`).",
    "3. The person signs in (email and password) and allows the app; the choice is remembered for that app until they sign out (`/oauth/session/end`).",
    `4. The app exchanges the code at the token endpoint: an access token (a JWT, \`typ: at+jwt\`, \`aud\` = that resource, valid up to ${durationInWords(settings.oauthAccessTokenTtlMs)}) sent as \`Authorization: Bearer <access token>\`, and a refresh token that rotates on each use (a refresh token used twice revokes the whole grant).`,
    "",
    "## Interfaces",
    "",
    "Two interfaces serve the same tasks, participants and lifecycle, over the same rules: this REST API, and MCP (Model Context Protocol) for agent hosts, at the index's `mcp` address (`/mcp` on this server by default).",
    "",
    `MCP is served over Streamable HTTP (protocol revisions ${mcpProtocolVersions.join(", ")}), with no credential. Tools: ${mcpToolNames.map((name) => `\`${name}\``).join(", ")}; each tool's result (\`structuredContent\`) is exactly the REST response body of the same operation, and a refused call is a result with \`isError: true\` whose \`structuredContent\` is the error envelope below. Resources: ${Object.values(
      mcpResources
    )
      .map((uri) => `\`${uri}\``)
      .join(
        ", "
      )}. Prompt: \`${mcpPromptNames[0]}\` (argument \`goal\`). An idempotency key used over REST and then over MCP (or the other way round) names the same task.`,
    "",
    "2026-07-28 is stateless (no `initialize`, no session: every request carries its revision, client info and capabilities; `server/discover` describes the server); the older revisions keep their sessions. `submit_task` can run as an MCP Task (2026-07-28's Tasks extension, or 2025-11-25's tasks): it answers at once with a task that stays `working` (its status message is the task's `next_step`) until there is a result to review or the task ends, and whose result is then the task as `get_task` returns it. The task's id is a secret like the task token: `review_task`, `cancel_task` and `get_deliveries` take it in place of `task_token`, and `tasks/cancel` cancels the task as its agent.",
    "",
    "To connect a host to this server, add it to the host's configuration, e.g.:",
    "",
    "```json",
    // One member a line: the docs page's column is narrow, and a long line scrolls out of sight.
    JSON.stringify({ mcpServers: { "task-marketplace": { type: "http", url: settings.mcpUrl } } }, null, 2),
    "```",
    "",
    `or try it in the MCP Inspector: \`npx @modelcontextprotocol/inspector\`, then choose the transport Streamable HTTP and the URL \`${settings.mcpUrl}\`.`,
    "",
    `Participants (the humans doing tasks) connect their own AI assistant to \`/mcp/participant\` (the index's \`interfaces.mcp_participant\`), the same way. It is an OAuth 2.1 protected resource: every request carries an access token issued for that endpoint (its URL is the token's audience; a token for this REST API is refused), whose subject is linked to a participant. A host without one gets 401 with \`WWW-Authenticate\` naming the endpoint's metadata and signs the person in by itself. Tools: ${participantMcpToolNames.map((name) => `\`${name}\``).join(", ")} — the same bodies and refusals as \`GET /api/public/v1/me\`, \`GET /api/public/v1/me/tasks\` and the participant's moves on a task.`,
    "",
    "Or they work in the browser: the participant console at `/console` (the index's `interfaces.participant_console`, served with the embedded authorization server) shows their offers with the whole brief, lets them accept, decline, start work and hand in a result — the fields the task's `result_schema` describes, files, links and notes — and keeps their profile and availability. The files reach the agent as `file` artifacts of the result (`id`, `name`, `content_type`, `size`, `sha256`, `url`), downloaded with the task token from `GET /api/public/v1/tasks/{reference}/artifacts/{id}`.",
    "",
    "## Webhooks",
    "",
    "Instead of polling, give the draft a `webhook_url`: an `https` URL on a public address (the service refuses `localhost`, private, loopback, link-local and other non-public addresses, in the URL and again at every connection, so a DNS answer cannot point it inside the service's network; plain `http` and private addresses only when the service runs with `WEBHOOK_ALLOW_PRIVATE=true`, for development). The 201 then carries `webhook_secret` (also on idempotent replays, never elsewhere): keep it with the task token.",
    "",
    "Each entry of the task's `history` — the agent's, the participant's and the service's own moves — is POSTed to the URL as one event, in order (a write that records two transitions sends two): `{\"type\": \"task.updated\", \"timestamp\": <the entry's time>, \"data\": <the task as GET returns it once that entry was recorded>}`, signed as [Standard Webhooks](https://www.standardwebhooks.com/) specifies: headers `webhook-id` (the event's id, the same on every retry: deduplicate on it), `webhook-timestamp` (the attempt's time, in seconds) and `webhook-signature` (`v1,` and the base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<body>`, keyed with the secret's base64 part). Any Standard Webhooks library verifies them, e.g. in Node:",
    "",
    "```js",
    'import { Webhook } from "standardwebhooks"',
    "const event = new Webhook(webhookSecret).verify(rawBody, request.headers) // throws when the signature is wrong",
    "```",
    "",
    'A message the participant writes on the task (`POST /tasks/{reference}/messages`) is POSTed the same way, signed alike, in its place among the task\'s events: `{"type": "task.message", "timestamp": <the message\'s time>, "data": {"object": "message", "id", "from": "participant", "body", "created_at", "reference"}}`. It changes neither the task nor its ETag. The agent\'s own messages send no event.',
    "",
    `${webhookRetries(settings)} Events are written in the same transaction as the change they report, so none is lost when a process stops, and each attempt is made by one process. \`GET /api/public/v1/tasks/{reference}/deliveries\` (with the task token; MCP: \`get_deliveries\`) lists each event with its attempts (time, status or error) and its state: \`pending\` (with \`next_attempt_at\`), \`delivered\` or \`failed\`. \`/capabilities\` \`events.webhooks\` gives this server's timeout, schedule and rules.`,
    "",
    "## Sandbox",
    "",
    `A service started with \`SANDBOX=on\` (\`npm run sandbox\`) is a sandbox: the same interfaces, its index and tasks marked \`"sandbox": true\`, with simulated participants to name as \`participant_slug\` — \`sim-delivers\` (accepts, starts and delivers a result that satisfies the task's \`result_schema\` within seconds; delivers again when asked to revise), \`sim-declines\`, \`sim-silent\` (never answers) and \`sim-slow\` (delivers ${durationInWords(slowWorkMs)} later by the sandbox's clock) — and a clock: \`GET /api/public/v1/sandbox/clock\`, and \`POST\` it \`{"advance": "PT${Math.ceil(settings.offerTimeoutMs / 3_600_000) + 1}H"}\` (an ISO 8601 duration; MCP: \`advance_clock\`) to move the time of tasks forward — offers lapse, review windows close, deadlines pass — within a few seconds. Outside a sandbox these paths are 404.`,
    "",
    "## Limits",
    "",
    limits(settings),
    "",
    "## Errors",
    "",
    'Every error is `{ "error": { code, message, status, hint?, details?, documentation_url } }`; its `documentation_url` leads to its code below.',
    "",
    ...Object.entries(errorCodes).map(
      ([code, e]) => `- <a id="error-${code}"></a>\`${code}\` (${e.status}): ${e.meaning}`
    ),
    "",
    "## Contact",
    "",
    "Open an issue in the project's repository."
  ].join("\n")
