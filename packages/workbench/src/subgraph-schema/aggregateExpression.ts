// An `@aggregate(arg: ...)` expression: a source field, or SQL over source fields and constants with
// the functions, operators and `case` graph-node allows. Tokenized here, checked, and rewritten with
// the store's column names; nothing else reaches SQL.
import type { EntityTypeDef } from "./types.js";

const FUNCTIONS = new Set(["abs", "ceil", "ceiling", "div", "floor", "gcd", "lcm", "mod", "power", "sign", "coalesce", "nullif", "greatest", "least"]);
const KEYWORDS = new Set(["case", "when", "then", "else", "end", "and", "or", "not", "is", "null", "true", "false", "distinct", "from"]);
const TOKEN = /\s+|(\d+(?:\.\d+)?)|([A-Za-z_][A-Za-z0-9_]*)|(<->|<=|>=|!=|<>|[-+*/%^=<>(),])/y;

type Token = { kind: "number" | "word" | "op"; text: string };

function tokenize(expr: string, fail: (message: string) => never): Token[] {
  const tokens: Token[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < expr.length) {
    const at = TOKEN.lastIndex;
    const m = TOKEN.exec(expr);
    if (!m) fail(`Failed to parse expression: unexpected \`${expr.slice(at, at + 1)}\` at position ${at} of \`${expr}\``);
    if (m[1] !== undefined) tokens.push({ kind: "number", text: m[1] });
    else if (m[2] !== undefined) tokens.push({ kind: "word", text: m[2] });
    else if (m[3] !== undefined) tokens.push({ kind: "op", text: m[3] });
  }
  return tokens;
}

/**
 * The expression with each source field replaced by `column(field)`, and the fields it uses. Throws
 * through `fail` for a function graph-node does not allow, or a name that is no source field.
 */
export function rewriteAggregateArg(expr: string, source: EntityTypeDef, column: (field: string) => string, fail: (message: string) => never): { sql: string; fields: string[] } {
  const tokens = tokenize(expr, fail);
  const fields = new Set<string>();
  let depth = 0;
  const out = tokens.map((token, i) => {
    if (token.kind !== "word") {
      if (token.text === "(") depth++;
      if (token.text === ")" && --depth < 0) fail(`Failed to parse expression: unbalanced parentheses in \`${expr}\``);
      return token.text;
    }
    const lower = token.text.toLowerCase();
    if (tokens[i + 1]?.text === "(") {
      if (!FUNCTIONS.has(lower)) fail(`Expressions can't us the function ${token.text}`);
      return lower;
    }
    if (KEYWORDS.has(lower)) return lower;
    if (!source.fieldsByName.has(token.text)) fail(`Expression \`${expr}\` uses ${token.text}, but the source type ${source.name} does not have such a field`);
    fields.add(token.text);
    return column(token.text);
  });
  if (depth !== 0) fail(`Failed to parse expression: unbalanced parentheses in \`${expr}\``);
  if (out.length === 0) fail(`Failed to parse expression: \`${expr}\` is empty`);
  return { sql: out.join(" "), fields: [...fields].sort() };
}

/** Checks an expression at deploy: the fields it uses (as written). */
export function aggregateArgColumns(expr: string, source: EntityTypeDef, fail: (message: string) => never): string[] {
  return rewriteAggregateArg(expr, source, (field) => field, fail).fields;
}
