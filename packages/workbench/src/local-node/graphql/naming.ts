// graph-node's query field names (graph/src/data/graphql/ext.rs): the singular is the type name in
// Inflector's camelCase; the plural is Inflector's `to_plural` of the WHOLE type name, then camelCase; when both
// are equal the plural gets `_collection` (Stats -> stats, stats_collection).
//
// Inflector 0.11's `to_plural` (the Rust crate graph-node uses) is reproduced here as graph-node runs
// it: an exact-word check against its uncountable list and special cases, then its suffix rules tried
// from the last to the first, each a case-sensitive regex over the whole name. Case matters: the rule
// for "data" does not fire on "DayData", so graph-node answers `uniswapDayDatas` (checked against
// graph-node by the Uniswap v2 real-subgraph run).

// Words Inflector leaves as they are (matched against the whole name, lowercase as written).
const UNCOUNTABLE = new Set(
  (
    "accommodation adulthood advertising advice aggression aid air aircraft alcohol anger applause arithmetic assistance athletics " +
    "bacon baggage beef biology blood botany bread butter carbon cardboard cash chalk chaos chess crossroads countryside " +
    "dancing deer dignity dirt dust economics education electricity engineering enjoyment envy equipment ethics evidence evolution " +
    "fame fiction flour flu food fuel fun furniture gallows garbage garlic genetics gold golf gossip grammar gratitude grief guilt gymnastics " +
    "happiness hardware harm hate hatred health heat help homework honesty honey hospitality housework humour hunger hydrogen " +
    "ice importance inflation information innocence iron irony jam jewelry judo karate knowledge " +
    "lack laughter lava leather leisure lightning linguine linguini linguistics literature litter livestock logic loneliness luck luggage " +
    "macaroni machinery magic management mankind marble mathematics mayonnaise measles methane milk money mud music mumps " +
    "nature news nitrogen nonsense nurture nutrition obedience obesity oxygen pasta patience physics poetry pollution poverty pride psychology publicity punctuation " +
    "quartz racism relaxation reliability research respect revenge rice rubbish rum " +
    "safety scenery seafood seaside series shame sheep shopping sleep smoke smoking snow soap software soil spaghetti species steam stuff stupidity sunshine symmetry " +
    "tennis thirst thunder timber traffic transportation trust underwear unemployment unity " +
    "validity veal vegetation vegetarianism vengeance violence vitality warmth wealth weather welfare wheat wildlife wisdom yoga zinc zoology"
  ).split(" "),
);

const SPECIAL: Record<string, string> = {
  ox: "oxen",
  man: "men",
  woman: "women",
  die: "dice",
  yes: "yeses",
  foot: "feet",
  eave: "eaves",
  goose: "geese",
  tooth: "teeth",
  quiz: "quizzes",
};

// [pattern, suffix]: the result is the pattern's first group plus the suffix. Listed in Inflector's
// order; they are tried from the last one back.
const RULES: [RegExp, string][] = [
  [/(\w*)s$/, "s"],
  [/(\w*([^aeiou]ese))$/, ""],
  [/(\w*(ax|test))is$/, "es"],
  [/(\w*(alias|[^aou]us|tlas|gas|ris))$/, "es"],
  [/(\w*(e[mn]u))s?$/, "s"],
  [/(\w*([^l]ias|[aeiou]las|[emjzr]as|[iu]am))$/, ""],
  [/(\w*(alumn|syllab|octop|vir|radi|nucle|fung|cact|stimul|termin|bacill|foc|uter|loc|strat))(?:us|i)$/, "i"],
  [/(\w*(alumn|alg|vertebr))(?:a|ae)$/, "ae"],
  [/(\w*(seraph|cherub))(?:im)?$/, "im"],
  [/(\w*(her|at|gr))o$/, "oes"],
  [/(\w*(agend|addend|millenni|dat|extrem|bacteri|desiderat|strat|candelabr|errat|ov|symposi|curricul|automat|quor))(?:a|um)$/, "a"],
  [/(\w*(apheli|hyperbat|periheli|asyndet|noumen|phenomen|criteri|organ|prolegomen|hedr|automat))(?:a|on)$/, "a"],
  [/(\w*)sis$/, "ses"],
  [/(\w*(kni|wi|li))fe$/, "ves"],
  [/(\w*(ar|l|ea|eo|oa|hoo))f$/, "ves"],
  [/(\w*([^aeiouy]|qu))y$/, "ies"],
  [/(\w*([^ch][ieo][ln]))ey$/, "ies"],
  [/(\w*(x|ch|ss|sh|zz)es)$/, ""],
  [/(\w*(x|ch|ss|sh|zz))$/, "es"],
  [/(\w*(matr|cod|mur|sil|vert|ind|append))(?:ix|ex)$/, "ices"],
  [/(\w*(m|l)(?:ice|ouse))$/, "ice"],
  [/(\w*(pe)(?:rson|ople))$/, "ople"],
  [/(\w*(child))(?:ren)?$/, "ren"],
  [/(\w*eaux)$/, ""],
];

const isAlphanumeric = (c: string) => /[\p{L}\p{N}]/u.test(c);
const isNumeric = (c: string) => /\p{N}/u.test(c);
const isLower = (c: string) => c !== c.toUpperCase() && c === c.toLowerCase();
const isUpper = (c: string) => c !== c.toLowerCase() && c === c.toUpperCase();
const asciiLower = (c: string) => (c >= "A" && c <= "Z" ? c.toLowerCase() : c);
const asciiUpper = (c: string) => (c >= "a" && c <= "z" ? c.toUpperCase() : c);

/**
 * Inflector 0.11's `to_camel_case`, as graph-node runs it: every letter is lowercased except one that
 * starts a new word, which is a letter after a separator or a digit, or an uppercase letter right after a
 * lowercase one. A run of capitals is therefore one lowercase word: DAO -> dao, DAOTokenOwner ->
 * daotokenOwner (checked against graph-node by the Nouns Builder real-subgraph run).
 */
export function camelCase(name: string): string {
  let out = "";
  let newWord = false;
  let started = false;
  // The last letter lowercased in place: a letter that started a word does not count.
  let lastLetter = " ";
  for (const c of name.replace(/[^\p{L}\p{N}]+$/u, "")) {
    if (!isAlphanumeric(c)) {
      if (started) newWord = true;
      continue;
    }
    started = true;
    if (isNumeric(c)) {
      newWord = true;
      out += c;
    } else if (newWord || (isLower(lastLetter) && isUpper(c))) {
      newWord = false;
      out += asciiUpper(c);
    } else {
      lastLetter = c;
      out += asciiLower(c);
    }
  }
  return out;
}

/** Inflector's `to_plural` of a whole name, case-sensitive, as graph-node calls it. */
export function pluralize(name: string): string {
  if (UNCOUNTABLE.has(name)) return name;
  const special = SPECIAL[name];
  if (special !== undefined) return special;
  for (let i = RULES.length - 1; i >= 0; i--) {
    const [pattern, suffix] = RULES[i]!;
    const match = pattern.exec(name);
    if (match?.[1] !== undefined) return `${match[1]}${suffix}`;
  }
  return `${name}s`;
}

export function queryFieldNames(typeName: string): { singular: string; plural: string } {
  const singular = camelCase(typeName);
  let plural = camelCase(pluralize(typeName));
  if (plural === singular) plural = `${plural}_collection`;
  return { singular, plural };
}
