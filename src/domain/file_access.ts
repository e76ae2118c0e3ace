/**
 * Who may read a task's uploaded file: the agent (with the task's token) the files of a submitted
 * result, a participant the files they uploaded themselves, attached to a result or not. Anyone
 * else is answered as if there were no such file, so a wrong party never learns whether it exists.
 */

/** Who asks for a file: the task's agent, or a participant by slug. */
export type FileReader = { readonly _tag: "Agent" } | { readonly _tag: "Participant"; readonly slug: string }

/** What the rule reads of a stored file: whether a result carries it, and who uploaded it. */
export interface FileAccessFacts {
  readonly attached: boolean
  readonly uploader: string
}

/** Whether `reader` may read `file` (none: there is no such file). */
export const mayReadFile = (reader: FileReader, file: FileAccessFacts | undefined): boolean =>
  file !== undefined && (reader._tag === "Agent" ? file.attached : file.uploader === reader.slug)
