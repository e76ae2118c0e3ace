/**
 * Commit marks: how a reader tells, without asking the database, that nothing was committed since
 * it last read. The database layer provides them (sql/database.ts); services consume them.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import { versionedCache } from "../read_cache.ts"

/**
 * Whether anything was committed to the database since an earlier moment, told without asking the
 * database: `mark()` returns a number that stays the same while nothing is committed, by any
 * process sharing the database, and changes with every commit, or `undefined` when this database
 * cannot tell. A read remembered with the mark taken just before it is still current while the
 * mark is the same. The embedded SQLite file gives marks (sql/NodeSqliteClient.ts, from its WAL
 * index); Postgres gives none: another process's commit reaches this one only through a query.
 */
export const CommitMarks = Context.Reference<{ readonly mark: () => number | undefined }>(
  "task-marketplace/sql/CommitMarks",
  { defaultValue: () => ({ mark: () => undefined }) }
)

/**
 * `read`, remembered per key at the commit mark taken just before it ran: served again while the
 * mark stands (nothing committed since, by any process), read again once it moves, and read every
 * time where the database gives no marks. At most `budget` keys are kept, the least recently used
 * let go first (`versionedCache`). For a value that only a commit can change (a task's version, a
 * stored row); values may be null (a row that is not there) but not undefined.
 */
export const readAtMark = <K, V extends {} | null, E, R>(
  marks: { readonly mark: () => number | undefined },
  budget: number,
  read: (key: K) => Effect.Effect<V, E, R>
): ((key: K) => Effect.Effect<V, E, R>) => {
  const kept = versionedCache<K, V>({ budget })
  return (key) => {
    const mark = marks.mark()
    if (mark === undefined) return read(key)
    const remembered = kept.get(key, mark)
    if (remembered !== undefined) return Effect.succeed(remembered)
    return Effect.map(read(key), (value) => {
      kept.set(key, mark, value)
      return value
    })
  }
}
