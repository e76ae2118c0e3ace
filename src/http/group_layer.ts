/**
 * HttpApi runs an endpoint's handler in the context its group's layer was built in, merged over
 * the request's own (`HttpApiBuilder.group` keeps the whole build context). What a request decides
 * for itself — whether its spans are made and under which parent (server_span.ts) — must stay the
 * request's: a group is built without those two, so the build's values never override them.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as References from "effect/References"
import * as Tracer from "effect/Tracer"

export const builtWithoutRequestTracing = <A, E, R>(layer: Layer.Layer<A, E, R>): Layer.Layer<A, E, R> =>
  Layer.fromBuild((memoMap, scope) =>
    Effect.updateContext(
      Layer.buildWithMemoMap(layer, memoMap, scope),
      (context: Context.Context<R>) =>
        Context.omit(Tracer.ParentSpan, References.TracerEnabled)(context) as Context.Context<R>
    )
  )
