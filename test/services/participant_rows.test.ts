// Participant rows are decoded by their Schema where they enter memory: a damaged row is logged,
// left out of the directory's snapshot (everyone else is still matched), and a defect when read alone.
import { assert, describe, layer } from "@effect/vitest"
import { Cause, Effect, Exit, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { StorageUnavailable } from "../../src/domain/errors.ts"
import { ParticipantDirectory } from "../../src/services/participant_directory.ts"
import { TestSqlLayer } from "../support/database.ts"
import { plainParticipant } from "../support/directory.ts"
import { captureLogs } from "../support/logs.ts"

const { lines: logged, layer: capture } = captureLogs()

const participant = plainParticipant

describe("participant rows that do not decode", () => {
  layer(ParticipantDirectory.layer.pipe(Layer.provideMerge(TestSqlLayer)))((it) => {
    it.effect("are left out of the directory and logged; read alone, a logged defect", () =>
      Effect.gen(function* () {
        const directory = yield* ParticipantDirectory
        const sql = yield* SqlClient.SqlClient
        yield* directory.upsertMany([participant("sound-one"), participant("damaged-one")])
        yield* sql`UPDATE participants SET tags = ${'"not a list"'} WHERE slug = ${"damaged-one"}`
        // The snapshot is read again only when the directory's version moves.
        yield* sql`UPDATE directory_state SET version = version + 1 WHERE id = 1`
        logged.length = 0
        const everyone = yield* directory.everyone.pipe(Effect.provide(capture))
        assert.deepStrictEqual(everyone, [participant("sound-one")])
        assert.strictEqual(logged[0]?.message, "a stored row does not decode; left out")
        assert.strictEqual(logged[0]?.annotations.table, "participants")
        assert.strictEqual(logged[0]?.annotations.key, "slug damaged-one")
        assert.include(String(logged[0]?.annotations.issue), "tags")

        logged.length = 0
        const alone = yield* Effect.exit(directory.findBySlug("damaged-one").pipe(Effect.provide(capture)))
        assert.isTrue(Exit.hasDies(alone))
        assert.strictEqual(logged[0]?.message, "a stored row does not decode")
        assert.strictEqual(logged[0]?.annotations.key, "slug damaged-one")
        assert.deepStrictEqual(yield* directory.findBySlug("sound-one"), participant("sound-one"))
        assert.strictEqual(yield* directory.count, 2)
      })
    )

    it.effect("storage that fails is StorageUnavailable, not a defect, for a count as for a read", () =>
      Effect.gen(function* () {
        const directory = yield* ParticipantDirectory
        const sql = yield* SqlClient.SqlClient
        yield* sql`ALTER TABLE participants RENAME TO participants_away`
        const counted = yield* Effect.exit(directory.count)
        const read = yield* Effect.exit(directory.findBySlug("sound-one"))
        yield* sql`ALTER TABLE participants_away RENAME TO participants`
        const storageFailed = (exit: Exit.Exit<unknown, unknown>) =>
          Exit.isFailure(exit) && !Exit.hasDies(exit) && Cause.squash(exit.cause) instanceof StorageUnavailable
        assert.isTrue(storageFailed(counted))
        assert.isTrue(storageFailed(read))
      })
    )
  })
})
