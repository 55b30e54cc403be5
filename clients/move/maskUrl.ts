// Node addresses issued by the console carry an access key as a path segment (or in the query, or as user info),
// so a URL is masked before it reaches any message or log.

// Path segments kept as they are: short words and version markers (`v1`, `aptos`, `mainnet`).
const SAFE_SEGMENT = /^(?:[a-z][a-z_-]{0,15}|v\d{1,2})$/i;
// Segments the client itself appends after `/v1/` are kept whole: they are addresses, hashes and type names.
const API_MARKER = "v1";

/** The URL with user info dropped, key-like base path segments and every query value replaced by `***`. */
export function maskUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "<invalid URL>";
  }
  const segments = parsed.pathname.split("/");
  const apiAt = segments.lastIndexOf(API_MARKER);
  const path = segments
    .map((segment, i) => (segment === "" || (apiAt >= 0 && i >= apiAt) || SAFE_SEGMENT.test(segment) ? segment : "***"))
    .join("/");
  const query = [...parsed.searchParams.keys()]
    .map((key) => (key === "start" || key === "limit" ? `${key}=${parsed.searchParams.get(key) ?? ""}` : `${key}=***`))
    .join("&");
  return `${parsed.protocol}//${parsed.host}${path === "/" ? "" : path}${query ? `?${query}` : ""}`;
}
