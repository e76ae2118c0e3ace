/**
 * Stored tasks for tests that write through `TaskStore` directly: a distinct reference per call,
 * an `open` physical task in Berlin with no participant and no timer armed; override what a test
 * needs.
 */
import { randomBytes, randomUUID } from "node:crypto"
import type { StoredTask } from "../../src/domain/task_record.ts"
import { base32 } from "../../src/services/ids.ts"

export const nextReference = () => `tsk_${base32(randomBytes(17)).slice(0, 26)}`

export const storedTask = (overrides: Partial<StoredTask> = {}): StoredTask => {
  const created = "2026-11-21T10:00:00.000Z"
  return {
    reference: nextReference(),
    state: "open",
    executionMode: "physical",
    participantSlug: null,
    agent: "acme-bot/1",
    principal: "ACME GmbH",
    brief: {
      action: "Photograph the storefront",
      location: "Berlin, Germany",
      timing: "by 2030-12-01T17:00:00Z",
      deadline: null,
      expected_result: "Five photos",
      acceptance_test: "The sign is legible",
      constraints: null,
      budget: "EUR 40",
      contact_email: null
    },
    result: null,
    outcome: null,
    history: [{ from: null, to: "open", actor: "agent", at: created }],
    version: 1,
    tokenHash: `hash-${randomUUID()}`,
    idempotencyKey: `key-${randomUUID()}`,
    draftFingerprint: `fp-${randomUUID()}`,
    createdAt: created,
    updatedAt: created,
    requestedParticipant: null,
    passedOver: [],
    offerExpiresAt: null,
    reviewDueAt: null,
    deadlineAt: null,
    infeasibility: null,
    revisions: 0,
    nextTimerAt: null,
    webhookUrl: null,
    ...overrides
  }
}
