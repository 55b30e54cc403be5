// graph-node's query field names: `camel_cased_names` = Inflector's camelCase of the type name and of
// its plural; when both are equal the plural gets `_collection` (Stats -> stats, stats_collection).

const UNCOUNTABLE = new Set(["equipment", "information", "rice", "money", "species", "series", "fish", "sheep", "jeans", "police"]);

const IRREGULAR: [string, string][] = [
  ["person", "people"],
  ["man", "men"],
  ["child", "children"],
  ["sex", "sexes"],
  ["move", "moves"],
  ["zombie", "zombies"],
];

// Rails' plural rules as Inflector applies them; the first match wins.
const RULES: [RegExp, string][] = [
  [/(quiz)$/i, "$1zes"],
  [/^(oxen)$/i, "$1"],
  [/^(ox)$/i, "$1en"],
  [/(m|l)ice$/i, "$1ice"],
  [/(m|l)ouse$/i, "$1ice"],
  [/(matr|vert|ind)(?:ix|ex)$/i, "$1ices"],
  [/(x|ch|ss|sh)$/i, "$1es"],
  [/([^aeiouy]|qu)y$/i, "$1ies"],
  [/(hive)$/i, "$1s"],
  [/(?:([^f])fe|([lr])f)$/i, "$1$2ves"],
  [/sis$/i, "ses"],
  [/([ti])a$/i, "$1a"],
  [/([ti])um$/i, "$1a"],
  [/(buffal|tomat|potat|ech|her|vet)o$/i, "$1oes"],
  [/(bu)s$/i, "$1ses"],
  [/(alias|status)$/i, "$1es"],
  [/(octop|vir)i$/i, "$1i"],
  [/(octop|vir)us$/i, "$1i"],
  [/^(ax|test)is$/i, "$1es"],
  [/s$/i, "s"],
  [/$/, "s"],
];

function words(name: string): string[] {
  return name.match(/[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+/g) ?? [name];
}

export function camelCase(name: string): string {
  return words(name)
    .map((w, i) => (i === 0 ? w.toLowerCase() : w.charAt(0).toUpperCase() + w.slice(1).toLowerCase()))
    .join("");
}

/** Pluralizes the last word of a type name. */
export function pluralize(name: string): string {
  const parts = words(name);
  const last = parts.pop() ?? "";
  const lower = last.toLowerCase();
  let plural = last;
  if (!UNCOUNTABLE.has(lower)) {
    const irregular = IRREGULAR.find(([singular]) => singular === lower);
    if (irregular) {
      plural = last.charAt(0) + irregular[1].slice(1);
    } else {
      const rule = RULES.find(([re]) => re.test(last));
      plural = rule ? last.replace(rule[0], rule[1]) : `${last}s`;
    }
  }
  return [...parts, plural].join("");
}

export function queryFieldNames(typeName: string): { singular: string; plural: string } {
  const singular = camelCase(typeName);
  let plural = camelCase(pluralize(typeName));
  if (plural === singular) plural = `${plural}_collection`;
  return { singular, plural };
}
