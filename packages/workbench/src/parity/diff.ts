// A short description of where two JSON values differ: the first differing path and both values there.
export function firstDifference(a: unknown, b: unknown, path = "$"): string | null {
  if (Object.is(a, b)) return null;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== "object") return `${path}: ${short(a)} vs ${short(b)}`;
  if (Array.isArray(a) !== Array.isArray(b)) return `${path}: ${short(a)} vs ${short(b)}`;
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.min(a.length, b.length); i++) {
      const d = firstDifference(a[i], b[i], `${path}[${i}]`);
      if (d) return d;
    }
    return a.length === b.length ? null : `${path}: ${a.length} items vs ${b.length}`;
  }
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  for (const key of new Set([...Object.keys(ao), ...Object.keys(bo)])) {
    if (!(key in ao) || !(key in bo)) return `${path}.${key}: ${key in ao ? short(ao[key]) : "(absent)"} vs ${key in bo ? short(bo[key]) : "(absent)"}`;
    const d = firstDifference(ao[key], bo[key], `${path}.${key}`);
    if (d) return d;
  }
  return null;
}

function short(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 160 ? `${text.slice(0, 157)}...` : text;
}

/**
 * Messages that name the deployment ("subgraph <id> has only indexed up to block ...") with each
 * engine's own id: the local node's IPFS hash, and `gnd dev`'s manifest path. Both become
 * `<deployment>`, so the rest of the message is compared.
 */
export function withDeploymentsUnnamed(value: unknown): unknown {
  if (typeof value === "string") return value.replace(/\bsubgraph (Qm[1-9A-HJ-NP-Za-km-z]{44}|\/\S*subgraph\.yaml) /g, "subgraph <deployment> ");
  if (Array.isArray(value)) return value.map(withDeploymentsUnnamed);
  if (value !== null && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withDeploymentsUnnamed(v)]));
  return value;
}
