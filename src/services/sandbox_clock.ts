/**
 * The time of tasks. Outside a sandbox it is the service's `Clock`. In a sandbox (SANDBOX=on) it
 * is that plus an offset that only grows, moved by `POST /sandbox/clock` (or the MCP tool
 * `advance_clock`) and kept in the database, so that every process sharing it tells the same time.
 * Everything a task waits for reads it — the time a move is recorded at, offers lapsing, review
 * windows, deadlines, the simulated participants' work — so moving it moves all of them.
 *
 * Nothing else does: sign-in, tokens, sessions, rate limits, webhook retries and sweeps keep real
 * time (an access token issued now must not look expired because the sandbox's tasks are in next
 * week), and so does every wait (a sweep every second is still a second).
 *
 * The database also says whose it is (`service_mode`): a sandbox never runs on a live database,
 * nor a live service on a sandbox's, so sandbox data and real data never mix.
 */
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schedule from "effect/Schedule"
import * as SqlClient from "effect/sql/SqlClient"
import { AppConfig } from "../config/app_config.ts"
import { InvalidConfig } from "../config/load.ts"
import type { StorageUnavailable } from "../domain/errors.ts"
import { storageCallFor } from "./storage.ts"
import { TaskEvents } from "./task_events.ts"

/** How often a process reads the offset again, to follow another process's move. */
const followEvery = "1 second"

export class SandboxClock extends Context.Service<
  SandboxClock,
  {
    /** The time of tasks now, in milliseconds: the `Clock`, moved forward in a sandbox. */
    readonly now: Effect.Effect<number>
    /** How far the clock has been moved forward in all, in milliseconds. */
    readonly advancedBy: Effect.Effect<number>
    /** Moves the sandbox's time forward by `ms` for every process; gives the new time. */
    advance(ms: number): Effect.Effect<number, StorageUnavailable>
  }
>()("task-marketplace/services/SandboxClock") {
  /**
   * Checks that the database is this mode's (recording it on a new database), and in a sandbox
   * follows the stored offset. Fails start-up with `InvalidConfig` on a database of the other mode.
   */
  static readonly layer = Layer.effect(
    SandboxClock,
    Effect.gen(function* () {
      const config = yield* AppConfig
      const sql = yield* SqlClient.SqlClient
      const asStorageCall = storageCallFor(sql)
      // How far a sandbox's clock has been moved forward, in milliseconds (0 outside one).
      const offset = { ms: 0 }
      const events = yield* TaskEvents
      const mode = config.sandbox ? "sandbox" : "live"

      // Read first: every start after the first finds the row, and writes nothing.
      const modeOf = Effect.map(
        sql<{ mode: string }>`SELECT mode FROM service_mode WHERE id = 1`,
        (rows) => rows[0]?.mode
      ).pipe(Effect.orDie)
      let recorded = yield* modeOf
      if (recorded === undefined) {
        yield* sql`
          INSERT INTO service_mode (id, mode, clock_offset_ms)
          SELECT 1, ${mode}, 0 WHERE ${mode} = 'live' OR NOT EXISTS (SELECT 1 FROM tasks)
          ON CONFLICT (id) DO NOTHING
        `.pipe(Effect.orDie)
        // No row still: a sandbox found real tasks and wrote none; the database is a live one.
        recorded = (yield* modeOf) ?? "live"
      }
      if (recorded !== mode) {
        return yield* new InvalidConfig({
          variable: "SANDBOX",
          message: config.sandbox
            ? "Invalid configuration: SANDBOX: this database is a live service's (it holds real tasks); a sandbox runs on a database of its own (npm run sandbox uses ./data/sandbox.sqlite)"
            : "Invalid configuration: SANDBOX: this database is a sandbox's; run it with SANDBOX=on (npm run sandbox), and the live service on another database"
        })
      }

      const read = Effect.map(
        sql<{ clock_offset_ms: number | bigint }>`SELECT clock_offset_ms FROM service_mode WHERE id = 1`,
        (rows) => Number(rows[0]?.clock_offset_ms ?? 0)
      )
      /** Takes a stored offset; an offset only grows, so an older read never moves the clock back. */
      const follow = (ms: number) =>
        Effect.sync(() => {
          if (ms > offset.ms) offset.ms = ms
        })

      if (config.sandbox) {
        yield* Effect.flatMap(Effect.orDie(read), follow)
        // Another process's move reaches this one within a second (and at once, in that process).
        yield* Effect.flatMap(read, follow).pipe(
          Effect.ignore,
          Effect.repeat(Schedule.spaced(followEvery)),
          Effect.forkScoped
        )
      }

      const advance = Effect.fn("SandboxClock.advance")(function* (ms: number) {
        const rows = yield* asStorageCall(
          sql<{ clock_offset_ms: number | bigint }>`
            UPDATE service_mode SET clock_offset_ms = clock_offset_ms + ${ms} WHERE id = 1
            RETURNING clock_offset_ms
          `
        )
        yield* follow(Number(rows[0]?.clock_offset_ms ?? 0))
        // What fell due with the move is made now (other processes follow within a second).
        yield* events.dueNow
        return yield* now
      })
      const now = config.sandbox ? Effect.map(Clock.currentTimeMillis, (ms) => ms + offset.ms) : Clock.currentTimeMillis

      return SandboxClock.of({
        now,
        advancedBy: Effect.sync(() => offset.ms),
        advance
      })
    })
  )

  /** The same with the services of ours it needs (the database and `AppConfig` still to give). */
  static readonly layerWithDependencies = SandboxClock.layer.pipe(Layer.provide([TaskEvents.layer]))
}
