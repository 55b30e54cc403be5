// How the status API checks a request before it runs, as graph-node does for every GraphQL request
// (graphql/src/execution/query.rs): its graphql-tools validation rules are off by default
// (ENABLE_GRAPHQL_VALIDATIONS), so a variable declared `String!` used where `Bytes!` is expected, or
// any other variable-in-position mismatch, passes. What it does check: each variable's value coerces to
// the type the query declares for it, and the selections (fields the types have, required arguments,
// argument values that coerce, known fragments): the same checks the query API runs
// (local-node/graphql/validate.ts).
import { Kind, getVariableValues, type DocumentNode, type FragmentDefinitionNode, type GraphQLSchema, type OperationDefinitionNode } from "graphql";
import { debugJson, invalidArgument, validateSelections } from "../graphql/index.js";

export type ErrorJson = { message: string; locations?: { line: number; column: number }[] };

export type CheckedRequest = { variables: Record<string, unknown> } | { errors: ErrorJson[] };

export function checkStatusRequest(schema: GraphQLSchema, document: DocumentNode, variables: Record<string, unknown> | null, operationName: string | null): CheckedRequest {
  const operations = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  const fragments: Record<string, FragmentDefinitionNode> = {};
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments[d.name.value] = d;
  const operation = operationName ? operations.find((o) => o.name?.value === operationName) : operations.length === 1 ? operations[0] : undefined;
  // graphql-js's execute words an unnamed or missing operation itself.
  if (!operation) return { variables: variables ?? {} };
  const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], variables ?? {});
  if (coerced.errors) {
    return {
      errors: coerced.errors.map((e) => {
        const def = (operation.variableDefinitions ?? []).find((v) => e.nodes?.includes(v));
        const name = def?.variable.name.value ?? "";
        const locations = def?.loc ? [{ line: def.loc.startToken.line, column: def.loc.startToken.column }] : undefined;
        if (def && variables?.[name] === undefined) return { message: `No value provided for required variable \`${name}\``, ...(locations ? { locations } : {}) };
        return invalidArgument(name, debugJson(variables?.[name])).toJSON();
      }),
    };
  }
  const queryType = schema.getQueryType();
  const invalid = queryType ? validateSelections(schema, fragments, coerced.coerced, queryType, operation.selectionSet) : [];
  if (invalid.length > 0) return { errors: invalid.map((e) => e.toJSON()) };
  return { variables: coerced.coerced };
}
