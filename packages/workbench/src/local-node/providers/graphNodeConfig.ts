// graph-node's configuration file (`--config config.toml`), as far as this node uses it: the `[chains]`
// section's providers. A graph-node user's file is read unchanged: `[store]`, `[deployment]`, `[general]`
// and the chain settings this node has no use for are accepted and left alone. The provider rules are
// graph-node's (node/src/config.rs): a label of lowercase letters, digits and dashes, unique in its chain;
// either the flat `url` + `features` form or `details = { type, url, features, headers }`; features from
// graph-node's list; `$VAR` and `${VAR}` in a URL taken from the environment, so that a key stays out of
// the file. Firehose and `ws`/`ipc` providers are refused with a message: this node speaks JSON-RPC over HTTP.
import { parse } from "smol-toml";
import { BaseError } from "../../lib/errors.js";
import type { ProviderSpec } from "./provider.js";

export class ProviderConfigError extends BaseError {
  override name = "ProviderConfigError";
}

export interface NetworkProviders {
  network: string;
  providers: ProviderSpec[];
  /** `json_rpc_timeout` (graph-node's seconds), in milliseconds. */
  timeoutMs?: number;
  /** `polling_interval` (graph-node's milliseconds). */
  pollingIntervalMs?: number;
}

/** graph-node's PROVIDER_FEATURES. */
const FEATURES = new Set(["traces", "archive", "no_eip1898", "no_eip2718", "compression/gzip", "compression/brotli", "compression/deflate"]);
/** graph-node's label when `--ethereum-rpc` gives no features: `archive,traces`. */
export const DEFAULT_FEATURES = ["archive", "traces"];

type Table = Record<string, unknown>;
const isTable = (v: unknown): v is Table => typeof v === "object" && v !== null && !Array.isArray(v) && !(v instanceof Date);

/** graph-node's validate_name. */
function checkLabel(label: unknown, where: string): string {
  if (typeof label !== "string" || label === "") throw new ProviderConfigError(`${where}: a provider needs a label`);
  if (label.length > 30) throw new ProviderConfigError(`${where}: provider label \`${label}\` has ${label.length} characters; at most 30`);
  if (!/^[a-z0-9-]+$/.test(label)) throw new ProviderConfigError(`${where}: provider label \`${label}\` may only have lowercase letters, digits and dashes`);
  return label;
}

/** shellexpand::env: `$NAME` and `${NAME}` from the environment; an unset one is an error. */
export function expandEnv(text: string, env: NodeJS.ProcessEnv, where: string): string {
  return text.replace(/\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))/g, (_, braced: string | undefined, bare: string | undefined) => {
    const name = (braced ?? bare)!;
    const value = env[name];
    if (value === undefined) throw new ProviderConfigError(`${where}: the URL uses $${name}, which is not set in the environment`);
    return value;
  });
}

function stringList(value: unknown, where: string): string[] {
  if (!Array.isArray(value) || !value.every((v) => typeof v === "string")) throw new ProviderConfigError(`${where}: features must be a list of strings`);
  return value as string[];
}

function readProvider(raw: unknown, chain: string, env: NodeJS.ProcessEnv): ProviderSpec | { skipped: string } {
  const where = `[chains.${chain}]`;
  if (!isTable(raw)) throw new ProviderConfigError(`${where}: each provider is a table ({ label = ..., url = ..., features = [...] })`);
  const label = checkLabel(raw.label, where);
  const at = `${where} provider ${label}`;
  let details: Table;
  if (raw.details !== undefined) {
    if (!isTable(raw.details)) throw new ProviderConfigError(`${at}: details must be a table`);
    if (["url", "transport", "features", "headers"].some((k) => raw[k] !== undefined)) {
      throw new ProviderConfigError(`${at}: when \`details\` is given, \`url\`, \`transport\`, \`features\` and \`headers\` cannot be`);
    }
    details = raw.details;
  } else {
    if (raw.url === undefined) throw new ProviderConfigError(`${at}: missing field \`url\``);
    if (raw.features === undefined) throw new ProviderConfigError(`${at}: missing field \`features\``);
    details = { type: "web3", url: raw.url, features: raw.features, transport: raw.transport, headers: raw.headers };
  }
  const type = details.type ?? "web3";
  if (type === "firehose") return { skipped: `${at} is a Firehose provider; this node reads chains over JSON-RPC only` };
  if (type !== "web3" && type !== "web3call") throw new ProviderConfigError(`${at}: unknown provider type \`${String(type)}\` (web3, web3call or firehose)`);
  const transport = details.transport ?? "rpc";
  if (transport !== "rpc") throw new ProviderConfigError(`${at}: transport \`${String(transport)}\` is not supported by this node; give an http(s) URL with transport = "rpc"`);
  if (typeof details.url !== "string") throw new ProviderConfigError(`${at}: url must be a string`);
  const features = stringList(details.features ?? [], at);
  for (const f of features) if (!FEATURES.has(f)) throw new ProviderConfigError(`${at}: illegal feature \`${f}\`; features must be one of ${[...FEATURES].join(", ")}`);
  if (features.filter((f) => f.startsWith("compression/")).length > 1) throw new ProviderConfigError(`${at}: at most one compression method`);
  const url = expandEnv(details.url, env, at);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    // The URL may carry a key: say where, not what.
    throw new ProviderConfigError(`${at}: the url is not a legal URL`);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") throw new ProviderConfigError(`${at}: only http: and https: URLs are supported, not ${parsed.protocol}`);
  const headers: Record<string, string> = {};
  if (details.headers !== undefined) {
    if (!isTable(details.headers)) throw new ProviderConfigError(`${at}: headers must be a table of strings`);
    for (const [k, v] of Object.entries(details.headers)) {
      if (typeof v !== "string") throw new ProviderConfigError(`${at}: header ${k} must be a string`);
      headers[k] = expandEnv(v, env, at);
    }
  }
  return { label, url, features, ...(Object.keys(headers).length > 0 ? { headers } : {}), ...(type === "web3call" ? { callOnly: true } : {}) };
}

/**
 * The networks and their providers of a graph-node config file's text. `notes` gets one line per provider
 * or chain left out (Firehose, another protocol), for the start-up log.
 */
export function readGraphNodeConfig(text: string, options: { env?: NodeJS.ProcessEnv; notes?: (line: string) => void; source?: string } = {}): NetworkProviders[] {
  const env = options.env ?? process.env;
  const source = options.source ?? "config.toml";
  let doc: Table;
  try {
    doc = parse(text) as Table;
  } catch (err) {
    throw new ProviderConfigError(`${source} is not valid TOML: ${err instanceof Error ? err.message.split("\n")[0] : String(err)}`, { cause: err });
  }
  const chains = doc.chains;
  if (!isTable(chains)) throw new ProviderConfigError(`${source} has no [chains] section: the node needs at least one chain with providers`);
  const out: NetworkProviders[] = [];
  for (const [name, chain] of Object.entries(chains)) {
    // `ingestor` and `cache_size` sit beside the chains in graph-node's section.
    if (name === "ingestor" || name === "cache_size") continue;
    if (!isTable(chain)) throw new ProviderConfigError(`${source}: [chains.${name}] must be a table`);
    const protocol = chain.protocol ?? "ethereum";
    if (protocol !== "ethereum") {
      options.notes?.(`${source}: chain ${name} is ${String(protocol)}; this node indexes Ethereum chains only`);
      continue;
    }
    if (!Array.isArray(chain.provider)) throw new ProviderConfigError(`${source}: [chains.${name}] needs provider = [ { label, url, features }, ... ]`);
    const providers: ProviderSpec[] = [];
    for (const raw of chain.provider) {
      const read = readProvider(raw, name, env);
      if ("skipped" in read) options.notes?.(read.skipped);
      else providers.push(read);
    }
    const labels = providers.map((p) => p.label);
    if (new Set(labels).size !== labels.length) throw new ProviderConfigError(`${source}: [chains.${name}]: provider labels must be unique`);
    if (providers.length === 0) {
      options.notes?.(`${source}: chain ${name} has no JSON-RPC provider this node can use`);
      continue;
    }
    const timeout = chain.json_rpc_timeout;
    const polling = chain.polling_interval;
    out.push({
      network: name,
      providers,
      ...(typeof timeout === "number" && timeout > 0 ? { timeoutMs: timeout * 1000 } : {}),
      ...(typeof polling === "number" && polling > 0 ? { pollingIntervalMs: polling } : {}),
    });
  }
  if (out.length === 0) throw new ProviderConfigError(`${source}: no chain has a JSON-RPC provider this node can use`);
  return out;
}
