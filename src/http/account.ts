/**
 * Handlers of the participant's side: who am I, my offers and tasks, and the moves on a task —
 * all authorised by an OAuth 2.1 access token whose subject the operator linked to a participant
 * (the security middleware gives the handlers the ParticipantCaller). The rules, bodies and
 * messages are the operations' (operations/participant.ts), shared with the participant's MCP
 * tools; what is left here is HTTP's own: reading and decoding the request body.
 */
import * as Effect from "effect/Effect"
import type * as HttpServerRequest from "effect/http/HttpServerRequest"
import * as Stream from "effect/Stream"
import { MarketplaceApi } from "../api/api.ts"
import { type EnvelopedRefusal, envelopeError, toEnvelope } from "../api/envelope.ts"
import { DeclineRequest, ResultSubmission } from "../api/resources.ts"
import { ParticipantCaller } from "../api/security.ts"
import { AppConfig } from "../config/app_config.ts"
import { ArtifactTooLarge } from "../domain/errors.ts"
import type { Task } from "../domain/task.ts"
import { type Caller, ParticipantOperations } from "../operations/participant.ts"
import { group as handlerGroup } from "./handler_group.ts"
import { type BodyError, jsonBodyDecoder, readJsonObject } from "./json_body.ts"

export const AccountHandlers = handlerGroup(MarketplaceApi, "account", (handlers) =>
  Effect.gen(function* () {
    const {
      docsUrl: docs,
      artifacts: { maxFileBytes }
    } = yield* AppConfig
    const operations = yield* ParticipantOperations
    const envelope = toEnvelope(docs)

    // Bodies decoded by the schemas the OpenAPI document publishes; accept and start declare none
    // (a JSON object sent anyway is read and ignored).
    const noBody = (request: HttpServerRequest.HttpServerRequest) => readJsonObject(request, docs, { optional: true })
    const declineBody = jsonBodyDecoder(DeclineRequest, docs, { optional: true })
    const resultBody = jsonBodyDecoder(ResultSubmission, docs)

    /**
     * A participant's move on a task: signed in (the middleware), the task theirs (the wrong party
     * is refused before their body is judged), the body read and decoded, the move made. Made
     * once, not per request (docs/performance.md, "No generator function made per request").
     */
    const move = Effect.fnUntraced(function* <A>(
      request: HttpServerRequest.HttpServerRequest,
      reference: string,
      body: (request: HttpServerRequest.HttpServerRequest) => Effect.Effect<A, BodyError>,
      make: (caller: Caller, body: A) => Effect.Effect<Task, EnvelopedRefusal>
    ) {
      const caller = yield* ParticipantCaller
      yield* operations.checkHolder(caller, reference)
      const decoded = yield* body(request)
      return yield* make(caller, decoded)
    }, Effect.mapError(envelope))

    /**
     * An upload: the holder first (as for every move), then what can be refused without reading
     * the body (a declared length over the file limit; a multipart form, which would be stored as
     * is), then the bytes, streamed to the store.
     */
    const upload = Effect.fnUntraced(function* (
      request: HttpServerRequest.HttpServerRequest,
      reference: string,
      name: string
    ) {
      const caller = yield* ParticipantCaller
      yield* operations.checkHolder(caller, reference)
      if (Number(request.headers["content-length"]) > maxFileBytes) {
        return yield* new ArtifactTooLarge({ limit: maxFileBytes })
      }
      const contentType = request.headers["content-type"]?.split(";", 1)[0]?.trim().toLowerCase()
      if (contentType === "multipart/form-data") {
        return yield* envelopeError(docs, "unsupported_media_type", "Send the file's bytes as the body, not a form.", {
          hint: "e.g. curl --data-binary @photo.jpg -H 'content-type: application/octet-stream' '…/artifacts?name=photo.jpg'"
        })
      }
      const body = Stream.mapError(request.stream, () =>
        envelopeError(docs, "invalid_json", "The file could not be read in full.", {
          hint: "Send the complete body with a correct content-length. Nothing was kept."
        })
      )
      return yield* operations.uploadFile(caller, reference, name, body)
    }, Effect.mapError(envelope))

    return handlers
      .handle("me", () => Effect.mapError(ParticipantCaller.use(operations.me), envelope))
      .handle("myTasks", () => Effect.mapError(ParticipantCaller.use(operations.myTasks), envelope))
      .handleRaw("acceptTask", ({ request, params }) =>
        move(request, params.reference, noBody, (caller) => operations.accept(caller, params.reference))
      )
      .handleRaw("startTask", ({ request, params }) =>
        move(request, params.reference, noBody, (caller) => operations.start(caller, params.reference))
      )
      .handleRaw("declineTask", ({ request, params }) =>
        move(request, params.reference, declineBody, (caller, { reason }) =>
          operations.decline(caller, params.reference, reason)
        )
      )
      .handleRaw("submitTask", ({ request, params }) =>
        move(request, params.reference, resultBody, (caller, result) =>
          operations.submitResult(caller, params.reference, result)
        )
      )
      .handleRaw("uploadArtifact", ({ request, params, query }) => upload(request, params.reference, query.name))
  })
)
