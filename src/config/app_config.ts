/**
 * The `AppConfig` service: the settings (`settings.ts`), read once from the environment
 * (`load.ts`). Tests give settings of their own (test/support/settings.ts).
 */

import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { loadSettings } from "./load.ts"
import type { AppSettings } from "./settings.ts"

export class AppConfig extends Context.Service<AppConfig, AppSettings>()("task-marketplace/AppConfig") {
  /** The settings read from the environment; a refused variable fails the layer with `InvalidConfig`. */
  static readonly layer = Layer.effect(
    AppConfig,
    Effect.suspend(() => loadSettings)
  )

  /**
   * The settings read from the environment with `overrides` merged over them (a member given
   * replaces the loaded one whole: `artifacts`, say, is replaced, not merged member by member).
   */
  static readonly layerWithOverrides = (overrides: Partial<AppSettings>) =>
    Layer.effect(
      AppConfig,
      Effect.map(
        Effect.suspend(() => loadSettings),
        (settings): AppSettings => ({ ...settings, ...overrides })
      )
    )
}
