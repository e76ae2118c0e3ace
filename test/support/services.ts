/**
 * The services of another process on a test's database (the production composition, without the
 * dispatcher), for what a test arranges through them rather than through HTTP: a sign-up, a
 * participant switching offers off.
 */
import { type Effect, Layer, ManagedRuntime } from "effect"
import { makeServices } from "../../src/app.ts"
import { AppConfig } from "../../src/config.ts"
import type { TestDatabase } from "./database.ts"

const servicesOn = (database: TestDatabase) =>
  makeServices({ dispatcher: false }).pipe(
    Layer.provide(AppConfig.layerWith({ database: database.config, seedSampleCatalogue: false }))
  )

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
