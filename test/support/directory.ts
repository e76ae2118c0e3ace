/**
 * A generated participant directory of any size, deterministic for a seed: realistic, varied
 * names (with accents), disciplines, locations and tags taken from the sample catalogue and
 * recombined. Used by the search property tests and by `npm run bench -- --scale`.
 */
import { readFileSync } from "node:fs"
import { Effect } from "effect"
import type { SqlClient } from "effect/sql"
import { type ParticipantRecord, type ProfileEdit, searchTextOf } from "../../src/domain/participant.ts"
import { prng } from "./random.ts"

const sample: ReadonlyArray<ParticipantRecord> = JSON.parse(
  readFileSync(new URL("../../data/sample-participants.json", import.meta.url), "utf8")
)

const firstNames = [
  "Amara",
  "Ahmed",
  "Aisha",
  "Akiko",
  "Ana",
  "Aylin",
  "Camille",
  "Chloé",
  "Dmitri",
  "Élodie",
  "Emeka",
  "Erik",
  "Fatima",
  "Grace",
  "Hiroshi",
  "Ingrid",
  "Jonas",
  "José",
  "Kwame",
  "Lan",
  "Liam",
  "Lucía",
  "Lukas",
  "Marie",
  "Mateo",
  "Mei",
  "Nadia",
  "Noa",
  "Olu",
  "Priya",
  "Rafael",
  "Ravi",
  "Sofía",
  "Søren",
  "Tariq",
  "Thandiwe",
  "Valentina",
  "Wei",
  "Yusuf",
  "Zoë",
  "Łukasz",
  "Ömer",
  "Αλέξης",
  "Агата",
  "Ngozi",
  "Tomás",
  "Siobhán",
  "Kenji"
]
const lastNames = [
  "Okafor",
  "Hassan",
  "Bello",
  "Tanaka",
  "Popescu",
  "Demir",
  "Tremblay",
  "Dubois",
  "Ivanov",
  "García",
  "Nwosu",
  "Larsen",
  "Wanjiku",
  "Sato",
  "Weber",
  "Schmidt",
  "Mensah",
  "Nguyễn",
  "O'Brien",
  "Raman",
  "Souza",
  "Kowalski",
  "Müller",
  "Rossi",
  "Haddad",
  "Kim",
  "Chen",
  "Singh",
  "Novák",
  "Pérez",
  "Jørgensen",
  "Yılmaz",
  "Papadopoulos",
  "Smirnova",
  "Adeyemi",
  "Mahlangu",
  "Fernández",
  "Lindqvist",
  "Costa",
  "Moreau",
  "Quispe",
  "Ōta",
  "Abebe",
  "Nakamura",
  "Dlamini",
  "Herrera",
  "Kaur",
  "Osei",
  "Walsh",
  "Zhang",
  "Farouk",
  "Álvarez",
  "Björk",
  "Mwangi"
]
const extraLocations = [
  "São Paulo, Brazil",
  "Kraków, Poland",
  "Zürich, Switzerland",
  "Reykjavík, Iceland",
  "Malmö, Sweden",
  "Málaga, Spain",
  "Thessaloniki, Greece",
  "Kyiv, Ukraine",
  "Seoul, South Korea",
  "Jakarta, Indonesia",
  "Manila, Philippines",
  "Kigali, Rwanda",
  "Dakar, Senegal",
  "Tunis, Tunisia",
  "Lima, Peru",
  "Santiago, Chile",
  "Montevideo, Uruguay",
  "Vancouver, Canada",
  "Auckland, New Zealand",
  "Cape Town, South Africa"
]
const locations = [...new Set([...sample.map((p) => p.location), ...extraLocations])]
const allTags = [...new Set(sample.flatMap((p) => p.tags))]

const slugPart = (s: string) =>
  s
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "") || "x"

/**
 * `count` participants, the same for the same seed. Each takes a profile (discipline, task type,
 * capabilities, returns, boundary and most tags) from one sample participant, a random name and
 * location, and one or two extra tags; slugs are unique (`<first>-<last>-<n>`).
 */
export const generateDirectory = (count: number, seed = 1): Array<ParticipantRecord> => {
  const random = prng(seed)
  const pick = <A>(xs: ReadonlyArray<A>): A => xs[Math.floor(random() * xs.length)]!
  const out: Array<ParticipantRecord> = []
  for (let i = 0; i < count; i++) {
    const profile = pick(sample)
    const first = pick(firstNames)
    const last = pick(lastNames)
    const tags = profile.tags.filter(() => random() < 0.8)
    for (let extra = random() < 0.5 ? 1 : 2; extra > 0; extra--) {
      const tag = pick(allTags)
      if (!tags.includes(tag)) tags.push(tag)
    }
    out.push({
      slug: `${slugPart(first)}-${slugPart(last)}-${i}`,
      name: `${first} ${last}`,
      discipline: profile.discipline,
      location: random() < 0.5 ? profile.location : pick(locations),
      task_type: profile.task_type,
      tags,
      capabilities: profile.capabilities,
      returns: profile.returns,
      boundary: profile.boundary
    })
  }
  return out
}

/**
 * Inserts new participants fast, straight through SQL: the columns `upsertMany` writes (the search
 * text from `searchTextOf`), thousands of rows per statement passed as one JSON document. The
 * triggers and indexes of the schema maintain the search index as for any other write.
 */
export const insertParticipants = (
  sql: SqlClient.SqlClient,
  records: ReadonlyArray<ParticipantRecord>,
  batchSize = 5000
) => {
  const createdAt = new Date().toISOString()
  const batches = Array.from({ length: Math.ceil(records.length / batchSize) }, (_, i) =>
    JSON.stringify(
      records.slice(i * batchSize, (i + 1) * batchSize).map((p) => ({
        slug: p.slug,
        name: p.name,
        discipline: p.discipline,
        location: p.location,
        task_type: p.task_type,
        tags: JSON.stringify(p.tags),
        capabilities: JSON.stringify(p.capabilities),
        returns: p.returns,
        boundary: p.boundary,
        search_text: searchTextOf(p),
        created_at: createdAt
      }))
    )
  )
  const columns = sql.literal(
    "slug, name, discipline, location, task_type, tags, capabilities, returns, boundary, search_text, created_at"
  )
  const insert = sql.onDialectOrElse({
    sqlite: () => (json: string) =>
      sql`
      INSERT INTO participants (${columns})
      SELECT value ->> 'slug', value ->> 'name', value ->> 'discipline', value ->> 'location', value ->> 'task_type',
        value ->> 'tags', value ->> 'capabilities', value ->> 'returns', value ->> 'boundary', value ->> 'search_text',
        value ->> 'created_at'
      FROM json_each(${json})
    `,
    orElse: () => (json: string) =>
      sql`
      INSERT INTO participants (${columns})
      SELECT ${columns} FROM json_to_recordset(${json}::json) AS x(slug text, name text, discipline text,
        location text, task_type text, tags text, capabilities text, returns text, boundary text, search_text text,
        created_at text)
    `
  })
  // Like every write to the directory, it moves the directory's version (services re-read it).
  return sql.withTransaction(
    Effect.andThen(
      Effect.forEach(batches, insert, { discard: true }),
      sql`UPDATE directory_state SET version = version + 1 WHERE id = 1`
    )
  )
}

/** A plain participant named by its slug (a photographer in Berlin), for tests about something else. */
export const plainParticipant = (slug: string): ParticipantRecord => ({
  slug,
  name: slug,
  discipline: "Photography",
  location: "Berlin, Germany",
  task_type: "physical",
  tags: ["photography"],
  capabilities: ["camera"],
  returns: "Photos",
  boundary: null
})

/** A whole profile as a participant writes it (every member of ProfileEdit), for tests of profiles. */
export const sampleProfileEdit: ProfileEdit = {
  name: "Inès Moreau",
  discipline: "Field inspection",
  location: "Lyon, France",
  task_type: "physical",
  tags: ["inspection", "french"],
  capabilities: ["Site visits in Lyon"],
  returns: "Geotagged photos and a checklist.",
  boundary: null
}

/** `plainParticipant` who also names storefronts: what matching and offers are tested on. */
export const photographer = (slug: string): ParticipantRecord => ({
  ...plainParticipant(slug),
  tags: ["photography", "storefront"]
})
