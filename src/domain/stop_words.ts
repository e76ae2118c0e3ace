/**
 * The stop words of the languages agents write in: dropped before a text's words are read as
 * concepts or stems (src/domain/words.ts). Data.
 */

/**
 * Words that say nothing about the work: grammar, and what every request says ("need someone to",
 * "looking for a person"). Dropped before stemming.
 */
export const stopWords: ReadonlySet<string> = new Set(
  (
    "a an and any are as at be by can for from get got has have i in into is it its me my need needed needs of on or " +
    "our please some someone somebody anyone anybody that the their them then there these this those to up us we who " +
    "will with would you your want wanted task tasks person people human humans hire find able should must one two " +
    "looking look help do does done make sure just also very via per each every all than more most about over " +
    "here what which when where while how why whether it's its let lets " +
    // German, French, Spanish, Portuguese, Italian, Dutch, Polish, Turkish, Indonesian and
    // Malay: grammar and the words of asking, never the work.
    "der die das den dem des ein eine einer einen einem und oder fur mit von vom zu zum zur auf aus im ins bei nach " +
    "unser unsere unserem unseren unserer ich wir ihr sie es ist sind bitte noch heute brauche brauchen suche gesucht " +
    "le la les un une des du de et ou pour avec sur dans au aux en par notre nos vos votre je nous il elle est qu que qui bien " +
    "el los las una unos del al con por para sobre nuestro nuestra nuestros nuestras necesito busco hoy mismo antes " +
    "um uma umas uns do da dos das com em no na nos nas pelo pela preciso " +
    "il lo gli di della delle dello dei degli per con una uno nel nella ai alla alle su tra fra cerco serve " +
    "het een van en met voor naar op aan bij nodig ons onze " +
    "w z na do od dla ze oraz lub potrzebuje " +
    "ve bir ile için icin ve bu su " +
    "dan di ke dari untuk yang dengan " +
    "в на с по для из от и или мне нам нужен нужна нужно " +
    "في من إلى الى على مع عن و " +
    // Persian.
    "در از به با برای را که این یک " +
    "में का की के को से और एक है चाहिए करना " +
    // Ukrainian, Romanian, Greek, Hebrew, Vietnamese (folded), Swahili and Bengali.
    "у і та або мені нам потрібен потрібна потрібно " +
    "din în in la pentru cu si sau un o al ale unei unui " +
    "στα στη στην στο στον του της των και για με σε ενα μια " +
    "של את עם על צריך מישהו " +
    "tu sang den cho va cua o mot cac nhung la voi trong ve toi can " +
    "kutoka kwenda na ya wa kwa katika za la cha vya " +
    // Bengali.
    "এবং ও করা করুন জন্য থেকে একটি আমাদের আমার দরকার"
  ).split(" ")
)
