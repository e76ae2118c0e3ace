/**
 * The participant's MCP endpoint, `<MCP_URL>/participant`: a second MCP server on the same HTTP
 * server and router as the agents' (server.ts), with its own tools (participant_tools.ts) and its
 * own sessions, for a participant's own assistant (an MCP host such as Claude Desktop). It is an
 * OAuth 2.1 protected resource (MCP's authorization spec): every request carries an access token
 * issued for this endpoint, verified by the endpoint's route before the request reaches this server
 * (endpoint.ts, with door.ts).
 *
 * **How the caller reaches a tool.** The endpoint's route verifies the token of every request
 * (initialize, tool calls, DELETE alike) and serves the request with `ParticipantCaller` provided
 * to the router's handling of it. Effect's MCP transport hands each JSON-RPC message to its RPC
 * server from the HTTP request's own fiber, and the RPC server runs the handler with that fiber's
 * services over the ones captured when it was built (`RpcServer`: the handler's context merged
 * with the request fiber's; `McpServer`: "request services override captured services"). So a
 * tool reads the caller of the very request that carries the call — never one remembered from
 * `initialize` or kept with the session — with `Effect.serviceOption(ParticipantCaller)`. Without
 * one (which the route never lets happen) the call is refused, 401 in the envelope.
 *
 * **Two servers side by side.** `McpServer.layerHttp` builds its `McpServer` from Effect's one
 * static `McpServer.layer`, which a layer graph builds once and shares: built in the same graph
 * as the agents' endpoint, both endpoints would be one server with one set of tools. This
 * endpoint is therefore built with `Layer.fresh` (its own memo map): its own `McpServer`, runtime
 * and sessions, behind its own guarded route (endpoint.ts).
 */
import * as McpServer from "effect/ai/McpServer"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { envelopeError } from "../api/envelope.ts"
import { ParticipantCaller } from "../api/security.ts"
import { AppConfig } from "../config/app_config.ts"
import { ParticipantOperations } from "../operations/participant.ts"
import { makeParticipantMcpDoor } from "./door.ts"
import { mcpEndpoint } from "./endpoint.ts"
import { participantInstructions } from "./guidance.ts"
import { type ParticipantDeps, participantTools } from "./participant_tools.ts"
import { registerTools } from "./registration.ts"
import { participantMcpPathOf, protocols } from "./server.ts"
import { callKindOf } from "./tools.ts"

const ParticipantTools = Layer.unwrap(
  Effect.gen(function* () {
    const { docsUrl } = yield* AppConfig
    const operations = yield* ParticipantOperations
    const notSignedIn = envelopeError(docsUrl, "unauthorized", "This tool needs the participant's access token.", {
      hint: "Send Authorization: Bearer <access token> with every request to this endpoint."
    })
    /** The call's caller: from its own HTTP request (see the module's comment). */
    const deps = Effect.flatMap(Effect.serviceOption(ParticipantCaller), (caller) =>
      Option.isSome(caller)
        ? Effect.succeed<ParticipantDeps>({ operations, caller: caller.value })
        : Effect.fail(notSignedIn)
    )
    return registerTools(participantTools, deps)
  })
)

/** The participant's MCP endpoint's routes, added to the HTTP router when MCP_URL is on this server. */
export const ParticipantMcpRoutes = Layer.unwrap(
  Effect.gen(function* () {
    const config = yield* AppConfig
    const path = participantMcpPathOf(config)
    if (path === undefined) return Layer.empty
    return mcpEndpoint({
      path,
      callKind: callKindOf(participantTools),
      door: Effect.gen(function* () {
        return makeParticipantMcpDoor(config, path, yield* ParticipantOperations)
      }),
      server: Layer.fresh(
        ParticipantTools.pipe(
          Layer.provide(
            McpServer.layerHttp({
              name: "task-marketplace-participant",
              version: "1.0.0",
              description:
                "Your offers and tasks on the Task Marketplace: accept or decline offers, start work, hand in results.",
              websiteUrl: config.docsUrl,
              instructions: participantInstructions(config),
              path: path as `/${string}`,
              protocols,
              allowedOrigins: config.mcpAllowedOrigins,
              allowSessionTermination: true,
              allowSubscriptions: false
            })
          )
        )
      )
    })
  })
)
