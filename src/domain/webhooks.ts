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

/** A task entered a state (one event per entry of its history). */
export const webhookEventType = "task.updated"

/** A participant wrote a message on the task (the agent's own messages send none). */
export const messageEventType = "task.message"

/** Every event type, in the order the documents list them. */
export const webhookEventTypes = [webhookEventType, messageEventType] as const

export const WebhookEventType = Schema.Literals(webhookEventTypes)
export type WebhookEventType = typeof WebhookEventType.Type

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
 * The IPv4 addresses an IPv6 address stands for or is routed to: IPv4-mapped (::ffff:a.b.c.d),
 * IPv4-translated (::ffff:0:a.b.c.d), IPv4-compatible (::a.b.c.d, deprecated), NAT64's well-known
 * prefix (64:ff9b::a.b.c.d), 6to4 (2002:aabb:ccdd::/48) and Teredo (its server, and its client
 * with every bit flipped). Empty for any other address.
 */
const embeddedIPv4 = (address: ipaddr.IPv6): Array<ipaddr.IPv4> => {
  const p = address.parts
  const v4 = (high: number, low: number) => new ipaddr.IPv4([high >> 8, high & 255, low >> 8, low & 255])
  const zeros = (from: number, to: number) => p.slice(from, to).every((part) => part === 0)
  if (zeros(0, 5) && p[5] === 0xffff) return [v4(p[6]!, p[7]!)]
  if (zeros(0, 4) && p[4] === 0xffff && p[5] === 0) return [v4(p[6]!, p[7]!)]
  if (zeros(0, 6)) return [v4(p[6]!, p[7]!)]
  if (p[0] === 0x64 && p[1] === 0xff9b && zeros(2, 6)) return [v4(p[6]!, p[7]!)]
  if (p[0] === 0x2002) return [v4(p[1]!, p[2]!)]
  if (p[0] === 0x2001 && p[1] === 0) return [v4(p[2]!, p[3]!), v4(p[6]! ^ 0xffff, p[7]! ^ 0xffff)]
  return []
}

/** Prefixes that are not globally reachable (IANA) but that ipaddr.js 2.2 calls unicast. */
const unlistedIPv6Ranges: ReadonlyArray<readonly [string, string]> = [
  ["::/96", "ipv4Compatible"],
  ["64:ff9b:1::/48", "localNat64"],
  ["fec0::/10", "siteLocal"],
  ["3fff::/20", "reserved"]
]

/**
 * What an address is, by the IANA special-purpose registries (ipaddr.js's `range()`): `unicast` is
 * an ordinary public address; anything else (loopback, private, link-local, unique local,
 * multicast, unspecified, carrier-grade NAT, reserved, …) is not one a webhook may reach. An IPv6
 * address that stands for or is routed to an IPv4 address (see `embeddedIPv4`) is judged by that
 * address first: `[::7f00:1]` is loopback, as 127.0.0.1 is. Past that, ipaddr.js's own ranges
 * refuse the translation prefixes whole (NAT64, 6to4, Teredo), and an IPv4-mapped address of a
 * public IPv4 address is that address.
 */
export const addressRange = (address: string): string | undefined => {
  if (!ipaddr.isValid(address)) return undefined
  const parsed = ipaddr.parse(address)
  if (parsed.kind() === "ipv4") return parsed.range()
  const ipv6 = parsed as ipaddr.IPv6
  const own = ipv6.range()
  if (own === "unspecified" || own === "loopback") return own
  for (const ipv4 of embeddedIPv4(ipv6)) {
    if (ipv4.range() !== "unicast") return ipv4.range()
  }
  if (ipv6.isIPv4MappedAddress()) return "unicast"
  for (const [cidr, range] of unlistedIPv6Ranges) {
    if (ipv6.match(ipaddr.IPv6.parseCIDR(cidr))) return range
  }
  return own
}

/** The IPv4 address an IPv6 address is a spelling of or a route to, for a refusal to name. */
export const ipv4Behind = (address: string): string | undefined => {
  if (!ipaddr.IPv6.isValid(address)) return undefined
  const parsed = ipaddr.IPv6.parse(address)
  if (parsed.range() === "unspecified" || parsed.range() === "loopback") return undefined
  return embeddedIPv4(parsed)
    .find((ipv4) => ipv4.range() !== "unicast")
    ?.toString()
}

/*
 * How a webhook_url is written, as a pattern the OpenAPI document carries and the rule enforces:
 * the scheme, `://`, a host, an optional port, then a path or query without blanks and without a
 * #fragment. The host is a dotted decimal IPv4 address, a bracketed IPv6 address (RFC 3986), or a
 * name of ASCII labels (international names in their xn-- form) whose last label is not a number,
 * so that the WHATWG URL parser reads it as a name rather than failing on a malformed address.
 * No lookarounds: the pattern is for every JSON Schema tool, not only ECMAScript's.
 */
const decOctet = "(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])"
const ipv4Text = `(?:${decOctet}\\.){3}${decOctet}`
const h16 = "[0-9A-Fa-f]{1,4}"
const ls32 = `(?:${h16}:${h16}|${ipv4Text})`
const ipv6Text = [
  `(?:${h16}:){6}${ls32}`,
  `::(?:${h16}:){5}${ls32}`,
  `(?:${h16})?::(?:${h16}:){4}${ls32}`,
  `(?:(?:${h16}:){0,1}${h16})?::(?:${h16}:){3}${ls32}`,
  `(?:(?:${h16}:){0,2}${h16})?::(?:${h16}:){2}${ls32}`,
  `(?:(?:${h16}:){0,3}${h16})?::${h16}:${ls32}`,
  `(?:(?:${h16}:){0,4}${h16})?::${ls32}`,
  `(?:(?:${h16}:){0,5}${h16})?::${h16}`,
  `(?:(?:${h16}:){0,6}${h16})?::`
].join("|")
const labelChar = "[A-Za-z0-9-]"
// A last label that is neither all digits nor 0x and hexadecimal digits (which WHATWG reads as a number).
const nameEnd = [
  `[A-Za-z-]${labelChar}*`,
  `[1-9]${labelChar}*[A-Za-z-]${labelChar}*`,
  `0[0-9]${labelChar}*[A-Za-z-]${labelChar}*`,
  `0[A-WYZa-wyz-]${labelChar}*`,
  `0[xX][0-9A-Fa-f]*[G-Zg-z-]${labelChar}*`
].join("|")
const hostText = `(?:${ipv4Text}|\\[(?:${ipv6Text})\\]|(?:${labelChar}+\\.)*(?:${nameEnd})\\.?)`
const portText = "(?::0*(?:[0-9]{1,4}|[1-5][0-9]{4}|6[0-4][0-9]{3}|65[0-4][0-9]{2}|655[0-2][0-9]|6553[0-5])?)?"

/** The pattern of a webhook_url (unanchored), `https` only unless private addresses are allowed. */
export const webhookUrlPattern = (allowPrivate: boolean) =>
  `[hH][tT][tT][pP]${allowPrivate ? "[sS]?" : "[sS]"}://${hostText}${portText}(?:[/?][^#\\s]*)?`

const webhookUrlShapes = {
  strict: new RegExp(`^${webhookUrlPattern(false)}$`, "u"),
  lenient: new RegExp(`^${webhookUrlPattern(true)}$`, "u")
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
  if (allowPrivate) return shapeProblem(value, allowPrivate)
  // The WHATWG parser has already normalised every spelling of an IP address (0x7f.1, 2130706433,
  // [::ffff:7f00:1], [::127.0.0.1]) to its canonical form.
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
    const behind = ipv4Behind(host)
    return `webhook_url must not point at ${/^[aeiou]/.test(name) ? "an" : "a"} ${name} address (${url.hostname}${behind === undefined ? "" : `, which is ${behind}`}): events are sent only to public addresses.`
  }
  return shapeProblem(value, allowPrivate)
}

const shapeProblem = (value: string, allowPrivate: boolean) =>
  (allowPrivate ? webhookUrlShapes.lenient : webhookUrlShapes.strict).test(value)
    ? undefined
    : "webhook_url must be written plainly: a host of ASCII letters, digits, dots and hyphens (an international name in its xn-- form), a dotted IPv4 address or a bracketed IPv6 address, an optional port, then a path or query without blanks."

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
    reserved: "reserved",
    ipv4Compatible: "IPv4-compatible (deprecated)",
    localNat64: "local-use NAT64",
    siteLocal: "site-local (deprecated)",
    rfc6052: "NAT64",
    "6to4": "6to4",
    teredo: "Teredo"
  })[range] ?? `non-public (${range})`
