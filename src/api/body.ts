/**
 * The contract's rules for a JSON request body, as HttpApi middleware: an endpoint that declares a
 * JSON payload (or, like accept and start, takes an optional JSON object it ignores) names
 * `JsonBody`, which reads the body first — 413 over 64 KiB, 415 when not JSON, 400 invalid_json
 * when it does not parse, 400 invalid_request when it is not an object or nests too deep — each
 * with its own message (http/json_body.ts). HttpApi then decodes what it read by the endpoint's
 * declared payload schema (a member it refuses: 400 invalid_request naming it, http/error_envelope.ts).
 * HttpApi's own reading would answer those cases with one generic refusal, or none.
 */
import * as Context from "effect/Context"
import * as HttpApiMiddleware from "effect/http-api/HttpApiMiddleware"
import { BadRequest, PayloadTooLarge, UnsupportedMediaType } from "./envelope.ts"

export class JsonBody extends HttpApiMiddleware.Service<JsonBody>()("task-marketplace/api/JsonBody", {
  error: [BadRequest, PayloadTooLarge, UnsupportedMediaType]
}) {}

/**
 * An endpoint annotation: its body may be left out (no body is `{}`). The endpoints whose every
 * member is optional (cancel, accept, start, decline).
 */
export const OptionalBody = Context.Reference<boolean>("task-marketplace/api/OptionalBody", {
  defaultValue: () => false
})
