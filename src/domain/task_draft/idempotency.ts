/**
 * The idempotency key's limits and the rule that words them: shared by the draft's
 * `idempotency_key` member, the Idempotency-Key header, the MCP argument and the documents.
 */

/** The most characters (code points, after trimming) of an idempotency key. */
export const IDEMPOTENCY_KEY_MAX = 255
/**
 * The fewest characters (code points, after trimming) of an idempotency key (issue 33). A replay
 * hands back the task token, and a task's draft can be rebuilt from GET /tasks/{reference}, so the
 * key is what keeps a draft from being enough to act as the task's agent: a secret, not a label.
 */
export const IDEMPOTENCY_KEY_MIN = 16
/** The rule as every document, description and refusal words it. */
export const idempotencyKeyRule = `at least ${IDEMPOTENCY_KEY_MIN} characters; a UUID is recommended`
/** Whether a key, as read (trimmed), is too short to be a secret; counted as the maximum is. */
export const isIdempotencyKeyTooShort = (key: string): boolean => [...key].length < IDEMPOTENCY_KEY_MIN
