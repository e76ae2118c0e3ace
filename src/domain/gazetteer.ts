/**
 * The world's countries and about four hundred of its largest cities, so that a place nobody in
 * the catalogue serves is still read as a place ("pick up a parcel in Madrid" has nobody, not
 * anybody). One entry a line: the name as shown, then (for a city) its country, then other names
 * and spellings after "|". Accents are folded when matching, so "Montréal" also reads "Montreal";
 * a name marked "^" is a common word too ("Chad", "Turkey", "US") and counts only capitalised as
 * written here. The lists are kept by region in ./gazetteer/; other names and scripts in
 * ./gazetteer/other_names.ts and ./gazetteer/more_scripts.ts.
 */
import { citiesOfAfrica } from "./gazetteer/africa.ts"
import { citiesOfTheAmericasAndOceania } from "./gazetteer/americas_oceania.ts"
import { citiesOfAsia } from "./gazetteer/asia.ts"
import { citiesOfEurope } from "./gazetteer/europe.ts"

export { countries } from "./gazetteer/countries.ts"
export { namesInMoreScripts } from "./gazetteer/more_scripts.ts"
export { metropolitanAreas, otherNames } from "./gazetteer/other_names.ts"

export const cities: ReadonlyArray<string> = [
  ...citiesOfAsia,
  ...citiesOfAfrica,
  ...citiesOfEurope,
  ...citiesOfTheAmericasAndOceania
]
