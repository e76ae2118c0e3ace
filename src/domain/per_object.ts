/**
 * A function worked out once per object (by identity) and kept while the object lives: for the
 * immutable records the service hands out again and again (the participant directory's snapshot,
 * its pages). With `bound`, at most that many results are kept: past it, everything kept is let go
 * at once and worked out again as it is asked for.
 */
export const perObject = <K extends object, V>(
  make: (key: K) => V,
  bound = Number.POSITIVE_INFINITY
): ((key: K) => V) => {
  let kept = new WeakMap<K, V>()
  let count = 0
  return (key) => {
    let value = kept.get(key)
    if (value === undefined) {
      value = make(key)
      if (++count > bound) {
        kept = new WeakMap()
        count = 1
      }
      kept.set(key, value)
    }
    return value
  }
}
