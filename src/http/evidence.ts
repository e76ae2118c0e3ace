/**
 * The handler of a result's files: GET /tasks/{reference}/artifacts/{id}. The agent reads the files
 * of a submitted result with its task token; the participant who uploaded a file reads it with
 * their access token, attached or not. Anyone else — another task's token aside, which is 401 as
 * on the agent's other endpoints — is answered as if there were no such file (404), so a wrong
 * party never learns whether it exists. The bytes are streamed from the blob store as they come.
 */
import * as Effect from "effect/Effect"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import type * as Stream from "effect/Stream"
import { MarketplaceApi } from "../api/api.ts"
import { toEnvelope } from "../api/envelope.ts"
import { TaskReader } from "../api/security.ts"
import { AppConfig } from "../config.ts"
import { ArtifactNotFound } from "../domain/errors.ts"
import { attachmentDisposition } from "../domain/evidence.ts"
import { Artifacts, type StoredFile } from "../services/artifacts.ts"
import { TaskActions } from "../services/task_actions.ts"
import { group as handlerGroup } from "./handler_group.ts"

export const EvidenceHandlers = handlerGroup(MarketplaceApi, "evidence", (handlers) =>
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
      const allowed = file !== undefined && (reader._tag === "Agent" ? file.attached : file.uploader === reader.slug)
      if (!allowed) return yield* new ArtifactNotFound({ reference, id })
      return yield* artifacts.open(reference, id)
    })

    const download = (reference: string, id: string) =>
      Effect.map(Effect.mapError(readable(reference, id), envelope), ({ file, body }) => downloadResponse(file, body))

    return handlers.handleRaw("downloadArtifact", ({ params }) => download(params.reference, params.id))
  })
)

/**
 * A stored file as its download: the bytes streamed with their recorded type and size. The bytes
 * are a participant's: never rendered or sniffed as anything but a download, and kept by no shared
 * cache. The REST download and the console's serve files alike through this.
 */
export const downloadResponse = <E>(file: StoredFile, body: Stream.Stream<Uint8Array, E>) =>
  HttpServerResponse.stream(body, {
    status: 200,
    contentType: file.content_type,
    contentLength: file.size,
    headers: {
      "content-disposition": attachmentDisposition(file.name),
      etag: `"${file.sha256}"`,
      "x-content-type-options": "nosniff",
      "content-security-policy": "default-src 'none'; sandbox",
      "cache-control": "private, no-store",
      "cross-origin-resource-policy": "same-origin"
    }
  })
