// The judged set (test/fixtures/relevance.json) holds search to the thresholds issues 25 and 36
// ask for, on each part of its one split: a change that ranks the right people lower, guesses
// modes or places wrongly, answers no-answer requests with somebody or answerable ones with nobody
// fails here. `npm run bench -- --relevance` prints the same figures. Changes are tuned on the
// tuning part only; the held-out part is measured, and its floors are what it scored when it was
// first measured after the change it was held out from (docs/performance.md), less a margin.
import { describe, expect, it } from "@effect/vitest"
import { evaluate, evaluateProbes, judgedSet, partOf, probes } from "../support/relevance.ts"

/** FNV-1a, 32 bits, over a text's UTF-8 bytes: the split's rule. */
const fnv1a = (text: string) => {
  let hash = 0x811c9dc5
  for (const byte of new TextEncoder().encode(text)) hash = Math.imul(hash ^ byte, 0x01000193) >>> 0
  return hash
}

describe("the judged set and its one split", () => {
  it("is judged over queries of every mode, answerable and not, in several languages and scripts", () => {
    expect(judgedSet.length).toBeGreaterThanOrEqual(360)
    for (const mode of ["digital", "physical", "hybrid", null]) {
      expect(judgedSet.some((j) => j.mode === mode)).toBe(true)
    }
    expect(judgedSet.filter((j) => Object.keys(j.relevant).length === 0).length).toBeGreaterThanOrEqual(80)
    for (const script of [
      /\p{Script=Han}/u,
      /\p{Script=Arabic}/u,
      /\p{Script=Cyrillic}/u,
      /\p{Script=Devanagari}/u,
      /\p{Script=Hebrew}/u,
      /\p{Script=Greek}/u,
      /\p{Script=Thai}/u,
      /\p{Script=Hangul}/u,
      /\p{Script=Bengali}/u
    ]) {
      expect(judgedSet.some((j) => script.test(j.query))).toBe(true)
    }
  })

  it("is split by the recorded rule: issue 25's 83 queries tuning, each later one held out when its hash is even", () => {
    judgedSet.forEach((j, at) => {
      const part = at < 83 ? "tuning" : fnv1a(j.query) % 2 === 0 ? "held-out" : "tuning"
      expect(j.part, j.query).toBe(part)
    })
    expect(partOf("held-out").length).toBeGreaterThanOrEqual(130)
  })
})

describe("relevance on the tuning part", () => {
  const report = evaluate(partOf("tuning"))

  // Floors: issue 36's fourth session ended at nDCG@5 0.983, P@1 0.994, mode 0.978, location 1,
  // 1 answerable empty (docs/decisions/performance-history.md, "Relevance, change by change"), less a margin.
  it("ranks the right people first: nDCG@5 ≥ 0.975 and precision@1 ≥ 0.98", () => {
    expect(report.ndcg5).toBeGreaterThanOrEqual(0.975)
    expect(report.p1).toBeGreaterThanOrEqual(0.98)
  })

  it("reads the mode right for 97% of queries and the place for 99%", () => {
    expect(report.modeAccuracy).toBeGreaterThanOrEqual(0.97)
    expect(report.locationAccuracy).toBeGreaterThanOrEqual(0.99)
  })

  it("answers every no-answer request empty or with the reason, and at most 1 answerable one empty", () => {
    expect(report.noAnswer.handled).toBe(report.noAnswer.total)
    expect(report.answerableEmpty).toBeLessThanOrEqual(1)
  })

  it("answers every request naming a place nobody serves with nobody", () => {
    const placed = report.outcomes.filter(
      (o) => o.noAnswerHandled !== undefined && o.location !== null && o.expectedMode !== "digital"
    )
    expect(placed.length).toBeGreaterThanOrEqual(10)
    for (const o of placed.filter((o) => o.hint?.startsWith("Nobody in the catalogue works in"))) {
      expect(o.top, o.query).toEqual([])
    }
  })
})

describe("fresh probes of the tuning workflow, written to find answerable requests answered with nobody", () => {
  // Batches 1 to 6, which the third session wrote; batches 7 and 8, the fourth's, have floors of
  // their own (below).
  const report = evaluateProbes(probes.filter((p) => p.batch <= 6))

  it("are requests of their own, none in the judged set, most answerable", () => {
    const judged = new Set(judgedSet.map((j) => j.query))
    for (const p of probes) expect(judged.has(p.query), p.query).toBe(false)
    expect(new Set(probes.map((p) => p.query)).size).toBe(probes.length)
    expect(report.answerable).toBeGreaterThanOrEqual(300)
    expect(report.noAnswer.total).toBeGreaterThanOrEqual(20)
  })

  // Floors: 21 of 346 answerable empty and an acceptable person first for 307 when the session
  // that wrote them ended; 7 and 325 when the fourth ended (docs/decisions/
  // performance-history.md, "Relevance, change by change"); less a margin.
  it("answer at most 10 answerable requests with nobody, and every request nobody can take empty or with the reason", () => {
    expect(report.answerableEmpty).toBeLessThanOrEqual(10)
    expect(report.noAnswer.handled).toBe(report.noAnswer.total)
  })

  it("put an acceptable person first for 92% of the answerable ones", () => {
    expect(report.first / report.answerable).toBeGreaterThanOrEqual(0.92)
  })

  describe("batches 7 and 8, written before any run of the fourth session's ranking", () => {
    const fresh = evaluateProbes(probes.filter((p) => p.batch === 7 || p.batch === 8))

    // First scores: 110 answerable, 11 answered with nobody, 95 acceptable first, 11 of 12
    // nobody can take handled, mode 109 of 122; at the session's end 0, 106, 11 of 12, 117 of 122.
    it("include requests in other languages and scripts, and say the mode their wording makes clear", () => {
      expect(fresh.answerable).toBeGreaterThanOrEqual(100)
      expect(fresh.mode.judged).toBe(fresh.answerable + fresh.noAnswer.total)
      const other = probes.filter((p) => (p.batch === 7 || p.batch === 8) && !/^[\x20-\x7E’]*$/.test(p.query))
      expect(other.length).toBeGreaterThanOrEqual(20)
    })

    it("answer at most 2 answerable ones with nobody and all but one nobody can take empty or with the reason", () => {
      expect(fresh.answerableEmpty).toBeLessThanOrEqual(2)
      expect(fresh.noAnswer.handled).toBeGreaterThanOrEqual(fresh.noAnswer.total - 1)
    })

    it("put an acceptable person first for 92% and read the mode right for 92%", () => {
      expect(fresh.first / fresh.answerable).toBeGreaterThanOrEqual(0.92)
      expect(fresh.mode.right / fresh.mode.judged).toBeGreaterThanOrEqual(0.92)
    })
  })

  describe("batches 9 and 10, written after the fourth session's tuning as checks", () => {
    // Batch 9 read once (27 answerable, 3 with nobody) and then tuned on; batch 10 never tuned
    // on (32 answerable, 2 with nobody, 30 acceptable first, 4 of 4 no-answer, mode 35 of 36).
    const checks = evaluateProbes(probes.filter((p) => p.batch === 9 || p.batch === 10))

    it("answer at most 4 answerable ones with nobody, put an acceptable person first for 88%", () => {
      expect(checks.answerableEmpty).toBeLessThanOrEqual(4)
      expect(checks.first / checks.answerable).toBeGreaterThanOrEqual(0.88)
      expect(checks.noAnswer.handled).toBeGreaterThanOrEqual(checks.noAnswer.total - 1)
    })
  })

  describe("batch 11, written before any run of the fifth session's ranking", () => {
    // First score: 41 answerable, 7 answered with nobody, 31 acceptable first, 8 of 9 nobody can
    // take handled, mode 42 of 50; at the session's end 2, 38, 9 of 9, 45 of 50.
    const fresh = evaluateProbes(probes.filter((p) => p.batch === 11))

    it("are mostly in other languages and scripts, and say the mode their wording makes clear", () => {
      expect(fresh.answerable).toBeGreaterThanOrEqual(40)
      expect(fresh.mode.judged).toBe(fresh.answerable + fresh.noAnswer.total)
      const other = probes.filter((p) => p.batch === 11 && !/^[\x20-\x7E’]*$/.test(p.query))
      expect(other.length).toBeGreaterThanOrEqual(20)
    })

    it("answer at most 3 answerable ones with nobody, all nobody can take empty or with the reason", () => {
      expect(fresh.answerableEmpty).toBeLessThanOrEqual(3)
      expect(fresh.noAnswer.handled).toBe(fresh.noAnswer.total)
    })

    it("put an acceptable person first for 88% and read the mode right for 85%", () => {
      expect(fresh.first / fresh.answerable).toBeGreaterThanOrEqual(0.88)
      expect(fresh.mode.right / fresh.mode.judged).toBeGreaterThanOrEqual(0.85)
    })
  })
})

describe("probe batches 12 and 13, issue 36's sixth session", () => {
  // Batch 12, written and committed before any run of the session's ranking (two taken out
  // unread as judged requests word for word): first scores 42 answerable, 3 answered with nobody,
  // 37 acceptable first, 4 of 7 nobody can take handled, mode 47 of 49; at the session's end 0,
  // 42, 7 of 7, 49 of 49. Batch 13, kept out of every run until the last and never tuned on: 31
  // answerable, 2 with nobody, 28 acceptable first, 2 of 3 handled, mode 26 of 34.
  const tuned = evaluateProbes(probes.filter((p) => p.batch === 12))
  const check = evaluateProbes(probes.filter((p) => p.batch === 13))

  it("are half in other languages and scripts, and say the mode their wording makes clear", () => {
    for (const batch of [12, 13]) {
      const written = probes.filter((p) => p.batch === batch)
      // Other languages' letters or scripts in 16 or more (others are in other languages but ASCII).
      expect(written.filter((p) => !/^[\x20-\x7E’]*$/.test(p.query)).length).toBeGreaterThanOrEqual(15)
      expect(written.every((p) => p.mode !== undefined)).toBe(true)
    }
  })

  it("batch 12: at most one answerable answered with nobody, 92% acceptable first, modes 92%", () => {
    expect(tuned.answerableEmpty).toBeLessThanOrEqual(1)
    expect(tuned.noAnswer.handled).toBe(tuned.noAnswer.total)
    expect(tuned.first / tuned.answerable).toBeGreaterThanOrEqual(0.92)
    expect(tuned.mode.right / tuned.mode.judged).toBeGreaterThanOrEqual(0.92)
  })

  it("batch 13: at most 3 answerable answered with nobody, 85% acceptable first, modes 70%", () => {
    expect(check.answerableEmpty).toBeLessThanOrEqual(3)
    expect(check.noAnswer.handled).toBeGreaterThanOrEqual(check.noAnswer.total - 1)
    expect(check.first / check.answerable).toBeGreaterThanOrEqual(0.85)
    expect(check.mode.right / check.mode.judged).toBeGreaterThanOrEqual(0.7)
  })
})

describe("probe batch 14, issue 36's seventh session", () => {
  // Written and committed before any run of the session's ranking, kept out of every run's output
  // until its changes for batches 1-13 were made; first read (at 43cc095): 38 answerable, 6
  // answered with nobody, 27 acceptable first, 4 of 7 nobody can take handled, mode 38 of 45.
  // Then tuned on: 0, 38, 5 of 7, 42 of 45. Floors a little under the latter.
  const batch = probes.filter((p) => p.batch === 14)
  const report = evaluateProbes(batch)

  it("is mostly in other languages and scripts, and says the mode its wording makes clear", () => {
    expect(batch.filter((p) => !/^[\x20-\x7E’]*$/.test(p.query)).length).toBeGreaterThanOrEqual(25)
    expect(batch.every((p) => p.mode !== undefined)).toBe(true)
  })

  it("no answerable request answered with nobody, 95% acceptable first, 5 of 7 no-answer, modes 90%", () => {
    expect(report.answerableEmpty).toBe(0)
    expect(report.first / report.answerable).toBeGreaterThanOrEqual(0.95)
    expect(report.noAnswer.handled).toBeGreaterThanOrEqual(5)
    expect(report.mode.right / report.mode.judged).toBeGreaterThanOrEqual(0.9)
  })
})

describe("probe batch 17, issue 36's tenth session", () => {
  // Written and committed before any run of the session's ranking (16d2ba4); first read there: 36
  // answerable, 2 answered with nobody, 33 acceptable first, 3 of 7 nobody can take handled, mode
  // 38 of 43. Then tuned on (words of returning work, of where, ghostwriting and mystery shopping
  // said in other words): 1, 35, 7 of 7, 43 of 43. Floors a little under the latter.
  const batch = probes.filter((p) => p.batch === 17)
  const report = evaluateProbes(batch)

  it("is mostly in other languages and scripts, and says the mode its wording makes clear", () => {
    expect(batch.filter((p) => !/^[\x20-\x7E’]*$/.test(p.query)).length).toBeGreaterThanOrEqual(20)
    expect(batch.every((p) => p.mode !== undefined)).toBe(true)
  })

  it("at most one answerable request answered with nobody, 94% acceptable first, 7 of 7 no-answer, modes 95%", () => {
    expect(report.answerableEmpty).toBeLessThanOrEqual(1)
    expect(report.first / report.answerable).toBeGreaterThanOrEqual(0.94)
    expect(report.noAnswer.handled).toBe(7)
    expect(report.mode.right / report.mode.judged).toBeGreaterThanOrEqual(0.95)
  })
})

describe("probe batch 18, issue 36's eleventh session", () => {
  // Written and committed before any run of the session's ranking (008aaac); first read there: 37
  // answerable, 3 answered with nobody, 31 acceptable first, 4 of 7 nobody can take handled, mode
  // 35 of 44. Then tuned on (words of one thing read as another, work said in everyday words, an
  // app asked about at a place): 1, 35, 6 of 7, 40 of 44. Floors a little under the latter.
  const batch = probes.filter((p) => p.batch === 18)
  const report = evaluateProbes(batch)

  it("is half in other languages and scripts, and says the mode its wording makes clear", () => {
    expect(batch.filter((p) => !/^[\x20-\x7E’]*$/.test(p.query)).length).toBeGreaterThanOrEqual(20)
    expect(batch.every((p) => p.mode !== undefined)).toBe(true)
  })

  it("at most one answerable request answered with nobody, 92% acceptable first, 6 of 7 no-answer, modes 88%", () => {
    expect(report.answerableEmpty).toBeLessThanOrEqual(1)
    expect(report.first / report.answerable).toBeGreaterThanOrEqual(0.92)
    expect(report.noAnswer.handled).toBeGreaterThanOrEqual(6)
    expect(report.mode.right / report.mode.judged).toBeGreaterThanOrEqual(0.88)
  })
})

describe("relevance on the held-out part", () => {
  const report = evaluate(partOf("held-out"))

  // Floors: what the part scored when measured once, at the end of the session that changed the
  // ranking last (issue 36's tenth session, docs/decisions/performance-history.md, "Relevance,
  // change by change": nDCG@5 0.957, P@1 0.971, mode 0.905, location 0.971, 34 of 35 no-answer, 0
  // answerable empty; 0.962 and 0.898 before it), less a margin; the mode's floor stays at 0.88
  // and the place's at 0.96.
  it("ranks, reads the mode and finds the place near issue 36's targets", () => {
    expect(report.ndcg5).toBeGreaterThanOrEqual(0.95)
    expect(report.p1).toBeGreaterThanOrEqual(0.95)
    expect(report.modeAccuracy).toBeGreaterThanOrEqual(0.88)
    expect(report.locationAccuracy).toBeGreaterThanOrEqual(0.96)
  })

  it("answers at most 1 answerable request empty, and 5 in 6 no-answer requests empty or with the reason", () => {
    expect(report.answerableEmpty).toBeLessThanOrEqual(1)
    expect(report.noAnswer.handled / report.noAnswer.total).toBeGreaterThanOrEqual(5 / 6)
  })
})
