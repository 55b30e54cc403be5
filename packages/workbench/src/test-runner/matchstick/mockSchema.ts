// The schema as Matchstick reads it (src/context/schema.rs): a syntax-only parse, every object type
// is an entity, a field is required when it is non-null and not @derivedFrom, and each derived field
// maps to the (type, field) pairs it is derived from (every implementer when the type is an interface).
// No other check: a schema graph-node would reject (an unknown type, a bad @derivedFrom) still runs.
import { Kind, parse, type ConstDirectiveNode, type DocumentNode, type TypeNode } from "graphql";
import { ConfigError } from "../errors.js";

export interface MockSchema {
  /** Object type name -> its required fields (non-null, not derived), in declaration order. */
  readonly entities: ReadonlyMap<string, readonly string[]>;
  /** Entity type -> derived field -> the (entity type, field) pairs that point back at it. */
  readonly derived: ReadonlyMap<string, ReadonlyMap<string, readonly (readonly [string, string])[]>>;
}

function baseName(type: TypeNode): string {
  return type.kind === Kind.NAMED_TYPE ? type.name.value : baseName(type.type);
}

/** graphql-parser prints the value with quotes; Matchstick strips them. Its `pop()` takes the last argument. */
function derivedFromField(directives: readonly ConstDirectiveNode[] | undefined): string | null {
  const directive = directives?.find((d) => d.name.value === "derivedFrom");
  if (directive === undefined) return null;
  const last = directive.arguments?.at(-1)?.value;
  if (last === undefined) return "";
  return last.kind === Kind.STRING ? last.value : last.kind === Kind.ENUM ? last.value : "";
}

export function readMockSchema(sdl: string): MockSchema {
  let doc: DocumentNode;
  try {
    doc = parse(sdl, { noLocation: true });
  } catch (cause) {
    // Matchstick: "Something went wrong when trying to parse `schema.graphql`: ..." (a critical stop).
    throw new ConfigError(`Something went wrong when trying to parse \`schema.graphql\`: ${(cause as Error).message}`, { cause });
  }
  const implementers = new Map<string, string[]>();
  for (const def of doc.definitions) {
    if (def.kind === Kind.INTERFACE_TYPE_DEFINITION && !implementers.has(def.name.value)) implementers.set(def.name.value, []);
  }
  const entities = new Map<string, string[]>();
  const derived = new Map<string, Map<string, [string, string][]>>();
  const objects = doc.definitions.filter((d) => d.kind === Kind.OBJECT_TYPE_DEFINITION);
  for (const def of objects) {
    for (const iface of def.interfaces ?? []) {
      const list = implementers.get(iface.name.value) ?? [];
      list.push(def.name.value);
      implementers.set(iface.name.value, list);
    }
  }
  for (const def of objects) {
    const required: string[] = [];
    for (const field of def.fields ?? []) {
      const via = derivedFromField(field.directives);
      if (via === null) {
        if (field.type.kind === Kind.NON_NULL_TYPE) required.push(field.name.value);
        continue;
      }
      const target = baseName(field.type);
      const pairs: [string, string][] = (implementers.get(target) ?? [target]).map((t) => [t, via]);
      let fields = derived.get(def.name.value);
      if (fields === undefined) derived.set(def.name.value, (fields = new Map()));
      if (!fields.has(field.name.value)) fields.set(field.name.value, pairs);
    }
    entities.set(def.name.value, required);
  }
  return { entities, derived };
}
