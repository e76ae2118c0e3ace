/**
 * How a tool spec (tools.ts) becomes a tool of an MCP server, for both endpoints (the agents' and
 * the participant's): its JSON Schemas from the Effect Schemas REST publishes, its annotations,
 * and its call — arguments held to REST's depth limit, decoded with every failure reported, run,
 * and answered as a tool result whose `structuredContent` is the REST body, or the REST error
 * envelope with `isError`.
 */
import * as McpSchema from "effect/ai/McpSchema"
import * as McpServer from "effect/ai/McpServer"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { type ErrorBody, ErrorEnvelope, refusalBody, toEnvelope } from "../api/envelope.ts"
import { AppConfig } from "../config/app_config.ts"
import { tooDeep } from "../operations/invalid_request.ts"
import { type CallContext, invalidArguments, type ToolFailure, type ToolSpec } from "./tools.ts"

/**
 * A tool's JSON Schema: an object at the root, as MCP requires, with its named definitions
 * kept under `$defs` (where the document's `$ref`s point).
 */
const toolJsonSchema = (schema: Schema.Top): Record<string, unknown> => {
  // A struct of no members is "anything but null" to Effect's JSON Schema; a tool of no arguments
  // takes an empty object.
  const ast = schema.ast
  if (ast._tag === "Objects" && ast.propertySignatures.length === 0 && ast.indexSignatures.length === 0) {
    return { type: "object", properties: {}, additionalProperties: false }
  }
  const document = Schema.toJsonSchemaDocument(schema)
  const root = document.schema as Record<string, unknown>
  const ref = typeof root.$ref === "string" ? root.$ref.replace("#/$defs/", "") : undefined
  const inlined = ref === undefined ? root : (document.definitions[ref] as Record<string, unknown>)
  return Object.keys(document.definitions).length === 0 ? inlined : { ...inlined, $defs: document.definitions }
}

/**
 * A tool's output schema: its REST body, or the REST error envelope of a refusal (MCP clients,
 * the official SDK's among them, check an error result's structuredContent against it too).
 */
const outputJsonSchema = (success: Schema.Top): Record<string, unknown> => {
  const document = Schema.toJsonSchemaDocument(Schema.Union([success, ErrorEnvelope]))
  return { type: "object", ...(document.schema as Record<string, unknown>), $defs: document.definitions }
}

/** An error's message and hint as prose, for a host that shows text only. */
export const sentences = ({ message, hint }: ErrorBody) =>
  hint === undefined ? message : `${message}${/[.!?…]$/u.test(message) ? "" : "."} ${hint}`

/** A refusal as a tool result: the REST envelope, and its message and hint as text for a model. */
const refusal = (error: ErrorBody) =>
  new McpSchema.CallToolResult({
    isError: true,
    structuredContent: { error },
    content: [
      {
        type: "text",
        text: `${error.code}: ${sentences(error)}`
      }
    ]
  })

const success = (body: unknown) =>
  new McpSchema.CallToolResult({
    structuredContent: body,
    content: [{ type: "text", text: JSON.stringify(body) }]
  })

/**
 * Registers `specs` with the MCP server being built. `deps` gives each call what its tools run
 * over; it runs in the call's own context (the services of the HTTP request reach it: see
 * participant_server.ts), and a refusal there is the call's result.
 */
export const registerTools = <Deps>(specs: ReadonlyArray<ToolSpec<Deps>>, deps: Effect.Effect<Deps, ToolFailure>) =>
  Layer.effectDiscard(
    Effect.gen(function* () {
      const server = yield* McpServer.McpServer
      const { docsUrl } = yield* AppConfig
      const envelope = toEnvelope(docsUrl)

      /** The caller as MCP tells it: the client's name, and where progress goes when it asked for it. */
      const callContext = Effect.map(Effect.serviceOption(McpSchema.McpServerClient), (client): CallContext => {
        const info = Option.getOrUndefined(client)
        const token = info?.requestMetadata?.progressToken as string | number | undefined
        return {
          client: info === undefined ? undefined : `${info.clientInfo.name}/${info.clientInfo.version} (MCP)`,
          progress:
            token === undefined
              ? () => Effect.void
              : (progress, total, message) =>
                  Effect.ignore(
                    server.notifications["notifications/progress"]({
                      progressToken: token,
                      progress,
                      ...(total === undefined ? {} : { total }),
                      message
                    })
                  )
        }
      })
      const handle = (spec: ToolSpec<Deps>) => (payload: unknown) => {
        // As a REST body is: nothing that recurses over the arguments sees them too deep.
        const deep = tooDeep("Arguments", payload)
        if (deep !== undefined) return Effect.succeed(refusal(refusalBody(docsUrl, deep)))
        return Effect.flatMap(callContext, (context) =>
          spec.decode(payload ?? {}).pipe(
            Effect.mapError(invalidArguments),
            Effect.flatMap((args) => Effect.flatMap(deps, (deps) => spec.run(deps, args, context))),
            Effect.match({ onFailure: (failure) => refusal(envelope(failure).error), onSuccess: success })
          )
        )
      }

      for (const spec of specs) {
        yield* server.addTool({
          tool: new McpSchema.Tool({
            name: spec.name,
            title: spec.title,
            description: spec.description,
            inputSchema: toolJsonSchema(spec.parameters) as McpSchema.Tool["inputSchema"],
            outputSchema: outputJsonSchema(spec.success) as McpSchema.Tool["outputSchema"],
            annotations: {
              title: spec.title,
              readOnlyHint: spec.hints.readOnly,
              destructiveHint: spec.hints.destructive,
              idempotentHint: spec.hints.idempotent,
              openWorldHint: spec.hints.openWorld
            }
          }),
          annotations: Context.empty(),
          handle: handle(spec)
        })
      }
    })
  )
