/**
 * The services over a fresh test database (the production composition, without the dispatcher),
 * for tests of the operations (test/operations/): REST, MCP and the console are adapters over
 * them, so these tests call the operations directly, with no transport. Also how a refusal is
 * checked there: its tag, and what the edge's one mapping makes of it (status, code, body).
 */
import { assert } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { type EnvelopedRefusal, type ErrorBody, type ErrorStatus, toEnvelope } from "../../src/api/envelope.ts"
import { freshDatabase } from "./database.ts"
import { commandServicesWith, type Storage } from "./services.ts"
import { testConfig } from "./settings.ts"

/** Where the tests' envelopes say their codes are documented. */
export const docsUrl = "https://docs.example/marketplace"

/**
 * The services over a database made for the layer and dropped with it; `replacement` goes over
 * the repository it replaces (e.g. a task store whose storage is down).
 */
export const operationsOn = <A, E>(replacement: Layer.Layer<A, E, Storage>) =>
  Layer.unwrap(
    Effect.gen(function* () {
      const database = yield* Effect.acquireRelease(Effect.promise(freshDatabase), (db) => Effect.promise(db.drop))
      return commandServicesWith(replacement).pipe(
        Layer.provide(testConfig({ database: database.config, seedSampleCatalogue: false, docsUrl }))
      )
    })
  )

/** The services as production composes them. */
export const OperationsLayer = operationsOn(Layer.empty)

/**
 * The failure of `effect`, which must be the refusal tagged `tag`, and its envelope as the edge
 * answers it: the status and code asserted, the body returned for what a test adds.
 */
export const refusalOf = <A, E extends EnvelopedRefusal, R, Tag extends E["_tag"]>(
  effect: Effect.Effect<A, E, R>,
  tag: Tag,
  status: ErrorStatus,
  code: string
) =>
  Effect.gen(function* () {
    const failure = yield* Effect.flip(effect)
    assert.strictEqual(failure._tag, tag)
    const envelope = toEnvelope(docsUrl)(failure)
    const body: ErrorBody = envelope.error
    assert.strictEqual(body.status, status)
    assert.strictEqual(body.code, code)
    assert.strictEqual(body.documentation_url, `${docsUrl}#error-${code}`)
    return { failure: failure as Extract<E, { readonly _tag: Tag }>, body }
  })
