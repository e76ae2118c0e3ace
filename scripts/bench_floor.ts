/**
 * The benchmark's second reference: the stack's floor. The same recorded answers as the
 * `node:http` ceiling, served through what the service is built on — Effect's HttpApi, router and
 * Node server, with the service's router settings — and nothing of the service: no middleware, no
 * logging, no storage. Service ÷ floor is what the service's own code costs; floor ÷ ceiling is
 * what the stack costs before any of it runs.
 *
 * Started by `scripts/bench.ts` with PORT and BENCH_ANSWERS (the recorded answers, as JSON).
 */
import { createServer } from "node:http"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as Effect from "effect/Effect"
import { HttpRouter, type HttpServerRequest, HttpServerResponse } from "effect/http"
import { HttpApi, HttpApiBuilder, HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import { routerConfig } from "../src/http/routes.ts"

interface Answer {
  readonly status: number
  readonly body: string
  readonly headers: Record<string, string>
}
const answers: Record<string, Answer> = JSON.parse(process.env.BENCH_ANSWERS ?? "{}")

const prefix = "/api/public/v1"
const Api = HttpApi.make("floor").add(
  HttpApiGroup.make("floor", { topLevel: true }).add(
    HttpApiEndpoint.get("getTask", `${prefix}/tasks/:reference`, { params: { reference: Schema.String } }),
    HttpApiEndpoint.post("preflight", `${prefix}/preflight`),
    HttpApiEndpoint.post("createTask", `${prefix}/tasks`),
    HttpApiEndpoint.get("listParticipants", `${prefix}/participants`, {
      query: { q: Schema.optionalKey(Schema.String) }
    })
  )
)

/** The recorded answer for a request (the 304 one when it revalidates), after reading its body. */
const answer = (request: HttpServerRequest.HttpServerRequest, key: string) =>
  Effect.map(request.method === "POST" ? Effect.orDie(request.text) : Effect.succeed(""), () => {
    const found = (request.headers["if-none-match"] === undefined ? undefined : answers[`${key} 304`]) ?? answers[key]
    if (found === undefined) return HttpServerResponse.empty({ status: 404 })
    return found.status === 304
      ? HttpServerResponse.empty({ status: 304, headers: found.headers })
      : HttpServerResponse.text(found.body, {
          status: found.status,
          contentType: "application/json",
          headers: found.headers
        })
  })

const Handlers = HttpApiBuilder.group(Api, "floor", (handlers) =>
  handlers
    .handleRaw("getTask", ({ request }) => answer(request, `GET ${prefix}/tasks/{reference}`))
    .handleRaw("preflight", ({ request }) => answer(request, `POST ${prefix}/preflight`))
    .handleRaw("createTask", ({ request }) => answer(request, `POST ${prefix}/tasks`))
    .handleRaw("listParticipants", ({ request }) => answer(request, `GET ${prefix}/participants`))
)

const routes = HttpApiBuilder.layer(Api).pipe(Layer.provide(Handlers))
const server = HttpRouter.serve(routes, { disableLogger: true, disableListenLog: true, routerConfig }).pipe(
  Layer.provide(
    NodeHttpServer.layer(() => createServer(), {
      port: Number(process.env.PORT),
      host: "127.0.0.1"
    })
  )
)
NodeRuntime.runMain(Layer.launch(server))
