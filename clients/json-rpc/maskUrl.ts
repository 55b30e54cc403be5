// Node, deploy and IPFS addresses carry an access key as a path segment (or in the query, or as user info),
// so an endpoint is masked before it reaches any message or log.

// Path segments kept as they are: short words and version markers (`rpc`, `v3`, `solana`).
const SAFE_SEGMENT = /^(?:[a-z][a-z-]{0,15}|v\d{1,2})$/i;

/** Returns the URL with user info dropped and every key-like path segment and query value replaced by `***`. */
export function maskUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "<invalid URL>";
  }
  const path = parsed.pathname
    .split("/")
    .map((segment) => (segment === "" || SAFE_SEGMENT.test(segment) ? segment : "***"))
    .join("/");
  const query = [...parsed.searchParams.keys()].map((key) => `${encodeURIComponent(key)}=***`).join("&");
  const origin = `${parsed.protocol}//${parsed.host}`;
  return `${origin}${path === "/" ? "" : path}${query ? `?${query}` : ""}`;
}
