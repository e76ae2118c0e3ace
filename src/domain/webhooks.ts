/**
 * Signed webhooks, the rules alone: which URLs a task's events may be sent to, and what an event
 * says. Delivery (the outbox, the attempts, the signature) is services/webhook_outbox.ts and
 * services/webhook_delivery.ts.
 *
 * A webhook is the service making a request on an agent's behalf, to an address the agent chose:
 * unless WEBHOOK_ALLOW_PRIVATE is on, it must be `https` and must not point into the network the
 * service runs in. What the URL itself shows is refused here (preflight and submission); what a
 * host name resolves to is checked on every attempt, at the address actually connected to.
 */
import * as Schema from "effect/Schema"
import ipaddr from "ipaddr.js"

/** The one event type: a task entered a state (one event per entry of its history). */
export const webhookEventType = "task.updated"

/** Where an event is: still being tried, delivered (a 2xx), or failed (its retries used up). */
export const DeliveryState = Schema.Literals(["pending", "delivered", "failed"]).annotate({
  description:
    "pending: not delivered yet (an attempt is due at next_attempt_at); delivered: a receiver answered 2xx; failed: every attempt of the retry schedule failed."
})
export type DeliveryState = typeof DeliveryState.Type

/** One attempt to deliver an event. */
export const DeliveryAttempt = Schema.Struct({
  at: Schema.String.annotate({ description: "When the attempt started.", format: "date-time" }),
  status: Schema.NullOr(Schema.Number).annotate({
    description: "The receiver's HTTP status, or null when it gave none (see error)."
  }),
  error: Schema.NullOr(Schema.String).annotate({
    description:
      "Why the attempt failed (a refused address, no answer in time, connection refused, a non-2xx status), or null when it succeeded."
  }),
  duration_ms: Schema.Number.annotate({ description: "How long the attempt took, in milliseconds." })
}).annotate({ identifier: "DeliveryAttempt" })
export type DeliveryAttempt = typeof DeliveryAttempt.Type

/** The longest `webhook_url` accepted, in characters. */
export const WEBHOOK_URL_MAX = 2048

/** At most this much of a receiver's answer is read; the rest is left unread. */
export const webhookAnswerMaxBytes = 64 * 1024

/**
 * What an address is, by the IANA special-purpose registries (ipaddr.js's `range()`): `unicast` is
 * an ordinary public address; anything else (loopback, private, link-local, unique local,
 * multicast, unspecified, carrier-grade NAT, reserved, an IPv4 address wrapped in IPv6, …) is not
 * one a webhook may reach.
 */
export const addressRange = (address: string): string | undefined => {
  if (!ipaddr.isValid(address)) return undefined
  const parsed = ipaddr.parse(address)
  // An IPv4 address written as IPv6 (::ffff:10.0.0.1) is judged as the IPv4 address it is.
  if (parsed.kind() === "ipv6" && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    return (parsed as ipaddr.IPv6).toIPv4Address().range()
  }
  return parsed.range()
}

/** `localhost` and every name under it (RFC 6761): always the machine itself. */
const isLocalhostName = (host: string) => host === "localhost" || host.endsWith(".localhost")

/**
 * Why `value` cannot be a task's `webhook_url` (a sentence to show the agent), or undefined when
 * it can. With `allowPrivate` (WEBHOOK_ALLOW_PRIVATE), plain http and private addresses are
 * accepted too.
 */
export const webhookUrlProblem = (value: string, allowPrivate: boolean): string | undefined => {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    return "webhook_url must be an absolute URL, e.g. https://agent.example.com/hooks/tasks."
  }
  if (url.protocol !== "https:" && !(allowPrivate && url.protocol === "http:")) {
    return allowPrivate
      ? `webhook_url must be an http or https URL; got ${url.protocol.slice(0, -1)}.`
      : `webhook_url must be an https URL (plain http is accepted only when the service runs with WEBHOOK_ALLOW_PRIVATE=true, for development); got ${url.protocol.slice(0, -1)}.`
  }
  if (url.username !== "" || url.password !== "") {
    return "webhook_url must not carry a user name or password: authenticate the events by their webhook-signature header instead."
  }
  if (url.hash !== "") return "webhook_url must not have a #fragment (it is never sent)."
  if (allowPrivate) return undefined
  // The WHATWG parser has already normalised every spelling of an IP address (0x7f.1, 2130706433,
  // [::ffff:7f00:1]) to its canonical form.
  // A name may end in the root's dot (`localhost.`): the same name.
  const host = url.hostname
    .replace(/^\[|\]$/g, "")
    .replace(/\.+$/, "")
    .toLowerCase()
  if (isLocalhostName(host)) {
    return `webhook_url must not point at this machine (${url.hostname}): events are sent only to public addresses.`
  }
  const range = addressRange(host)
  if (range !== undefined && range !== "unicast") {
    const name = rangeName(range)
    return `webhook_url must not point at ${/^[aeiou]/.test(name) ? "an" : "a"} ${name} address (${url.hostname}): events are sent only to public addresses.`
  }
  return undefined
}

/** Words for an address range, as a refusal says them. */
export const rangeName = (range: string): string =>
  ({
    loopback: "loopback",
    private: "private",
    linkLocal: "link-local",
    uniqueLocal: "private (unique local)",
    multicast: "multicast",
    unspecified: "unspecified",
    broadcast: "broadcast",
    carrierGradeNat: "shared (carrier-grade NAT)",
    reserved: "reserved"
  })[range] ?? `non-public (${range})`
