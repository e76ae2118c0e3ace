/**
 * The service's one logger: Effect's `Logger`, writing one JSON object per line to stdout.
 *
 * A line is flat: `level`, `message`, `time` (ISO 8601, milliseconds), then the fields the log call
 * gave — the log annotations in force and any plain object passed after the message
 * (`Effect.logInfo("request", { method, path, … })`, the request log) — and `cause` when there is
 * one. Lines are written in batches (Effect's `Logger.batched`): under load a write per line costs
 * more than the request it logs. What a line may hold is decided where it is logged: never headers,
 * bodies, query strings or secrets.
 */
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import type * as Layer from "effect/Layer"
import * as Logger from "effect/Logger"
import * as References from "effect/References"

/** How long a line may wait to be written with others. */
const batchWindow = "20 millis"

const isFields = (u: unknown): u is Readonly<Record<string, unknown>> =>
  typeof u === "object" && u !== null && !Array.isArray(u) && Object.getPrototypeOf(u) === Object.prototype

/** A value as JSON can hold it: errors by their message, anything else that JSON cannot say as text. */
const jsonValue = (value: unknown): unknown => {
  if (value instanceof Error) return value.message
  if (typeof value === "bigint" || typeof value === "symbol" || typeof value === "function") return String(value)
  return value
}

/** What every line starts with; an annotation or field of the same name does not replace them. */
const heading = new Set(["level", "message", "time"])

/** One log entry as its line (without the newline). */
export const lineOf = (entry: {
  readonly level: string
  readonly message: unknown
  readonly date: Date
  readonly annotations: Readonly<Record<string, unknown>>
  readonly cause?: string | undefined
}): string => {
  const parts = Array.isArray(entry.message) ? entry.message : [entry.message]
  let message = ""
  const line: Record<string, unknown> = { level: entry.level, message, time: entry.date.toISOString() }
  let fields: Record<string, unknown> | undefined
  for (const part of parts) {
    if (isFields(part)) fields = fields === undefined ? part : { ...fields, ...part }
    else message = message === "" ? String(part) : `${message} ${String(part)}`
  }
  line.message = message
  // A field the call gave wins over an annotation of the same name.
  for (const key in entry.annotations) if (!heading.has(key)) line[key] = jsonValue(entry.annotations[key])
  if (fields !== undefined) for (const key in fields) if (!heading.has(key)) line[key] = jsonValue(fields[key])
  if (entry.cause !== undefined) line.cause = entry.cause
  return JSON.stringify(line)
}

const hasReasons = (cause: Cause.Cause<unknown>) => cause.reasons.length > 0

/** Entries as lines (for the batching below, and for tests that read what was logged). */
export const jsonLines: Logger.Logger<unknown, string> = Logger.make(({ cause, date, fiber, logLevel, message }) =>
  lineOf({
    level: logLevel.toUpperCase(),
    message,
    date,
    annotations: fiber.getRef(References.CurrentLogAnnotations),
    cause: hasReasons(cause) ? Cause.pretty(cause) : undefined
  })
)

/** The logger, its lines written to `write` in batches; what is buffered is written when the layer closes. */
export const loggerLayer = (write: (chunk: string) => void = (chunk) => process.stdout.write(chunk)) =>
  Logger.layer([
    Logger.batched(jsonLines, {
      window: batchWindow,
      flush: (lines) => Effect.sync(() => write(`${lines.join("\n")}\n`))
    })
  ])

export const LoggerLayer: Layer.Layer<never> = loggerLayer()
