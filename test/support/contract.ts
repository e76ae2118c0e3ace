/**
 * Constants of the published contract, written out in the tests (not imported from src/), so a
 * change in the code that strays from the contract fails a test.
 */

/** The eleven task states, in the order the published document lists them. */
export const publishedTaskStates = [
  "draft",
  "preflight_failed",
  "open",
  "matching",
  "awaiting_participant",
  "accepted",
  "in_flight",
  "submitted",
  "settled",
  "declined",
  "cancelled"
] as const
