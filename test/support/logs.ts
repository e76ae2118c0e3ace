/**
 * Log lines captured in memory: what a test provides `layer` to logs into `lines` (the message
 * and the annotations in force), for assertions on what the service said.
 */
import { Logger, References } from "effect"

export interface CapturedLine {
  readonly level: string
  readonly message: unknown
  readonly annotations: Readonly<Record<string, unknown>>
}

export const captureLogs = () => {
  const lines: Array<CapturedLine> = []
  const layer = Logger.layer([
    Logger.make(({ logLevel, message, fiber }) => {
      lines.push({
        level: logLevel,
        message: Array.isArray(message) ? message[0] : message,
        annotations: { ...fiber.getRef(References.CurrentLogAnnotations) }
      })
    })
  ])
  return { lines, layer }
}
