/** Execution modes: where a task's work happens, the draft's `execution_mode` member. */
import * as Schema from "effect/Schema"

/** The execution modes, in the order documents list them. */
export const executionModes = ["digital", "physical", "hybrid"] as const

/** An execution mode, as a Schema (the wire shape and the stored column). */
export const ExecutionMode = Schema.Literals(executionModes).annotate({
  identifier: "ExecutionMode",
  description: "Where the work happens: digital (online only), physical (on site), hybrid (both)."
})
export type ExecutionMode = typeof ExecutionMode.Type

/** Whether a (lower-cased) string names an execution mode. */
export const isExecutionMode = (s: string): s is ExecutionMode => (executionModes as ReadonlyArray<string>).includes(s)
