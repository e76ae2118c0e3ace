/**
 * The MCP interface for agents: Streamable HTTP at the index's `mcp` address, on the same server
 * and port as REST, with Effect's own MCP server (`effect/ai/McpServer`). Tools (tools.ts),
 * resources and a prompt, all over the same operations as REST (operations/agent.ts).
 */

import * as McpProtocol from "effect/ai/McpProtocol"
import * as McpSchema from "effect/ai/McpSchema"
import * as McpServer from "effect/ai/McpServer"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import { type EnvelopedRefusal, type ErrorBody, refusalBody } from "../api/envelope.ts"
import { mcpPromptNames, mcpResources } from "../api/mcp.ts"
import { AppConfig } from "../config/app_config.ts"
import { type AppSettings, participantMcpUrlOf, pathOnThisServer } from "../config/settings.ts"
import { AgentOperations } from "../operations/agent.ts"
import { capabilities } from "../operations/discovery.ts"
import { McpTaskOperations } from "../operations/mcp_tasks.ts"
import { mcpEndpoint } from "./endpoint.ts"
import { hireAHuman, instructions } from "./guidance.ts"
import { registerTools, sentences } from "./registration.ts"
import { makeTaskFront, tasksExtension } from "./task_front.ts"
import { callKind, sandboxTools, tools } from "./tools.ts"

/** The protocol revisions served, by both endpoints (api/mcp.ts names them). */
export const protocols = [
  McpProtocol.v2026_07_28,
  McpProtocol.v2025_11_25,
  McpProtocol.v2025_06_18,
  McpProtocol.v2025_03_26
] as const

/** The path of the MCP endpoint on this server, or undefined when MCP_URL points elsewhere. */
export const mcpPathOf = (config: Pick<AppSettings, "mcpUrl" | "publicBaseUrl">): string | undefined =>
  pathOnThisServer(config, config.mcpUrl)

/** The path of the participant's MCP endpoint on this server (`<MCP path>/participant`), or undefined. */
export const participantMcpPathOf = (config: Pick<AppSettings, "mcpUrl" | "publicBaseUrl">): string | undefined =>
  pathOnThisServer(config, participantMcpUrlOf(config))

/**
 * The agent's operations as the MCP tools take them: where a tool takes a `task_token`, the id of
 * an MCP task following that very task does too (an agent that hired through a task reviews with
 * it: operations/mcp_tasks.ts). REST takes the task token alone.
 */
const Tools = Layer.unwrap(
  Effect.gen(function* () {
    const operations = yield* AgentOperations
    const mcpTasks = yield* McpTaskOperations
    const config = yield* AppConfig
    const withToken =
      <A, E>(act: (reference: string, token: string) => Effect.Effect<A, E>) =>
      (reference: string, presented: string) =>
        Effect.flatMap(mcpTasks.taskTokenFor(reference, presented), (token) => act(reference, token))
    const overMcp: AgentOperations["Service"] = {
      ...operations,
      checkAgent: withToken(operations.checkAgent),
      cancel: (reference, presented, reason) =>
        withToken((r, token) => operations.cancel(r, token, reason))(reference, presented),
      review: (reference, presented, decision) =>
        withToken((r, token) => operations.review(r, token, decision))(reference, presented),
      deliveries: withToken(operations.deliveries),
      postMessage: (reference, presented, request) =>
        withToken((r, token) => operations.postMessage(r, token, request))(reference, presented),
      messages: withToken(operations.messages)
    }
    return registerTools(config.sandbox ? [...tools, ...sandboxTools] : tools, Effect.succeed(overMcp))
  })
)

/** A resource's JSON contents. */
const jsonContents = (uri: string, body: unknown): McpSchema.ReadResourceResult =>
  ({ contents: [{ uri, mimeType: "application/json", text: JSON.stringify(body) }] }) as McpSchema.ReadResourceResult

/** A refused read of a resource: the envelope's message and hint, the envelope itself as data. */
const notReadable = ({ error }: { readonly error: ErrorBody }) =>
  new McpSchema.InvalidParams({
    message: sentences(error),
    data: { error }
  })

const Resources = Layer.effectDiscard(
  Effect.gen(function* () {
    const server = yield* McpServer.McpServer
    const operations = yield* AgentOperations
    const config = yield* AppConfig
    const caps = capabilities(config)
    yield* server.addResource({
      resource: new McpSchema.Resource({
        uri: mcpResources.capabilities,
        name: "capabilities",
        title: "What the marketplace does",
        description:
          "The machine-readable statement of the service (as GET /api/public/v1/capabilities): execution modes, the task lifecycle and its transitions, the draft rules and limits, idempotency, errors.",
        mimeType: "application/json"
      }),
      annotations: Context.empty(),
      handle: Effect.succeed(jsonContents(mcpResources.capabilities, caps))
    })
    /** A resource template of one thing by its key: `marketplace://<kind>/{key}`, read as REST reads it. */
    const byKey = (
      uriTemplate: string,
      name: string,
      title: string,
      description: string,
      read: (key: string) => Effect.Effect<unknown, EnvelopedRefusal>
    ) =>
      server.addResourceTemplate({
        template: new McpSchema.ResourceTemplate({
          uriTemplate,
          name,
          title,
          description,
          mimeType: "application/json"
        }),
        // FindMyWay's form of the template (`::` is a literal colon; `:0` the key).
        routerPath: uriTemplate.replace(":", "::").replace(/\{\w+\}$/, ":0"),
        completions: {},
        annotations: Context.empty(),
        handle: (uri, [key]) =>
          read(key ?? "").pipe(
            Effect.map((body) => jsonContents(uri, body)),
            Effect.mapError((refusal) => notReadable({ error: refusalBody(config.docsUrl, refusal) }))
          )
      })
    yield* byKey(
      mcpResources.participant,
      "participant",
      "A participant",
      "One participant by slug (as GET /api/public/v1/participants/{slug}).",
      operations.getParticipant
    )
    yield* byKey(
      mcpResources.task,
      "task",
      "A task",
      "One task by reference (as GET /api/public/v1/tasks/{reference}).",
      (reference) => Effect.map(operations.read(reference), ({ task }) => task)
    )
  })
)

const Prompts = McpServer.prompt({
  name: mcpPromptNames[0],
  title: "Hire a human for a task",
  description: "The cold start in the service's own words: from a goal to a delivered, reviewed human result.",
  parameters: {
    goal: Schema.String.annotate({ description: "What you need a human to do, in plain words." })
  },
  content: ({ goal }) => Effect.succeed(hireAHuman(goal))
})

/** The MCP endpoint's routes, added to the HTTP router when MCP_URL is on this server. */
export const McpRoutes = Layer.unwrap(
  Effect.gen(function* () {
    const config = yield* AppConfig
    const path = mcpPathOf(config)
    if (path === undefined) return Layer.empty
    return mcpEndpoint({
      path,
      callKind,
      front: makeTaskFront,
      server: Layer.mergeAll(Tools, Resources, Prompts).pipe(
        Layer.provide(
          McpServer.layerHttp({
            name: "task-marketplace",
            version: "1.0.0",
            description: "Hire humans for bounded digital, physical or hybrid tasks, and get a structured result back.",
            websiteUrl: config.docsUrl,
            instructions: instructions(config),
            path: path as `/${string}`,
            protocols,
            allowedOrigins: config.mcpAllowedOrigins,
            allowSessionTermination: true,
            allowSubscriptions: false,
            // 2026-07-28's Tasks extension, served by the front (task_front.ts).
            extensions: { [tasksExtension]: {} }
          })
        )
      )
    })
  })
)
