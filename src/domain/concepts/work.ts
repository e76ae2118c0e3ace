/**
 * The concept layer of matching, as data, in one list: its entries live in modules by family
 * (language work, imaging and inspection, retail and errands, research and data, software and
 * field work); what a concept is and how its words are read is in ./concept.ts. The order is the
 * order words are looked up in (a word as written wins over a stem another concept lists).
 */
import type { Concept } from "./concept.ts"
import { imagingAndInspection } from "./imaging_inspection.ts"
import { languageWork } from "./language.ts"
import { researchAndData } from "./research_data.ts"
import { retailAndErrands } from "./retail_errands.ts"
import { softwareAndField } from "./software_field.ts"

export type { Concept, Family } from "./concept.ts"

export const concepts: ReadonlyArray<Concept> = [
  ...languageWork,
  ...imagingAndInspection,
  ...retailAndErrands,
  ...researchAndData,
  ...softwareAndField
]
