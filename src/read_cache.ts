/**
 * Read caches: values kept so that a repeated read does not work them out again. Three kinds,
 * resting on one invariant.
 *
 * A kept value is served only for exactly what it was made from: the same immutable object
 * (`cachedPerObject`), the same argument of a pure function (`memoized`, `madeOnce`), or the same
 * key at the same version (`versionedCache`), where the caller
 * reads the version fresh for every request — from the database, or from a commit mark that has
 * not moved since the version was read (sql/commit_marks.ts) — and takes it before reading what
 * the value is made from (a change in between moves the version, so that value is never served).
 * A key that is itself all its value is made from has one version (`immutableKey`).
 * Whatever would change the value changes the object or the version, so a cache can only answer
 * what recomputing would answer. Bounds decide only how often it recomputes: a value let go is
 * made again, the same, when it is next asked for.
 *
 * A hit costs a map lookup and, for the versioned kind, a comparison of versions and a delete and
 * set to mark the key the most recently used (skipped when it already is); it allocates nothing.
 * This module imports nothing from the project, so every layer can use it.
 */

/**
 * `make`, worked out once per object (by identity) and kept while the object lives: for the
 * immutable records and snapshots the service hands out again and again. At most `maxObjects`
 * values are kept: past that, everything kept is let go at once (a WeakMap has no oldest entry to
 * drop) and made again as it is asked for.
 */
export const cachedPerObject = <K extends object, V>(
  make: (key: K) => V,
  maxObjects = Number.POSITIVE_INFINITY
): ((key: K) => V) => {
  let kept = new WeakMap<K, V>()
  let count = 0
  return (key) => {
    let value = kept.get(key)
    if (value === undefined) {
      value = make(key)
      if (++count > maxObjects) {
        kept = new WeakMap()
        count = 1
      }
      kept.set(key, value)
    }
    return value
  }
}

/**
 * `make`, worked out once per key (by value, as a Map compares keys) and kept: for a pure function
 * of a string or number, whose answer for a key can never change (a word's stem). At most
 * `maxKeys` values are kept: past that, everything kept is let go at once and made again as it is
 * asked for. Values may be null but not undefined (undefined is the miss).
 */
export const memoized = <K, V extends {} | null>(
  make: (key: K) => V,
  maxKeys = Number.POSITIVE_INFINITY
): ((key: K) => V) => {
  const kept = new Map<K, V>()
  return (key) => {
    let value = kept.get(key)
    if (value === undefined) {
      value = make(key)
      if (kept.size >= maxKeys) kept.clear()
      kept.set(key, value)
    }
    return value
  }
}

/**
 * `make`'s value, made on the first call and kept: for a constant worked out or loaded lazily (a
 * module imported on first use), so that start-up does not pay for it. A failed promise is kept
 * as it is, as any value.
 */
export const madeOnce = <V>(make: () => V): (() => V) => {
  let made: { readonly value: V } | undefined
  return () => {
    made ??= { value: make() }
    return made.value
  }
}

/** Values kept by key and version, the least recently used let go first (see `versionedCache`). */
export interface VersionedCache<K, V> {
  /** The value kept for `key` at exactly `version`, else undefined (then the caller makes it). */
  readonly get: (key: K, version: number) => V | undefined
  /** Keeps `value`, made for `key` at `version`, in place of whatever was kept for `key`. */
  readonly set: (key: K, version: number, value: V) => void
}

export interface VersionedCacheOptions<V> {
  /** The most the kept values may weigh together; the least recently used are let go past it. */
  readonly budget: number
  /** A value's weight, in the budget's unit; 1 when not given (the budget is then a count). */
  readonly weightOf?: (value: V) => number
  /** A value weighing more than this is not kept at all (at most, and by default, the budget). */
  readonly largestWeight?: number
}

/**
 * The version to give for a key that is itself everything its value is made from (a task's text, a
 * schema's canonical JSON): such a key cannot come to mean something else, so it has one version.
 */
export const immutableKey = 0

interface Entry<V> {
  readonly version: number
  readonly value: V
  readonly weight: number
}

/**
 * A cache of values made for a key at a version: `get(key, version)` serves a value only if it was
 * `set` for that key at that same version. Least recently used first out within a budget of
 * weight. Values may be null but not undefined (undefined is the miss).
 */
export const versionedCache = <K, V extends {} | null>(options: VersionedCacheOptions<V>): VersionedCache<K, V> => {
  const { budget, weightOf = () => 1 } = options
  const largestWeight = Math.min(options.largestWeight ?? budget, budget)
  // A Map iterates in insertion order: re-inserting a key on use keeps the least recently used first.
  const entries = new Map<K, Entry<V>>()
  let weight = 0
  // The key used or set last, so already last in `entries`: using it again moves nothing.
  let newest: K | undefined
  const remove = (key: K) => {
    const entry = entries.get(key)
    if (entry === undefined) return
    entries.delete(key)
    weight -= entry.weight
  }
  return {
    get: (key, version) => {
      const entry = entries.get(key)
      if (entry === undefined || entry.version !== version) return undefined
      if (key !== newest) {
        entries.delete(key)
        entries.set(key, entry)
        newest = key
      }
      return entry.value
    },
    set: (key, version, value) => {
      remove(key)
      const entryWeight = weightOf(value)
      if (entryWeight > largestWeight) return
      entries.set(key, { version, value, weight: entryWeight })
      newest = key
      weight += entryWeight
      while (weight > budget) remove(entries.keys().next().value!)
    }
  }
}
