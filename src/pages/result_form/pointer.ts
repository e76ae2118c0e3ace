/** A service failure's JSON Pointer led to the result form's control it concerns. */
import type { FormField } from "./fields.ts"

const unescapePointer = (segment: string) => segment.replaceAll("~1", "/").replaceAll("~0", "~")

const walk = function* (fields: ReadonlyArray<FormField>): Generator<FormField> {
  for (const field of fields) {
    yield field
    if (field.kind === "group") yield* walk(field.fields)
  }
}

/**
 * The control a service `details` entry points at (`/fields/address/city` → `fields.address.city`),
 * to show its message beside that control: the field at the pointer, else the nearest field holding
 * it (an array's item, a member inside a JSON box, a member an object does not list → its
 * "Other fields" box). Undefined when none does (show the message above the form).
 */
export const controlForPointer = (fields: ReadonlyArray<FormField>, pointer: string): string | undefined => {
  if (pointer !== "/fields" && !pointer.startsWith("/fields/")) return undefined
  const path = pointer === "/fields" ? [] : pointer.slice("/fields/".length).split("/").map(unescapePointer)
  const all = [...walk(fields)]
  const isMembers = (field: FormField) => field.kind === "json" && field.holds === "members"
  for (let length = path.length; length >= 0; length--) {
    const at = all.filter((field) => field.path.length === length && field.path.every((key, i) => key === path[i]))
    // Below an object: a member it does not list belongs in its "Other fields" box.
    const others = length < path.length ? at.find(isMembers) : undefined
    const own = at.find((field) => !isMembers(field))
    if (others !== undefined) return others.name
    if (own !== undefined) return own.name
  }
  return undefined
}
