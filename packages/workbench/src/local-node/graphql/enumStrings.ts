// graph-node coerces a string literal to an enum value wherever the argument's type is an enum
// (graphql/src/values/coercion.rs: `String(name) | Enum(name)`), so `orderDirection: "desc"` and
// `level: "ERROR"` work there. The document is rewritten the same way before validation and
// execution; a string naming no value of the enum stays a string, and is refused as graph-node refuses it.
import { GraphQLEnumType, Kind, TypeInfo, getNullableType, visit, visitWithTypeInfo, type DocumentNode, type GraphQLSchema } from "graphql";

export function enumStringsAsEnums(schema: GraphQLSchema, document: DocumentNode): DocumentNode {
  const info = new TypeInfo(schema);
  return visit(document, visitWithTypeInfo(info, {
    StringValue(node) {
      const type = info.getInputType();
      const nullable = type ? getNullableType(type) : null;
      if (!(nullable instanceof GraphQLEnumType) || !nullable.getValue(node.value)) return undefined;
      return { kind: Kind.ENUM, value: node.value, ...(node.loc ? { loc: node.loc } : {}) };
    },
  }));
}
