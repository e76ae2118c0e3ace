/**
 * The app's services composed for tests from the pieces of the open composition root
 * (src/app.ts): the server's or a command's, with a replacement put over the repository it
 * replaces (a failing `TaskStore`, a directory that steps, …); and the services of another process
 * on a test's database (the command's composition, without the workers), for what a test arranges
 * through them rather than through HTTP: a sign-up, a participant switching offers off.
 */
import { type Effect, Layer, ManagedRuntime } from "effect"
import {
  CommandServicesLayer,
  OperationsLayer,
  RepositoriesLayer,
  ServicesLayer,
  StorageLayer,
  WorkersLayer
} from "../../src/app.ts"
import type { AppConfig } from "../../src/config/app_config.ts"
import type { TestDatabase } from "./database.ts"
import { testConfig } from "./settings.ts"

/** What a replacement may need: the database and the settings. */
export type Storage = Layer.Success<typeof StorageLayer> | AppConfig

/** The repositories with `replacement` over the ones it provides (the others are built as usual). */
const repositoriesWith = <A, E>(replacement: Layer.Layer<A, E, Storage>) => Layer.merge(RepositoriesLayer, replacement)

/** The server's services (with the workers), `replacement` over the repositories it replaces. */
export const serverServicesWith = <A, E>(replacement: Layer.Layer<A, E, Storage>) =>
  Layer.mergeAll(OperationsLayer, WorkersLayer).pipe(
    Layer.provideMerge(ServicesLayer),
    Layer.provideMerge(repositoriesWith(replacement)),
    Layer.provideMerge(StorageLayer)
  )

/** A command's services (no workers), `replacement` over the repositories it replaces. */
export const commandServicesWith = <A, E>(replacement: Layer.Layer<A, E, Storage>) =>
  OperationsLayer.pipe(
    Layer.provideMerge(ServicesLayer),
    Layer.provideMerge(repositoriesWith(replacement)),
    Layer.provideMerge(StorageLayer)
  )

const servicesOn = (database: TestDatabase) =>
  CommandServicesLayer.pipe(Layer.provide(testConfig({ database: database.config, seedSampleCatalogue: false })))

export type OtherProcessServices = Layer.Success<ReturnType<typeof servicesOn>>

/** Those services, built once: run effects with `runPromise`, and `dispose` them at the end. */
export const otherProcessOn = (database: TestDatabase) => ManagedRuntime.make(servicesOn(database))

/** Runs `effect` with those services, built for it and closed after it. */
export const withServicesOn = async <A, E>(
  database: TestDatabase,
  effect: Effect.Effect<A, E, OtherProcessServices>
): Promise<A> => {
  const runtime = otherProcessOn(database)
  try {
    return await runtime.runPromise(effect)
  } finally {
    await runtime.dispose()
  }
}
