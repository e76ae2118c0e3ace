/**
 * `GET /console/tasks/:reference/files/:id`: a file the signed-in participant uploaded to one of
 * their tasks, as a download; any other file is answered as if there were none.
 */

import * as Effect from "effect/Effect"
import type * as HttpServerRequest from "effect/http/HttpServerRequest"
import { downloadResponse } from "../pages/download.ts"
import { type ConsoleContext, callerOf, pathOf } from "./context.ts"

/** The reference and the file's id in `/console/tasks/<reference>/files/<id>`, or undefined when they cannot be read. */
const fileAddressOf = (request: HttpServerRequest.HttpServerRequest) => {
  const segments = pathOf(request).split("/")
  try {
    return { reference: decodeURIComponent(segments[3] ?? ""), id: decodeURIComponent(segments[5] ?? "") }
  } catch {
    return undefined
  }
}

export const fileHandler =
  ({ operations, notFound, signedIn }: ConsoleContext) =>
  (request: HttpServerRequest.HttpServerRequest) =>
    signedIn(request, (caller) =>
      Effect.gen(function* () {
        const address = fileAddressOf(request)
        if (address === undefined) return notFound
        const opened = yield* operations.openOwnFile(callerOf(caller), address.reference, address.id)
        return opened === undefined ? notFound : downloadResponse(opened.file, opened.body)
      })
    )
