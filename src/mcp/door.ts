/**
 * The door of the participant's MCP endpoint (participant_server.ts, guarded by endpoint.ts), an OAuth 2.1 protected
 * resource as MCP's authorization spec defines one: every request — initialize, tool calls,
 * DELETE — carries `Authorization: Bearer <access token>`, verified here each time (signature,
 * issuer, expiry, and an audience that is this endpoint's URL: a token for the REST API is
 * refused), and its subject must be linked to a participant.
 *
 * Refusals are the REST envelope: 401 `unauthorized` with `WWW-Authenticate: Bearer
 * resource_metadata="<this endpoint's metadata>"` (and `error="invalid_token"` when a token was
 * sent but is not valid, RFC 6750 §3.1), from which an MCP host starts the OAuth flow by itself;
 * 403 `forbidden` for a valid token of a subject linked to no participant.
 */
import * as Effect from "effect/Effect"
import type * as HttpServerRequest from "effect/http/HttpServerRequest"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import { refusalBody } from "../api/envelope.ts"
import { type AppSettings, participantMcpUrlOf } from "../config/settings.ts"
import { participantMcpMetadataUrlOf, protectedResourceMetadataPath } from "../operations/discovery.ts"
import type { Caller, ParticipantOperations } from "../operations/participant.ts"

/** The token of `Authorization: Bearer <token>` (the scheme in any case), undefined when none was sent. */
const bearerToken = (authorization: string | undefined): string | undefined => {
  const match = /^bearer(?:\s+(.*))?$/is.exec(authorization?.trim() ?? "")
  const token = match?.[1]?.trim()
  return token === undefined || token === "" ? undefined : token
}

/**
 * The signed-in caller of a request to the participant's MCP endpoint (at `path` on this server),
 * or the response refusing it.
 */
export const makeParticipantMcpDoor = (
  config: AppSettings,
  path: string,
  operations: ParticipantOperations["Service"]
) => {
  const resource = {
    audience: participantMcpUrlOf(config),
    metadataPath: `${protectedResourceMetadataPath}${path}`
  }
  const challenge = `Bearer resource_metadata="${participantMcpMetadataUrlOf(config)}"`
  const invalidToken = `${challenge}, error="invalid_token"`

  return (
    request: HttpServerRequest.HttpServerRequest
  ): Effect.Effect<Caller, HttpServerResponse.HttpServerResponse> => {
    const token = bearerToken(request.headers.authorization)
    return Effect.mapError(operations.signIn(token, resource), (refusal) => {
      const error = refusalBody(config.docsUrl, refusal)
      return HttpServerResponse.jsonUnsafe(
        { error },
        {
          status: error.status,
          headers: error.status === 401 ? { "www-authenticate": token === undefined ? challenge : invalidToken } : {}
        }
      )
    })
  }
}
