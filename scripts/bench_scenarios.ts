/**
 * The benchmark's scenarios and their runs (scripts/bench.ts, scripts/bench_scale.ts): what a
 * scenario is, the drafts it submits, an MCP session to call tools in, and one autocannon run of a
 * scenario against a server, measured as requests per second and latency percentiles.
 */
import { randomUUID } from "node:crypto"
// @ts-expect-error autocannon ships no type declarations
import autocannon from "autocannon"
import { connections, duration } from "./bench_options.ts"

export interface Scenario {
  readonly name: string
  readonly method: "GET" | "POST"
  readonly path: string
  readonly headers?: Record<string, string>
  readonly body?: string
  /** A fresh idempotency key per request (distinct submissions). */
  readonly freshKey?: boolean
  /** Paths taken in turn, one per request, instead of `path` (reads spread over many rows). */
  readonly paths?: ReadonlyArray<string>
  /** A body made per request (an MCP submission carries its idempotency key in the body). */
  readonly freshBody?: () => string
  /** Whether the node:http ceiling and the stack floor are measured too (REST scenarios only). */
  readonly bounded?: false
}

export interface Measured {
  readonly rps: number
  readonly p50: number
  readonly p99: number
  readonly non2xx: number
}

export const median = (xs: ReadonlyArray<number>) => {
  const s = [...xs].sort((a, b) => a - b)
  const m = Math.floor(s.length / 2)
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2
}

export const load = (url: string, scenario: Scenario, clients = connections): Promise<Measured> =>
  new Promise((resolve, reject) => {
    autocannon(
      {
        url: `${url}${scenario.path}`,
        connections: clients,
        duration,
        requests: [
          {
            method: scenario.method,
            headers: scenario.headers ?? {},
            ...(scenario.body === undefined ? {} : { body: scenario.body }),
            ...(scenario.freshKey
              ? {
                  setupRequest: (request: { headers: Record<string, string> }) => ({
                    ...request,
                    headers: { ...request.headers, "idempotency-key": randomUUID() }
                  })
                }
              : {}),
            ...(scenario.paths === undefined ? {} : { setupRequest: nextPath(scenario.paths) }),
            ...(scenario.freshBody === undefined
              ? {}
              : {
                  setupRequest: (request: object) => ({ ...request, body: scenario.freshBody!() })
                })
          }
        ]
      },
      (
        error: unknown,
        result: { requests: { average: number }; latency: { p50: number; p99: number }; non2xx: number }
      ) =>
        error
          ? reject(error)
          : resolve({
              rps: result.requests.average,
              p50: result.latency.p50,
              p99: result.latency.p99,
              non2xx: result.non2xx
            })
    )
  })

/** A setupRequest taking `paths` in turn. */
const nextPath = (paths: ReadonlyArray<string>) => {
  let i = 0
  return (request: object) => ({ ...request, path: paths[i++ % paths.length] })
}

export const draft = {
  action: "Photograph the storefront of Bäckerei Sonne at Torstraße 12 and its opening-hours sign",
  execution_mode: "physical",
  location: "Berlin, Germany",
  timing: "2030-12-01T17:00:00Z",
  expected_result: "Five geotagged photos and a JSON checklist with the opening hours",
  acceptance_test: "The photos show the shop sign and the opening hours legibly",
  principal: "ACME Retail Research GmbH",
  agent: "bench/1.0"
}

/** A task done online: every participant who works online can serve it, so all of them are ranked. */
export const digitalDraft = {
  action: "Transcribe a handwritten recipe card into structured JSON with ingredients and steps",
  execution_mode: "digital",
  expected_result: "A JSON document with the ingredients, quantities and steps of the recipe",
  acceptance_test: "Every ingredient and step on the card appears in the JSON",
  principal: "ACME Retail Research GmbH",
  agent: "bench/1.0"
}

/**
 * An MCP session on the service (initialize, then initialized), and how to call a tool in it: the
 * JSON-RPC body of a tools/call and the headers every request of the session sends. A tool result
 * is a 200 whether the tool succeeded or refused, so each scenario's call is checked once first.
 */
export const openMcpSession = async (url: string) => {
  const base = { "content-type": "application/json", accept: "application/json, text/event-stream" }
  const opened = await fetch(`${url}/mcp`, {
    method: "POST",
    headers: base,
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "bench", version: "1" } }
    })
  })
  await opened.text()
  const headers = {
    ...base,
    "mcp-session-id": opened.headers.get("mcp-session-id")!,
    "mcp-protocol-version": opened.headers.get("mcp-protocol-version")!
  }
  await fetch(`${url}/mcp`, {
    method: "POST",
    headers,
    body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })
  })
  let id = 1
  const call = (name: string, args: Record<string, unknown>) =>
    JSON.stringify({ jsonrpc: "2.0", id: id++, method: "tools/call", params: { name, arguments: args } })
  /** Calls a tool once; fails the benchmark when it refuses (a refusal too is a 200). */
  const check = async (name: string, args: Record<string, unknown>) => {
    const answer = await fetch(`${url}/mcp`, { method: "POST", headers, body: call(name, args) })
    const text = await answer.text()
    if (answer.status !== 200 || text.includes('"isError":true')) throw new Error(`MCP ${name}: ${text.slice(0, 300)}`)
  }
  return { headers, call, check }
}
