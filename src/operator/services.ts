/**
 * The services the operator tool uses: the server's (`makeServices` in app.ts), over the same
 * configured database — migrated, and seeded with the sample catalogue when the server would be —
 * but without the dispatcher: a one-shot command makes only the move it was asked for, never the
 * service's own moves (offers, timeouts) on tasks that happen to be due. With them, participant
 * logins (`Logins`: invitations and resets), over the same database.
 */
import * as Layer from "effect/Layer"
import { makeServices } from "../app.ts"
import { AttemptLimits } from "../services/attempt_limits.ts"
import { Logins } from "../services/logins.ts"
import { Passwords } from "../services/passwords.ts"

export const OperatorServicesLive = Logins.layer.pipe(
  Layer.provide(Layer.mergeAll(Passwords.layer, AttemptLimits.layer)),
  Layer.provideMerge(makeServices({ dispatcher: false }))
)
