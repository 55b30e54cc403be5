// Platform addresses (node, deploy, IPFS, query) carry an access key as a path segment, in the query
// or as user info: `https://host/<KEY>/deploy`. These helpers keep such keys out of every message and
// log line. One rule serves every client: short words and version markers are public, anything else
// in the path is treated as a key.

/** Path segments shown as they are: short words (`deploy`, `rpc`, `subgraphs`) and version markers (`v1`). */
const PUBLIC_SEGMENT = /^(?:[a-z][a-z_-]{0,15}|v\d{1,2})$/i;

/** Secrets shorter than this are not searched for in free text (they would mask unrelated characters). */
const MIN_SECRET_LENGTH = 6;

export interface MaskUrlOptions {
  /** Keep every path segment from the last occurrence of this one on (what a client appends to a base URL). */
  keepPathFrom?: string;
  /** Query parameters whose values are public (paging, say). */
  publicQuery?: readonly string[];
  /** Show the whole path (a database name is not a key). */
  publicPath?: boolean;
  /** Show the user name, with the password as `***` (database URLs). */
  keepUsername?: boolean;
}

/** Database URLs: the user and database stay readable, the password never appears. */
export const databaseUrlMasking: MaskUrlOptions = { publicPath: true, keepUsername: true };

interface UrlParts {
  parsed: URL;
  segments: { text: string; secret: boolean }[];
}

function splitUrl(url: string, options: MaskUrlOptions): UrlParts | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  const raw = parsed.pathname.split("/");
  const keepFrom = options.keepPathFrom ? raw.lastIndexOf(options.keepPathFrom) : -1;
  const segments = raw.map((text, i) => ({ text, secret: !options.publicPath && text !== "" && !(keepFrom >= 0 && i >= keepFrom) && !PUBLIC_SEGMENT.test(text) }));
  return { parsed, segments };
}

/** The URL with user info dropped and key-like path segments and query values replaced by `***`. */
export function maskUrl(url: string, options: MaskUrlOptions = {}): string {
  const parts = splitUrl(url, options);
  if (!parts) return "<invalid URL>";
  const { parsed, segments } = parts;
  const path = segments.map((s) => (s.secret ? "***" : s.text)).join("/");
  const query = [...parsed.searchParams.entries()]
    .map(([key, value]) => `${encodeURIComponent(key)}=${options.publicQuery?.includes(key) ? encodeURIComponent(value) : "***"}`)
    .join("&");
  const user = options.keepUsername && parsed.username ? `${parsed.username}${parsed.password ? ":***" : ""}@` : "";
  return `${parsed.protocol}//${user}${parsed.host}${path === "/" ? "" : path}${query ? `?${query}` : ""}`;
}

/** The secret strings of a URL (key-like path segments, user info, query values), to mask in free text. */
export function secretsInUrl(url: string, options: MaskUrlOptions = {}): string[] {
  const parts = splitUrl(url, options);
  if (!parts) return [];
  const { parsed, segments } = parts;
  const secrets = new Set<string>();
  const add = (value: string) => {
    for (const form of [value, safeDecode(value)]) if (form.length >= MIN_SECRET_LENGTH) secrets.add(form);
  };
  for (const s of segments) if (s.secret) add(s.text);
  if (parsed.username) add(parsed.username);
  if (parsed.password) add(parsed.password);
  for (const [key, value] of parsed.searchParams.entries()) if (!options.publicQuery?.includes(key)) add(value);
  return [...secrets];
}

/** `text` with every occurrence of each secret replaced by `***`. */
export function maskSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (secret !== "") out = out.split(secret).join("***");
  return out;
}

/**
 * An error safe to keep as a `cause`: the original when neither its message, stack nor cause mentions
 * a secret, otherwise a plain Error carrying the masked message.
 */
export function errorWithoutSecrets(error: unknown, secrets: readonly string[]): unknown {
  if (!(error instanceof Error)) return maskSecrets(String(error), secrets);
  const seen = `${error.message}\n${error.stack ?? ""}\n${String((error as { cause?: unknown }).cause ?? "")}`;
  if (!secrets.some((s) => s !== "" && seen.includes(s))) return error;
  const copy = new Error(maskSecrets(error.message, secrets));
  copy.name = error.name;
  return copy;
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
