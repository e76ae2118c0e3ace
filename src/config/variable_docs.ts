/**
 * What each variable of `variables.ts` is for, in words, for the configuration reference
 * (docs/configuration.md, written by `npm run docs`). The defaults and what each variable accepts
 * are read from the variable itself; the text here says only what the table cannot: what the
 * setting does, and the default of a variable whose default is made from other settings.
 */
import type { variables } from "./variables.ts"

export const topics = {
  server: "The server",
  storage: "Storage and files",
  tasks: "Tasks and their timers",
  interfaces: "MCP",
  signIn: "Participants' sign-in",
  rateLimits: "Rate limits",
  webhooks: "Webhooks",
  mail: "Mail",
  tracing: "Tracing"
} as const

export interface VariableDoc {
  readonly topic: keyof typeof topics
  readonly about: string
  /** The default in words, for a variable without a default of its own (unset, or made from others). */
  readonly unset?: string
}

export const variableDocs: { readonly [Name in keyof typeof variables]: VariableDoc } = {
  PORT: { topic: "server", about: "The port to listen on (`0`: any free port)." },
  HOST: { topic: "server", about: "The address to listen on; `0.0.0.0` listens on every interface." },
  PUBLIC_BASE_URL: {
    topic: "server",
    unset: "`http://HOST:PORT`",
    about: "The base of every `url` member the service writes, and of the addresses below."
  },
  LOG_LEVEL: {
    topic: "server",
    about:
      "`Info` and below log one JSON line per request; `Warn` and above only warnings and failures; `None` nothing."
  },
  DOCS_URL: {
    topic: "server",
    unset: "`<PUBLIC_BASE_URL>/docs`",
    about: "The base of `documentation_url` in errors (`<DOCS_URL>#error-<code>`)."
  },
  HEADERS_TIMEOUT: {
    topic: "server",
    about:
      "The request line and headers must arrive within it (from the connection, or the request's first byte); else 408 `request_timeout` and the connection is closed. At most `REQUEST_TIMEOUT`."
  },
  REQUEST_TIMEOUT: {
    topic: "server",
    about:
      "The whole request, body and uploaded file included, must arrive within it; else 408 `request_timeout` and the connection is closed. Sending the response is not limited (a `?wait=60` long poll is fine). Raise it where participants upload large files over slow links."
  },
  KEEP_ALIVE_TIMEOUT: {
    topic: "server",
    about:
      "A kept-alive connection idle this long between requests is closed (announced as `Keep-Alive: timeout=N`; Node closes it 1 s later)."
  },
  DATABASE_URL: {
    topic: "storage",
    about:
      "SQLite (a file, or `sqlite::memory:`) or Postgres (`postgres://user@host:5432/db`); the same services, queries and migrations on both."
  },
  SEED_SAMPLE_CATALOGUE: {
    topic: "storage",
    about: "Load `data/sample-participants.json` into an empty participant directory."
  },
  TASK_TOKEN_SECRET: {
    topic: "storage",
    unset: "generated once, kept in the database",
    about:
      "The secret task tokens and webhook secrets are derived from. Set it so that a copy of the database grants nothing; changing it changes every task token and webhook secret."
  },
  ARTIFACT_STORE: {
    topic: "storage",
    unset: "`artifacts/` beside the SQLite file",
    about:
      "Where uploaded files (evidence) go: a directory, or an S3-compatible object store (credentials and region from the AWS SDK's usual environment: `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`, `AWS_REGION`, …). Unset: `artifacts/` beside the SQLite file (`./data/artifacts` by default), a temporary directory for `sqlite::memory:`, `./data/artifacts` under the working directory on Postgres. Processes on several machines sharing one Postgres need `s3://…`."
  },
  ARTIFACT_S3_ENDPOINT: {
    topic: "storage",
    unset: "AWS",
    about:
      "The address of an S3-compatible server (MinIO, Ceph, R2, …), addressed path-style; only with `ARTIFACT_STORE=s3://…`."
  },
  ARTIFACT_MAX_FILE_BYTES: {
    topic: "storage",
    about: "The most bytes one uploaded file may have; an upload must also arrive within `REQUEST_TIMEOUT`."
  },
  ARTIFACT_MAX_FILES: {
    topic: "storage",
    about:
      "The most files one result may carry, and the most files a participant may have uploaded to a task and not yet handed in."
  },
  OFFER_TIMEOUT: {
    topic: "tasks",
    about:
      "An offer not accepted in time goes to the next participant (or declines a task that named its participant: `accept_timeout`)."
  },
  REVIEW_WINDOW: {
    topic: "tasks",
    about: "A result the agent has not reviewed in time is accepted (`auto_accepted`)."
  },
  TIMER_SWEEP_INTERVAL: {
    topic: "tasks",
    about:
      "How often each process looks for due timers, webhook events and simulated participants' moves (it also wakes at once after a change it makes)."
  },
  SANDBOX: {
    topic: "tasks",
    about:
      "`on`: run as a sandbox (simulated participants, a clock that moves: [sandbox.md](sandbox.md)) on a database of its own; `npm run sandbox` sets it with `./data/sandbox.sqlite`."
  },
  MCP_URL: {
    topic: "interfaces",
    unset: "`<PUBLIC_BASE_URL>/mcp`",
    about:
      "The MCP interface's address, announced by the index; served by this server when it is under `PUBLIC_BASE_URL`. The participant's endpoint is `<MCP_URL>/participant`, also the audience of its access tokens."
  },
  MCP_ALLOWED_ORIGINS: {
    topic: "interfaces",
    unset: "`PUBLIC_BASE_URL`'s origin",
    about:
      "Browser origins allowed to call `/mcp`; requests without `Origin` (hosts, CLIs) always are; any other origin gets 403 (the MCP transport's DNS-rebinding guard)."
  },
  OAUTH_ISSUER: {
    topic: "signIn",
    unset: "the embedded server, `<PUBLIC_BASE_URL>/oauth`",
    about:
      "An external authorization server, named by the protected-resource metadata (REST and the participant's MCP endpoint). Unset, the service runs its own at `/oauth`, and the participant console is served."
  },
  CLIENT_METADATA_ALLOW_PRIVATE: {
    topic: "signIn",
    about:
      "`on`: the embedded authorization server may fetch a Client ID Metadata Document (a `client_id` that is an `https` URL) from loopback, private and other non-public addresses, on any port, and with a certificate nobody vouches for. For development and tests only: it lets a stranger make the service call into its own network. Off, only public addresses by name on port 443, with a valid certificate."
  },
  OAUTH_AUDIENCE: {
    topic: "signIn",
    unset: "`<PUBLIC_BASE_URL>/api/public/v1`",
    about: "The REST API's resource indicator: the `aud` of the access tokens it accepts."
  },
  OAUTH_JWKS_URI: {
    topic: "signIn",
    unset: "from the issuer's metadata",
    about: "Where an external issuer's signing keys are."
  },
  OAUTH_ACCESS_TOKEN_TTL: {
    topic: "signIn",
    about: "How long the embedded server's access tokens last (a JWT outlives any revocation, so it is short)."
  },
  OAUTH_REGISTRATIONS_PER_HOUR: {
    topic: "signIn",
    about:
      "Dynamic client registrations the embedded server accepts per client address and hour; past it 429 with `Retry-After`."
  },
  PARTICIPANT_SIGNUP: {
    topic: "signIn",
    about:
      '`open`: the sign-in page offers "Create an account" to people without an invitation; their profile stays unlisted until `participants approve <slug>`. `closed`: invitations only, and the sign-up addresses are 404.'
  },
  RATE_LIMIT: {
    topic: "rateLimits",
    about: "Per client address, reads and writes counted apart; `off` disables it (the limits below are then not read)."
  },
  RATE_LIMIT_READS_PER_MINUTE: {
    topic: "rateLimits",
    about: "Reads (GET, HEAD, OPTIONS) per window: a burst up to the limit, then the limit's rate (a token bucket)."
  },
  RATE_LIMIT_WRITES_PER_MINUTE: {
    topic: "rateLimits",
    about:
      "Writes per window, as for reads. Past either: 429 `rate_limited` with `Retry-After` and `ratelimit-*` headers."
  },
  RATE_LIMIT_WINDOW: { topic: "rateLimits", about: "The window the two limits count over." },
  REDIS_URL: {
    topic: "rateLimits",
    unset: "counters in each process",
    about:
      "Keep the rate-limit counters in Redis so that the limit holds across processes (Redis must answer at start-up)."
  },
  REDIS_KEY_PREFIX: { topic: "rateLimits", about: "The prefix of every key written to Redis." },
  WEBHOOK_ALLOW_PRIVATE: {
    topic: "webhooks",
    about:
      "`on`: a `webhook_url` may be plain `http` and name loopback, private and other non-public addresses. For development and tests only: it lets an agent make the service call into its own network."
  },
  WEBHOOK_RETRY_SCHEDULE: {
    topic: "webhooks",
    about:
      "The waits between a webhook event's attempts, each lengthened by up to a tenth at random; after the last, the event is marked failed."
  },
  WEBHOOK_TIMEOUT: {
    topic: "webhooks",
    about: "An attempt succeeds on a 2xx within it, from connecting to the status."
  },
  SMTP_URL: {
    topic: "mail",
    unset: "no mail is sent or queued",
    about:
      "The SMTP server mail is sent through: `smtp://[user:password@]host[:port]` (STARTTLS when the server offers it) or `smtps://…` (TLS from the start); user and password percent-encoded. Never logged. Unset: no mail is sent or queued (said once at start-up), invitation and reset links are only printed. See docs/mail.md."
  },
  MAIL_FROM: {
    topic: "mail",
    unset: "required with `SMTP_URL`",
    about: "The `From` of every mail, e.g. `Task marketplace <noreply@example.org>`."
  },
  MAIL_RETRY_SCHEDULE: {
    topic: "mail",
    about:
      "The waits between a mail's attempts while the SMTP server refuses it or cannot be reached, each lengthened by up to a tenth at random; after the last, the mail is marked failed. Every attempt sends the same `Message-ID`."
  },
  OTEL_EXPORTER_OTLP_ENDPOINT: {
    topic: "tracing",
    unset: "no tracing",
    about:
      "An OpenTelemetry collector (OTLP/HTTP, JSON): request, service and SQL spans are exported to `<endpoint>/v1/traces`, continuing callers' `traceparent`; request log lines then carry `trace_id`."
  },
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: {
    topic: "tracing",
    unset: "from `OTEL_EXPORTER_OTLP_ENDPOINT`",
    about: "The collector's traces address itself, used as given."
  },
  OTEL_EXPORTER_OTLP_HEADERS: {
    topic: "tracing",
    unset: "none",
    about: "Headers sent with every export (often the collector's key); never logged."
  },
  OTEL_EXPORTER_OTLP_TRACES_HEADERS: {
    topic: "tracing",
    unset: "`OTEL_EXPORTER_OTLP_HEADERS`",
    about: "Headers for the traces export alone."
  },
  OTEL_SERVICE_NAME: { topic: "tracing", about: "The `service.name` of every span." },
  OTEL_TRACES_SAMPLER: {
    topic: "tracing",
    about: "Which traces are recorded; a `parentbased_…` sampler follows a caller's `traceparent` when there is one."
  },
  OTEL_TRACES_SAMPLER_ARG: { topic: "tracing", about: "The ratio of a `traceidratio` sampler." },
  OTEL_BSP_SCHEDULE_DELAY: { topic: "tracing", about: "How often finished spans are sent, in milliseconds." },
  OTEL_TRACES_EXPORTER: {
    topic: "tracing",
    about: "Tracing is off unless it names `otlp` (e.g. `none` turns it off with a collector configured)."
  },
  OTEL_SDK_DISABLED: {
    topic: "tracing",
    about: "`true` turns tracing off (OpenTelemetry's rule: only `true` is true)."
  }
}
