/**
 * Handlers of the participants group: list (q, limit, cursor) and read by slug.
 */
import * as Effect from "effect/Effect"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import { MarketplaceApi } from "../api/api.ts"
import { envelopeError } from "../api/envelope.ts"
import { pageSize } from "../api/parameters.ts"
import { AppConfig } from "../config.ts"
import type { Participant, ParticipantRecord } from "../domain/participant.ts"
import { perObject } from "../domain/per_object.ts"
import { participantSlugPattern } from "../domain/task_draft.ts"
import { ParticipantDirectory, type ParticipantPage } from "../services/participant_directory.ts"
import { orStorageUnavailable } from "./failures.ts"
import { group as handlerGroup } from "./handler_group.ts"

/** The public shape of a stored participant. */
export const presentParticipant = (baseUrl: string, p: ParticipantRecord): Participant => ({
  object: "participant",
  slug: p.slug,
  name: p.name,
  discipline: p.discipline,
  location: p.location,
  task_type: p.task_type,
  tags: p.tags,
  capabilities: p.capabilities,
  returns: p.returns,
  boundary: p.boundary,
  url: `${baseUrl}/api/public/v1/participants/${p.slug}`
})

/**
 * A participant's public JSON as UTF-8 bytes, made once per record: the directory's in-memory
 * snapshot hands out the same immutable records until the directory changes, so a listing copies
 * bytes instead of building, encoding and serialising every participant on every request (pages
 * of a large directory, read by SQL, are fresh records and simply encoded). Bytes, not strings:
 * a page's body built as one JS string per request was measured promoting ~1 MB per
 * young-generation collection under load (a full collection every 0.3 s).
 *
 * At most `kept` records' bytes are kept (about 12 MB at the default): a client paging through a
 * directory of 250,000 kept in memory (Postgres) must not make the service keep all of their JSON.
 * Past the bound, the kept bytes are let go all at once and made again as records are listed.
 */
export const makeParticipantJson = (baseUrl: string, kept = 20_000) =>
  perObject(
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
  perObject((page: ParticipantPage): Buffer => {
    const nextCursor = page.nextAfter === undefined ? null : encodeCursor(page.nextAfter)
    const parts: Array<Buffer> = [Buffer.from(`{"object":"list","count":${page.data.length},"data":[`)]
    for (let i = 0; i < page.data.length; i++) {
      if (i > 0) parts.push(comma)
      parts.push(participantJson(page.data[i]!))
    }
    parts.push(Buffer.from(`],"has_more":${page.nextAfter !== undefined},"next_cursor":${JSON.stringify(nextCursor)}}`))
    return Buffer.concat(parts)
  })

const isParticipantSlug = (s: string) => s.length <= 64 && participantSlugPattern.test(s)

// Cursors are opaque to clients; inside, the last slug of the page.
const encodeCursor = (slug: string) => Buffer.from(`after:${slug}`).toString("base64url")
/** The slug a cursor (base64url text, as PageCursor has checked) continues after, if this service issued it. */
const decodeCursor = (cursor: string) => {
  const text = Buffer.from(cursor, "base64url").toString()
  return text.startsWith("after:") ? text.slice("after:".length) : undefined
}

export const ParticipantsHandlers = handlerGroup(MarketplaceApi, "participants", (handlers) =>
  Effect.gen(function* () {
    const config = yield* AppConfig
    const directory = yield* ParticipantDirectory
    const listBody = makeListBody(makeParticipantJson(config.publicBaseUrl))
    const invalid = (message: string, hint: string) =>
      envelopeError(config.docsUrl, "invalid_request", message, { hint })

    // Generators made once, not per request (docs/performance.md, "No generator function made per request").
    const list = Effect.fnUntraced(function* (
      q: string | undefined,
      limitText: string | undefined,
      cursor: string | undefined
    ) {
      // PageLimit has checked the text: a whole number in range.
      const limit = limitText === undefined ? pageSize.default : Number(limitText)
      const after = cursor === undefined ? undefined : decodeCursor(cursor)
      if (cursor !== undefined && after === undefined) {
        return yield* invalid(
          "cursor is not one this service issued.",
          "Pass the next_cursor of the previous page unchanged, or omit cursor to start from the beginning."
        )
      }
      const page = yield* directory.list({ q, limit, after }).pipe(orStorageUnavailable(config.docsUrl))
      return HttpServerResponse.uint8Array(listBody(page), { contentType: "application/json" })
    })

    const one = Effect.fnUntraced(function* (slug: string) {
      // A string that cannot be a slug is answered without touching storage.
      const participant = isParticipantSlug(slug)
        ? yield* directory.findBySlug(slug).pipe(orStorageUnavailable(config.docsUrl))
        : undefined
      if (participant === undefined) {
        return yield* envelopeError(
          config.docsUrl,
          "participant_not_found",
          `No participant has the slug ${JSON.stringify(slug.slice(0, 80))}.`,
          {
            hint: "List participants with GET /api/public/v1/participants (filter with ?q=) and use a slug from it."
          }
        )
      }
      return HttpServerResponse.jsonUnsafe(presentParticipant(config.publicBaseUrl, participant))
    })

    // Raw handlers answering JSON made here, in the shapes of ParticipantList and Participant (the
    // HttpApi description, and so the OpenAPI document, still declares those schemas).
    return handlers
      .handleRaw("listParticipants", ({ query }) => list(query.q, query.limit, query.cursor))
      .handleRaw("getParticipant", ({ params }) => one(params.slug))
  })
)
