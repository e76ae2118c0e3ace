/**
 * The served OpenAPI document as the fuzzer's stateful phase (scripts/fuzz_stateful.ts) reads it:
 * its shape, Ajv over the whole document (so every schema is judged where it stands), and its
 * operations found by operationId.
 */
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js"
import addFormats from "ajv-formats"

export interface Schema {
  readonly [key: string]: unknown
}
export interface Operation {
  readonly operationId?: string
  readonly responses?: Record<
    string,
    {
      readonly content?: Record<string, { readonly schema?: Schema }>
      readonly headers?: Record<
        string,
        { readonly $ref?: string; readonly required?: boolean; readonly schema?: Schema }
      >
    }
  >
}
export interface OpenApiDocument {
  readonly paths: Record<string, Record<string, Operation>>
  readonly components: { readonly schemas: Record<string, Schema>; readonly securitySchemes?: Record<string, unknown> }
}

export const pointer = (...parts: ReadonlyArray<string>) =>
  parts.map((part) => part.replaceAll("~", "~0").replaceAll("/", "~1")).join("/")

/** Ajv over the whole document: schemas are compiled where they stand, so their `$ref`s resolve. */
export const validatorOf = (document: OpenApiDocument) => {
  const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: true })
  addFormats.default(ajv)
  ajv.addSchema({ ...document, $id: "openapi" })
  const compiled = new Map<string, ValidateFunction>()
  return (at: string): ValidateFunction => {
    let validate = compiled.get(at)
    if (validate === undefined) {
      validate = ajv.compile({ $ref: `openapi#/${at}` })
      compiled.set(at, validate)
    }
    return validate
  }
}

/** An operation of the document by its operationId, with its route and method; throws when there is none. */
export const operationsOf = (document: OpenApiDocument) => {
  const operations = new Map<string, { route: string; method: string; operation: Operation }>()
  for (const [route, methods] of Object.entries(document.paths))
    for (const [method, operation] of Object.entries(methods))
      if (operation.operationId !== undefined) operations.set(operation.operationId, { route, method, operation })
  const operation = (id: string) => {
    const found = operations.get(id)
    if (found === undefined) throw new Error(`the document has no operation ${id}`)
    return found
  }
  return operation
}

export const ajvSays = (validate: ValidateFunction) =>
  (validate.errors ?? [])
    .map((e) => `${e.instancePath || "/"} ${e.message ?? ""}`)
    .join("; ")
    .slice(0, 200)

/** The outcome reasons the document's Outcome schema names (its `reason` enum), in its order. */
export const outcomeReasonsOf = (document: OpenApiDocument): ReadonlyArray<string> => {
  const reason = (document.components.schemas.Outcome?.properties as Record<string, Schema> | undefined)?.reason
  return Array.isArray(reason?.enum) ? (reason.enum as ReadonlyArray<string>) : []
}
