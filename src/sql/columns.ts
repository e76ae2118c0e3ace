/**
 * How stored columns read back, as Schemas, so a row is decoded the same way on both backends:
 * SQLite (node:sqlite) and Postgres (@effect/sql-pg) return some column types differently.
 */
import * as Schema from "effect/Schema"
import * as SchemaTransformation from "effect/SchemaTransformation"

/**
 * A whole-number column: a number from SQLite and from Postgres' int4, a BigInt from Postgres'
 * int8 (and from SQLite past 2^53), a string from `numeric`. Read as a number either way.
 */
export const IntegerColumn = Schema.Union([Schema.Number, Schema.BigInt, Schema.NumberFromString]).pipe(
  Schema.decodeTo(
    Schema.Finite,
    SchemaTransformation.transform<number, number | bigint>({ decode: Number, encode: (n) => n })
  )
)
