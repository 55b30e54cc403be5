// Platform addresses carry an access key as a path segment (https://host/<KEY>/deploy). These helpers
// keep such keys out of every message and log line.

/** Words that appear in platform paths and are not secrets. */
const PUBLIC_SEGMENTS = new Set(["", "deploy", "ipfs", "api", "v0", "v1", "subgraphs", "name", "id", "graphql", "index-node"]);

/** The secret-looking parts of a URL: path segments (other than well-known words), user info, query values. */
export function secretsInUrl(url: string): string[] {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return [];
  }
  const secrets = new Set<string>();
  // Keys sit before the well-known part of the path (`/<KEY>/deploy`); names after it (`/subgraphs/name/x`)
  // are public. Very long segments are treated as keys wherever they are.
  let inPublicPart = false;
  for (const segment of parsed.pathname.split("/").filter(Boolean)) {
    if (PUBLIC_SEGMENTS.has(segment.toLowerCase())) {
      inPublicPart = true;
      continue;
    }
    if ((!inPublicPart && segment.length >= 8) || segment.length >= 24) secrets.add(decodeURIComponent(segment));
  }
  if (parsed.username) secrets.add(decodeURIComponent(parsed.username));
  if (parsed.password) secrets.add(decodeURIComponent(parsed.password));
  for (const value of parsed.searchParams.values()) if (value.length >= 8) secrets.add(value);
  return [...secrets];
}

/** Replaces every occurrence of each secret with `***`. */
export function maskSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (secret) out = out.split(secret).join("***");
  return out;
}

/** A URL with its secrets masked, for messages. */
export function redactUrl(url: string): string {
  return maskSecrets(url, secretsInUrl(url));
}
