// `type _Schema_ @fulltext(name, language, algorithm, include: [{entity, fields: [{name}]}])`: full-text
// search fields, as graph-node reads and checks them (graph/src/schema/fulltext.rs, input/mod.rs). Each
// one becomes a root query field `name(text: String!, ...)` over its entity.
import { Kind, type ConstDirectiveNode, type ConstValueNode, type ObjectTypeDefinitionNode } from "graphql/language/index.js";
import { SchemaError } from "./errors.js";

/** What the checks read of an entity type (a structural slice of EntityTypeDef). */
interface SearchableEntity {
  name: string;
  fieldsByName: Map<string, { name: string; list: boolean; type: { kind: string; scalar?: string } }>;
}

export type FulltextAlgorithm = "rank" | "proximityRank";

export interface FulltextDef {
  /** The query field's name. */
  name: string;
  /** graph-node's language code (`en`, `simple`, ...). */
  language: string;
  /** The Postgres text search configuration graph-node uses for it (`english`, ...). */
  config: string;
  algorithm: FulltextAlgorithm;
  entity: string;
  /** The String fields whose text is searched, in declaration order. */
  fields: string[];
}

/** graph-node's languages and their Postgres configurations ('portugese' is graph-node's own spelling). */
const CONFIGS: Record<string, string> = {
  simple: "simple", da: "danish", nl: "dutch", en: "english", fi: "finnish", fr: "french", de: "german", hu: "hungarian",
  it: "italian", no: "norwegian", pt: "portugese", ro: "romanian", ru: "russian", es: "spanish", sv: "swedish", tr: "turkish",
};

export function readFulltextDefs(schemaType: ObjectTypeDefinitionNode | undefined, entities: ReadonlyMap<string, SearchableEntity>): FulltextDef[] {
  const defs: FulltextDef[] = [];
  for (const directive of schemaType?.directives ?? []) {
    if (directive.name.value !== "fulltext") continue;
    const def = readOne(directive, entities);
    if (defs.some((d) => d.name === def.name)) throw new SchemaError(`@fulltext: the name ${def.name} is used twice`, { details: { fulltext: def.name } });
    defs.push(def);
  }
  return defs;
}

function readOne(directive: ConstDirectiveNode, entities: ReadonlyMap<string, SearchableEntity>): FulltextDef {
  const arg = (name: string) => directive.arguments?.find((a) => a.name.value === name)?.value;
  const name = text(arg("name"));
  const fail = (message: string): never => {
    throw new SchemaError(`@fulltext${name ? ` ${name}` : ""}: ${message}`, { details: { fulltext: name } });
  };
  if (!name) return fail("needs a `name` string");
  if (!/^[a-z][A-Za-z0-9_]*$/.test(name)) fail("the name must start with a lowercase letter and hold only letters, digits and _");
  if (entities.has(name)) fail("the name must not be an entity's");
  const language = enumValue(arg("language"));
  const config = language === null ? undefined : CONFIGS[language];
  if (config === undefined) return fail(`Provided language for fulltext search is invalid: ${language ?? "(none)"}`);
  const algorithm = enumValue(arg("algorithm"));
  if (algorithm !== "rank" && algorithm !== "proximityRank") return fail(`The provided fulltext search algorithm ${algorithm ?? "(none)"} is invalid. It must be one of: rank, proximityRank`);
  const include = arg("include");
  const includes = include?.kind === Kind.LIST ? include.values : [];
  if (includes.length !== 1) return fail("`include` must name exactly one entity");
  const included = includes[0]!;
  const entityName = included.kind === Kind.OBJECT ? text(included.fields.find((f) => f.name.value === "entity")?.value) : null;
  const entity = entityName ? entities.get(entityName) : undefined;
  if (!entity) return fail(`the included entity ${entityName ?? "(none)"} does not exist`);
  const fieldList = included.kind === Kind.OBJECT ? included.fields.find((f) => f.name.value === "fields")?.value : undefined;
  const fields = (fieldList?.kind === Kind.LIST ? fieldList.values : []).map((v) => (v.kind === Kind.OBJECT ? text(v.fields.find((f) => f.name.value === "name")?.value) : null));
  if (fields.length === 0) fail("the include names no fields");
  for (const field of fields) {
    const def = field ? entity.fieldsByName.get(field) : undefined;
    if (!def) return fail(`${entity.name} has no field ${field ?? "(none)"}`);
    if (def.list || def.type.kind !== "scalar" || def.type.scalar !== "String") fail(`${entity.name}.${def.name} is not a String: full-text search reads String fields`);
  }
  return { name, language: language!, config, algorithm, entity: entity.name, fields: fields as string[] };
}

function text(value: ConstValueNode | undefined): string | null {
  return value?.kind === Kind.STRING ? value.value : null;
}

function enumValue(value: ConstValueNode | undefined): string | null {
  return value?.kind === Kind.ENUM || value?.kind === Kind.STRING ? value.value : null;
}
