/**
 * Handlers of the messages group: a task's conversation (domain/messages.ts). Either party, its
 * credential read and held against the task before the body is judged (task_parties.ts,
 * PartyOfTask); the agent writes to and reads every thread, a participant their own.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { toEnvelope } from "../api/envelope.ts"
import { TaskReader } from "../api/security.ts"
import { AppConfig } from "../config/app_config.ts"
import type { MessageRequest } from "../domain/messages.ts"
import { AgentOperations } from "../operations/agent.ts"
import { ParticipantOperations } from "../operations/participant.ts"
import { handlersLayer } from "./group_layer.ts"
import { JsonBodyLayer } from "./json_body.ts"
import { PartyOfTaskLayer } from "./task_parties.ts"

export const MessagesHandlers = handlersLayer(
  "messages",
  Effect.gen(function* () {
    const { docsUrl } = yield* AppConfig
    const agent = yield* AgentOperations
    const participant = yield* ParticipantOperations
    const envelope = toEnvelope(docsUrl)

    const post = Effect.fnUntraced(function* (reference: string, request: MessageRequest) {
      const reader = yield* TaskReader
      return reader._tag === "Agent"
        ? yield* agent.postMessage(reference, reader.taskToken, request)
        : yield* participant.postMessage(reader, reference, request)
    }, Effect.mapError(envelope))

    const list = Effect.fnUntraced(function* (reference: string) {
      const reader = yield* TaskReader
      return reader._tag === "Agent"
        ? yield* agent.messages(reference, reader.taskToken)
        : yield* participant.messages(reader, reference)
    }, Effect.mapError(envelope))

    return (handlers) =>
      handlers
        .handle("postMessage", ({ params, payload }) => post(params.reference, payload))
        .handle("listMessages", ({ params }) => list(params.reference))
  })
).pipe(Layer.provide([JsonBodyLayer, PartyOfTaskLayer]))
