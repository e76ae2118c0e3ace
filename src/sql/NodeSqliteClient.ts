/**
 * A small `SqlClient` driver for SQLite over Node's built-in `node:sqlite`.
 *
 * Why this exists: no Effect 4 SQLite driver is published yet, and
 * `node:sqlite` needs no native add-on. It is assembled from effect/sql's own
 * building blocks (`SqlClient.make`, `SqlClient.makeSqliteAcquirers`,
 * `Statement.makeCompilerSqlite`, `SqlError.classifySqliteError`), so the
 * tagged-template SQL, transactions and error reasons behave like the other
 * effect/sql drivers. Replace it with the official `@effect/sql-sqlite-node`
 * once a stable 4.x release of that package exists.
 *
 * Behaviour:
 * - One connection, shared through a semaphore: a transaction holds it until
 *   it ends, so concurrent fibers never run statements inside someone else's
 *   transaction. Writable transactions start with `BEGIN IMMEDIATE`.
 * - File databases get their parent directory created, WAL journal mode, a
 *   busy timeout (default 5000 ms, blocking the event loop while it waits,
 *   because `node:sqlite` is synchronous) and `foreign_keys = ON`.
 * - Parameters: `Date` binds as an ISO-8601 string, `undefined` as NULL,
 *   booleans as 1/0, other plain objects/arrays as JSON text.
 * - Errors are classified by `SqlError.classifySqliteError`; a duplicate key
 *   (UNIQUE or PRIMARY KEY) fails with reason `UniqueViolation`, as on Postgres.
 * - Rows come back as plain objects; integers above 2^53 are read as `bigint`
 *   when `SqlClient.SafeIntegers` is set (otherwise SQLite fails the query).
 * - The connection is closed when the scope of `make` / `layer` closes.
 * - `commitMark` tells, without a statement, whether anything was committed to a
 *   WAL database file since an earlier mark, by any connection of any process.
 */
import { closeSync, mkdirSync, openSync, readSync } from "node:fs"
import { dirname } from "node:path"
import type { SQLInputValue, SQLOutputValue, StatementSync } from "node:sqlite"
import { DatabaseSync } from "node:sqlite"
import * as Cause from "effect/Cause"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Reactivity from "effect/reactivity/Reactivity"
import type * as Scope from "effect/Scope"
import * as Semaphore from "effect/Semaphore"
import * as Stream from "effect/Stream"
import * as SqlClient from "effect/sql/SqlClient"
import type * as SqlConnection from "effect/sql/SqlConnection"
import * as SqlError from "effect/sql/SqlError"
import * as Statement from "effect/sql/Statement"

/**
 * Configuration of the SQLite client.
 */
export interface NodeSqliteClientConfig {
  /** Path of the database file (its directory is created if missing), or `:memory:`. */
  readonly filename: string
  /** Open the database read-only (no directory creation, no WAL switch). */
  readonly readonly?: boolean
  /** How long SQLite waits on a locked database before failing. Defaults to 5000 ms. */
  readonly busyTimeoutMs?: number
  readonly spanAttributes?: Record<string, unknown>
  /** Applied to the column names of result rows, e.g. snake_case → camelCase. */
  readonly transformResultNames?: (s: string) => string
  /** Applied to identifiers in queries, e.g. camelCase → snake_case. */
  readonly transformQueryNames?: (s: string) => string
}

/**
 * The driver-specific service, provided by `layer` next to `SqlClient.SqlClient`.
 */
export class NodeSqliteClient extends Context.Service<
  NodeSqliteClient,
  {
    readonly sql: SqlClient.SqlClient
    readonly config: NodeSqliteClientConfig
    /** Whether the underlying connection is still open. */
    readonly isOpen: Effect.Effect<boolean>
    /**
     * A number that stays the same while nothing is committed to the database, by any connection
     * of any process, and changes with every commit; `undefined` when this database cannot tell
     * (in memory, read-only, not in WAL mode). See `makeCommitMarks`.
     */
    readonly commitMark: () => number | undefined
  }
>()("task-marketplace/sql/NodeSqliteClient") {}

const DEFAULT_BUSY_TIMEOUT_MS = 5000
const MAX_BUSY_TIMEOUT_MS = 2_147_483_647
const STATEMENT_CACHE_SIZE = 200
const STREAM_CHUNK_SIZE = 128

type Rows = ReadonlyArray<Record<string, unknown>>
type StreamChunk = readonly [Record<string, unknown>, ...Array<Record<string, unknown>>]
type TransformRows = (<A extends object>(rows: ReadonlyArray<A>) => ReadonlyArray<A>) | undefined

interface CachedStatement {
  readonly statement: StatementSync
  /** Whether the statement returns rows (a SELECT, or anything with RETURNING). */
  readonly reader: boolean
}

const isMemoryDatabase = (filename: string): boolean =>
  filename === "" ||
  filename === ":memory:" ||
  filename.startsWith("file::memory:") ||
  /[?&]mode=memory(&|$)/.test(filename)

const errorMessage = (cause: unknown, fallback: string): string =>
  typeof cause === "object" && cause !== null && "message" in cause && typeof cause.message === "string"
    ? cause.message
    : fallback

/**
 * `node:sqlite` puts the extended SQLite result code in `errcode` (its `code`
 * is always `ERR_SQLITE_ERROR`), while `classifySqliteError` reads `errno`.
 */
const withErrno = (cause: unknown): unknown => {
  if (typeof cause === "object" && cause !== null && "errcode" in cause && typeof cause.errcode === "number") {
    if (!("errno" in cause) || typeof cause.errno !== "number") {
      return Object.assign(cause, { errno: cause.errcode })
    }
  }
  return cause
}

/** Extended result code of a PRIMARY KEY violation; the classifier only treats `SQLITE_CONSTRAINT_UNIQUE` (2067) as unique. */
const SQLITE_CONSTRAINT_PRIMARYKEY = 1555
const UNIQUE_FAILED = "UNIQUE constraint failed:"

const toSqlError = (cause: unknown, operation: string): SqlError.SqlError => {
  const message = errorMessage(cause, `Failed to ${operation}`)
  const withCode = withErrno(cause)
  if (
    typeof withCode === "object" &&
    withCode !== null &&
    "errno" in withCode &&
    withCode.errno === SQLITE_CONSTRAINT_PRIMARYKEY
  ) {
    // A duplicate primary key is a unique violation, as on Postgres (23505).
    const index = message.indexOf(UNIQUE_FAILED)
    const constraint = index === -1 ? "" : message.slice(index + UNIQUE_FAILED.length).trim()
    return new SqlError.SqlError({
      reason: new SqlError.UniqueViolation({ cause, message, operation, constraint: constraint || "unknown" })
    })
  }
  return new SqlError.SqlError({ reason: SqlError.classifySqliteError(withCode, { message, operation }) })
}

const closedError = (operation: string): SqlError.SqlError =>
  new SqlError.SqlError({
    reason: new SqlError.ConnectionError({
      cause: new Error("The SQLite connection is closed"),
      message: "The SQLite connection is closed",
      operation
    })
  })

/** Converts a JavaScript value into something `node:sqlite` binds the way Postgres drivers would. */
const toSqliteValue = (value: unknown): SQLInputValue => {
  switch (typeof value) {
    case "string":
    case "number":
    case "bigint":
      return value
    case "boolean":
      return value ? 1 : 0
    case "undefined":
      return null
    case "object":
      if (value === null) return null
      if (value instanceof Date) return value.toISOString()
      if (ArrayBuffer.isView(value)) return value as NodeJS.ArrayBufferView
      // A plain object as the first argument would be taken as named parameters.
      return JSON.stringify(value)
    default:
      throw new TypeError(`Cannot bind a value of type ${typeof value} to a SQLite parameter`)
  }
}

const toSqliteParams = (params: ReadonlyArray<unknown>): Array<SQLInputValue> => {
  const out = new Array<SQLInputValue>(params.length)
  for (let i = 0; i < params.length; i++) {
    out[i] = toSqliteValue(params[i])
  }
  return out
}

/** `node:sqlite` rows have a null prototype; copy them into plain objects (spread, so a `__proto__` column stays data). */
const toPlainRows = (rows: ReadonlyArray<Record<string, SQLOutputValue>>): Array<Record<string, unknown>> => {
  const out = new Array<Record<string, unknown>>(rows.length)
  for (let i = 0; i < rows.length; i++) {
    out[i] = { ...rows[i] }
  }
  return out
}

const openDatabase = (config: NodeSqliteClientConfig): DatabaseSync => {
  const { filename } = config
  const readOnly = config.readonly === true
  const isFile = !isMemoryDatabase(filename)
  if (isFile && !readOnly && !filename.startsWith("file:")) {
    mkdirSync(dirname(filename), { recursive: true })
  }
  const db = new DatabaseSync(filename, { readOnly })
  try {
    const requested = config.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS
    const busyTimeout = Number.isNaN(requested)
      ? DEFAULT_BUSY_TIMEOUT_MS
      : Math.min(MAX_BUSY_TIMEOUT_MS, Math.max(0, Math.round(requested)))
    db.exec(`PRAGMA busy_timeout = ${busyTimeout}`)
    db.exec("PRAGMA foreign_keys = ON")
    if (isFile && !readOnly) {
      db.exec("PRAGMA journal_mode = WAL")
    }
  } catch (cause) {
    db.close()
    throw cause
  }
  return db
}

/** The two copies of the WAL-index header at the start of the `-shm` file (48 bytes each). */
const walIndexHeaderBytes = 96

/**
 * Marks of the commits to a WAL database, read from the WAL-index header in its `-shm` file
 * (https://sqlite.org/walformat.html, section 2.5): every connection that commits rewrites that
 * header (its change counter, the WAL's last frame, the frames' checksum) before the commit is
 * visible to any reader, and nothing but a commit, a WAL restart or a recovery rewrites it. So a mark equal to
 * an earlier one means no commit in between, by any process sharing the file; a mark read while a
 * commit writes the header only differs, which costs a needless read, never a stale one. One
 * `pread` of 96 bytes instead of a statement. Memory, read-only and non-WAL databases (and
 * exclusive locking mode, whose WAL index is not in the file) give no marks.
 */
const makeCommitMarks = (filename: string, db: DatabaseSync, readOnly: boolean): CommitMarkReader => {
  const none = { mark: () => undefined, close: () => {} }
  if (isMemoryDatabase(filename) || readOnly || filename.startsWith("file:")) return none
  const pragma = (name: string) => String(Object.values(db.prepare(`PRAGMA ${name}`).get() ?? {})[0] ?? "")
  if (pragma("journal_mode").toLowerCase() !== "wal" || pragma("locking_mode").toLowerCase() !== "normal") return none
  let fd: number | undefined
  const seen = Buffer.alloc(walIndexHeaderBytes)
  const read = Buffer.alloc(walIndexHeaderBytes)
  let marks = 0
  // When the file cannot be opened, no mark (each caller then reads) and no new attempt for a second.
  let openAgainAt = 0
  const mark = () => {
    if (!db.isOpen) return undefined
    if (fd === undefined) {
      if (Date.now() < openAgainAt) return undefined
      try {
        // The file exists once a connection has read the database in WAL mode.
        fd = openSync(`${filename}-shm`, "r")
      } catch {
        openAgainAt = Date.now() + 1000
        return undefined
      }
    }
    try {
      // An uninitialised header (its isInit byte) tells nothing.
      if (readSync(fd, read, 0, walIndexHeaderBytes, 0) < walIndexHeaderBytes || read[12] !== 1) return undefined
    } catch {
      return undefined
    }
    if (!read.equals(seen)) {
      read.copy(seen)
      marks++
    }
    return marks
  }
  const close = () => {
    if (fd !== undefined) closeSync(fd)
    fd = undefined
  }
  return { mark, close }
}

interface CommitMarkReader {
  readonly mark: () => number | undefined
  readonly close: () => void
}

const makeConnection = (db: DatabaseSync): SqlConnection.Connection => {
  const cache = new Map<string, CachedStatement>()

  const prepare = (sql: string): CachedStatement => {
    const hit = cache.get(sql)
    if (hit !== undefined) {
      // Re-insert to keep the Map in least-recently-used order.
      cache.delete(sql)
      cache.set(sql, hit)
      return hit
    }
    const statement = db.prepare(sql)
    const entry: CachedStatement = { statement, reader: statement.columns().length > 0 }
    if (cache.size >= STATEMENT_CACHE_SIZE) {
      const oldest = cache.keys().next()
      if (oldest.done !== true) cache.delete(oldest.value)
    }
    cache.set(sql, entry)
    return entry
  }

  const prepareUncached = (sql: string): CachedStatement => {
    const statement = db.prepare(sql)
    return { statement, reader: statement.columns().length > 0 }
  }

  /**
   * Runs `f` against a prepared statement, with the per-call flags reset:
   * `readBigInts` follows `SqlClient.SafeIntegers`, `returnArrays` the caller.
   */
  const use = <A>(
    sql: string,
    cached: boolean,
    returnArrays: boolean,
    f: (entry: CachedStatement) => A
  ): Effect.Effect<A, SqlError.SqlError> =>
    Effect.withFiber((fiber) => {
      if (!db.isOpen) return Effect.fail(closedError("execute"))
      const safeIntegers = fiber.getRef(SqlClient.SafeIntegers)
      try {
        const entry = cached ? prepare(sql) : prepareUncached(sql)
        entry.statement.setReadBigInts(safeIntegers)
        entry.statement.setReturnArrays(returnArrays)
        return Effect.succeed(f(entry))
      } catch (cause) {
        return Effect.fail(toSqlError(cause, "execute"))
      }
    })

  const rows = (sql: string, params: ReadonlyArray<unknown>, cached: boolean, transformRows: TransformRows) =>
    use(sql, cached, false, ({ statement }): Rows => {
      const result = toPlainRows(statement.all(...toSqliteParams(params)))
      return transformRows === undefined ? result : transformRows(result)
    })

  const values = (sql: string, params: ReadonlyArray<unknown>, cached: boolean) =>
    use(
      sql,
      cached,
      true,
      ({ statement }) => statement.all(...toSqliteParams(params)) as unknown as ReadonlyArray<ReadonlyArray<unknown>>
    )

  return {
    execute: (sql, params, transformRows) => rows(sql, params, true, transformRows),
    executeUnprepared: (sql, params, transformRows) => rows(sql, params, false, transformRows),
    executeValues: (sql, params) => values(sql, params, true),
    executeValuesUnprepared: (sql, params) => values(sql, params, false),
    executeRaw: (sql, params) =>
      use(sql, true, false, ({ statement, reader }): unknown =>
        reader ? toPlainRows(statement.all(...toSqliteParams(params))) : statement.run(...toSqliteParams(params))
      ),
    executeStream: (sql, params, transformRows) =>
      Stream.unwrap(
        Effect.map(
          Effect.acquireRelease(
            // A statement of its own, so the cache can't reset it mid-iteration.
            use(sql, false, false, ({ statement }) => statement.iterate(...toSqliteParams(params))),
            (iterator) =>
              Effect.sync(() => {
                if (db.isOpen) iterator.return?.()
              })
          ),
          (iterator) =>
            Stream.fromPull(
              Effect.succeed(
                Effect.suspend((): Effect.Effect<StreamChunk, SqlError.SqlError | Cause.Done> => {
                  const chunk: Array<Record<string, unknown>> = []
                  try {
                    while (chunk.length < STREAM_CHUNK_SIZE) {
                      const next = iterator.next()
                      if (next.done === true) break
                      chunk.push({ ...next.value })
                    }
                  } catch (cause) {
                    return Effect.fail(toSqlError(cause, "stream"))
                  }
                  const [head, ...tail] = transformRows === undefined ? chunk : transformRows(chunk)
                  return head === undefined ? Cause.done() : Effect.succeed([head, ...tail] as const)
                })
              )
            )
        )
      )
  }
}

const makeService = Effect.fn("NodeSqliteClient.make")(function* (config: NodeSqliteClientConfig) {
  const db = yield* Effect.acquireRelease(
    Effect.try({
      try: () => openDatabase(config),
      // Whatever went wrong (mkdir, open, pragmas), the database is unusable.
      catch: (cause) =>
        new SqlError.SqlError({
          reason: new SqlError.ConnectionError({
            cause,
            message: errorMessage(cause, "Failed to open the SQLite database"),
            operation: "connect"
          })
        })
    }),
    (db) =>
      Effect.sync(() => {
        if (db.isOpen) db.close()
      })
  )
  const commitMarks = yield* Effect.acquireRelease(
    Effect.sync(() => makeCommitMarks(config.filename, db, config.readonly === true)),
    (marks) => Effect.sync(marks.close)
  )
  const connection = makeConnection(db)
  const acquirers = SqlClient.makeSqliteAcquirers({
    connection: Effect.suspend(() => (db.isOpen ? Effect.succeed(connection) : Effect.fail(closedError("acquire")))),
    semaphore: yield* Semaphore.make(1),
    isTransaction: () => db.isOpen && db.isTransaction
  })

  const sql = yield* SqlClient.make({
    driver: "sqlite-node",
    acquirer: acquirers.acquirer,
    borrower: acquirers.borrower,
    transactionAcquirer: acquirers.transactionAcquirer,
    onCommitFailure: acquirers.onCommitFailure,
    isTransaction: acquirers.isTransaction,
    compiler: Statement.makeCompilerSqlite(config.transformQueryNames),
    transformRows: config.transformResultNames
      ? Statement.defaultTransforms(config.transformResultNames).array
      : undefined,
    spanAttributes: [...Object.entries(config.spanAttributes ?? {}), ["db.system.name", "sqlite"]],
    // Take the write lock up front, so two writers can't deadlock upgrading a read lock.
    beginTransaction: config.readonly === true ? "BEGIN" : "BEGIN IMMEDIATE",
    releaseSavepoint: (name) => `RELEASE SAVEPOINT ${name}`,
    prepareTransactionControls: true
  })

  return NodeSqliteClient.of({ sql, config, isOpen: Effect.sync(() => db.isOpen), commitMark: commitMarks.mark })
})

/**
 * Opens the database and builds a `SqlClient` over it; the connection is
 * closed when the scope closes.
 */
export const make = (
  config: NodeSqliteClientConfig
): Effect.Effect<SqlClient.SqlClient, SqlError.SqlError, Scope.Scope | Reactivity.Reactivity> =>
  Effect.map(makeService(config), (service) => service.sql)

/**
 * Provides `SqlClient.SqlClient` and `NodeSqliteClient`, with its own
 * `Reactivity`; the connection is closed when the layer is released.
 */
export const layer = (
  config: NodeSqliteClientConfig
): Layer.Layer<SqlClient.SqlClient | NodeSqliteClient, SqlError.SqlError> =>
  Layer.effectContext(
    Effect.map(makeService(config), (service) =>
      Context.make(NodeSqliteClient, service).pipe(Context.add(SqlClient.SqlClient, service.sql))
    )
  ).pipe(Layer.provide(Reactivity.layer))
