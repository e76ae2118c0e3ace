/**
 * Stores for tests that swap one into the app's composition (test/support/services.ts): the real
 * store, built as usual, with some of its methods replaced — one that fails while a test says the
 * database is down, one that counts or holds back what it finds.
 */
import { Effect, Layer } from "effect"
import { TaskStore } from "../../src/services/task_store.ts"

/** The real `TaskStore` with the methods `replace` gives (from the real one) in place of its own. */
export const taskStoreReplacing = (replace: (real: TaskStore["Service"]) => Partial<TaskStore["Service"]>) =>
  Layer.effect(
    TaskStore,
    Effect.map(
      TaskStore.useSync((real) => real),
      (real) => TaskStore.of({ ...real, ...replace(real) })
    )
  ).pipe(Layer.provide(TaskStore.layer))
