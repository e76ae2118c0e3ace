// The result form generated from a task's result_schema (src/pages/result_form/): which control
// each schema gives, what the page checks by itself, how a submitted form is read back into the
// `fields` the schema describes (and the project's own validator accepts), and where the service's
// failures are shown. The same form in a real browser: test/browser/result_form.test.ts.
import { describe, expect, it } from "@effect/vitest"
import { Schema } from "effect"
import { resultFieldFailures, resultSchemaProblem } from "../../src/domain/result_schema.ts"
import { type FormField, type FormValues, noValues } from "../../src/pages/result_form/fields.ts"
import { controlForPointer } from "../../src/pages/result_form/pointer.ts"
import { formValuesOf } from "../../src/pages/result_form/previous_result.ts"
import { readFormFields } from "../../src/pages/result_form/read.ts"
import { renderFormFields } from "../../src/pages/result_form/render.ts"
import {
  browserPatternOf,
  controlNameOf,
  formFieldsOf,
  readableName
} from "../../src/pages/result_form/schema_fields.ts"

// ---------------------------------------------------------------------------------------------
// A browser's form submission, over the markup this module writes (quoted attributes, one tag each)

const entities: Record<string, string> = {
  "&amp;": "&",
  "&lt;": "<",
  "&gt;": ">",
  "&quot;": '"',
  "&#39;": "'",
  "&#96;": "`"
}
const decode = (text: string) => text.replace(/&(?:amp|lt|gt|quot|#39|#96);/g, (e) => entities[e]!)

const attributesOf = (tag: string): Map<string, string> =>
  new Map([...tag.matchAll(/\s([a-z-]+)(?:="([^"]*)")?/g)].map((m) => [m[1]!, decode(m[2] ?? "")]))

/** The tag (start tag) of the element with `id`, as attributes. */
const elementById = (markup: string, id: string) => {
  const tag = [...markup.matchAll(/<(?:input|textarea|select|fieldset)\b[^>]*>/g)].find(
    (m) => attributesOf(m[0]).get("id") === id
  )
  if (tag === undefined) throw new Error(`no element #${id}`)
  return attributesOf(tag[0])
}

/**
 * What a browser sends for the form: each control's name and value in document order (checked boxes
 * and radio buttons only, a select's chosen option, a text area's text with CRLF line breaks), after
 * the person typed `typed` (by name: the text, or the values to check).
 */
const submit = (markup: string, typed: Record<string, string | ReadonlyArray<string>> = {}): FormValues => {
  const entries: Array<[string, string]> = []
  const controls = /<input\b[^>]*>|<textarea\b([^>]*)>([\s\S]*?)<\/textarea>|<select\b([^>]*)>([\s\S]*?)<\/select>/g
  for (const m of markup.matchAll(controls)) {
    if (m[0].startsWith("<input")) {
      const a = attributesOf(m[0])
      const name = a.get("name")!
      const type = a.get("type")
      if (type === "checkbox" || type === "radio") {
        const wanted = typed[name]
        const checked = wanted === undefined ? a.has("checked") : [wanted].flat().includes(a.get("value")!)
        if (checked) entries.push([name, a.get("value")!])
      } else {
        const value = typed[name]
        entries.push([name, typeof value === "string" ? value : (a.get("value") ?? "")])
      }
    } else if (m[0].startsWith("<textarea")) {
      const name = attributesOf(m[1]!).get("name")!
      const value = typed[name]
      // The HTML parser drops a line break just after the start tag.
      const text = decode(m[2]!).replace(/^\r?\n/, "")
      entries.push([name, (typeof value === "string" ? value : text).replace(/\r?\n/g, "\r\n")])
    } else {
      const name = attributesOf(m[3]!).get("name")!
      const options = [...m[4]!.matchAll(/<option\b[^>]*>/g)].map((o) => attributesOf(o[0]))
      const value = typed[name]
      const chosen =
        typeof value === "string" ? value : (options.find((o) => o.has("selected")) ?? options[0])?.get("value")
      entries.push([name, chosen ?? ""])
    }
  }
  return (name) => entries.filter(([n]) => n === name).map(([, v]) => v)
}

const fieldsOf = (properties: Record<string, unknown>, required: ReadonlyArray<string> = [], extra = {}) => {
  const schema = { type: "object", properties, required, ...extra }
  expect(resultSchemaProblem(schema), JSON.stringify(schema)).toBeUndefined()
  return formFieldsOf(schema)
}
const only = (properties: Record<string, unknown>, required: ReadonlyArray<string> = []) => {
  const [field, ...rest] = fieldsOf(properties, required)
  expect(rest).toEqual([])
  return field!
}
const render = (fields: ReadonlyArray<FormField>, values = noValues, problems = new Map<string, string>()) =>
  String(renderFormFields(fields, values, problems))
const namesIn = (markup: string) => [...new Set([...markup.matchAll(/\sname="([^"]*)"/g)].map((m) => decode(m[1]!)))]

/** Reads what the browser sent for `schema`'s form, and checks it with the service's own validator. */
const roundTrip = (schema: Record<string, unknown>, typed: Record<string, string | ReadonlyArray<string>>) => {
  const fields = formFieldsOf(schema)
  const read = readFormFields(fields, submit(render(fields), typed))
  return { ...read, failures: resultFieldFailures(schema, read.fields) }
}

// ---------------------------------------------------------------------------------------------

describe("labels and hints", () => {
  it("labels from title, else the property name made readable", () => {
    expect(readableName("photo_count")).toBe("Photo count")
    expect(readableName("photoCount")).toBe("Photo count")
    expect(readableName("photo-count")).toBe("Photo count")
    expect(readableName("photoURL")).toBe("Photo URL")
    expect(readableName("HTMLParser")).toBe("HTML parser")
    expect(readableName("ISBN")).toBe("ISBN")
    expect(readableName("_")).toBe("_")
    expect(readableName("")).toBe("(unnamed)")
    const [a, b] = fieldsOf({ photo_count: { type: "integer" }, n: { type: "integer", title: "Chairs counted" } })
    expect([a!.label, b!.label]).toEqual(["Photo count", "Chairs counted"])
    const markup = render([a!])
    expect(markup).toContain('<label for="rf-fields.photo_count">Photo count</label>')
  })

  it("the description is the hint the control is described by, with what the schema asks in words", () => {
    const field = only({ count: { type: "integer", minimum: 1, maximum: 10, description: "Chairs in room 4." } })
    expect(field.hint).toBe("Chairs in room 4. A whole number from 1 to 10.")
    const markup = render([field])
    expect(markup).toContain(
      '<p class="hint prose" id="rf-fields.count-hint">Chairs in room 4. A whole number from 1 to 10.</p>'
    )
    expect(elementById(markup, "rf-fields.count").get("aria-describedby")).toBe("rf-fields.count-hint")
    // No hint, no reference to one.
    expect(elementById(render([only({ city: { type: "string" } })]), "rf-fields.city").has("aria-describedby")).toBe(
      false
    )
    // Examples are shown as such.
    expect(only({ code: { type: "string", examples: ["AB-12"] } }).hint).toBe("For example: AB-12.")
  })

  it("required: marked in the label's text and with the required attribute; optional: neither", () => {
    const [count, note] = fieldsOf({ count: { type: "integer" }, note: { type: "string", maxLength: 9 } }, ["count"])
    const markup = render([count!, note!])
    expect(markup).toContain('<label for="rf-fields.count">Count <span class="req">(required)</span></label>')
    expect(elementById(markup, "rf-fields.count").has("required")).toBe(true)
    expect(markup).toContain('<label for="rf-fields.note">Note</label>')
    expect(elementById(markup, "rf-fields.note").has("required")).toBe(false)
  })
})

describe("strings", () => {
  it("a text input, with its lengths and its format's input type", () => {
    const fields = fieldsOf({
      name: { type: "string", minLength: 2, maxLength: 40 },
      day: { type: "string", format: "date" },
      at: { type: "string", format: "date-time" },
      local_at: { type: "string", format: "iso-date-time" },
      time: { type: "string", format: "time" },
      email: { type: "string", format: "email" },
      site: { type: "string", format: "uri" },
      id: { type: "string", format: "uuid" }
    })
    const markup = render(fields)
    const typeOf = (key: string) => elementById(markup, `rf-fields.${key}`).get("type")
    expect(["name", "day", "at", "local_at", "time", "email", "site", "id"].map(typeOf)).toEqual([
      "text",
      "date",
      "datetime-local",
      "datetime-local",
      "time",
      "email",
      "url",
      "text"
    ])
    const name = elementById(markup, "rf-fields.name")
    expect([name.get("minlength"), name.get("maxlength")]).toEqual(["2", "40"])
    expect(fields[0]!.hint).toBe("From 2 to 40 characters.")
    // A zone the browser's control cannot give: said, and UTC added on reading.
    expect(fields[2]!.hint).toBe("Date and time in UTC.")
    expect(fields[4]!.hint).toBe("Time in UTC.")
    expect(fields[3]!.hint).toBeUndefined()
  })

  it("a text area for prose: no limit or a long one, and a name or description that speaks of prose", () => {
    const multiline = (schema: Record<string, unknown>, key = "value") =>
      (only({ [key]: { type: "string", ...schema } }) as { multiline: boolean }).multiline
    expect(multiline({}, "notes")).toBe(true)
    expect(multiline({}, "inspection_notes")).toBe(true)
    expect(multiline({ description: "Explain why the door was locked." })).toBe(true)
    expect(multiline({ title: "Your observations", maxLength: 2000 })).toBe(true)
    // Short, or not prose, or constrained like a single value: one line.
    expect(multiline({ maxLength: 80 }, "notes")).toBe(false)
    expect(multiline({}, "city")).toBe(false)
    expect(multiline({}, "how_many_rooms")).toBe(false)
    expect(multiline({ maxLength: 5000 }, "serial")).toBe(false)
    expect(multiline({ pattern: "^[A-Z]+$" }, "notes")).toBe(false)
    expect(multiline({ format: "email" }, "notes")).toBe(false)
    const markup = render([only({ notes: { type: "string", minLength: 10 } }, ["notes"])])
    expect(markup).toMatch(
      /<textarea id="rf-fields.notes" name="fields.notes" required minlength="10" rows="5"[^>]*>\n<\/textarea>/
    )
  })

  it("a pattern the browser reads as the service does, found anywhere as JSON Schema finds it", () => {
    expect(browserPatternOf("^\\d{5}$")).toBe("[\\s\\S]*(?:^\\d{5}$)[\\s\\S]*")
    const html = new RegExp(`^(?:${browserPatternOf("[0-9]{3}")})$`, "v")
    expect(html.test("ab123cd")).toBe(true)
    expect(html.test("12")).toBe(false)
    const anchored = new RegExp(`^(?:${browserPatternOf("^[A-Z]{2}$")})$`, "v")
    expect([anchored.test("AB"), anchored.test("xAB"), anchored.test("ABC")]).toEqual([true, false, false])
    // What JavaScript's `v` flag refuses or reads otherwise is left to the service.
    for (const pattern of ["[\\w.-]+", "\\pL+", "(?i)abc", "\\z", "[[:alpha:]]+", "a)|(b"])
      expect(browserPatternOf(pattern), pattern).toBeUndefined()
    const markup = render(
      fieldsOf({ zip: { type: "string", pattern: "^\\d{5}$" }, slug: { type: "string", pattern: "^[\\w.-]+$" } })
    )
    expect(elementById(markup, "rf-fields.zip").get("pattern")).toBe("[\\s\\S]*(?:^\\d{5}$)[\\s\\S]*")
    expect(elementById(markup, "rf-fields.slug").has("pattern")).toBe(false)
  })
})

describe("numbers", () => {
  it("type=number: step 1 for an integer, any for a number, bounds as min and max", () => {
    const markup = render(
      fieldsOf({
        count: { type: "integer", minimum: 0, maximum: 500 },
        weight: { type: "number", minimum: 0.5 },
        delta: { type: "integer" }
      })
    )
    const count = elementById(markup, "rf-fields.count")
    expect(Object.fromEntries(count)).toMatchObject({
      type: "number",
      step: "1",
      min: "0",
      max: "500",
      inputmode: "numeric"
    })
    const weight = elementById(markup, "rf-fields.weight")
    expect(Object.fromEntries(weight)).toMatchObject({ type: "number", step: "any", min: "0.5", inputmode: "decimal" })
    expect(weight.has("max")).toBe(false)
    // Negative values possible: no digits-only keyboard (it has no minus key).
    expect(elementById(markup, "rf-fields.delta").has("inputmode")).toBe(false)
  })

  it("exclusive bounds: the next whole number for an integer, the bound itself (said in words) for a number", () => {
    const [i, n] = fieldsOf({
      i: { type: "integer", exclusiveMinimum: 0, exclusiveMaximum: 10 },
      n: { type: "number", exclusiveMinimum: 0, maximum: 1 }
    })
    expect(i).toMatchObject({ min: 1, max: 9, step: "1", hint: "A whole number from 1 to 9." })
    expect(n).toMatchObject({ min: 0, max: 1, step: "any", hint: "A number more than 0 and at most 1." })
  })

  it("multipleOf as the step only where the browser counts steps the same way (from min)", () => {
    const [a, b, c, d] = fieldsOf({
      a: { type: "integer", multipleOf: 5 },
      b: { type: "integer", multipleOf: 5, minimum: 1 },
      c: { type: "number", multipleOf: 0.25, minimum: 0 },
      d: { type: "integer", multipleOf: 5, minimum: 10 }
    })
    expect([a, b, c, d].map((f) => (f as { step: string }).step)).toEqual(["5", "1", "0.25", "5"])
  })
})

describe("booleans", () => {
  it("Yes and No as radio buttons, neither chosen: a required one cannot be sent untouched, an optional one says No answer", () => {
    const schema = {
      type: "object",
      properties: { repaired: { type: "boolean" }, photographed: { type: "boolean" } },
      required: ["repaired"]
    }
    const fields = formFieldsOf(schema)
    expect(fields.map((f) => f.kind)).toEqual(["choice", "choice"])
    const markup = render(fields)
    const yes = elementById(markup, "rf-fields.repaired-0")
    const no = elementById(markup, "rf-fields.repaired-1")
    expect(Object.fromEntries(yes)).toMatchObject({ type: "radio", name: "fields.repaired", value: "true" })
    expect(Object.fromEntries(no)).toMatchObject({ type: "radio", name: "fields.repaired", value: "false" })
    // Required: the browser refuses to send the form until one is chosen; none is chosen at first.
    expect([yes.has("required"), no.has("required"), yes.has("checked"), no.has("checked")]).toEqual([
      true,
      true,
      false,
      false
    ])
    expect(markup).toMatch(/<label[^>]*for="rf-fields.repaired-0"[^>]*>Yes<\/label>/)
    // Optional: Yes, No and No answer (chosen at first), which sends nothing.
    expect(elementById(markup, "rf-fields.photographed-none").has("checked")).toBe(true)
    // Untouched, nothing is said: the required one is missing, and the service says so.
    const untouched = roundTrip(schema, {})
    expect(untouched.fields).toEqual({})
    expect(untouched.failures.length).toBeGreaterThan(0)
    expect(roundTrip(schema, { "fields.repaired": ["false"] })).toMatchObject({
      fields: { repaired: false },
      failures: []
    })
    expect(roundTrip(schema, { "fields.repaired": ["true"], "fields.photographed": ["false"] }).fields).toEqual({
      repaired: true,
      photographed: false
    })
  })

  it("`const: true` (a confirmation) must be checked when required, and is left out unchecked when not", () => {
    const schema = {
      type: "object",
      properties: { confirmed: { const: true, title: "I was on site" }, extra: { type: "boolean", const: true } },
      required: ["confirmed"]
    }
    const fields = formFieldsOf(schema)
    expect(fields.map((f) => f.kind)).toEqual(["boolean", "boolean"])
    const markup = render(fields)
    expect(elementById(markup, "rf-fields.confirmed").has("required")).toBe(true)
    expect(elementById(markup, "rf-fields.extra").has("required")).toBe(false)
    expect(roundTrip(schema, { "fields.confirmed": ["true"] })).toMatchObject({
      fields: { confirmed: true },
      failures: []
    })
  })
})

describe("choices", () => {
  it("few options: radio buttons in a fieldset whose legend is the label; optional ones can say No answer", () => {
    const fields = fieldsOf(
      {
        condition: { enum: ["good", "worn", "broken"], description: "As you found it." },
        colour: { type: "string", enum: ["red", "blue"] }
      },
      ["condition"]
    )
    const markup = render(fields)
    expect(markup).toContain(
      '<fieldset class="field choices" id="rf-fields.condition" aria-describedby="rf-fields.condition-hint">'
    )
    expect(markup).toContain('<legend>Condition <span class="req">(required)</span></legend>')
    expect(Object.fromEntries(elementById(markup, "rf-fields.condition-0"))).toMatchObject({
      type: "radio",
      name: "fields.condition",
      value: "good",
      required: ""
    })
    expect(markup).toContain('<label for="rf-fields.condition-2">broken</label>')
    expect(markup).not.toContain("rf-fields.condition-none")
    // Optional: a chosen radio button cannot be unchosen without script, so "No answer" is one, chosen at first.
    expect(Object.fromEntries(elementById(markup, "rf-fields.colour-none"))).toMatchObject({ value: "", checked: "" })
  })

  it("many options: a select with a blank first option (required: it must be changed)", () => {
    const days = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
    const [day, other] = fieldsOf({ day: { enum: days }, other: { enum: days } }, ["day"])
    const markup = render([day!, other!])
    expect(markup).toMatch(
      /<select id="rf-fields.day" name="fields.day" required>\n<option value="">Choose…<\/option>\n<option value="mon">mon<\/option>/
    )
    expect(markup).toContain('<select id="rf-fields.other" name="fields.other">\n<option value="">No answer</option>')
  })

  it("numbers, booleans and null in an enum post their JSON text and read back as themselves", () => {
    const schema = { type: "object", properties: { stars: { enum: [1, 2, 3, null] }, answer: { const: "yes" } } }
    const fields = formFieldsOf(schema)
    expect(render(fields)).toContain('<label for="rf-fields.stars-3">None</label>')
    expect(roundTrip(schema, { "fields.stars": "2", "fields.answer": "yes" })).toMatchObject({
      fields: { stars: 2, answer: "yes" },
      failures: []
    })
    expect(roundTrip(schema, { "fields.stars": "null" }).fields).toEqual({ stars: null })
    // An option nobody offered (a hand-made post) cannot be read.
    const read = readFormFields(fields, (name) => (name === "fields.stars" ? ["7"] : []))
    expect(read.problems.get("fields.stars")).toBe("Choose one of the options.")
    expect(read.fields).toEqual({})
  })

  it("an enum whose options would post the same text is answered as JSON", () => {
    expect(only({ v: { enum: [1, "1"] } }).kind).toBe("json")
  })
})

describe("arrays", () => {
  it("strings or numbers: a text area, one item a line, minItems and maxItems said in the hint", () => {
    const schema = {
      type: "object",
      properties: {
        rooms: { type: "array", items: { type: "string" }, minItems: 1, maxItems: 5 },
        readings: { type: "array", items: { type: "number", minimum: 0 } },
        counts: { type: "array", items: { type: "integer" }, maxItems: 3 }
      },
      required: ["rooms", "readings"]
    }
    const fields = formFieldsOf(schema)
    expect(fields.map((f) => [f.kind, f.hint])).toEqual([
      ["list", "One per line. From 1 to 5 lines."],
      ["list", "Numbers, one per line."],
      ["list", "Whole numbers, one per line. At most 3 lines."]
    ])
    const markup = render(fields)
    // An empty list is an answer unless minItems says otherwise.
    expect(elementById(markup, "rf-fields.rooms").has("required")).toBe(true)
    expect(elementById(markup, "rf-fields.readings").has("required")).toBe(false)
    const typed = roundTrip(schema, {
      "fields.rooms": "Kitchen\n\n  Hall  \nRoom 4\n",
      "fields.readings": "1.5\n2\n-0\n1e2",
      "fields.counts": ""
    })
    expect(typed).toMatchObject({
      fields: { rooms: ["Kitchen", "Hall", "Room 4"], readings: [1.5, 2, -0, 100] },
      failures: []
    })
    // Required and empty: [] (and the schema judges it); optional and empty: left out.
    expect(roundTrip(schema, { "fields.rooms": "A" }).fields).toEqual({ rooms: ["A"], readings: [] })
    const bad = roundTrip(schema, { "fields.rooms": "A", "fields.readings": "1\ntwo\n3" })
    expect(bad.problems.get("fields.readings")).toBe("Line 2 (“two”) is not a number: write one number a line.")
  })

  it("an enum of strings: checkboxes, each chosen one an item", () => {
    const schema = {
      type: "object",
      properties: {
        tools: { type: "array", items: { enum: ["ladder", "drill", "tape"] }, uniqueItems: true, minItems: 1 }
      },
      required: ["tools"]
    }
    const fields = formFieldsOf(schema)
    expect(fields[0]).toMatchObject({ kind: "choices", hint: "At least 1 choice." })
    const markup = render(fields)
    expect(Object.fromEntries(elementById(markup, "rf-fields.tools-1"))).toMatchObject({
      type: "checkbox",
      name: "fields.tools",
      value: "drill"
    })
    expect(markup).toContain('<legend>Tools <span class="req">(required)</span></legend>')
    expect(roundTrip(schema, { "fields.tools": ["tape", "ladder"] })).toMatchObject({
      fields: { tools: ["ladder", "tape"] },
      failures: []
    })
    expect(roundTrip(schema, {}).fields).toEqual({ tools: [] })
  })

  it("arrays of objects, tuples and contains: JSON", () => {
    const fields = fieldsOf({
      rows: { type: "array", items: { type: "object", properties: { a: { type: "string" } } } },
      pair: { type: "array", prefixItems: [{ type: "string" }, { type: "number" }] },
      some: { type: "array", contains: { type: "string" } },
      any: { type: "array" }
    })
    expect(fields.map((f) => [f.kind, f.hint])).toEqual([
      ["json", "As JSON: a list in [ ]."],
      ["json", "As JSON: a list in [ ]."],
      ["json", "As JSON: a list in [ ]."],
      ["json", "As JSON: a list in [ ]."]
    ])
  })
})

describe("nested objects", () => {
  const schema = {
    type: "object",
    properties: {
      address: {
        type: "object",
        title: "Where",
        properties: { street: { type: "string" }, city: { type: "string" }, floor: { type: "integer" } },
        required: ["city"]
      },
      billing: {
        type: "object",
        properties: { name: { type: "string" }, vat: { type: "string" }, paid: { type: "boolean" } },
        required: ["name", "vat"]
      }
    },
    required: ["address"]
  }

  it("a fieldset with a legend, its properties inside, named by their path", () => {
    const fields = formFieldsOf(schema)
    expect(fields.map((f) => [f.kind, f.name])).toEqual([
      ["group", "fields.address"],
      ["group", "fields.billing"]
    ])
    const markup = render(fields)
    expect(markup).toContain(
      '<fieldset class="group" id="rf-fields.address">\n<legend>Where <span class="req">(required)</span></legend>'
    )
    expect(namesIn(markup)).toEqual([
      "fields.address.street",
      "fields.address.city",
      "fields.address.floor",
      "fields.billing.name",
      "fields.billing.vat",
      "fields.billing.paid"
    ])
    expect(elementById(markup, "rf-fields.address.city").has("required")).toBe(true)
  })

  it("a required member of an optional object is not required by the page; the object's hint says when it is", () => {
    const fields = formFieldsOf(schema)
    const markup = render(fields)
    expect(elementById(markup, "rf-fields.billing.name").has("required")).toBe(false)
    expect(markup).toContain('<label for="rf-fields.billing.name">Name</label>')
    expect(fields[1]!.hint).toBe("Optional; if you fill in any of it, Name and Vat are required.")
  })

  it("read back: an optional object nobody filled in is left out (its unanswered yes/no too), a required one is there", () => {
    expect(roundTrip(schema, { "fields.address.city": "Lyon" })).toMatchObject({
      fields: { address: { city: "Lyon" } },
      failures: []
    })
    expect(roundTrip(schema, {}).fields).toEqual({ address: {} })
    expect(roundTrip(schema, {}).failures.map((f) => f.pointer)).toEqual(["/fields/address/city"])
    expect(
      roundTrip(schema, {
        "fields.address.city": "Lyon",
        "fields.address.floor": "3",
        "fields.billing.name": "Ada",
        "fields.billing.vat": "FR1",
        "fields.billing.paid": "false"
      })
    ).toMatchObject({
      fields: { address: { city: "Lyon", floor: 3 }, billing: { name: "Ada", vat: "FR1", paid: false } },
      failures: []
    })
  })
})

describe("what the mapping cannot express: JSON", () => {
  it("oneOf, $ref, not, if, and the like: a JSON box for that property, parsed on reading", () => {
    const schema = {
      type: "object",
      $defs: { point: { type: "object", properties: { x: { type: "number" } }, required: ["x"] } },
      properties: {
        where: { $ref: "#/$defs/point" },
        either: { oneOf: [{ type: "string" }, { type: "integer" }] },
        name: { type: "string" },
        anything: {}
      },
      required: ["where"]
    }
    const fields = formFieldsOf(schema)
    expect(fields.map((f) => [f.kind, f.name])).toEqual([
      ["json", "fields.where"],
      ["json", "fields.either"],
      ["text", "fields.name"],
      ["json", "fields.anything"]
    ])
    const markup = render(fields)
    expect(markup).toContain(
      '<textarea class="code" id="rf-fields.where" name="fields.where" rows="6" spellcheck="false" autocapitalize="none" autocomplete="off" required aria-describedby="rf-fields.where-hint">\n</textarea>'
    )
    expect(
      roundTrip(schema, { "fields.where": '{"x": 1.5}', "fields.either": "12", "fields.anything": '[1, {"a": null}]' })
    ).toMatchObject({ fields: { where: { x: 1.5 }, either: 12, anything: [1, { a: null }] }, failures: [] })
    expect(fields[1]!.hint).toBe('As JSON: "text" in double quotes, a number, true or false, a [list] or an {object}.')
    const bad = roundTrip(schema, { "fields.where": "{x: 1}" })
    expect(bad.problems.get("fields.where")).toMatch(/^This is not valid JSON: .+\.$/)
    expect(bad.fields).toEqual({})
  })

  it("members an object does not list but expects: its listed fields and an Other fields (JSON) box merged in", () => {
    const schema = {
      type: "object",
      properties: { count: { type: "integer" } },
      additionalProperties: { type: "string" }
    }
    const fields = formFieldsOf(schema)
    expect(fields.map((f) => [f.kind, f.name, f.label])).toEqual([
      ["number", "fields.count", "Count"],
      ["json", "fields.*", "Other fields (JSON)"]
    ])
    expect(roundTrip(schema, { "fields.count": "3", "fields.*": '{"room": "4", "__proto__": "x"}' })).toMatchObject({
      fields: { count: 3, room: "4" },
      failures: []
    })
    const read = roundTrip(schema, { "fields.count": "3", "fields.*": '{"room": "4", "__proto__": "x"}' })
    expect(Object.hasOwn(read.fields, "__proto__")).toBe(true)
    expect(Object.getPrototypeOf(read.fields)).toBe(Object.prototype)
    const clash = roundTrip(schema, { "fields.*": '{"count": 4}' })
    expect(clash.problems.get("fields.*")).toBe("“count” has its own field above: fill it in there.")
    expect(roundTrip(schema, { "fields.*": "[1]" }).problems.get("fields.*")).toBe(
      'Write a JSON object: {"name": value, …}.'
    )
    // No schema on additionalProperties (anything allowed, nothing expected): no box.
    expect(fieldsOf({ count: { type: "integer" } }).map((f) => f.name)).toEqual(["fields.count"])
  })

  it("a root that is no plain object with properties: the whole of fields as one JSON object", () => {
    for (const schema of [
      { type: "object", properties: { a: { type: "string" } }, oneOf: [{ required: ["a"] }, { required: ["b"] }] },
      { type: "object", properties: { a: { type: "string" } }, required: ["b"] },
      { $ref: "#/$defs/r", $defs: { r: { type: "object" } } },
      { type: "array" }
    ]) {
      expect(resultSchemaProblem(schema)).toBeUndefined()
      const fields = formFieldsOf(schema)
      expect(fields.map((f) => [f.kind, f.name, f.label])).toEqual([["json", "fields", "Fields (JSON)"]])
    }
    const schema = { type: "object", title: "Inspection", properties: { a: { type: "string" } }, required: ["b"] }
    expect(formFieldsOf(schema)[0]).toMatchObject({ label: "Fields (JSON)", enforced: true })
    expect(roundTrip(schema, { fields: '{"b": 1, "a": "x"}' })).toMatchObject({
      fields: { b: 1, a: "x" },
      failures: []
    })
    expect(roundTrip(schema, { fields: '"x"' }).problems.get("fields")).toBe('Write a JSON object: {"name": value, …}.')
  })

  it("an object with no listed properties: one box for its members (the root's), or for itself (a property's)", () => {
    expect(formFieldsOf({ type: "object" }).map((f) => [f.kind, f.name, f.label])).toEqual([
      ["json", "fields.*", "Fields (JSON)"]
    ])
    expect(formFieldsOf({}).map((f) => f.name)).toEqual(["fields"])
    const schema = {
      type: "object",
      properties: {
        meta: { type: "object", title: "Metadata" },
        // A required member it does not list: the form cannot stand for it either.
        spec: { type: "object", properties: { a: { type: "string" } }, required: ["b"] }
      },
      required: ["spec"]
    }
    const fields = formFieldsOf(schema)
    expect(fields.map((f) => [f.kind, f.name, f.label, f.hint])).toEqual([
      ["json", "fields.meta", "Metadata", "As JSON: an object in { }."],
      ["json", "fields.spec", "Spec", "As JSON: an object in { }."]
    ])
    const typed = { "fields.meta": '{"k": [1]}', "fields.spec": '{"b": "x"}' }
    expect(roundTrip(schema, typed)).toMatchObject({ fields: { meta: { k: [1] }, spec: { b: "x" } }, failures: [] })
    expect(roundTrip(schema, { "fields.spec": "[]" }).problems.get("fields.spec")).toBe(
      'Write a JSON object: {"name": value, …}.'
    )
    const values = formValuesOf(fields, { meta: { k: [1] }, spec: { b: "x" } })
    expect(readFormFields(fields, values).fields).toEqual({ meta: { k: [1] }, spec: { b: "x" } })
  })

  it("no schema: one optional Other fields (JSON) box, so structured fields can still be sent", () => {
    const fields = formFieldsOf(undefined)
    expect(fields.map((f) => [f.kind, f.name, f.label, f.enforced])).toEqual([
      ["json", "fields.*", "Other fields (JSON)", false]
    ])
    expect(readFormFields(fields, noValues)).toEqual({ fields: {}, problems: new Map() })
    const read = readFormFields(fields, submit(render(fields), { "fields.*": '{\n  "count": 3\n}' }))
    expect(read.fields).toEqual({ count: 3 })
  })

  it("a property the schema forbids (`false`) has no control; keys with dots and spaces get names that read one way", () => {
    const schema = {
      type: "object",
      properties: { "a.b": { type: "string" }, "a%2Eb": { type: "string" }, "x y": { type: "string" }, gone: false }
    }
    const fields = formFieldsOf(schema)
    expect(fields.map((f) => [f.name, f.id])).toEqual([
      ["fields.a%2Eb", "rf-fields.a%252Eb"],
      ["fields.a%252Eb", "rf-fields.a%25252Eb"],
      ["fields.x y", "rf-fields.x%20y"]
    ])
    expect(controlNameOf(["a.b", "*"])).toBe("fields.a%2Eb.%2A")
    expect(roundTrip(schema, { "fields.a%2Eb": "1", "fields.a%252Eb": "2", "fields.x y": "3" }).fields).toEqual({
      "a.b": "1",
      "a%2Eb": "2",
      "x y": "3"
    })
  })
})

describe("reading a submitted form", () => {
  const schema = {
    type: "object",
    properties: {
      count: { type: "integer", minimum: 0 },
      weight: { type: "number" },
      notes: { type: "string" },
      code: { type: "string", maxLength: 8 },
      at: { type: "string", format: "date-time" },
      local_at: { type: "string", format: "iso-date-time" },
      opens: { type: "string", format: "time" },
      day: { type: "string", format: "date" }
    },
    required: ["count"]
  }

  it("typed values as the schema's types: numbers, text without a phone keyboard's spaces, LF line breaks, dates with seconds and UTC", () => {
    expect(
      roundTrip(schema, {
        "fields.count": "12",
        "fields.weight": "-3.25",
        "fields.notes": "  Line one\nLine two  ",
        "fields.code": "AB12 ",
        "fields.at": "2026-05-01T14:30",
        "fields.local_at": "2026-05-01T14:30:15",
        "fields.opens": "08:00",
        "fields.day": "2026-05-01"
      })
    ).toMatchObject({
      fields: {
        count: 12,
        weight: -3.25,
        notes: "Line one\nLine two",
        code: "AB12",
        at: "2026-05-01T14:30:00Z",
        local_at: "2026-05-01T14:30:15",
        opens: "08:00:00Z",
        day: "2026-05-01"
      },
      failures: []
    })
  })

  it("empty optional controls are left out; the service names what is missing", () => {
    const read = roundTrip(schema, {})
    expect(read.fields).toEqual({})
    expect(read.failures.map((f) => [f.pointer, f.code])).toEqual([["/fields/count", "required"]])
  })

  it("what cannot be read is a problem on its control, and left out; what can is left to the schema", () => {
    const fields = formFieldsOf(schema)
    const read = readFormFields(fields, (name) =>
      name === "fields.count"
        ? ["twelve"]
        : name === "fields.weight"
          ? ["Infinity"]
          : name === "fields.code"
            ? ["far too long a code"]
            : []
    )
    expect(read.problems).toEqual(
      new Map([
        ["fields.count", "Enter a whole number, like 12."],
        ["fields.weight", "Enter a number, like 12 or 3.5."]
      ])
    )
    expect(read.fields).toEqual({ code: "far too long a code" })
    // Read as a number, judged by the schema: not an integer.
    expect(readFormFields(fields, (name) => (name === "fields.count" ? ["2.5"] : [])).fields).toEqual({ count: 2.5 })
  })

  it("every control the page renders is one readFormFields reads, and nothing else", () => {
    const fields = formFieldsOf(schema)
    const asked: Array<string> = []
    readFormFields(fields, (name) => {
      asked.push(name)
      return []
    })
    expect(new Set(asked)).toEqual(new Set(namesIn(render(fields))))
  })
})

describe("a whole form, both ways", () => {
  const schema = {
    type: "object",
    title: "Inspection",
    properties: {
      inspected_on: { type: "string", format: "date", title: "Inspection date" },
      chairs: { type: "integer", minimum: 0, maximum: 500 },
      condition: { enum: ["good", "worn", "broken"] },
      broken: { type: "boolean" },
      rooms: { type: "array", items: { type: "string", minLength: 1 }, minItems: 1 },
      tools: { type: "array", items: { enum: ["ladder", "drill"] } },
      contact: {
        type: "object",
        properties: { email: { type: "string", format: "email" }, phone: { type: "string", pattern: "^\\+?[0-9 ]+$" } },
        required: ["email"]
      },
      notes: { type: "string", description: "Anything else worth saying." },
      extra: { oneOf: [{ type: "string" }, { type: "array", items: { type: "string" } }] }
    },
    required: ["inspected_on", "chairs", "condition", "broken", "rooms", "contact"],
    additionalProperties: false
  }
  const result = {
    inspected_on: "2026-05-01",
    chairs: 42,
    condition: "worn",
    broken: false,
    rooms: ["Room 4", "Hall"],
    tools: ["drill"],
    contact: { email: "ada@example.com", phone: "+33 1 23" },
    notes: "Two chairs\nwobble.",
    extra: ["a", "b"]
  }

  it("render → what a browser sends → read: the fields the schema accepts", () => {
    expect(resultFieldFailures(schema, result)).toEqual([])
    const fields = formFieldsOf(schema)
    const typed = roundTrip(schema, {
      "fields.inspected_on": "2026-05-01",
      "fields.chairs": "42",
      "fields.condition": ["worn"],
      "fields.broken": ["false"],
      "fields.rooms": "Room 4\nHall",
      "fields.tools": ["drill"],
      "fields.contact.email": "ada@example.com",
      "fields.contact.phone": "+33 1 23",
      "fields.notes": "Two chairs\nwobble.",
      "fields.extra": '["a", "b"]'
    })
    expect(typed).toEqual({ fields: result, problems: new Map(), failures: [] })
    // The page's own pattern agrees on this value, as the browser compiles it.
    const contact = fields.find((f) => f.name === "fields.contact")
    const phone = contact?.kind === "group" ? contact.fields.find((f) => f.name === "fields.contact.phone") : undefined
    const pattern = phone?.kind === "text" ? phone.pattern : undefined
    expect(new RegExp(`^(?:${pattern})$`, "v").test("+33 1 23")).toBe(true)
    expect(new RegExp(`^(?:${pattern})$`, "v").test("call me")).toBe(false)
  })

  it("a previous result fills the form in again (a revision), and reads back as it was", () => {
    const fields = formFieldsOf(schema)
    const values = formValuesOf(fields, result)
    expect(values("fields.rooms")).toEqual(["Room 4\nHall"])
    expect(values("fields.condition")).toEqual(["worn"])
    // No is said again as No (the person said it): never left for an untouched control to imply.
    expect(values("fields.broken")).toEqual(["false"])
    const read = readFormFields(fields, submit(render(fields, values)))
    expect(read).toEqual({ fields: result, problems: new Map() })
  })

  it("a date-time with a zone is shown in UTC and reads back as the same instant", () => {
    const s = { type: "object", properties: { at: { type: "string", format: "date-time" } } }
    const fields = formFieldsOf(s)
    const values = formValuesOf(fields, { at: "2026-05-01T16:30:00+02:00" })
    expect(values("fields.at")).toEqual(["2026-05-01T14:30"])
    expect(readFormFields(fields, submit(render(fields, values))).fields).toEqual({ at: "2026-05-01T14:30:00Z" })
    const withSeconds = render(fields, formValuesOf(fields, { at: "2026-05-01T14:30:15Z" }))
    expect(Object.fromEntries(elementById(withSeconds, "rf-fields.at"))).toMatchObject({
      value: "2026-05-01T14:30:15",
      step: "1"
    })
  })

  it("typed values and problems are shown again, each problem beside its control and describing it", () => {
    const fields = formFieldsOf(schema)
    const values = formValuesOf(fields, { ...result, chairs: 900 })
    const problems = new Map([
      ["fields.chairs", "must be <= 500"],
      ["fields.condition", "is required by the task's result_schema"],
      ["fields.contact", "must have required property 'email'"]
    ])
    const markup = render(fields, values, problems)
    const chairs = elementById(markup, "rf-fields.chairs")
    expect(Object.fromEntries(chairs)).toMatchObject({
      value: "900",
      "aria-invalid": "true",
      "aria-describedby": "rf-fields.chairs-hint rf-fields.chairs-error"
    })
    expect(markup).toContain(
      '<p class="field-error" id="rf-fields.chairs-error"><span class="visually-hidden">Error: </span>must be &lt;= 500</p>\n<input id="rf-fields.chairs"'
    )
    expect(elementById(markup, "rf-fields.condition").get("aria-describedby")).toBe("rf-fields.condition-error")
    expect(elementById(markup, "rf-fields.condition-0").get("aria-invalid")).toBe("true")
    expect(markup).toContain('id="rf-fields.contact-error"')
    // Unchanged elsewhere: no problem, no mark.
    expect(elementById(markup, "rf-fields.inspected_on").has("aria-invalid")).toBe(false)
  })
})

describe("escaping", () => {
  const hostile = `<script>alert(1)</script>" onfocus="alert(2)' \`x\``

  it("hostile titles, descriptions, property names, enum values and typed values are text, never markup", () => {
    const schema = {
      type: "object",
      properties: {
        [hostile]: { type: "string", title: hostile, description: hostile, examples: [hostile] },
        pick: { enum: [hostile, "b"] },
        many: { enum: [hostile, "b", "c", "d", "e", "f"] },
        tags: { type: "array", items: { enum: [hostile] } },
        group: { type: "object", title: hostile, properties: { x: { type: "string", pattern: `"${hostile}` } } }
      }
    }
    expect(resultSchemaProblem(schema)).toBeUndefined()
    const fields = formFieldsOf(schema)
    const values: FormValues = (name) => (name === "fields.group.x" ? [hostile] : [])
    const markup = render(fields, values, new Map([["fields.pick", hostile]]))
    expect(markup).not.toContain("<script")
    // The quote is escaped, so no attribute of the markup's own ends early.
    expect(markup).not.toMatch(/\sonfocus="/)
    expect(markup).toContain("&lt;script&gt;alert(1)&lt;/script&gt;&quot; onfocus=&quot;alert(2)&#39; &#96;x&#96;")
    // Each control's name and values come back as written.
    expect(namesIn(markup)).toContain(`fields.${hostile}`)
    const read = readFormFields(
      fields,
      submit(markup, {
        [`fields.${hostile}`]: hostile,
        "fields.pick": [hostile],
        "fields.many": hostile,
        "fields.tags": [hostile]
      })
    )
    expect(read).toEqual({
      fields: { [hostile]: hostile, pick: hostile, many: hostile, tags: [hostile], group: { x: hostile } },
      problems: new Map()
    })
  })
})

describe("controlForPointer", () => {
  const schema = {
    type: "object",
    properties: {
      count: { type: "integer" },
      tags: { type: "array", items: { type: "string" } },
      address: {
        type: "object",
        properties: { city: { type: "string" }, "a/b~c": { type: "string" } },
        additionalProperties: { type: "string" }
      },
      meta: { oneOf: [{ type: "object" }, { type: "string" }] }
    },
    additionalProperties: false
  }
  const fields = formFieldsOf(schema)

  it("leads each pointer to its control, or the nearest one holding it", () => {
    const cases: Array<[string, string | undefined]> = [
      ["/fields/count", "fields.count"],
      ["/fields/tags", "fields.tags"],
      ["/fields/tags/3", "fields.tags"],
      ["/fields/address", "fields.address"],
      ["/fields/address/city", "fields.address.city"],
      ["/fields/address/a~1b~0c", "fields.address.a/b~c"],
      ["/fields/address/zip", "fields.address.*"],
      ["/fields/meta/deep/er", "fields.meta"],
      // A member the root does not allow, the root itself, or something else: above the form.
      ["/fields/stray", undefined],
      ["/fields", undefined],
      ["/summary", undefined],
      ["/fieldsx", undefined]
    ]
    for (const [pointer, control] of cases) expect(controlForPointer(fields, pointer), pointer).toBe(control)
  })

  it("a whole-JSON form takes every pointer into fields; no schema's box takes the members", () => {
    expect(controlForPointer(formFieldsOf({ type: "array" }), "/fields/a/b")).toBe("fields")
    expect(controlForPointer(formFieldsOf({ type: "array" }), "/fields")).toBe("fields")
    expect(controlForPointer(formFieldsOf(undefined), "/fields/x")).toBe("fields.*")
  })

  it("every failure the service reports for a form's fields lands on a control of that form", () => {
    const s = {
      type: "object",
      properties: {
        count: { type: "integer", minimum: 1 },
        code: { type: "string", pattern: "^[A-Z]+$" },
        rooms: { type: "array", items: { type: "string", minLength: 2 } },
        address: { type: "object", properties: { city: { type: "string" } }, required: ["city"] }
      },
      required: ["count", "address"]
    }
    const f = formFieldsOf(s)
    const read = readFormFields(
      f,
      submit(render(f), { "fields.count": "0", "fields.code": "abc", "fields.rooms": "A\nB" })
    )
    const failures = resultFieldFailures(s, read.fields)
    expect(failures.map((x) => [x.pointer, controlForPointer(f, x.pointer)])).toEqual([
      ["/fields/count", "fields.count"],
      ["/fields/code", "fields.code"],
      ["/fields/rooms/0", "fields.rooms"],
      ["/fields/rooms/1", "fields.rooms"],
      ["/fields/address/city", "fields.address.city"]
    ])
  })
})

// ---------------------------------------------------------------------------------------------

const propOptions = { arbitrary: { runs: Number(process.env.PROP_RUNS ?? 200) } }

describe("properties", () => {
  const schema = {
    type: "object",
    properties: {
      name: { type: "string" },
      notes: { type: "string", description: "What you saw." },
      count: { type: "integer" },
      ratio: { type: "number" },
      flag: { type: "boolean" },
      pick: { enum: ["a", "b & <c>", "d"] },
      many: { enum: ["m1", "m2", "m3", "m4", "m5", "m6", 7, null] },
      tags: { type: "array", items: { type: "string" } },
      sizes: { type: "array", items: { type: "number" } },
      kinds: { type: "array", items: { enum: ["x", "y", "z"] } },
      place: {
        type: "object",
        properties: { city: { type: "string" }, floor: { type: "integer" } },
        required: ["city"]
      },
      extra: { oneOf: [{ type: "string" }, { type: "number" }, { type: "array" }, { type: "object" }] }
    },
    required: ["count", "flag"],
    additionalProperties: { type: ["string", "number", "boolean", "null"] }
  }
  const Json = Schema.Union([
    Schema.String,
    Schema.Finite,
    Schema.Array(Schema.String),
    Schema.Record(Schema.String, Schema.Finite)
  ])
  const Text = Schema.String
  const Generated = Schema.Struct({
    name: Schema.optionalKey(Text),
    notes: Schema.optionalKey(Text),
    count: Schema.Int,
    ratio: Schema.optionalKey(Schema.Finite),
    flag: Schema.Boolean,
    pick: Schema.optionalKey(Schema.Literals(["a", "b & <c>", "d"])),
    many: Schema.optionalKey(Schema.Union([Schema.Literals(["m1", "m2", "m3", "m4", "m5", "m6", 7]), Schema.Null])),
    tags: Schema.optionalKey(Schema.Array(Text)),
    sizes: Schema.optionalKey(Schema.Array(Schema.Finite)),
    kinds: Schema.optionalKey(Schema.Array(Schema.Literals(["x", "y", "z"]))),
    place: Schema.optionalKey(Schema.Struct({ city: Text, floor: Schema.optionalKey(Schema.Int) })),
    extra: Schema.optionalKey(Json),
    others: Schema.Record(Schema.String, Schema.Union([Schema.String, Schema.Finite, Schema.Boolean, Schema.Null]))
  })

  /** A generated result as the form can hold it: text as typed on one line (or several, in prose), no -0. */
  const formable = (g: typeof Generated.Type): Record<string, unknown> => {
    const line = (t: string) => t.replace(/[\r\n]+/g, " ").trim()
    const zero = (n: number) => (Object.is(n, -0) ? 0 : n)
    const result: Record<string, unknown> = {}
    const set = (key: string, value: unknown) =>
      Object.defineProperty(result, key, { value, enumerable: true, writable: true, configurable: true })
    const listed = new Set(Object.keys(schema.properties))
    for (const [key, value] of Object.entries(g.others))
      if (!listed.has(key)) set(key, typeof value === "number" ? zero(value) : value)
    if (g.name !== undefined && line(g.name) !== "") set("name", line(g.name))
    const notes = g.notes?.replace(/\r\n?/g, "\n").trim()
    if (notes !== undefined && notes !== "") set("notes", notes)
    set("count", zero(g.count))
    if (g.ratio !== undefined) set("ratio", zero(g.ratio))
    set("flag", g.flag)
    if (g.pick !== undefined) set("pick", g.pick)
    if (g.many !== undefined) set("many", g.many)
    const tags = g.tags?.map(line).filter((t) => t !== "")
    if (tags !== undefined && tags.length > 0) set("tags", tags)
    if (g.sizes !== undefined && g.sizes.length > 0) set("sizes", g.sizes.map(zero))
    const kinds = g.kinds === undefined ? [] : ["x", "y", "z"].filter((k) => g.kinds!.includes(k as "x"))
    if (kinds.length > 0) set("kinds", kinds)
    if (g.place !== undefined && line(g.place.city) !== "")
      set("place", { city: line(g.place.city), ...(g.place.floor === undefined ? {} : { floor: zero(g.place.floor) }) })
    if (g.extra !== undefined && !(typeof g.extra === "string" && g.extra === ""))
      set("extra", JSON.parse(JSON.stringify(g.extra)))
    return result
  }

  it.prop(
    "any result the form can hold comes back from a submission as it was, and the schema accepts it",
    { generated: Generated },
    ({ generated }) => {
      const result = formable(generated)
      expect(resultFieldFailures(schema, result)).toEqual([])
      const fields = formFieldsOf(schema)
      const markup = render(fields, formValuesOf(fields, result))
      const read = readFormFields(fields, submit(markup))
      expect(read.problems).toEqual(new Map())
      expect(read.fields).toEqual(result)
      // Nothing typed changed the markup around it: one control per name, no stray tag.
      expect(markup).not.toMatch(/<(?!\/?(?:div|label|p|span|input|textarea|select|option|fieldset|legend)\b)/)
    },
    propOptions
  )
})
