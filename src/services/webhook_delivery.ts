/**
 * Every process's webhook sender: it claims due events from the outbox (services/webhook_outbox.ts),
 * POSTs each to its task's webhook_url, signed as Standard Webhooks specifies, and records the
 * attempt: delivered on a 2xx within WEBHOOK_TIMEOUT, else retried after the next wait of
 * WEBHOOK_RETRY_SCHEDULE (lengthened by up to a tenth at random, so retries spread out), and
 * failed once the schedule is used up.
 *
 * Requests go through request-filtering-agent: unless WEBHOOK_ALLOW_PRIVATE is on, a connection
 * to a loopback, private, link-local or otherwise non-public address is refused at the address the
 * host name resolved to, on every attempt (a URL that looked public at submission may not resolve
 * to a public address later), and the service's own rule (`addressRange`: an IPv4 address written
 * as IPv6 is judged as that address) is applied there too. No redirect is followed, and at most 64 KiB of an answer is read.
 */
import { createHmac } from "node:crypto"
import { lookup as dnsLookup, type LookupAddress } from "node:dns"
import { type LookupFunction, Socket, type TcpNetConnectOpts } from "node:net"
import type { Duplex } from "node:stream"
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as HttpClient from "effect/http/HttpClient"
import * as HttpClientRequest from "effect/http/HttpClientRequest"
import * as Layer from "effect/Layer"
import * as Stream from "effect/Stream"
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from "request-filtering-agent"
import { AppConfig } from "../config/app_config.ts"
import type { WebhookSettings } from "../config/settings.ts"
import { addressRange, type DeliveryAttempt, ipv4Behind, rangeName, webhookAnswerMaxBytes } from "../domain/webhooks.ts"
import { runOutboxSender } from "./outbox_sender.ts"
import { TaskTokens } from "./task_tokens.ts"
import { type AttemptOutcome, type StoredEvent, WebhookOutbox } from "./webhook_outbox.ts"

/** How many attempts one process makes at once. */
const maxInFlight = 16

/** A claim outlives the attempt it covers by this much, so it never lapses while the attempt runs. */
const leaseMargin = 30_000

/**
 * How host names are resolved for webhook requests: the system resolver unless replaced (tests
 * give a name a private address, to show the refusal at connection time).
 */
export const WebhookLookup = Context.Reference<LookupFunction | undefined>("task-marketplace/services/WebhookLookup", {
  defaultValue: () => undefined
})

/**
 * The `webhook-signature` of a message, as Standard Webhooks defines it: `v1,` and the base64
 * HMAC-SHA256 of `id.timestamp.body`, keyed with the secret's base64 part decoded.
 */
export const webhookSignature = (secret: string, id: string, timestamp: number, body: string): string =>
  `v1,${createHmac("sha256", Buffer.from(secret.replace(/^whsec_/, ""), "base64"))
    .update(`${id}.${timestamp}.${body}`)
    .digest("base64")}`

/** Why a connection to `address` is refused, as an error; undefined when it may be made. */
type Judge = (address: string, family: unknown, host: unknown) => Error | undefined

/**
 * request-filtering-agent's refusal, in its words (so `describeFailure` reads both alike), for an
 * address it lets through but the service does not: ipaddr.js calls `::7f00:1` (127.0.0.1 written
 * IPv4-compatible) unicast; `addressRange` judges it by the IPv4 address it is.
 */
const publicOnly: Judge = (address, family, host) => {
  const range = addressRange(address)
  return range === undefined || range === "unicast"
    ? undefined
    : new Error(
        `DNS lookup ${address}(family:${family}, host:${host}) is not allowed. Because, it is not a public address.`
      )
}

/** `lookup` with every address it answers judged before it is connected to. */
const judgedLookup =
  (lookup: LookupFunction, judge: Judge): LookupFunction =>
  (hostname, options, callback) =>
    lookup(hostname, options, ((error: NodeJS.ErrnoException | null, answer: unknown, family?: number) => {
      if (error !== null) return callback(error, "", 0)
      const answers = Array.isArray(answer) ? (answer as Array<LookupAddress>) : [{ address: answer as string, family }]
      for (const one of answers) {
        const refusal = judge(one.address, one.family, hostname)
        if (refusal !== undefined) return callback(refusal, "", 0)
      }
      ;(callback as (...args: Array<unknown>) => void)(null, answer, family)
    }) as Parameters<LookupFunction>[2])

/**
 * `judge` before request-filtering-agent's own check: on an IP address in the URL (connected to
 * without a lookup) and on every address a name resolves to.
 */
const judgedConnection = (
  judge: Judge,
  options: TcpNetConnectOpts,
  listener: ((error: Error | null, socket: Duplex) => void) | undefined,
  connect: (options: TcpNetConnectOpts) => Duplex
): Duplex => {
  const refusal = options.host === undefined ? undefined : judge(options.host, undefined, undefined)
  if (refusal === undefined) return connect({ ...options, lookup: judgedLookup(options.lookup ?? dnsLookup, judge) })
  const socket = new Socket()
  if (listener === undefined) socket.destroy(refusal)
  else listener(refusal, socket)
  return socket
}
type AgentOptions = ConstructorParameters<typeof RequestFilteringHttpsAgent>[0]
class JudgedHttpAgent extends RequestFilteringHttpAgent {
  readonly #judge: Judge
  constructor(options: AgentOptions, judge: Judge) {
    super(options)
    this.#judge = judge
  }
  override createConnection(options: TcpNetConnectOpts, listener?: (error: Error | null, socket: Duplex) => void) {
    return judgedConnection(this.#judge, options, listener, (judged) => super.createConnection(judged, listener))
  }
}
class JudgedHttpsAgent extends RequestFilteringHttpsAgent {
  readonly #judge: Judge
  constructor(options: AgentOptions, judge: Judge) {
    super(options)
    this.#judge = judge
  }
  override createConnection(options: TcpNetConnectOpts, listener?: (error: Error | null, socket: Duplex) => void) {
    return judgedConnection(this.#judge, options, listener, (judged) => super.createConnection(judged, listener))
  }
}

/**
 * The agents webhooks are sent through: with `allowPrivate` (WEBHOOK_ALLOW_PRIVATE) every address
 * is reached; otherwise only public ones, at the address actually connected to.
 */
export const webhookAgents = (allowPrivate: boolean, lookup: LookupFunction | undefined) => {
  const options = {
    allowPrivateIPAddress: allowPrivate,
    // One connection per attempt: a kept connection would skip the next attempt's check.
    keepAlive: false,
    ...(lookup === undefined ? {} : { lookup })
  }
  const judge: Judge = allowPrivate ? () => undefined : publicOnly
  return { http: new JudgedHttpAgent(options, judge), https: new JudgedHttpsAgent(options, judge) }
}

/** The HTTP client webhooks are sent with: filtered agents, no redirects followed. */
const clientLayer = (settings: WebhookSettings, lookup: LookupFunction | undefined) =>
  NodeHttpClient.layerNodeHttpNoAgent.pipe(
    Layer.provide(
      Layer.effect(NodeHttpClient.HttpAgent)(
        Effect.acquireRelease(
          Effect.sync(() => webhookAgents(settings.allowPrivate, lookup)),
          (agents) =>
            Effect.sync(() => {
              agents.http.destroy()
              agents.https.destroy()
            })
        )
      )
    )
  )

/** The error of a failed attempt, in words for the deliveries endpoint (never the secret or the body). */
export const describeFailure = (error: unknown, timeoutMs: number): string => {
  if (error === "timeout") return `no answer within ${timeoutMs / 1000} s`
  let cause: unknown = error
  // The Node error under the HTTP client's wrappers.
  for (let depth = 0; depth < 4 && typeof cause === "object" && cause !== null && "cause" in cause; depth++) {
    if ((cause as { cause?: unknown }).cause === undefined) break
    cause = (cause as { cause: unknown }).cause
  }
  const message = cause instanceof Error ? cause.message : String(cause)
  // request-filtering-agent's refusal: "DNS lookup <address>(family:…, host:<host>) is not allowed. …"
  const refused = /^DNS lookup (\S+?)\((?:family:[^,]*, )?(?:host:([^)]*))?\) is not allowed/.exec(message)
  if (refused !== null) {
    const [, address, host] = refused
    const range = addressRange(address!)
    const behind = ipv4Behind(address!)
    const shown = behind === undefined ? address : `${address} (${behind})`
    return `refused: ${host === undefined || host === "undefined" ? shown : `${host} resolved to ${shown}`}, ${range === undefined ? "not a public address" : `a ${rangeName(range)} address`}; events are sent only to public addresses`
  }
  const code = typeof cause === "object" && cause !== null ? (cause as { code?: unknown }).code : undefined
  switch (code) {
    case "ECONNREFUSED":
      return "connection refused"
    case "ENOTFOUND":
      return "the host name does not resolve"
    case "EAI_AGAIN":
      return "the host name could not be resolved (temporary DNS failure)"
    case "ECONNRESET":
      return "the connection was reset"
    case "EHOSTUNREACH":
    case "ENETUNREACH":
      return "the host is unreachable"
  }
  return `${typeof code === "string" ? `${code}: ` : ""}${message}`.slice(0, 300)
}

/**
 * Every process's sender at work: attempts as events fall due, up to `maxInFlight` at once; woken
 * when an event is committed or an attempt ends, and every TIMER_SWEEP_INTERVAL otherwise.
 */
export const WebhookDeliveryWorker = Layer.effectDiscard(
  Effect.gen(function* () {
    const config = yield* AppConfig
    const settings = config.webhooks
    const outbox = yield* WebhookOutbox
    const tokens = yield* TaskTokens
    const lookup = yield* WebhookLookup
    const client = yield* Effect.provide(HttpClient.HttpClient, clientLayer(settings, lookup))
    const iso = (ms: number) => new Date(ms).toISOString()

    /** One POST of an event: its status when the receiver answered in time, else why not. */
    const post = Effect.fnUntraced(function* (event: StoredEvent) {
      // The time of the attempt, which receivers compare with their own clocks.
      const timestamp = Math.floor((yield* Clock.currentTimeMillis) / 1000)
      const request = HttpClientRequest.post(event.url).pipe(
        HttpClientRequest.setHeaders({
          "webhook-id": event.id,
          "webhook-timestamp": String(timestamp),
          "webhook-signature": webhookSignature(
            tokens.webhookSecretFor(event.reference),
            event.id,
            timestamp,
            event.body
          ),
          "user-agent": "task-marketplace-webhooks/1"
        }),
        HttpClientRequest.bodyText(event.body, "application/json")
      )
      return yield* client.execute(request).pipe(
        // The answer is read up to its first 64 KiB, then left.
        Effect.flatMap((response) =>
          response.stream.pipe(
            Stream.scan(
              () => 0,
              (read: number, chunk: Uint8Array) => read + chunk.length
            ),
            Stream.takeUntil((read) => read >= webhookAnswerMaxBytes),
            Stream.runDrain,
            Effect.ignore,
            Effect.as(response.status)
          )
        ),
        Effect.timeoutOrElse({ duration: settings.timeoutMs, orElse: () => Effect.fail("timeout" as const) }),
        Effect.result
      )
    })

    /** What comes after attempt number `made` failed: a retry after the schedule's next wait, or failed. */
    const afterFailure = (made: number, now: number): Pick<AttemptOutcome, "state" | "nextAttemptAt"> => {
      const wait = settings.retryScheduleMs[made - 1]
      if (wait === undefined) return { state: "failed", nextAttemptAt: null }
      return { state: "pending", nextAttemptAt: iso(now + Math.round(wait * (1 + Math.random() / 10))) }
    }

    const attempt = Effect.fnUntraced(function* (event: StoredEvent, claim: string) {
      const started = yield* Clock.currentTimeMillis
      const result = yield* post(event)
      const ended = yield* Clock.currentTimeMillis
      const status = result._tag === "Success" ? result.success : null
      const delivered = status !== null && status >= 200 && status < 300
      const record: DeliveryAttempt = {
        at: iso(started),
        status,
        error:
          result._tag === "Failure"
            ? describeFailure(result.failure, settings.timeoutMs)
            : delivered
              ? null
              : `the receiver answered ${status}`,
        duration_ms: ended - started
      }
      const made = [...event.attempts, record]
      const next = delivered ? { state: "delivered" as const, nextAttemptAt: null } : afterFailure(made.length, ended)
      yield* outbox.finish(event.id, claim, { ...next, attempts: made })
      if (next.state === "failed") {
        yield* Effect.logWarning("a webhook event could not be delivered; no attempt is left").pipe(
          Effect.annotateLogs({
            reference: event.reference,
            event: event.id,
            attempts: made.length,
            error: record.error
          })
        )
      }
    })

    yield* runOutboxSender({
      maxInFlight,
      leaseMs: settings.timeoutMs + leaseMargin,
      claimDue: outbox.claimDue,
      attempt,
      notRecorded: (event, cause) =>
        Effect.logWarning("a webhook attempt could not be recorded").pipe(
          Effect.annotateLogs({ reference: event.reference, event: event.id, cause })
        ),
      wake: outbox.wake,
      nextDue: outbox.nextDue,
      sweepMs: config.timerSweepMs,
      failing: "claiming webhook events failed; retrying every interval",
      recovered: "claiming webhook events works again"
    })
  })
)
