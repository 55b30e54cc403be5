// One GraphQL request, answered as JSON (errors included), from either engine.
export interface GraphQLAnswer {
  status: number;
  data?: unknown;
  errors?: { message: string }[];
}

export async function postGraphQL(url: string, query: string, variables: Record<string, unknown> = {}): Promise<GraphQLAnswer> {
  const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ query, variables }), signal: AbortSignal.timeout(60_000) });
  const text = await res.text();
  try {
    const body = JSON.parse(text) as { data?: unknown; errors?: { message: string }[] };
    return { status: res.status, ...body };
  } catch {
    return { status: res.status, errors: [{ message: `not JSON: ${text.slice(0, 200)}` }] };
  }
}
