/**
 * The checks that a move on a task comes from its party, made before the move's body is read
 * (api/security.ts: AgentOfTask, HolderOfTask): the security middleware has read the credential,
 * these hold it against the task the path names, and only then is the body judged.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as HttpRouter from "effect/http/HttpRouter"
import * as Layer from "effect/Layer"
import { toEnvelope } from "../api/envelope.ts"
import { AgentCaller, AgentOfTask, HolderOfTask, ParticipantCaller, PartyOfTask, TaskReader } from "../api/security.ts"
import { AppConfig } from "../config/app_config.ts"
import { AgentOperations } from "../operations/agent.ts"
import { ParticipantOperations } from "../operations/participant.ts"

/**
 * The path's `reference`, as the router matched it (HttpApi decodes the path parameters, all
 * plain strings here, after its middleware). Every route runs with its RouteContext.
 */
const reference = Effect.withFiber((fiber) =>
  Effect.succeed(Context.getUnsafe(fiber.context, HttpRouter.RouteContext).params.reference ?? "")
)

export const AgentOfTaskLayer = Layer.effect(
  AgentOfTask,
  Effect.gen(function* () {
    const { docsUrl } = yield* AppConfig
    const operations = yield* AgentOperations
    const check = Effect.fnUntraced(
      function* () {
        const { taskToken } = yield* AgentCaller
        yield* operations.checkAgent(yield* reference, taskToken)
      },
      Effect.mapError(toEnvelope(docsUrl))
    )
    return AgentOfTask.of((httpEffect) => Effect.andThen(check(), httpEffect))
  })
)

export const PartyOfTaskLayer = Layer.effect(
  PartyOfTask,
  Effect.gen(function* () {
    const { docsUrl } = yield* AppConfig
    const agent = yield* AgentOperations
    const participant = yield* ParticipantOperations
    const check = Effect.fnUntraced(
      function* () {
        const reader = yield* TaskReader
        const task = yield* reference
        if (reader._tag === "Agent") yield* agent.checkAgent(task, reader.taskToken)
        else yield* participant.checkHolder(reader, task)
      },
      Effect.mapError(toEnvelope(docsUrl))
    )
    return PartyOfTask.of((httpEffect) => Effect.andThen(check(), httpEffect))
  })
)

export const HolderOfTaskLayer = Layer.effect(
  HolderOfTask,
  Effect.gen(function* () {
    const { docsUrl } = yield* AppConfig
    const operations = yield* ParticipantOperations
    const check = Effect.fnUntraced(
      function* () {
        const caller = yield* ParticipantCaller
        yield* operations.checkHolder(caller, yield* reference)
      },
      Effect.mapError(toEnvelope(docsUrl))
    )
    return HolderOfTask.of((httpEffect) => Effect.andThen(check(), httpEffect))
  })
)
