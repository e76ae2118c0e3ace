/**
 * Reads a request's JSON body under the contract's rules, in the order a client can act on:
 * 413 when over 64 KiB, 415 when not application/json, 400 invalid_json when it does not parse,
 * 400 invalid_request when it is not a JSON object or nests deeper than `maxJsonDepth` (naming the
 * member), then 400 invalid_request naming each member its declared schema refuses: HttpApi's
 * decoding of the endpoint's payload after `JsonBodyLayer` (api/body.ts), or `jsonBodyDecoder`
 * outside the HttpApi description (the sandbox's clock). Parsing is ours (not HttpApi's), so
 * malformed JSON and a schema failure are told apart reliably.
 */
import * as ByteSize from "effect/ByteSize"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as HttpIncomingMessage from "effect/http/HttpIncomingMessage"
import * as HttpServerRequest from "effect/http/HttpServerRequest"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import { JsonBody, OptionalBody } from "../api/body.ts"
import {
  BadRequest,
  envelopeError,
  type PayloadTooLarge,
  refusalBody,
  type UnsupportedMediaType
} from "../api/envelope.ts"
import { maxBodyBytes } from "../api/parameters.ts"
import { AppConfig } from "../config/app_config.ts"
import { invalidRequest, tooDeep } from "../operations/invalid_request.ts"

const maxBodySize = ByteSize.bytes(maxBodyBytes)

export type BodyError = BadRequest | PayloadTooLarge | UnsupportedMediaType

export const isJsonContentType = (value: string | undefined): boolean => {
  if (value === undefined) return false
  const type = value.split(";", 1)[0]!.trim().toLowerCase()
  return type === "application/json" || (type.startsWith("application/") && type.endsWith("+json"))
}

export const tooLarge = (docsUrl: string) =>
  envelopeError(docsUrl, "payload_too_large", `The request body is larger than ${maxBodyBytes} bytes (64 KiB).`, {
    hint: "Shorten the long text fields; a draft's longest members are limited to 4,000 characters."
  })

/** Why a body could not be read: too large, or cut short. */
const unreadable =
  (docsUrl: string) => (error: { readonly reason: { readonly _tag: string; readonly reason?: unknown } }) =>
    Effect.fail(
      error.reason._tag === "RequestParseError" && error.reason.reason === "BodyTooLarge"
        ? tooLarge(docsUrl)
        : envelopeError(docsUrl, "invalid_json", "The request body could not be read.", {
            hint: "Send the complete body with a correct content-length."
          })
    )

/** The body of `request` as a JSON object, read under the body limit (a declared length over it is refused unread). */
export const readJsonObject = (
  request: HttpServerRequest.HttpServerRequest,
  docsUrl: string,
  options: { readonly optional?: boolean } = {}
) => Effect.map(readJson(request, docsUrl, options), ({ value }) => value)

const readJson = Effect.fnUntraced(function* (
  request: HttpServerRequest.HttpServerRequest,
  docsUrl: string,
  options: { readonly optional?: boolean }
) {
  if (Number(request.headers["content-length"]) > maxBodyBytes) return yield* Effect.fail(tooLarge(docsUrl))
  const text = yield* request.text.pipe(
    Effect.provideService(HttpIncomingMessage.MaxBodySize, maxBodySize),
    Effect.catch(unreadable(docsUrl))
  )
  return yield* jsonObjectOf(text, request.headers["content-type"], docsUrl, options)
})

/**
 * The request as HttpApi's payload decoding reads it, once the body has passed the rules above:
 * JSON (a `+json` media type, or none for an absent optional body, is JSON too) whose text is the
 * one read (`{}` for an absent optional body).
 */
const asJsonRequest = (
  request: HttpServerRequest.HttpServerRequest,
  text: string
): HttpServerRequest.HttpServerRequest => {
  const headers = { ...request.headers, "content-type": "application/json" }
  const body = Effect.succeed(text)
  return new Proxy(request, {
    get: (target, key) => (key === "headers" ? headers : key === "text" ? body : Reflect.get(target, key, target))
  })
}

/**
 * JsonBody (api/body.ts): the body read by the rules above before HttpApi decodes it by the
 * endpoint's payload schema. An endpoint annotated OptionalBody may send none.
 */
export const JsonBodyLayer = Layer.effect(
  JsonBody,
  Effect.gen(function* () {
    const { docsUrl } = yield* AppConfig
    const required = { optional: false }
    const optional = { optional: true }
    return JsonBody.of((httpEffect, { endpoint }) => {
      const options = Context.get(endpoint.annotations, OptionalBody) ? optional : required
      return HttpServerRequest.HttpServerRequest.use((request) =>
        Effect.flatMap(readJson(request, docsUrl, options), ({ text }) =>
          Effect.provideService(httpEffect, HttpServerRequest.HttpServerRequest, asJsonRequest(request, text))
        )
      )
    })
  })
)

/**
 * Reads the body as `readJsonObject` does and decodes it by `schema` (the one the OpenAPI document
 * publishes for the endpoint; members it does not declare are ignored). Made once per endpoint.
 */
export const jsonBodyDecoder = <S extends Schema.ConstraintDecoder<unknown>>(
  schema: S,
  docsUrl: string,
  options: { readonly optional?: boolean } = {}
) => {
  // Every member that fails is named, not only the first (as the MCP tools name every argument).
  const decode = Schema.decodeUnknownEffect(schema, { errors: "all" })
  const refuse = (error: Schema.SchemaError) =>
    Effect.fail(new BadRequest({ error: refusalBody(docsUrl, invalidRequest("Payload", error)) }))
  return Effect.fnUntraced(function* (request: HttpServerRequest.HttpServerRequest) {
    const body = yield* readJsonObject(request, docsUrl, options)
    return yield* Effect.catch(decode(body), refuse)
  })
}

/** The body read as the contract asks: its media type, then its JSON, then that it is an object. */
const jsonObjectOf = (
  text: string,
  contentType: string | undefined,
  docsUrl: string,
  options: { readonly optional?: boolean }
): Effect.Effect<{ readonly value: Record<string, unknown>; readonly text: string }, BodyError> => {
  // Endpoints whose members are all optional (cancel, accept, …) accept no body at all.
  if (options.optional === true && text.trim() === "") return Effect.succeed({ value: {}, text: "{}" })
  if (!isJsonContentType(contentType)) {
    if (contentType === undefined && text.trim() === "") {
      return Effect.fail(
        envelopeError(docsUrl, "invalid_json", "The request body is empty.", {
          hint: "Send a JSON object with content-type: application/json."
        })
      )
    }
    return Effect.fail(
      envelopeError(
        docsUrl,
        "unsupported_media_type",
        `content-type must be application/json${contentType === undefined ? "; none was sent" : `, not ${truncate(contentType)}`}.`,
        { hint: "Send the body as JSON with the header content-type: application/json." }
      )
    )
  }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (cause) {
    const detail = cause instanceof SyntaxError ? cause.message : "it is nested too deeply"
    return Effect.fail(
      envelopeError(docsUrl, "invalid_json", `The request body is not valid JSON: ${truncate(detail)}`, {
        hint: 'Send one JSON object, e.g. {"action": "…"}; check quotes, commas and brackets.'
      })
    )
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    const kind = value === null ? "null" : Array.isArray(value) ? "an array" : `a ${typeof value}`
    return Effect.fail(
      envelopeError(docsUrl, "invalid_request", `The request body must be a JSON object, not ${kind}.`, {
        hint: 'Wrap the members in an object: {"action": "…", "execution_mode": "digital", …}.'
      })
    )
  }
  // Before anything that recurses over it (a schema, JSON.stringify when a row is written).
  const deep = tooDeep("Payload", value)
  if (deep !== undefined) return Effect.fail(new BadRequest({ error: refusalBody(docsUrl, deep) }))
  return Effect.succeed({ value: value as Record<string, unknown>, text })
}

const truncate = (s: string) => (s.length > 120 ? `${s.slice(0, 117)}…` : s)
