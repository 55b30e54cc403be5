// Field collection as in GraphQL's CollectFields: response key -> the field nodes merged under it,
// following fragments and inline fragments whose type condition applies, honouring @skip/@include.
import {
  GraphQLIncludeDirective,
  GraphQLSkipDirective,
  Kind,
  getDirectiveValues,
  type FieldNode,
  type FragmentDefinitionNode,
  type SelectionSetNode,
} from "graphql";

export interface CollectContext {
  fragments: Record<string, FragmentDefinitionNode>;
  variables: Record<string, unknown>;
  /** Whether a fragment's type condition applies to the type being collected. */
  applies(typeCondition: string): boolean;
}

export function collectFields(ctx: CollectContext, selectionSet: SelectionSetNode, into = new Map<string, FieldNode[]>(), visited = new Set<string>()): Map<string, FieldNode[]> {
  for (const sel of selectionSet.selections) {
    if (!included(ctx, sel)) continue;
    if (sel.kind === Kind.FIELD) {
      const key = sel.alias?.value ?? sel.name.value;
      const list = into.get(key);
      if (list) list.push(sel);
      else into.set(key, [sel]);
    } else if (sel.kind === Kind.INLINE_FRAGMENT) {
      if (sel.typeCondition && !ctx.applies(sel.typeCondition.name.value)) continue;
      collectFields(ctx, sel.selectionSet, into, visited);
    } else {
      const name = sel.name.value;
      const frag = ctx.fragments[name];
      if (!frag || visited.has(name)) continue;
      if (!ctx.applies(frag.typeCondition.name.value)) continue;
      collectFields(ctx, frag.selectionSet, into, new Set([...visited, name]));
    }
  }
  return into;
}

function included(ctx: CollectContext, node: Parameters<typeof getDirectiveValues>[1]): boolean {
  const skip = getDirectiveValues(GraphQLSkipDirective, node, ctx.variables);
  if (skip?.if === true) return false;
  const include = getDirectiveValues(GraphQLIncludeDirective, node, ctx.variables);
  return include?.if !== false;
}

/** The selections of every field node merged under one response key, as one selection set. */
export function mergedSelectionSet(nodes: readonly FieldNode[]): SelectionSetNode {
  return { kind: Kind.SELECTION_SET, selections: nodes.flatMap((n) => n.selectionSet?.selections ?? []) };
}
