// The generated query corpus for a schema: for each entity type, paging and its limits, every `orderBy`
// on a scalar, every `where` operator its field types have (with values taken from a real entity),
// `and`/`or`, `_change_block`, time travel, the singular field, fragments and variables, `_meta`, and
// the errors for unknown fields, bad arguments and limits. Answers are compared response by response.
import type { EntityTypeDef, FieldDef, FulltextDef, SubgraphSchema } from "../subgraph-schema/index.js";
import { collectionField, comparableTypes, singularField } from "./entitySelection.js";
import { queryFieldNames } from "../local-node/graphql/index.js";
import type { CorpusQuery } from "./types.js";

const ORDERED = new Set(["ID", "String", "Bytes", "BigInt", "BigDecimal", "Int", "Int8", "Timestamp"]);

/** A GraphQL literal for a value as the API returned it. */
function literal(field: FieldDef, value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (field.type.kind === "enum") return String(value);
  if (field.type.kind === "scalar" && (field.type.scalar === "Int" || field.type.scalar === "Boolean")) return String(value);
  return JSON.stringify(value);
}

function scalarFields(type: EntityTypeDef): FieldDef[] {
  return type.fields.filter((f) => !f.list && !f.derivedFrom && f.type.kind !== "reference");
}

function whereQueries(type: EntityTypeDef, sample: Record<string, unknown>, field: FieldDef): CorpusQuery[] {
  const coll = collectionField(type);
  const value = literal(field, sample[field.name]);
  if (value === null) return [];
  const q = (op: string, v: string): CorpusQuery => ({ id: `${type.name}.where.${field.name}${op}`, query: `{ r: ${coll}(first: 20, orderBy: id, where: { ${field.name}${op}: ${v} }) { id ${field.name} } }` });
  const out = [q("", value), q("_not", value), q("_in", `[${value}]`), q("_not_in", `[${value}]`)];
  const scalar = field.type.kind === "scalar" ? field.type.scalar : null;
  if (scalar && ORDERED.has(scalar)) out.push(q("_gt", value), q("_lt", value), q("_gte", value), q("_lte", value));
  const text = typeof sample[field.name] === "string" ? (sample[field.name] as string) : "";
  if (scalar === "String" && text.length > 0) {
    const part = JSON.stringify(text.slice(0, Math.max(1, Math.floor(text.length / 2))));
    const end = JSON.stringify(text.slice(-Math.max(1, Math.floor(text.length / 2))));
    out.push(q("_contains", part), q("_not_contains", part), q("_starts_with", part), q("_ends_with", end), q("_contains_nocase", part.toUpperCase()), q("_not_starts_with", part), q("_starts_with_nocase", part.toUpperCase()));
  }
  if (scalar === "Bytes" && text.length > 6) {
    out.push(q("_contains", JSON.stringify(text.slice(0, 6))), q("_not_contains", JSON.stringify(text.slice(0, 6))));
  }
  return out;
}

export function generateCorpus(schema: SubgraphSchema, samples: Map<string, Record<string, unknown>[]>, pastBlock: number | undefined): CorpusQuery[] {
  const corpus: CorpusQuery[] = [
    { id: "meta", query: "{ _meta { block { number hash parentHash timestamp } hasIndexingErrors } }" },
    { id: "error.syntax", query: "{ approvals( }" },
    { id: "error.unknownRoot", query: "{ noSuchField { id } }" },
  ];
  for (const type of comparableTypes(schema)) {
    const coll = collectionField(type);
    const one = singularField(type);
    const rows = samples.get(type.name) ?? [];
    const sample = rows[Math.floor(rows.length / 2)];
    const scalars = scalarFields(type);
    const fieldList = scalars.map((f) => f.name).join(" ");
    corpus.push(
      { id: `${type.name}.default`, query: `{ r: ${coll} { ${fieldList} } }` },
      { id: `${type.name}.page`, query: `{ r: ${coll}(first: 7, skip: 3) { id } }` },
      { id: `${type.name}.first0`, query: `{ r: ${coll}(first: 0) { id } }` },
      { id: `${type.name}.first1000`, query: `{ r: ${coll}(first: 1000) { id } }` },
      { id: `${type.name}.error.first1001`, query: `{ r: ${coll}(first: 1001) { id } }` },
      { id: `${type.name}.error.firstNegative`, query: `{ r: ${coll}(first: -1) { id } }` },
      { id: `${type.name}.error.skip5001`, query: `{ r: ${coll}(skip: 5001) { id } }` },
      { id: `${type.name}.error.unknownField`, query: `{ r: ${coll} { id noSuchField } }` },
      { id: `${type.name}.error.unknownOrderBy`, query: `{ r: ${coll}(orderBy: noSuchField) { id } }` },
      { id: `${type.name}.error.unknownWhere`, query: `{ r: ${coll}(where: { noSuchField: 1 }) { id } }` },
      { id: `${type.name}.error.badFirst`, query: `{ r: ${coll}(first: "ten") { id } }` },
      { id: `${type.name}.variables`, query: `query Q($n: Int!, $s: Int) { r: ${coll}(first: $n, skip: $s) { ...F } } fragment F on ${type.name} { id }`, variables: { n: 4, s: 1 } },
      { id: `${type.name}.changeBlock`, query: `{ r: ${coll}(first: 50, orderBy: id, where: { _change_block: { number_gte: ${pastBlock ?? 0} } }) { id } }` },
      { id: `${type.name}.singular.missing`, query: `{ r: ${one}(id: "0x00") { id } }` },
    );
    if (pastBlock !== undefined) corpus.push({ id: `${type.name}.timeTravel`, query: `{ r: ${coll}(first: 1000, orderBy: id, block: { number: ${pastBlock} }) { id } }` });
    for (const f of scalars) {
      corpus.push(
        { id: `${type.name}.orderBy.${f.name}.asc`, query: `{ r: ${coll}(first: 25, orderBy: ${f.name}, orderDirection: asc) { id ${f.name} } }` },
        { id: `${type.name}.orderBy.${f.name}.desc`, query: `{ r: ${coll}(first: 25, orderBy: ${f.name}, orderDirection: desc) { id ${f.name} } }` },
      );
    }
    if (!sample) continue;
    corpus.push(...relationQueries(schema, type, sample));
    corpus.push({ id: `${type.name}.singular`, query: `{ r: ${one}(id: ${JSON.stringify(sample.id)}) { ${fieldList} } }` });
    for (const f of scalars) corpus.push(...whereQueries(type, sample, f));
    const [a, b] = scalars.filter((f) => f.name !== "id" && literal(f, sample[f.name]) !== null);
    if (a && b) {
      const va = literal(a, sample[a.name]);
      const vb = literal(b, sample[b.name]);
      corpus.push(
        { id: `${type.name}.and`, query: `{ r: ${coll}(first: 50, orderBy: id, where: { and: [{ ${a.name}: ${va} }, { ${b.name}: ${vb} }] }) { id } }` },
        { id: `${type.name}.or`, query: `{ r: ${coll}(first: 50, orderBy: id, where: { or: [{ ${a.name}: ${va} }, { ${b.name}_not: ${vb} }] }) { id } }` },
      );
    }
  }
  for (const search of schema.fulltexts) corpus.push(...fulltextQueries(search, samples.get(search.entity) ?? [], pastBlock));
  for (const iface of schema.interfaces.values()) {
    const coll = queryFieldNames(iface.name).plural;
    const scalars = iface.fields.filter((f) => !f.list && f.type.kind === "scalar").map((f) => f.name).join(" ");
    corpus.push(
      { id: `${iface.name}.interface`, query: `{ r: ${coll}(first: 100, orderBy: id) { ${scalars} __typename } }` },
      { id: `${iface.name}.interface.where`, query: `{ r: ${coll}(first: 100, orderBy: id, where: { id_gt: "0x5" }) { id } }` },
    );
  }
  return corpus;
}

/** References: equality and nested filters on them, child orderBy, and derived lists from this side. */
function relationQueries(schema: SubgraphSchema, type: EntityTypeDef, sample: Record<string, unknown>): CorpusQuery[] {
  const coll = collectionField(type);
  const out: CorpusQuery[] = [];
  for (const f of type.fields) {
    if (f.type.kind !== "reference") continue;
    const target = schema.entities.get(f.type.target);
    if (f.derivedFrom) {
      out.push({ id: `${type.name}.derived.${f.name}`, query: `{ r: ${coll}(first: 10, orderBy: id) { id ${f.name}(first: 5, orderBy: id, orderDirection: desc) { id } } }` });
      continue;
    }
    if (f.list) continue;
    const ref = (sample[f.name] as { id?: unknown } | null | undefined)?.id;
    if (ref === undefined) continue;
    out.push(
      { id: `${type.name}.ref.${f.name}`, query: `{ r: ${coll}(first: 50, orderBy: id, where: { ${f.name}: ${JSON.stringify(ref)} }) { id } }` },
      { id: `${type.name}.ref.${f.name}_in`, query: `{ r: ${coll}(first: 50, orderBy: id, where: { ${f.name}_in: [${JSON.stringify(ref)}] }) { id } }` },
      { id: `${type.name}.nested.${f.name}`, query: `{ r: ${coll}(first: 50, orderBy: id, where: { ${f.name}_: { id: ${JSON.stringify(ref)} } }) { id ${f.name} { id } } }` },
    );
    const childScalar = target?.fields.find((c) => c.name !== "id" && !c.list && c.type.kind === "scalar");
    if (childScalar) {
      out.push(
        { id: `${type.name}.childOrder.${f.name}__${childScalar.name}`, query: `{ r: ${coll}(first: 30, orderBy: ${f.name}__${childScalar.name}, orderDirection: desc) { id ${f.name} { id ${childScalar.name} } } }` },
        { id: `${type.name}.childOrder.${f.name}__id`, query: `{ r: ${coll}(first: 30, orderBy: ${f.name}__id) { id } }` },
      );
    }
    // The reference itself as the sort key (graph-node sorts only by built-in scalars).
    out.push({ id: `${type.name}.orderBy.reference.${f.name}`, query: `{ r: ${coll}(first: 30, orderBy: ${f.name}) { id } }` });
  }
  return out;
}

/**
 * `@fulltext` search fields: words taken from real entities' searched text, alone, as a prefix, with
 * `|`, `&` and `!`, with paging, a `where` filter and time travel; and a text to_tsquery cannot parse.
 */
function fulltextQueries(search: FulltextDef, rows: Record<string, unknown>[], pastBlock: number | undefined): CorpusQuery[] {
  const words = [...new Set(rows.flatMap((r) => search.fields.flatMap((f) => String(r[f] ?? "").toLowerCase().match(/[a-z]{4,}/g) ?? [])))].sort();
  const [a, b] = words;
  if (!a || !b) return [];
  const sample = rows[0];
  const q = (suffix: string, args: string): CorpusQuery => ({ id: `${search.name}.${suffix}`, query: `{ r: ${search.name}(${args}) { id } }` });
  const out = [
    q("word", `text: "${a}"`),
    q("other", `text: "${b}"`),
    q("prefix", `text: "${a.slice(0, 3)}:*"`),
    q("or", `text: "${a} | ${b}"`),
    q("and", `text: "${a} & ${b}"`),
    q("not", `text: "${a} & !${b}"`),
    q("paging", `text: "${a} | ${b}", first: 2, skip: 1`),
    q("where", `text: "${a} | ${b}", where: { id_not: ${JSON.stringify(sample?.id ?? "")} }`),
    q("error.syntax", `text: "${a} ${b}"`),
    q("error.noText", `first: 5`),
  ];
  if (pastBlock !== undefined) out.push(q("timeTravel", `text: "${a} | ${b}", block: { number: ${pastBlock} }`));
  return out;
}
