/**
 * Every request has an id: the client's `x-request-id` when it is 1–128 characters of
 * `[A-Za-z0-9._:@/+=-]`, else a fresh UUID. The request runs with it (`RequestId`: the log line and
 * an internal error's hint quote it) and the response carries it back in `x-request-id`, whatever
 * answered. The outermost middleware (server.ts).
 */
import { randomUUID } from "node:crypto"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import type * as HttpMiddleware from "effect/http/HttpMiddleware"
import * as HttpServerRequest from "effect/http/HttpServerRequest"
import * as HttpServerResponse from "effect/http/HttpServerResponse"

const saneRequestId = /^[A-Za-z0-9._:@/+=-]{1,128}$/

/** The id of the request being served ("" outside one). */
export const RequestId = Context.Reference<string>("task-marketplace/http/RequestId", { defaultValue: () => "" })

/** The client's id when it is sane, else a fresh one. */
export const requestIdOf = (incoming: string | undefined): string =>
  incoming !== undefined && saneRequestId.test(incoming) ? incoming : randomUUID()

export const requestIdMiddleware: HttpMiddleware.HttpMiddleware = (httpEffect) =>
  Effect.withFiber((fiber) => {
    const request = Context.getUnsafe(fiber.context, HttpServerRequest.HttpServerRequest)
    const id = requestIdOf(request.headers["x-request-id"])
    return Effect.map(Effect.provideService(httpEffect, RequestId, id), (response) =>
      HttpServerResponse.setHeader(response, "x-request-id", id)
    )
  })
