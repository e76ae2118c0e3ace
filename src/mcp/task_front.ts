/**
 * MCP Tasks on the agents' endpoint (issue 37): a small JSON-RPC front beside Effect's MCP server,
 * which cannot serve them (a tool cannot answer with a task, there are no custom methods, and no
 * `tasks` capability on 2025-11-25). Everything else passes through unchanged; over the same
 * operations (operations/mcp_tasks.ts, operations/agent.ts).
 *
 * - 2026-07-28, the Tasks extension (`io.modelcontextprotocol/tasks`, announced by
 *   `server/discover` through Effect's `extensions` option): a `tools/call` of `submit_task` whose
 *   request declares the extension among its client capabilities is answered with a task
 *   (`resultType: "task"`); `tasks/get`, `tasks/update`, `tasks/cancel`.
 * - 2025-11-25, experimental tasks: `initialize` announces `tasks` (cancel, and task-augmented
 *   `tools/call`; no `tasks/list`: ids are kept as hashes, and a listing would be the session's
 *   only); `tools/list` marks `submit_task` `taskSupport: "optional"`; a `tools/call` carrying
 *   `task` is answered with `{ task }`; `tasks/get`, `tasks/result`, `tasks/cancel`.
 *
 * The submission itself is the MCP server's own `submit_task` call (the `task` member and any
 * progress token taken off): recorded exactly as a plain call is, idempotency included; a refusal
 * is answered as the plain call's refusal (an error result), with no task. An unknown or expired
 * id, or anything that is not an MCP task id (a reference, a task token), is JSON-RPC -32602.
 */
import * as Effect from "effect/Effect"
import * as HttpServerRequest from "effect/http/HttpServerRequest"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import { refusalBody } from "../api/envelope.ts"
import { AppConfig } from "../config/app_config.ts"
import type { AgentMoveFailure } from "../operations/agent.ts"
import { truncate } from "../operations/invalid_request.ts"
import {
  type McpTaskFinished,
  type McpTaskNotFound,
  McpTaskOperations,
  type McpTaskView
} from "../operations/mcp_tasks.ts"

export const tasksExtension = "io.modelcontextprotocol/tasks"
const protocolVersionMeta = "io.modelcontextprotocol/protocolVersion"
const clientCapabilitiesMeta = "io.modelcontextprotocol/clientCapabilities"
const relatedTaskMeta = "io.modelcontextprotocol/related-task"

/** The 2025-11-25 `tasks` server capability: cancel, and task-augmented tool calls. */
const legacyTasksCapability = { cancel: {}, requests: { tools: { call: {} } } }

/**
 * What a message the front answers (or amends) contains somewhere, however its strings are
 * escaped (`tasks\/get` is `tasks/get`): `tasks/*`, `initialize`, `tools/list`, `submit_task`.
 */
const fronted = ["tasks", "initialize", "list", "submit_task"]

type Json = Record<string, unknown>
const isObject = (u: unknown): u is Json => typeof u === "object" && u !== null && !Array.isArray(u)

type Revision = "modern" | "legacy" | "other"

const revisionOf = (request: HttpServerRequest.HttpServerRequest, params: Json | undefined): Revision => {
  const meta = isObject(params?._meta) ? params._meta : undefined
  const version = request.headers["mcp-protocol-version"] ?? meta?.[protocolVersionMeta]
  return version === "2026-07-28" ? "modern" : version === "2025-11-25" ? "legacy" : "other"
}

/** Whether a `tools/call` asks for a task, as its revision says one does. */
const asksForTask = (revision: Revision, params: Json) => {
  if (revision === "legacy") return isObject(params.task)
  if (revision !== "modern" || !isObject(params._meta)) return false
  const capabilities = params._meta[clientCapabilitiesMeta]
  return (
    isObject(capabilities) && isObject(capabilities.extensions) && isObject(capabilities.extensions[tasksExtension])
  )
}

/** A JSON response's body, or undefined when it is not one (a stream, an empty refusal). */
const jsonBodyOf = (response: HttpServerResponse.HttpServerResponse): Json | undefined => {
  if (response.status !== 200 || response.body._tag !== "Uint8Array") return undefined
  try {
    const parsed: unknown = JSON.parse(new TextDecoder().decode(response.body.body))
    return isObject(parsed) ? parsed : undefined
  } catch {
    return undefined
  }
}

/** The same response with another JSON body (its headers kept: the session id among them). */
const withBody = (response: HttpServerResponse.HttpServerResponse, body: Json) => {
  const { "content-length": _length, ...headers } = response.headers
  return HttpServerResponse.jsonUnsafe(body, { status: response.status, headers })
}

/**
 * A 2026-07-28 request's framing, checked as the MCP server checks its own (its metadata, and the
 * headers that must repeat it): the refusal, or undefined when it is well framed.
 */
const misframed = (
  request: HttpServerRequest.HttpServerRequest,
  method: string,
  id: unknown,
  params: Json | undefined
) => {
  const meta = isObject(params?._meta) ? params._meta : undefined
  const badRequest = (code: number, message: string) =>
    HttpServerResponse.jsonUnsafe({ jsonrpc: "2.0", id, error: { code, message } }, { status: 400 })
  if (meta === undefined || typeof meta[protocolVersionMeta] !== "string") {
    return badRequest(-32602, "Required request metadata is missing")
  }
  if (request.headers["mcp-protocol-version"] !== meta[protocolVersionMeta]) {
    return badRequest(-32020, "MCP-Protocol-Version header does not match request metadata")
  }
  if (!isObject(meta[clientCapabilitiesMeta])) {
    return badRequest(-32602, `${clientCapabilitiesMeta} request metadata is required`)
  }
  if (request.headers["mcp-method"] !== method) {
    return badRequest(-32020, "Mcp-Method header does not match request method")
  }
  return undefined
}

const answer = (id: unknown, result: Json) => HttpServerResponse.jsonUnsafe({ jsonrpc: "2.0", id, result })
const refuse = (id: unknown, code: number, message: string, data?: unknown) =>
  HttpServerResponse.jsonUnsafe({
    jsonrpc: "2.0",
    id,
    error: { code, message, ...(data === undefined ? {} : { data }) }
  })

/** The request with another body, as the router and the MCP server read it. */
const withRequestBody = (request: HttpServerRequest.HttpServerRequest, body: string) => {
  const { "content-length": _length, ...headers } = Object.fromEntries(Object.entries(request.headers))
  return HttpServerRequest.fromWeb(new Request(`http://mcp.local${request.url}`, { method: "POST", headers, body }))
}

/** The task as 2025-11-25 writes one. */
const legacyTask = (view: McpTaskView) => ({
  taskId: view.id,
  status: view.status,
  statusMessage: view.statusMessage,
  createdAt: view.createdAt,
  lastUpdatedAt: view.lastUpdatedAt,
  ttl: view.ttlMs,
  pollInterval: view.pollIntervalMs
})

/** The task as 2026-07-28 writes one (without its result). */
const modernTask = (view: McpTaskView) => ({
  taskId: view.id,
  status: view.status,
  statusMessage: view.statusMessage,
  createdAt: view.createdAt,
  lastUpdatedAt: view.lastUpdatedAt,
  ttlMs: view.ttlMs,
  pollIntervalMs: view.pollIntervalMs
})

/** The task's result: what get_task returns now, as a tool result. */
const toolResult = (view: McpTaskView) => ({
  content: [{ type: "text", text: JSON.stringify(view.task) }],
  structuredContent: view.task
})

export type Serve<E, R> = (
  request: HttpServerRequest.HttpServerRequest,
  body: string
) => Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>

/** Answers a POSTed message itself, or leaves it (undefined) to the MCP server behind `serve`. */
export type Front = <E, R>(
  request: HttpServerRequest.HttpServerRequest,
  body: string,
  serve: Serve<E, R>
) => Effect.Effect<HttpServerResponse.HttpServerResponse, E, R> | undefined

export const makeTaskFront: Effect.Effect<Front, never, McpTaskOperations | AppConfig> = Effect.gen(function* () {
  const operations = yield* McpTaskOperations
  const { docsUrl } = yield* AppConfig

  const unknownTask = (id: unknown) =>
    refuse(
      id,
      -32602,
      "Unknown task: no MCP task has this id, or its time-to-live is over. An MCP task id is the taskId submit_task answered with (mcptask_…), not the task's reference or task_token; follow the task with get_task."
    )

  const failed = (id: unknown, error: McpTaskNotFound | McpTaskFinished | AgentMoveFailure) => {
    switch (error._tag) {
      case "McpTaskNotFound":
        return unknownTask(id)
      case "McpTaskFinished":
        return refuse(
          id,
          -32602,
          `The MCP task is already ${error.view.status} (the marketplace task is ${error.view.task.state}): it cannot be cancelled. Use review_task or cancel_task with the task's reference and this task id in place of the task_token.`
        )
      default: {
        const envelope = refusalBody(docsUrl, error)
        return refuse(
          id,
          envelope.status >= 500 ? -32603 : -32602,
          envelope.hint === undefined ? envelope.message : `${envelope.message} ${envelope.hint}`,
          { error: envelope }
        )
      }
    }
  }

  const storageFailed = (id: unknown) =>
    refuse(id, -32603, "The marketplace's storage is unavailable; retry in a moment.")

  /** tasks/* on either revision. */
  const taskMethod = (revision: "modern" | "legacy", method: string, id: unknown, params: Json | undefined) => {
    const methodNotFound = (why: string) =>
      Effect.succeed(refuse(id, -32601, `Method not found: ${truncate(method)}. ${why}`))
    const taskId = params?.taskId
    const served =
      revision === "modern"
        ? ["tasks/get", "tasks/update", "tasks/cancel"]
        : ["tasks/get", "tasks/result", "tasks/cancel"]
    if (!served.includes(method)) {
      return methodNotFound(
        method === "tasks/list"
          ? "This server does not list tasks (its tasks capability has no list): keep the taskId submit_task answered with."
          : `On ${revision === "modern" ? "2026-07-28" : "2025-11-25"} this server serves ${served.join(", ")}.`
      )
    }
    if (typeof taskId !== "string")
      return Effect.succeed(refuse(id, -32602, "Invalid params: taskId (a string) is required."))
    switch (method) {
      case "tasks/get":
        return operations.get(taskId).pipe(
          Effect.map((view) =>
            answer(
              id,
              revision === "legacy"
                ? legacyTask(view)
                : {
                    resultType: "complete",
                    ...modernTask(view),
                    ...(view.status === "completed" ? { result: { resultType: "complete", ...toolResult(view) } } : {})
                  }
            )
          ),
          Effect.catchTags({ McpTaskNotFound: () => Effect.succeed(unknownTask(id)) }),
          Effect.catchTag("StorageUnavailable", () => Effect.succeed(storageFailed(id)))
        )
      case "tasks/update":
        // This task never asks for input: a known task takes the (empty) delivery and goes on.
        return operations.get(taskId).pipe(
          Effect.map(() => answer(id, { resultType: "complete" })),
          Effect.catchTags({ McpTaskNotFound: () => Effect.succeed(unknownTask(id)) }),
          Effect.catchTag("StorageUnavailable", () => Effect.succeed(storageFailed(id)))
        )
      case "tasks/result":
        // 2025-11-25: blocks until the task is final, then its result (the task as get_task returns it).
        return Effect.gen(function* () {
          let view = yield* operations.get(taskId)
          while (view.status === "working") {
            yield* Effect.sleep(1_000)
            view = yield* operations.get(taskId)
          }
          return answer(id, { ...toolResult(view), _meta: { [relatedTaskMeta]: { taskId } } })
        }).pipe(
          Effect.catchTags({ McpTaskNotFound: () => Effect.succeed(unknownTask(id)) }),
          Effect.catchTag("StorageUnavailable", () => Effect.succeed(storageFailed(id)))
        )
      default:
        return operations.cancel(taskId).pipe(
          Effect.map((view) => answer(id, revision === "legacy" ? legacyTask(view) : { resultType: "complete" })),
          Effect.catch((error) => Effect.succeed(failed(id, error)))
        )
    }
  }

  /**
   * The front's answer to a POSTed message, or undefined when it is not its to answer (then the
   * MCP server answers it). `serve` answers a message through the MCP server as usual.
   */
  return <E, R>(request: HttpServerRequest.HttpServerRequest, body: string, serve: Serve<E, R>) => {
    // Most messages are none of the front's (a tool call, a read): told apart without parsing.
    if (!fronted.some((word) => body.includes(word))) return undefined
    let message: unknown
    try {
      message = JSON.parse(body)
    } catch {
      return undefined
    }
    if (!isObject(message) || typeof message.method !== "string") return undefined
    const { method, id } = message
    const params = isObject(message.params) ? message.params : undefined
    const revision = revisionOf(request, params)

    // A request (with an id); a notification of that name is the MCP server's to ignore.
    if (method.startsWith("tasks/") && revision !== "other" && "id" in message) {
      const refused = revision === "modern" ? misframed(request, method, id, params) : undefined
      return refused === undefined ? taskMethod(revision, method, id, params) : Effect.succeed(refused)
    }

    if (method === "initialize" && params?.protocolVersion === "2025-11-25") {
      return Effect.map(serve(request, body), (response) => {
        const json = jsonBodyOf(response)
        if (!isObject(json?.result) || json.result.protocolVersion !== "2025-11-25") return response
        const capabilities = isObject(json.result.capabilities) ? json.result.capabilities : {}
        return withBody(response, {
          ...json,
          result: { ...json.result, capabilities: { ...capabilities, tasks: legacyTasksCapability } }
        })
      })
    }

    if (method === "tools/list" && revision === "legacy") {
      return Effect.map(serve(request, body), (response) => {
        const json = jsonBodyOf(response)
        if (!isObject(json?.result) || !Array.isArray(json.result.tools)) return response
        const tools = json.result.tools.map((tool: unknown) =>
          isObject(tool) && tool.name === "submit_task" ? { ...tool, execution: { taskSupport: "optional" } } : tool
        )
        return withBody(response, { ...json, result: { ...json.result, tools } })
      })
    }

    if (method === "tools/call" && params?.name === "submit_task" && asksForTask(revision, params)) {
      // The plain call, answered as JSON (no task member, no progress token: nothing streams).
      const { task: _task, ...plain } = params
      const meta = isObject(plain._meta) ? plain._meta : undefined
      const { progressToken: _token, ...restMeta } = meta ?? {}
      const inner = JSON.stringify({
        ...message,
        params: { ...plain, ...(meta === undefined ? {} : { _meta: restMeta }) }
      })
      return Effect.flatMap(serve(withRequestBody(request, inner), inner), (response) => {
        const json = jsonBodyOf(response)
        const result = isObject(json?.result) ? json.result : undefined
        const submitted = isObject(result?.structuredContent) ? result.structuredContent : undefined
        if (result === undefined || result.isError === true || typeof submitted?.reference !== "string") {
          return Effect.succeed(response)
        }
        return operations.open(submitted.reference).pipe(
          Effect.map((view) =>
            answer(id, revision === "legacy" ? { task: legacyTask(view) } : { resultType: "task", ...modernTask(view) })
          ),
          Effect.catch(() => Effect.succeed(storageFailed(id)))
        )
      })
    }
    return undefined
  }
})
