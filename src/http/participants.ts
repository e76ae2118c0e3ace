/**
 * Handlers of the participants group: list (q, limit, cursor) and read by slug.
 */
import * as Effect from "effect/Effect"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import { toEnvelope } from "../api/envelope.ts"
import { AppConfig } from "../config/app_config.ts"
import type { ParticipantRecord } from "../domain/participant.ts"
import { AgentOperations, encodeCursor, presentParticipant } from "../operations/agent.ts"
import { cachedPerObject } from "../read_cache.ts"
import type { ParticipantPage } from "../services/participant_directory.ts"
import { handlersLayer } from "./group_layer.ts"

/**
 * A participant's public JSON as UTF-8 bytes, made once per record: the directory's in-memory
 * snapshot hands out the same immutable records until the directory changes, so a listing copies
 * bytes instead of building, encoding and serialising every participant on every request (pages
 * of a large directory, read by SQL, are fresh records and simply encoded). Bytes, not strings:
 * a page's body built as one JS string per request was measured promoting ~1 MB per
 * young-generation collection under load (a full collection every 0.3 s).
 *
 * At most `kept` records' bytes are kept (about 12 MB at the default; `cachedPerObject`,
 * src/read_cache.ts): a client paging through a directory of 250,000 kept in memory (Postgres)
 * must not make the service keep all of their JSON.
 */
export const makeParticipantJson = (baseUrl: string, kept = 20_000) =>
  cachedPerObject(
    (record: ParticipantRecord): Buffer => Buffer.from(JSON.stringify(presentParticipant(baseUrl, record))),
    kept
  )

const comma = Buffer.from(",")

/**
 * A page's body: the ParticipantList members around its participants' bytes. Made once per page
 * object, and the directory hands out the same object for a repeated listing until it changes
 * (`keptPage`), so a repeated search answers with the bytes it answered before: under load, a
 * new body per request was external memory that kept V8 running a full collection every ~0.3 s.
 */
const makeListBody = (participantJson: (record: ParticipantRecord) => Buffer) =>
  cachedPerObject((page: ParticipantPage): Buffer => {
    const nextCursor = page.nextAfter === undefined ? null : encodeCursor(page.nextAfter)
    const parts: Array<Buffer> = [Buffer.from(`{"object":"list","count":${page.data.length},"data":[`)]
    for (let i = 0; i < page.data.length; i++) {
      if (i > 0) parts.push(comma)
      parts.push(participantJson(page.data[i]!))
    }
    parts.push(Buffer.from(`],"has_more":${page.nextAfter !== undefined},"next_cursor":${JSON.stringify(nextCursor)}}`))
    return Buffer.concat(parts)
  })

export const ParticipantsHandlers = handlersLayer(
  "participants",
  Effect.gen(function* () {
    const config = yield* AppConfig
    const operations = yield* AgentOperations
    const listBody = makeListBody(makeParticipantJson(config.publicBaseUrl))
    const envelope = toEnvelope(config.docsUrl)

    // A listing answers the bytes made here, in the shape of ParticipantList (kept per page, see
    // makeListBody); a participant is encoded by its declared schema.
    return (handlers) =>
      handlers
        .handle(
          "listParticipants",
          Effect.fnUntraced(function* ({ query }) {
            const page = yield* operations.listParticipants({
              q: query.q,
              limit: query.limit,
              cursor: query.cursor
            })
            return HttpServerResponse.uint8Array(listBody(page), { contentType: "application/json" })
          }, Effect.mapError(envelope))
        )
        .handle("getParticipant", ({ params }) => Effect.mapError(operations.getParticipant(params.slug), envelope))
  })
)
