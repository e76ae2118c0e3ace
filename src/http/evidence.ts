/**
 * The handler of a result's files: GET /tasks/{reference}/artifacts/{id}. The agent reads the files
 * of a submitted result with its task token; the participant who uploaded a file reads it with
 * their access token, attached or not. Anyone else — another task's token aside, which is 401 as
 * on the agent's other endpoints — is answered as if there were no such file (404), so a wrong
 * party never learns whether it exists. The bytes are streamed from the blob store as they come.
 */
import * as Effect from "effect/Effect"
import { toEnvelope } from "../api/envelope.ts"
import { TaskReader } from "../api/security.ts"
import { AppConfig } from "../config/app_config.ts"
import { ArtifactNotFound } from "../domain/errors.ts"
import { mayReadFile } from "../domain/file_access.ts"
import { downloadResponse } from "../pages/download.ts"
import { Artifacts } from "../services/artifacts.ts"
import { TaskActions } from "../services/task_actions.ts"
import { handlersLayer } from "./group_layer.ts"

export const EvidenceHandlers = handlersLayer(
  "evidence",
  Effect.gen(function* () {
    const { docsUrl } = yield* AppConfig
    const artifacts = yield* Artifacts
    const actions = yield* TaskActions
    const envelope = toEnvelope(docsUrl)

    /** The file, when these credentials may read it: the agent a submitted result's, a participant their own upload. */
    const readable = Effect.fnUntraced(function* (reference: string, id: string) {
      const reader = yield* TaskReader
      if (reader._tag === "Agent") yield* actions.checkAgent(reference, reader.taskToken)
      const file = yield* artifacts.find(reference, id)
      if (!mayReadFile(reader, file)) return yield* new ArtifactNotFound({ reference, id })
      return yield* artifacts.open(reference, id)
    })

    const download = (reference: string, id: string) =>
      Effect.map(Effect.mapError(readable(reference, id), envelope), ({ file, body }) => downloadResponse(file, body))

    return (handlers) => handlers.handle("downloadArtifact", ({ params }) => download(params.reference, params.id))
  })
)
