/**
 * `HttpApiBuilder.group`, built so that its handlers run in the request's own context.
 *
 * Effect's group keeps the whole context its layer was built in (every service given to the routes)
 * and provides it to every request (`Effect.provideContext`): a merge that copies the request
 * fiber's context and adds each of those services to the copy, per request (with the request's
 * context, then also every service, copied twice: ~10% of a poll's CPU in a profile). The handlers of this service take
 * what they use when they are built and keep it in closures; at request time they need only what
 * the request's fiber already has (the request, the tracer, the logger). So the group's build is
 * given its services explicitly and the group is built in a context holding only what it must
 * keep: the security middleware its endpoints name (api/security.ts), which Effect looks up in the
 * group's context when it builds the routes (the agent's and participant's groups only), and the
 * `CurrentMemoMap` that `Layer.buildWithMemoMap`, Effect's public way to build a layer, gives
 * every build. Providing that per request merges one or two services into the request's context, not every
 * service.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as HttpApiBuilder from "effect/http-api/HttpApiBuilder"
import type * as HttpApiGroup from "effect/http-api/HttpApiGroup"
import * as Layer from "effect/Layer"

export const group: typeof HttpApiBuilder.group = (api, identifier, build) => {
  // Typed by their constraints only; at run time the group's endpoints are whole endpoints.
  const { endpoints } = api.groups[identifier] as unknown as Pick<HttpApiGroup.Top, "endpoints">
  const middlewares = [...new Set(Object.values(endpoints).flatMap((endpoint) => [...endpoint.middlewares]))]
  const kept = <R>(context: Context.Context<R>): Context.Context<never> =>
    middlewares.length === 0 ? Context.empty() : (Context.pick(...middlewares)(context) as Context.Context<never>)
  return Layer.unwrap(
    Effect.map(Effect.context<never>(), (context) => {
      const inner = HttpApiBuilder.group(api, identifier, (handlers) => {
        const made = build(handlers)
        return (Effect.isEffect(made) ? Effect.provideContext(made, context) : made) as typeof made
      })
      return Layer.fromBuild((memoMap, scope) =>
        // The build sees only what the group keeps: the middleware its endpoints name.
        Effect.updateContext(
          Layer.buildWithMemoMap(inner, memoMap, scope),
          (context) => kept(context) as typeof context
        )
      )
    })
  )
}
