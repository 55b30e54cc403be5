// graph-node's own checks on a query (its graphql-js-style validations are off by default):
// unknown fields ("Type `Query` has no field `foo`"), argument values that do not coerce, missing
// required arguments, undefined fragments. Unknown arguments are ignored, as graph-node does.
import {
  GraphQLInputObjectType,
  GraphQLInterfaceType,
  GraphQLList,
  GraphQLObjectType,
  Kind,
  getNamedType,
  getNullableType,
  isNonNullType,
  valueFromAST,
  type FragmentDefinitionNode,
  type GraphQLInputType,
  type GraphQLSchema,
  type SelectionSetNode,
  type ValueNode,
} from "graphql";
import { QueryError, debugValue, invalidArgument, missingArgument, unknownField, valueParseError } from "./errors.js";

/**
 * Walks an argument's literal along its input type. `visit` sees each leaf with its type, and each
 * object field the type lacks with type null; the first answer that is not null wins.
 */
function findInLiteral<T>(value: ValueNode, type: GraphQLInputType, visit: (value: ValueNode, type: GraphQLInputType | null) => T | null): T | null {
  const nullable = getNullableType(type);
  if (nullable instanceof GraphQLList) {
    const item = nullable.ofType as GraphQLInputType;
    for (const v of value.kind === Kind.LIST ? value.values : [value]) {
      const found = findInLiteral(v, item, visit);
      if (found !== null) return found;
    }
    return null;
  }
  if (nullable instanceof GraphQLInputObjectType) {
    if (value.kind !== Kind.OBJECT) return null;
    const fields = nullable.getFields();
    for (const f of value.fields) {
      const def = fields[f.name.value];
      const found = def ? findInLiteral(f.value, def.type, visit) : visit(f.value, null);
      if (found !== null) return found;
    }
    return null;
  }
  return visit(value, nullable);
}

/**
 * An object literal naming a field its input type lacks (`where: { noSuchField: 1 }`). graphql-js's
 * valueFromAST drops such fields silently; graph-node refuses the whole argument.
 */
function hasUnknownInputField(value: ValueNode, type: GraphQLInputType): boolean {
  return findInLiteral(value, type, (_leaf, leafType) => (leafType === null ? true : null)) !== null;
}

/**
 * A string literal given for a Bytes input that is not hex: graph-node accepts it as a value and then
 * fails to decode it, with the hex crate's words ("Odd number of digits", "Invalid character 'g' at
 * position 3"; found by the parity suite). Returns that text, or null.
 */
function badBytesLiteral(value: ValueNode, type: GraphQLInputType): string | null {
  return findInLiteral(value, type, (leaf, leafType) => {
    if (leafType?.toString() !== "Bytes" || leaf.kind !== Kind.STRING) return null;
    const hex = leaf.value.replace(/^0x/, "");
    // The hex crate checks the length first.
    if (hex.length % 2 === 1) return "Odd number of digits";
    const invalid = /[^0-9a-fA-F]/.exec(hex);
    return invalid ? `Invalid character '${invalid[0]}' at position ${invalid.index}` : null;
  });
}

export function validateSelections(
  schema: GraphQLSchema,
  fragments: Record<string, FragmentDefinitionNode>,
  variables: Record<string, unknown>,
  rootType: GraphQLObjectType,
  selectionSet: SelectionSetNode,
): QueryError[] {
  const errors: QueryError[] = [];
  const visit = (type: GraphQLObjectType | GraphQLInterfaceType, set: SelectionSetNode, seen: Set<string>): void => {
    for (const sel of set.selections) {
      if (sel.kind === Kind.FIELD) {
        const name = sel.name.value;
        const loc = sel.loc ? { line: sel.loc.startToken.line, column: sel.loc.startToken.column } : undefined;
        if (name === "__typename") continue;
        if (type === rootType && (name === "__schema" || name === "__type")) continue;
        const def = type.getFields()[name];
        if (!def) {
          errors.push(unknownField(type.name, name, loc));
          continue;
        }
        for (const argDef of def.args) {
          const node = sel.arguments?.find((a) => a.name.value === argDef.name);
          const argLoc = node?.loc ? { line: node.loc.startToken.line, column: node.loc.startToken.column } : loc;
          if (!node || (node.value.kind === Kind.VARIABLE && variables[node.value.name.value] === undefined)) {
            if (isNonNullType(argDef.type) && argDef.defaultValue === undefined) errors.push(missingArgument(argDef.name, argLoc));
            continue;
          }
          const badBytes = badBytesLiteral(node.value, argDef.type);
          if (badBytes !== null) {
            errors.push(valueParseError("Bytes", badBytes));
          } else if (valueFromAST(node.value, argDef.type, variables) === undefined || hasUnknownInputField(node.value, argDef.type)) {
            errors.push(invalidArgument(argDef.name, debugValue(node.value, variables), argLoc));
          }
        }
        const named = getNamedType(def.type);
        if (sel.selectionSet && (named instanceof GraphQLObjectType || named instanceof GraphQLInterfaceType)) {
          visit(named, sel.selectionSet, seen);
        }
      } else if (sel.kind === Kind.INLINE_FRAGMENT) {
        const cond = sel.typeCondition ? schema.getType(sel.typeCondition.name.value) : type;
        if (!(cond instanceof GraphQLObjectType || cond instanceof GraphQLInterfaceType)) {
          errors.push(new QueryError(`Failed to resolve named type \`${sel.typeCondition?.name.value ?? ""}\``));
          continue;
        }
        visit(cond, sel.selectionSet, seen);
      } else {
        const name = sel.name.value;
        const frag = fragments[name];
        if (!frag) {
          errors.push(new QueryError(`fragment \`${name}\` is not defined`));
          continue;
        }
        if (seen.has(name)) {
          errors.push(new QueryError(`query has fragment cycle including \`${name}\``));
          continue;
        }
        const cond = schema.getType(frag.typeCondition.name.value);
        if (!(cond instanceof GraphQLObjectType || cond instanceof GraphQLInterfaceType)) {
          errors.push(new QueryError(`Failed to resolve named type \`${frag.typeCondition.name.value}\``));
          continue;
        }
        visit(cond, frag.selectionSet, new Set([...seen, name]));
      }
    }
  };
  visit(rootType, selectionSet, new Set());
  return errors;
}
