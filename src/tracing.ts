/**
 * Tracing: when an OpenTelemetry collector is configured (src/config/, the standard `OTEL_*`
 * variables), every sampled request's server span (made by the server-span middleware, http/server_span.ts, continuing
 * the caller's W3C `traceparent`), the named operations and services it passes through
 * (`Effect.fn("Service.method")`) and every SQL statement under them
 * are exported to it over OTLP/HTTP as JSON, in batches. Without a collector the tracer stays
 * off: spans nobody receives would only cost time.
 *
 * The exporter and its HTTP client (`node:http`, not `fetch`: see docs/decisions/tracing.md) are
 * loaded only when a collector is configured.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import type * as OtlpExporter from "effect/observability/OtlpExporter"
import * as Redacted from "effect/Redacted"
import * as Tracer from "effect/Tracer"
import type { Sampler, TracingSettings } from "./config/settings.ts"

/**
 * Whether a new span is recorded and exported. A span inside this process follows its parent (a
 * trace is kept or dropped whole); a trace's first span — or one continuing a caller's
 * `traceparent`, with a parent-based sampler — is kept as the caller decided, else with
 * probability `ratio`.
 */
export const isSampled = (sampler: Sampler, parent: Option.Option<Tracer.AnySpan>, sampled: boolean): boolean => {
  if (!sampled) return false
  if (Option.isSome(parent) && (parent.value._tag === "Span" || sampler.parentBased)) return parent.value.sampled
  return sampler.ratio >= 1 || Math.random() < sampler.ratio
}

/**
 * Marks a span whose sampling its maker has already decided with `isSampled` (the request's
 * server span: the envelope middleware decides before it makes any span, so that a request
 * nobody will see costs no span at all); the tracer keeps that decision instead of drawing again.
 */
export const SamplingDecided = Context.Reference<boolean>("task-marketplace/tracing/SamplingDecided", {
  defaultValue: () => false
})

/** The annotations of a span whose sampling its maker has decided (see `SamplingDecided`). */
export const decidedSampling = Context.make(SamplingDecided, true)

/**
 * Runs `effect` under a new trace's first span `name` when the sampler keeps that trace, and with
 * the tracer off when it does not (or when nothing is configured to receive traces): the traces
 * nobody will see then cost no span, for the effect nor for anything it runs (services, SQL).
 * For the service's own work, which no request started (the dispatcher's sweeps).
 */
export const sampledRoot =
  (sampler: Sampler | undefined, name: string, options?: Pick<Tracer.SpanOptions, "attributes">) =>
  <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    sampler !== undefined && isSampled(sampler, Option.none(), true)
      ? Effect.withTracerEnabled(
          Effect.withSpan(effect, name, { ...options, root: true, annotations: decidedSampling, sampled: true }),
          true
        )
      : Effect.withTracerEnabled(effect, false)

/**
 * `Effect.fn(name)` for the methods the hottest requests pass through (a poll, a 304, a preflight,
 * a directory page): the same named span on every call, tracer on or off, but without the
 * call-site stack Effect.fn captures on each call (a `new Error()`, most of its cost; Effect
 * skips it while `Error.stackTraceLimit` is 0, which this sets for the call's synchronous part
 * only, and restores). What is lost is the call site's line in a span's or a defect's frames; the
 * span's name and the definition's frame stay.
 *
 * The trick rescues issue 34's targets for a task read, its 304 and preflight (the figures are in
 * docs/performance.md, "The rules that matter"). Invariant (test/tracing.test.ts): the span is
 * named as given under the caller's, answers, failures and `this` are the body's, and
 * `Error.stackTraceLimit` is as it was after every call, even one that throws.
 */
export const hotFn = (name: string): Effect.fn.Traced =>
  // biome-ignore lint/suspicious/noExplicitAny: forwards Effect.fn's own overloads unchanged.
  ((body: any, ...pipeables: Array<any>) => {
    // biome-ignore lint/suspicious/noExplicitAny: as above.
    const traced: Function = (Effect.fn(name) as any)(body, ...pipeables)
    return Object.defineProperty(
      function (this: unknown, ...args: Array<unknown>) {
        const limit = Error.stackTraceLimit
        Error.stackTraceLimit = 0
        try {
          return traced.apply(this, args)
        } finally {
          Error.stackTraceLimit = limit
        }
      },
      "length",
      { value: body.length }
    )
  }) as Effect.fn.Traced

/** The tracer (and its exporter) for the settings; nothing when no collector is configured. */
export const tracingLayer = (
  settings: TracingSettings | undefined
): Layer.Layer<OtlpExporter.Flusher> | Layer.Layer<never> =>
  settings === undefined
    ? Layer.empty
    : Layer.unwrap(
        Effect.promise(async () => {
          const [OtlpTracer, OtlpExporter, OtlpSerialization, NodeHttpClient] = await Promise.all([
            import("effect/observability/OtlpTracer"),
            import("effect/observability/OtlpExporter"),
            import("effect/observability/OtlpSerialization"),
            import("@effect/platform-node/NodeHttpClient")
          ])
          const exporting = OtlpTracer.make({
            url: settings.url,
            resource: { serviceName: settings.serviceName, serviceVersion: "0.1.0" },
            headers: Redacted.value(settings.headers),
            exportInterval: settings.exportIntervalMs
          })
          const sampling = Effect.map(exporting, (tracer) =>
            Tracer.make({
              ...tracer,
              span: (options) =>
                tracer.span({
                  ...options,
                  sampled: Context.get(options.annotations, SamplingDecided)
                    ? options.sampled
                    : isSampled(settings.sampler, options.parent, options.sampled)
                })
            })
          )
          return Layer.effect(Tracer.Tracer, sampling).pipe(
            Layer.provideMerge(OtlpExporter.layerFlusher),
            Layer.provide([OtlpSerialization.layerJson, NodeHttpClient.layerNodeHttp])
          )
        })
      )
