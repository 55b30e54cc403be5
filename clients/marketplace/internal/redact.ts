// Keeps the API key (and URL credentials) out of every message, detail and cause.

/** Credentials written into a URL (`https://user:pass@host`). */
export function secretsOfUrl(url: string): string[] {
  try {
    const parsed = new URL(url);
    return [parsed.username, parsed.password]
      .filter((s) => s !== "")
      .flatMap((s) => [s, decodeURIComponent(s)]);
  } catch {
    return [];
  }
}

/** `text` with every occurrence of each secret replaced by `***`. */
export function maskSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (secret !== "") out = out.split(secret).join("***");
  return out;
}

/**
 * An error safe to keep as a `cause`: the original when neither its message nor its stack nor its own
 * cause mentions a secret, otherwise a plain Error carrying the masked message.
 */
export function errorWithoutSecrets(error: unknown, secrets: readonly string[]): unknown {
  if (!(error instanceof Error)) return maskSecrets(String(error), secrets);
  const seen = `${error.message}\n${error.stack ?? ""}\n${String((error as { cause?: unknown }).cause ?? "")}`;
  if (!secrets.some((s) => s !== "" && seen.includes(s))) return error;
  const copy = new Error(maskSecrets(error.message, secrets));
  copy.name = error.name;
  return copy;
}
