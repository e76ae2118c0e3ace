// Which spans are recorded (src/tracing.ts, `isSampled`): a span inside the process follows its
// parent, so a trace is kept or dropped whole; a trace's first span is kept at the sampler's ratio;
// a caller's traceparent decides with a parent-based sampler and not otherwise.
import { describe, expect, it } from "@effect/vitest"
import * as Option from "effect/Option"
import * as Tracer from "effect/Tracer"
import { isSampled } from "../src/tracing.ts"

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
