/**
 * The embedded authorization server's signing keys, the rule alone: how long a retired key stays
 * published. Pure: `services/signing_keys.ts` applies it. It imports nothing, so the operator's
 * command line can quote it without loading Effect.
 */
/** Longer than any token a key signs lives (access and ID tokens: at most 10 minutes), with margin. */
export const retiredKeyRetention = 30 * 60_000
