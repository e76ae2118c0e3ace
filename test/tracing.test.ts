// Which spans are recorded (src/tracing.ts, `isSampled`): a span inside the process follows its
// parent, so a trace is kept or dropped whole; a trace's first span is kept at the sampler's ratio;
// a caller's traceparent decides with a parent-based sampler and not otherwise; the tracer keeps a
// decision its span's maker has already made (the request's server span).
import { describe, expect, it } from "@effect/vitest"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as References from "effect/References"
import * as Tracer from "effect/Tracer"
import { decidedSampling, hotFn, isSampled, sampledRoot, tracingLayer } from "../src/tracing.ts"

const caller = (sampled: boolean) =>
  Option.some(Tracer.externalSpan({ traceId: "4bf92f3577b34da6a3ce929d0e0e4736", spanId: "00f067aa0ba902b7", sampled }))
const local = (sampled: boolean) =>
  Option.some({
    ...Tracer.externalSpan({ traceId: "4bf92f3577b34da6a3ce929d0e0e4736", spanId: "00f067aa0ba902b7", sampled }),
    _tag: "Span"
  } as unknown as Tracer.AnySpan)
const share = (sample: () => boolean, n = 4000) => Array.from({ length: n }, sample).filter(Boolean).length / n

describe("sampling", () => {
  it("keeps a trace's first span at the sampler's ratio", () => {
    expect(isSampled({ parentBased: true, ratio: 1 }, Option.none(), true)).toBe(true)
    expect(isSampled({ parentBased: true, ratio: 0 }, Option.none(), true)).toBe(false)
    const kept = share(() => isSampled({ parentBased: false, ratio: 0.25 }, Option.none(), true))
    expect(kept).toBeGreaterThan(0.2)
    expect(kept).toBeLessThan(0.3)
  })

  it("follows a span's parent inside the process, whatever the ratio", () => {
    expect(isSampled({ parentBased: false, ratio: 0 }, local(true), true)).toBe(true)
    expect(isSampled({ parentBased: false, ratio: 1 }, local(false), true)).toBe(false)
  })

  it("follows the caller's traceparent only with a parent-based sampler", () => {
    expect(isSampled({ parentBased: true, ratio: 0 }, caller(true), true)).toBe(true)
    expect(isSampled({ parentBased: true, ratio: 1 }, caller(false), true)).toBe(false)
    expect(isSampled({ parentBased: false, ratio: 0 }, caller(true), true)).toBe(false)
  })

  it("never records a span Effect already marked unsampled", () => {
    expect(isSampled({ parentBased: false, ratio: 1 }, Option.none(), false)).toBe(false)
  })
})

describe("the tracer", () => {
  // The envelope middleware decides a request's sampling before it makes the server span; the
  // tracer must keep that decision, not draw again (with a ratio of 0.5 it would drop half of them).
  const spanWith = (annotations: Context.Context<never>) =>
    Effect.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const context = yield* Layer.build(
            tracingLayer({
              url: "http://127.0.0.1:9/v1/traces",
              serviceName: "test",
              headers: Redacted.make({}),
              exportIntervalMs: 60_000,
              sampler: { parentBased: true, ratio: 0 }
            })
          )
          const span = yield* Effect.makeSpan("GET", { kind: "server", annotations, sampled: true }).pipe(
            Effect.provideContext(context),
            Effect.withTracerEnabled(true)
          )
          return span.sampled
        })
      )
    )

  it("keeps a span whose maker has decided its sampling", async () => {
    expect(await spanWith(decidedSampling)).toBe(true)
  })

  it("samples any other first span itself (here: a ratio of 0 keeps none)", async () => {
    expect(await spanWith(Context.empty())).toBe(false)
  })
})

describe("sampledRoot (the service's own work: the dispatcher's sweeps)", () => {
  const inside = Effect.gen(function* () {
    const enabled = yield* References.TracerEnabled
    const span = yield* Effect.option(Effect.currentSpan)
    return { enabled, span: Option.getOrUndefined(span) }
  })

  it("runs a trace the sampler drops with the tracer off: no span for it nor for anything under it", async () => {
    const seen = await Effect.runPromise(inside.pipe(sampledRoot({ parentBased: true, ratio: 0 }, "Dispatcher.sweep")))
    expect(seen).toEqual({ enabled: false, span: undefined })
    const none = await Effect.runPromise(inside.pipe(sampledRoot(undefined, "Dispatcher.sweep")))
    expect(none).toEqual({ enabled: false, span: undefined })
  })

  it("runs a kept trace under its first span, sampled, with the tracer on", async () => {
    const seen = await Effect.runPromise(
      inside.pipe(
        sampledRoot({ parentBased: true, ratio: 1 }, "Dispatcher.sweep", { attributes: { "tasks.due": 3 } }),
        Effect.withTracerEnabled(false)
      )
    )
    expect(seen.enabled).toBe(true)
    expect(seen.span).toMatchObject({ name: "Dispatcher.sweep", sampled: true })
    expect(seen.span?._tag === "Span" && seen.span.parent).toEqual(Option.none())
    expect(seen.span?._tag === "Span" && seen.span.attributes.get("tasks.due")).toBe(3)
  })
})

describe("hotFn (Effect.fn without the call-site stack, for the hottest methods)", () => {
  const op = hotFn("Tasks.example")(function* (n: number) {
    const span = Option.getOrUndefined(yield* Effect.option(Effect.currentSpan))
    if (n < 0) return yield* Effect.fail(`negative: ${n}`)
    return { value: n, span, limit: Error.stackTraceLimit }
  })
  const method = hotFn("Tasks.method")(function* (this: { readonly base: number }, n: number) {
    return (yield* Effect.succeed(this.base)) + n
  })

  it("is a span named as given, under the caller's, tracer on or off, and stacks work inside it", async () => {
    for (const enabled of [true, false]) {
      const seen = await Effect.runPromise(op(1).pipe(Effect.withSpan("request"), Effect.withTracerEnabled(enabled)))
      expect(seen.value).toBe(1)
      expect(seen.span).toMatchObject({ name: "Tasks.example" })
      // With the tracer off the span is a no-op one, made all the same (no swapping at call time).
      if (enabled) {
        expect(seen.span?._tag === "Span" && Option.getOrUndefined(seen.span.parent)).toMatchObject({ name: "request" })
      }
      // The body runs with the process's own limit: only the call's synchronous part had none.
      expect(seen.limit).toBe(Error.stackTraceLimit)
      expect(seen.limit).toBeGreaterThan(0)
    }
  })

  it("answers, fails and binds `this` as the body does, and leaves Error.stackTraceLimit as it was", async () => {
    const limit = Error.stackTraceLimit
    for (const enabled of [true, false]) {
      expect(await Effect.runPromise(Effect.flip(op(-1)).pipe(Effect.withTracerEnabled(enabled)))).toBe("negative: -1")
      const bound = await Effect.runPromise(method.call({ base: 10 }, 1).pipe(Effect.withTracerEnabled(enabled)))
      expect(bound).toBe(11)
    }
    const throwing = hotFn("Tasks.throws")(
      // A pipeable that throws while the call is made (synchronously).
      function* () {
        return yield* Effect.succeed(1)
      },
      () => {
        throw new Error("made badly")
      }
    )
    expect(() => throwing()).toThrow("made badly")
    expect(Error.stackTraceLimit).toBe(limit)
    expect(op.length).toBe(1)
  })
})
