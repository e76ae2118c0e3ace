import { type Agent, request } from "node:http"
import type { LookupFunction } from "node:net"
import { Webhook } from "standardwebhooks"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { addressRange, webhookUrlPattern, webhookUrlProblem } from "../../src/domain/webhooks.ts"
import { describeFailure, webhookAgents, webhookSignature } from "../../src/services/webhook_delivery.ts"
import { prng } from "../support/random.ts"
import { startReceiver } from "../support/webhooks.ts"

describe("webhook_url", () => {
  it.each([
    "https://hooks.example.com/tasks",
    "https://hooks.example.com:8443/a/b?c=d",
    "https://8.8.8.8/hooks",
    "https://[2606:4700:4700::1111]/hooks"
  ])("accepts %s", (url) => {
    expect(webhookUrlProblem(url, false)).toBeUndefined()
  })

  it.each([
    ["http://hooks.example.com/", /must be an https URL.*WEBHOOK_ALLOW_PRIVATE/],
    ["ftp://hooks.example.com/", /must be an https URL/],
    ["hooks.example.com/tasks", /must be an absolute URL/],
    ["https://user:pw@hooks.example.com/", /user name or password/],
    ["https://hooks.example.com/#frag", /#fragment/],
    ["https://localhost/", /this machine \(localhost\)/],
    ["https://LOCALHOST./", /this machine/],
    ["https://api.localhost/", /this machine/],
    ["https://127.0.0.1/", /a loopback address/],
    ["https://127.1/", /a loopback address \(127\.0\.0\.1\)/],
    ["https://2130706433/", /a loopback address/],
    ["https://0x7f000001/", /a loopback address/],
    ["https://[::1]/", /a loopback address/],
    ["https://[::ffff:127.0.0.1]/", /a loopback address/],
    // Every IPv6 spelling of, or route to, a non-public IPv4 address is that address.
    ["https://[::7f00:1]/", /a loopback address \(\[::7f00:1\], which is 127\.0\.0\.1\)/],
    ["https://[::127.0.0.2]/", /a loopback address \(\[::7f00:2\], which is 127\.0\.0\.2\)/],
    ["https://[::a00:1]/", /a private address .*which is 10\.0\.0\.1/],
    ["https://[::ffff:0:7f00:1]/", /a loopback address .*which is 127\.0\.0\.1/],
    ["https://[64:ff9b::192.168.0.1]/", /a private address .*which is 192\.168\.0\.1/],
    ["https://[2002:7f00:1::1]/", /a loopback address .*which is 127\.0\.0\.1/],
    ["https://[2002:a9fe:a9fe::]/", /a link-local address .*which is 169\.254\.169\.254/],
    // Teredo: the client's address is stored with every bit flipped (80ff:fffe is 127.0.0.1).
    ["https://[2001:0:4136:e378:8000:63bf:80ff:fffe]/", /a loopback address .*which is 127\.0\.0\.1/],
    // The translation prefixes stay refused even when the IPv4 address is public.
    ["https://[64:ff9b::8.8.8.8]/", /a NAT64 address/],
    ["https://[2002:808:808::1]/", /a 6to4 address/],
    ["https://[::8.8.8.8]/", /IPv4-compatible \(deprecated\)/],
    ["https://[64:ff9b:1::a00:1]/", /local-use NAT64/],
    ["https://[fec0::1]/", /site-local/],
    ["https://10.0.0.1/", /a private address/],
    ["https://172.16.5.4/", /a private address/],
    ["https://192.168.1.1/", /a private address/],
    ["https://100.64.0.1/", /carrier-grade NAT/],
    ["https://169.254.169.254/", /a link-local address/],
    ["https://[fe80::1]/", /a link-local address/],
    ["https://[fd00::1]/", /unique local/],
    ["https://224.0.0.1/", /a multicast address/],
    ["https://0.0.0.0/", /an unspecified address/],
    ["https://[::]/", /an unspecified address/],
    ["https://255.255.255.255/", /a broadcast address/]
  ])("refuses %s, saying why", (url, reason) => {
    expect(webhookUrlProblem(url, false)).toMatch(reason)
  })

  it("with WEBHOOK_ALLOW_PRIVATE, accepts http and private addresses, never credentials or other schemes", () => {
    expect(webhookUrlProblem("http://127.0.0.1:3000/hooks", true)).toBeUndefined()
    expect(webhookUrlProblem("http://localhost/hooks", true)).toBeUndefined()
    expect(webhookUrlProblem("https://10.0.0.1/", true)).toBeUndefined()
    expect(webhookUrlProblem("ftp://127.0.0.1/", true)).toMatch(/http or https/)
    expect(webhookUrlProblem("http://u:p@127.0.0.1/", true)).toMatch(/user name or password/)
  })

  it.each([
    ["https://hooks.example.com/a b", /written plainly/],
    ["https://hooks.example.com/a\tb", /written plainly/],
    ["https://134744072/", /written plainly/],
    ["https://hooks.example.com\\tasks", /written plainly/],
    ["https://hooks.exämple.com/", /written plainly/],
    ["https://hooks.example.com:65536/", /absolute URL/]
  ])("refuses %s, which the document's pattern refuses too", (url, reason) => {
    expect(new RegExp(`^${webhookUrlPattern(false)}$`, "u").test(url)).toBe(false)
    expect(webhookUrlProblem(url, false)).toMatch(reason)
  })

  it("the document's pattern and the rule agree: a URL the pattern accepts is refused only for its address, one it refuses is refused", () => {
    const random = prng(35)
    const pick = <T>(xs: ReadonlyArray<T>): T => xs[Math.floor(random() * xs.length)]!
    const text = (n: number, alphabet: string) =>
      Array.from({ length: Math.floor(random() * n) + 1 }, () => pick([...alphabet])).join("")
    const name = "abcdefxyzABCX0123456789-."
    const digits = "0123456789"
    const pattern = new RegExp(`^${webhookUrlPattern(false)}$`, "u")
    let accepted = 0
    let refusedForAddress = 0
    let refused = 0
    for (let i = 0; i < 20_000; i++) {
      const host = pick([
        text(12, name),
        `${text(5, name)}.${text(4, name)}`,
        `[${text(12, "0123456789abcdef:.")}]`,
        [4, 4, 3, 3].map((n) => text(n, digits)).join("."),
        `0x${text(3, name)}`,
        `xn--${text(5, name)}`,
        pick(["localhost", "api.localhost", "[::1]", `[fd00::${text(4, "0123456789abcdef")}]`]),
        `${pick(["10", "127", "192.168", "169.254"])}.${Math.floor(random() * 256)}.${Math.floor(random() * 256)}`
      ])
      const url = `${pick(["https", "HTTPS", "http"])}://${host}${pick(["", `:${text(6, digits)}`, ":"])}${pick(["", "/", "/a b", "/p?q=1", "?x", "\\x", "/é", "#f"])}`
      const problem = webhookUrlProblem(url, false)
      if (pattern.test(url)) {
        if (problem === undefined) accepted++
        else {
          expect(problem, url).toMatch(/events are sent only to public addresses/)
          refusedForAddress++
        }
      } else {
        expect(problem, url).toBeTypeOf("string")
        refused++
      }
    }
    // Every kind was met, so the loop did test something.
    expect(Math.min(accepted, refusedForAddress, refused)).toBeGreaterThan(100)
  })

  it("judges an IPv4 address wrapped in IPv6 as the IPv4 address", () => {
    expect(addressRange("::ffff:10.1.2.3")).toBe("private")
    expect(addressRange("::ffff:8.8.8.8")).toBe("unicast")
    expect(addressRange("hooks.example.com")).toBeUndefined()
    expect(addressRange("::7f00:1")).toBe("loopback")
    expect(addressRange("::1")).toBe("loopback")
    expect(addressRange("::")).toBe("unspecified")
    expect(addressRange("2606:4700:4700::1111")).toBe("unicast")
  })
})

describe("signatures", () => {
  // The example of the Standard Webhooks specification (and of its reference libraries' tests).
  const secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
  const id = "msg_p5jXN8AQM9LWM0D4loKWxJek"
  const timestamp = 1614265330
  const body = '{"test": 2432232314}'

  it("match the specification's example", () => {
    expect(webhookSignature(secret, id, timestamp, body)).toBe("v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=")
  })

  it("are what the standardwebhooks library signs, and verifies", () => {
    const library = new Webhook(secret)
    expect(webhookSignature(secret, id, timestamp, body)).toBe(library.sign(id, new Date(timestamp * 1000), body))
    const now = Math.floor(Date.now() / 1000)
    const headers = {
      "webhook-id": id,
      "webhook-timestamp": String(now),
      "webhook-signature": webhookSignature(secret, id, now, body)
    }
    expect(library.verify(body, headers)).toEqual({ test: 2432232314 })
    expect(() => library.verify(`${body} `, headers)).toThrow()
  })
})

describe("an attempt's error in words", () => {
  const wrapped = (cause: unknown) => ({ _tag: "HttpClientError", cause: { _tag: "TransportError", cause } })
  it.each([
    ["timeout", "no answer within 10 s"],
    [
      wrapped(Object.assign(new Error("connect ECONNREFUSED 1.2.3.4:443"), { code: "ECONNREFUSED" })),
      "connection refused"
    ],
    [
      wrapped(Object.assign(new Error("getaddrinfo ENOTFOUND x"), { code: "ENOTFOUND" })),
      "the host name does not resolve"
    ],
    [
      wrapped(
        new Error(
          "DNS lookup 10.0.0.7(family:4, host:hooks.example.com) is not allowed. Because, It is private IP address."
        )
      ),
      "refused: hooks.example.com resolved to 10.0.0.7, a private address; events are sent only to public addresses"
    ],
    [
      wrapped(
        new Error(
          "DNS lookup 127.0.0.1(family:undefined, host:undefined) is not allowed. Because, It is private IP address."
        )
      ),
      "refused: 127.0.0.1, a loopback address; events are sent only to public addresses"
    ],
    [
      wrapped(
        new Error(
          "DNS lookup ::7f00:1(family:6, host:hooks.example.com) is not allowed. Because, it is not a public address."
        )
      ),
      "refused: hooks.example.com resolved to ::7f00:1 (127.0.0.1), a loopback address; events are sent only to public addresses"
    ],
    [
      wrapped(Object.assign(new Error("self-signed certificate"), { code: "DEPTH_ZERO_SELF_SIGNED_CERT" })),
      "DEPTH_ZERO_SELF_SIGNED_CERT: self-signed certificate"
    ]
  ])("%#: %s", (error, words) => {
    expect(describeFailure(error, 10_000)).toBe(words)
  })
})

describe("the agents webhooks are sent through", () => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>
  beforeAll(async () => {
    receiver = await startReceiver()
  })
  afterAll(() => receiver.close())

  /** One POST through `agent`: the answer's status, or the attempt's error in words. */
  const post = (agent: Agent, url: string) =>
    new Promise<number | string>((resolve) => {
      const outgoing = request(url, { method: "POST", agent }, (answer) => {
        answer.resume()
        resolve(answer.statusCode ?? 0)
      })
      outgoing.on("error", (error) => resolve(describeFailure(error, 10_000)))
      outgoing.end("{}")
    })
  /** A resolver that answers `address` for every name. */
  const answering = (address: string, family: number) =>
    ((_hostname: string, options: { all?: boolean }, callback: (...args: Array<unknown>) => void) => {
      if (options.all) callback(null, [{ address, family }])
      else callback(null, address, family)
    }) as unknown as LookupFunction

  it("refuse 127.0.0.1 written as IPv6, in the URL and as what a name resolves to; nothing reaches it", async () => {
    const port = new URL(receiver.url).port
    const literal = webhookAgents(false, undefined).http
    expect(await post(literal, `http://[::7f00:1]:${port}/hooks`)).toBe(
      "refused: ::7f00:1 (127.0.0.1), a loopback address; events are sent only to public addresses"
    )
    const rebound = webhookAgents(false, answering("::7f00:1", 6)).http
    expect(await post(rebound, `http://hooks.example.com:${port}/hooks`)).toBe(
      "refused: hooks.example.com resolved to ::7f00:1 (127.0.0.1), a loopback address; events are sent only to public addresses"
    )
    // request-filtering-agent's own refusals are as they were.
    const loopback = webhookAgents(false, answering("127.0.0.1", 4)).http
    expect(await post(loopback, `http://hooks.example.com:${port}/hooks`)).toBe(
      "refused: hooks.example.com resolved to 127.0.0.1, a loopback address; events are sent only to public addresses"
    )
    expect(receiver.received).toEqual([])
  })

  it("with WEBHOOK_ALLOW_PRIVATE, reach every address, through a name or in the URL", async () => {
    const port = new URL(receiver.url).port
    const before = receiver.received.length
    expect(
      await post(webhookAgents(true, answering("127.0.0.1", 4)).http, `http://hooks.example.com:${port}/hooks`)
    ).toBe(204)
    expect(await post(webhookAgents(true, undefined).http, `http://127.0.0.1:${port}/hooks`)).toBe(204)
    expect(receiver.received.length).toBe(before + 2)
  })
})
