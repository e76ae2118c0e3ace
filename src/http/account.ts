/**
 * Handlers of the participant's side: who am I, my offers and tasks, and the moves on a task —
 * all authorised by an OAuth 2.1 access token whose subject the operator linked to a participant
 * (the security middleware gives the handlers the ParticipantCaller), the task checked to be
 * theirs before any body is read (HolderOfTask). The rules, bodies and messages are the
 * operations' (operations/participant.ts), shared with the participant's MCP tools; the bodies are
 * decoded by HttpApi from the schemas the OpenAPI document publishes (after JsonBody's rules).
 */
import * as Effect from "effect/Effect"
import type * as HttpServerRequest from "effect/http/HttpServerRequest"
import * as Layer from "effect/Layer"
import * as Stream from "effect/Stream"
import { type EnvelopedRefusal, envelopeError, toEnvelope } from "../api/envelope.ts"
import { ParticipantCaller } from "../api/security.ts"
import { AppConfig } from "../config/app_config.ts"
import { ArtifactTooLarge } from "../domain/errors.ts"
import { ParticipantOperations } from "../operations/participant.ts"
import { handlersLayer } from "./group_layer.ts"
import { JsonBodyLayer } from "./json_body.ts"
import { rawEndpoint } from "./raw_endpoints.ts"
import { HolderOfTaskLayer } from "./task_parties.ts"

export const AccountHandlers = handlersLayer(
  "account",
  Effect.gen(function* () {
    const {
      docsUrl: docs,
      artifacts: { maxFileBytes }
    } = yield* AppConfig
    const operations = yield* ParticipantOperations
    const envelope = toEnvelope(docs)

    /** A participant's move, once HolderOfTask has found the task theirs. */
    const move = <A>(make: (caller: typeof ParticipantCaller.Service) => Effect.Effect<A, EnvelopedRefusal>) =>
      Effect.mapError(ParticipantCaller.use(make), envelope)

    /**
     * An upload (raw_endpoints.ts): what can be refused without reading the body first (a
     * declared length over the file limit; a multipart form, which would be stored as is), then
     * the bytes, streamed to the store.
     */
    const upload = Effect.fnUntraced(function* (
      request: HttpServerRequest.HttpServerRequest,
      reference: string,
      name: string
    ) {
      const caller = yield* ParticipantCaller
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

    return (handlers) =>
      handlers
        .handle("me", () => move(operations.me))
        .handle("myTasks", () => move(operations.myTasks))
        .handle("acceptTask", ({ params }) => move((caller) => operations.accept(caller, params.reference)))
        .handle("startTask", ({ params }) => move((caller) => operations.start(caller, params.reference)))
        .handle("declineTask", ({ params, payload }) =>
          move((caller) => operations.decline(caller, params.reference, payload.reason))
        )
        .handle("submitTask", ({ params, payload }) =>
          move((caller) => operations.submitResult(caller, params.reference, payload))
        )
        .handleRaw(rawEndpoint("uploadArtifact"), ({ request, params, query }) =>
          upload(request, params.reference, query.name)
        )
  })
).pipe(Layer.provide([JsonBodyLayer, HolderOfTaskLayer]))
