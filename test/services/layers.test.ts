// Each service's `layerWithDependencies` is complete: built over nothing but a database and the
// settings, it gives its service. And the open composition root: a command's services with one
// repository swapped (a store that cannot be reached) use the replacement, the rest as usual.
import { assert, describe, it } from "@effect/vitest"
import { Effect, Exit, Layer } from "effect"
import { StorageUnavailable } from "../../src/domain/errors.ts"
import { AgentOperations } from "../../src/operations/agent.ts"
import { ConsoleSignIn } from "../../src/operations/console_sign_in.ts"
import { ParticipantOperations } from "../../src/operations/participant.ts"
import { AccessTokens } from "../../src/services/access_tokens.ts"
import { Artifacts } from "../../src/services/artifacts.ts"
import { Dispatcher } from "../../src/services/dispatcher.ts"
import { Lifecycle } from "../../src/services/lifecycle.ts"
import { Logins } from "../../src/services/logins/service.ts"
import { Profiles } from "../../src/services/profiles.ts"
import { SandboxClock } from "../../src/services/sandbox_clock.ts"
import { Simulator } from "../../src/services/simulator.ts"
import { TaskActions } from "../../src/services/task_actions.ts"
import { TaskMessages } from "../../src/services/task_messages.ts"
import { Tasks } from "../../src/services/tasks.ts"
import { TestSqlLayer } from "../support/database.ts"
import { commandServicesWith } from "../support/services.ts"
import { testConfig } from "../support/settings.ts"
import { taskStoreReplacing } from "../support/stores.ts"

/** Builds `layer` over a fresh database and the test settings, and runs `check` with what it gives. */
const over = <A, E, R extends Layer.Success<typeof TestSqlLayer> | Layer.Success<ReturnType<typeof testConfig>>, B>(
  layer: Layer.Layer<A, E, R>,
  check: Effect.Effect<B, never, A>
) =>
  Effect.scoped(
    Effect.flatMap(
      Layer.build(layer.pipe(Layer.provide(TestSqlLayer), Layer.provide(testConfig({ seedSampleCatalogue: false })))),
      (context) => Effect.provide(check, context)
    )
  )

describe("layerWithDependencies", () => {
  const cases = [
    [
      "AccessTokens",
      over(
        AccessTokens.layerWithDependencies,
        AccessTokens.useSync((service) => service)
      )
    ],
    [
      "Artifacts",
      over(
        Artifacts.layerWithDependencies,
        Artifacts.useSync((service) => service)
      )
    ],
    [
      "SandboxClock",
      over(
        SandboxClock.layerWithDependencies,
        SandboxClock.useSync((service) => service)
      )
    ],
    [
      "Lifecycle",
      over(
        Lifecycle.layerWithDependencies,
        Lifecycle.useSync((service) => service)
      )
    ],
    [
      "Logins",
      over(
        Logins.layerWithDependencies,
        Logins.useSync((service) => service)
      )
    ],
    [
      "Profiles",
      over(
        Profiles.layerWithDependencies,
        Profiles.useSync((service) => service)
      )
    ],
    [
      "TaskActions",
      over(
        TaskActions.layerWithDependencies,
        TaskActions.useSync((service) => service)
      )
    ],
    [
      "TaskMessages",
      over(
        TaskMessages.layerWithDependencies,
        TaskMessages.useSync((service) => service)
      )
    ],
    [
      "Tasks",
      over(
        Tasks.layerWithDependencies,
        Tasks.useSync((service) => service)
      )
    ],
    [
      "Dispatcher",
      over(
        Dispatcher.layerWithDependencies,
        Dispatcher.useSync((service) => service)
      )
    ],
    [
      "Simulator",
      over(
        Simulator.layerWithDependencies,
        Simulator.useSync((service) => service)
      )
    ],
    [
      "AgentOperations",
      over(
        AgentOperations.layerWithDependencies,
        AgentOperations.useSync((service) => service)
      )
    ],
    [
      "ParticipantOperations",
      over(
        ParticipantOperations.layerWithDependencies,
        ParticipantOperations.useSync((service) => service)
      )
    ],
    [
      "ConsoleSignIn",
      over(
        ConsoleSignIn.layerWithDependencies,
        ConsoleSignIn.useSync((service) => service)
      )
    ]
  ] as ReadonlyArray<readonly [string, Effect.Effect<unknown, unknown>]>
  for (const [name, build] of cases) {
    // That it builds over the database and the settings alone is the check (a built service is never undefined).
    it.live(`${name} needs only the database and the settings`, () => Effect.asVoid(build))
  }
})

describe("the composition root, one repository swapped", () => {
  const down = () => Effect.fail(new StorageUnavailable({ cause: "the store is down (test)" }))
  const UnreachableStore = taskStoreReplacing(() => ({ forParticipant: down }))
  const caller = { subject: "login-1", slug: "someone" }

  const board = (services: Layer.Layer<ParticipantOperations, unknown, Layer.Success<typeof TestSqlLayer>>) =>
    Effect.scoped(
      Effect.flatMap(Layer.build(services.pipe(Layer.provide(TestSqlLayer))), (context) =>
        Effect.exit(
          Effect.provide(
            ParticipantOperations.use((ops) => ops.board(caller)),
            context
          )
        )
      )
    )

  it.live("the operations read through the replacement", () =>
    Effect.gen(function* () {
      const settings = testConfig({ seedSampleCatalogue: false })
      const swapped = yield* board(commandServicesWith(UnreachableStore).pipe(Layer.provide(settings)))
      assert.isTrue(Exit.isFailure(swapped))
      const usual = yield* board(commandServicesWith(Layer.empty).pipe(Layer.provide(settings)))
      assert.deepStrictEqual(usual, Exit.succeed([]))
    })
  )
})
