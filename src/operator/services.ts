/**
 * The services the operator tool uses: the server's (`makeServices` in app.ts), over the same
 * configured database — migrated, and seeded with the sample catalogue when the server would be —
 * but without the dispatcher: a one-shot command makes only the move it was asked for, never the
 * service's own moves (offers, timeouts) on tasks that happen to be due.
 */
import { makeServices } from "../app.ts"

export const OperatorServicesLive = makeServices({ dispatcher: false })
