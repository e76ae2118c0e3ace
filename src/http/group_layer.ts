/**
 * A group of the API's handlers as a layer, built so that a request runs in its own context.
 *
 * HttpApi runs an endpoint's handler in the context its group's layer was built in, merged over the
 * request's own (`HttpApiBuilder.group` keeps the whole build context). The request's own context
 * holds everything a handler may use at request time (by type, a handler needs only its endpoint's
 * middlewares and the request's services), so the build's context adds nothing there, and costs:
 * merged into every request, the application's services cost every poll a copy of them
 * (docs/performance.md), and its tracing references overrode what the request decided for itself
 * (server_span.ts).
 *
 * So `make` reads the services the handlers close over when the layer is built and returns the
 * group (`HttpApiBuilder.group`), and the group is built in a context holding only the API's
 * middlewares, which HttpApi looks up when it builds each endpoint.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import type * as HttpApi from "effect/http-api/HttpApi"
import * as HttpApiBuilder from "effect/http-api/HttpApiBuilder"
import type * as HttpApiGroup from "effect/http-api/HttpApiGroup"
import * as Layer from "effect/Layer"
import type * as Scope from "effect/Scope"
import { MarketplaceApi } from "../api/api.ts"

type Groups = typeof MarketplaceApi extends HttpApi.HttpApi<string, infer G> ? G : never
type Group = HttpApiGroup.Identifier<Groups>

/** The middlewares of a group's endpoints: all its build must find in its context. */
const middlewaresOf = (id: Group) => [
  ...new Set(Object.values(MarketplaceApi.groups[id].endpoints).flatMap((endpoint) => [...endpoint.middlewares]))
]

type HandlersOf<Id extends Group> = HttpApiBuilder.Handlers.FromGroup<HttpApiGroup.WithIdentifier<Groups, Id>>
type Validated<Return> = HttpApiBuilder.Handlers.ValidateReturn<Return>

/**
 * The group `id`, its handlers registered by the function `make` returns. A group that leaves an
 * endpoint without a handler does not compile: the call then asks for a third argument whose type
 * names the endpoint.
 */
export const handlersLayer = <const Id extends Group, Return, E, R>(
  id: Id,
  make: Effect.Effect<(handlers: HandlersOf<Id>) => Return, E, R>,
  ..._everyEndpointHandled: [Validated<Return>] extends [Return] ? [] : [missing: Validated<Return>]
): Layer.Layer<
  HttpApiGroup.Service<typeof MarketplaceApi.identifier, Id>,
  E | HttpApiBuilder.Handlers.Error<Return>,
  R | Exclude<HttpApiBuilder.Handlers.Context<Return>, Scope.Scope>
> => {
  const onlyMiddlewares = Context.pick(...middlewaresOf(id))
  return Layer.unwrap(
    Effect.map(make, (register) => {
      // The generic group type is too wide for HttpApi's own inference; the result's type is stated.
      const group = HttpApiBuilder.group(MarketplaceApi, id, register as never) as Layer.Layer<
        HttpApiGroup.Service<typeof MarketplaceApi.identifier, Id>,
        HttpApiBuilder.Handlers.Error<Return>,
        Exclude<HttpApiBuilder.Handlers.Context<Return>, Scope.Scope>
      >
      return Layer.fromBuild((memoMap, scope) =>
        Effect.updateContext(
          Layer.buildWithMemoMap(group, memoMap, scope),
          (context: Context.Context<Exclude<HttpApiBuilder.Handlers.Context<Return>, Scope.Scope>>) =>
            onlyMiddlewares(context)
        )
      )
    })
  )
}
