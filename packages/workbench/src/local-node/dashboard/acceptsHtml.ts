// Whether a request's Accept header prefers an HTML page to JSON: a browser's does (text/html first, or
// with the highest weight); curl's `*/*`, graph-cli's and a GraphQL client's do not.
export function prefersHtml(accept: string | undefined): boolean {
  if (!accept) return false;
  let html = 0;
  let json = 0;
  for (const part of accept.split(",")) {
    const [type = "", ...params] = part.trim().toLowerCase().split(";");
    const q = Number(params.map((p) => p.trim()).find((p) => p.startsWith("q="))?.slice(2) ?? "1");
    const weight = Number.isFinite(q) ? q : 0;
    if (type === "text/html" || type === "application/xhtml+xml") html = Math.max(html, weight);
    else if (type === "application/json" || type === "application/graphql-response+json") json = Math.max(json, weight);
  }
  return html > 0 && html >= json;
}
