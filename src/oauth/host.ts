/**
 * Hosts oidc-provider inside the Effect HTTP server: builds it on first use, builds it again when
 * the signing keys change (a rotation made by the operator, possibly from another process), and
 * hands it a request as the raw Node request and response it was written for.
 *
 * What the library sees of a request is pinned to the configuration: `Host` and `X-Forwarded-*`
 * are overwritten from PUBLIC_BASE_URL (and the client's own address), so no endpoint address it
 * publishes or redirects to can come from a header the client chose.
 */
import { IncomingMessage, type ServerResponse } from "node:http"
import * as NodeHttpServerRequest from "@effect/platform-node/NodeHttpServerRequest"
import * as Effect from "effect/Effect"
import type * as HttpServerRequest from "effect/http/HttpServerRequest"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import * as Option from "effect/Option"
import type Provider from "oidc-provider"
import type { KeySet } from "../services/signing_keys.ts"

/**
 * How often a process checks whether the keys changed under it (a rotation, made by the operator
 * or another process): a few seconds after `keys rotate`, every process signs with the new key.
 */
const keyCheckIntervalMs = 5000

/**
 * The library is written for Node's request and response: the web-standard fetch handler
 * (`makeFetchHandler`) serves REST and MCP, not the embedded authorization server.
 */
const notOnNode = HttpServerResponse.jsonUnsafe(
  {
    error: "server_error",
    error_description: "The embedded authorization server is served by the Node server (npm start) only."
  },
  { status: 501 }
)

export interface ProviderHost {
  /** The provider for the current keys. */
  readonly provider: () => Promise<Provider>
  /**
   * Serves the request with the provider, as if it had arrived at `providerPath` (the path under
   * the issuer, e.g. `/token`); answers once the library has written the whole response.
   */
  readonly serve: (
    request: HttpServerRequest.HttpServerRequest,
    providerPath: string
  ) => Effect.Effect<HttpServerResponse.HttpServerResponse, unknown>
  /** The raw request with its headers pinned, for the library's interaction helpers. */
  readonly raw: (request: HttpServerRequest.HttpServerRequest) => { req: IncomingMessage; res: ServerResponse }
}

export const makeProviderHost = (options: {
  readonly publicBaseUrl: string
  /** The path under which the issuer's endpoints are served: `<base path>/oauth`. */
  readonly mountPath: string
  /** The service's instant (its `Clock`), so that a test can move time past the next key check. */
  readonly now: () => number
  readonly currentKeys: () => Promise<KeySet>
  readonly build: (keys: KeySet) => Promise<Provider>
}): ProviderHost => {
  const base = new URL(options.publicBaseUrl)
  let built: { version: string; provider: Promise<Provider> } | undefined
  let checkedAt = 0

  const provider = async (): Promise<Provider> => {
    const now = options.now()
    if (built !== undefined && now - checkedAt < keyCheckIntervalMs) return built.provider
    checkedAt = now
    const keys = await options.currentKeys()
    if (built === undefined || built.version !== keys.version) {
      const attempt = options.build(keys)
      built = { version: keys.version, provider: attempt }
      // A failed build is retried by the next request rather than kept.
      attempt.catch(() => {
        if (built?.provider === attempt) built = undefined
      })
    }
    return built.provider
  }

  const raw = (request: HttpServerRequest.HttpServerRequest) => {
    const req = NodeHttpServerRequest.toIncomingMessage(request) as IncomingMessage
    const res = NodeHttpServerRequest.toServerResponse(request) as ServerResponse
    req.headers.host = base.host
    req.headers["x-forwarded-host"] = base.host
    req.headers["x-forwarded-proto"] = base.protocol.slice(0, -1)
    req.headers["x-forwarded-for"] = Option.getOrElse(request.remoteAddress, () => "unknown")
    return { req, res }
  }

  const serve = (request: HttpServerRequest.HttpServerRequest, providerPath: string) =>
    !(request.source instanceof IncomingMessage)
      ? Effect.succeed(notOnNode)
      : Effect.tryPromise(async () => {
          const { req, res } = raw(request)
          const query = request.url.includes("?") ? request.url.slice(request.url.indexOf("?")) : ""
          // The library finds its mount path as what `originalUrl` has before `url`.
          ;(req as IncomingMessage & { originalUrl?: string }).originalUrl =
            `${options.mountPath}${providerPath}${query}`
          req.url = `${providerPath}${query}`
          const callback = (await provider()).callback()
          await new Promise<void>((resolve) => {
            res.once("finish", resolve)
            res.once("close", resolve)
            void callback(req, res)
          })
          // Already written: the server writes nothing more; this reports the status to the log.
          return HttpServerResponse.empty({ status: res.statusCode })
        })

  return { provider, serve, raw }
}
