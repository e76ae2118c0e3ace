/**
 * oidc-provider's storage adapter over `OAuthRecords` (src/services/oauth_records.ts): the library
 * makes one per model ("Client", "Grant", "AuthorizationCode", "RefreshToken", "Session", …) and
 * calls it with promises; each call runs the service's Effect with the services it was built with.
 */
import type * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import type { Adapter, AdapterPayload } from "oidc-provider"
import { OAuthRecords } from "../services/oauth_records.ts"

/**
 * The adapter class for a provider. `lostRace` is the library's own `InvalidGrant`, thrown when
 * a code or refresh token was consumed by a concurrent request first: the library then answers
 * `invalid_grant`, as it does for one consumed before.
 */
export const adapterFor = (services: Context.Context<OAuthRecords>, lostRace: () => Error) => {
  const run = <A, E>(effect: Effect.Effect<A, E, OAuthRecords>): Promise<A> => Effect.runPromiseWith(services)(effect)
  const records = <A, E>(use: (records: OAuthRecords["Service"]) => Effect.Effect<A, E>) => run(OAuthRecords.use(use))

  return class DatabaseAdapter implements Adapter {
    readonly model: string
    constructor(model: string) {
      this.model = model
    }
    async upsert(id: string, payload: AdapterPayload, expiresIn?: number) {
      await records((r) => r.upsert(this.model, id, payload as Record<string, unknown>, expiresIn))
    }
    async find(id: string) {
      return (await records((r) => r.find(this.model, id))) as AdapterPayload | undefined
    }
    async findByUid(uid: string) {
      return (await records((r) => r.findByUid(this.model, uid))) as AdapterPayload | undefined
    }
    async findByUserCode(userCode: string) {
      return (await records((r) => r.findByUserCode(this.model, userCode))) as AdapterPayload | undefined
    }
    async consume(id: string) {
      if (!(await records((r) => r.consume(this.model, id)))) throw lostRace()
    }
    async destroy(id: string) {
      await records((r) => r.destroy(this.model, id))
    }
    async revokeByGrantId(grantId: string) {
      await records((r) => r.revokeByGrantId(grantId))
    }
  }
}
