// The node's fork base (graph-node's `--fork-base`, GRAPH_FORK_BASE): a URL to which a debug fork's
// deployment id is appended, e.g. `http://127.0.0.1:8000/subgraphs/id/` + `Qm...`.
import { maskUrl } from "../../lib/redact.js";
import { ForkBaseError } from "./errors.js";

/**
 * Parses the fork base. As graph-node, a missing trailing slash is added, so that the id is appended to
 * the path instead of replacing its last segment (URL resolution).
 */
export function parseForkBase(text: string): URL {
  let url: URL;
  try {
    url = new URL(text.endsWith("/") ? text : `${text}/`);
  } catch (cause) {
    throw new ForkBaseError(`the fork base is not a URL: ${JSON.stringify(maskUrl(text))} (give e.g. --fork-base http://127.0.0.1:8000/subgraphs/id/)`, { cause });
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ForkBaseError(`the fork base must be an http or https URL, not ${url.protocol} (${maskUrl(url.href)})`);
  }
  if (url.search !== "" || url.hash !== "") throw new ForkBaseError(`the fork base must have no query or fragment: ${maskUrl(url.href)}`);
  return url;
}

/** Where the fork's queries go: the base joined with the forked deployment's id. */
export function forkEndpoint(base: URL, forkId: string): URL {
  return new URL(encodeURIComponent(forkId), base);
}
