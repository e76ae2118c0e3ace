/**
 * Commit marks: how a reader tells, without asking the database, that nothing was committed since
 * it last read. The database layer provides them (sql/database.ts); services consume them.
 */
import * as Context from "effect/Context"

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
