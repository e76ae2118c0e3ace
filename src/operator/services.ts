/**
 * The services the operator tool uses: the server's (`CommandServicesLayer` in app.ts), over the
 * same configured database — migrated, and seeded with the sample catalogue when the server would
 * be — but without the workers: a one-shot command makes only the move it was asked for, never the
 * service's own moves (offers, timeouts) on tasks that happen to be due.
 */
import { CommandServicesLayer } from "../app.ts"

export const OperatorServicesLayer = CommandServicesLayer
