/**
 * The sample catalogue shipped in `data/sample-participants.json`, loaded into an empty
 * directory at start-up so a fresh clone has participants to discover; and, in a sandbox, the
 * simulated participants.
 */
import { readFileSync } from "node:fs"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import { AppConfig } from "../config/app_config.ts"
import { ParticipantRecord } from "../domain/participant.ts"
import { simulatedParticipants } from "../domain/sandbox.ts"
import { ParticipantDirectory } from "./participant_directory.ts"

export const sampleCatalogueFile = new URL("../../data/sample-participants.json", import.meta.url)

/** Decodes a participant file (a JSON array of records), as the operator's import also does. */
export const decodeParticipants = Schema.decodeUnknownEffect(Schema.Array(ParticipantRecord))

export const loadSampleCatalogue = Effect.gen(function* () {
  const directory = yield* ParticipantDirectory
  if ((yield* directory.count) > 0) return 0
  const records = yield* decodeParticipants(JSON.parse(readFileSync(sampleCatalogueFile, "utf8")))
  const loaded = yield* directory.upsertMany(records)
  yield* Effect.logInfo("loaded the sample participant catalogue").pipe(Effect.annotateLogs({ participants: loaded }))
  return loaded
})

/**
 * Seeds the sample catalogue when configured to and the directory is empty; in a sandbox, also
 * the simulated participants, beside it (as they are: a start puts back any change made to them).
 */
export const SampleCatalogueSeed = Layer.effectDiscard(
  Effect.gen(function* () {
    const config = yield* AppConfig
    if (config.seedSampleCatalogue) yield* Effect.orDie(loadSampleCatalogue)
    if (config.sandbox) yield* Effect.orDie((yield* ParticipantDirectory).upsertMany(simulatedParticipants))
  })
)
