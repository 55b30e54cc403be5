// What the runner needs from subgraph.yaml: the schema file, each data source's and template's
// handlers (for coverage) and the templates (for dataSource.create mocks). Matchstick's rules:
// event and call handlers count, block handlers do not; templates of kind ethereum, ethereum/contract
// and file/ipfs are mockable.
import { existsSync, readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { parseManifestYaml } from "../lib/manifestYaml.js";
import { ConfigError } from "./errors.js";

export interface ManifestSource {
  name: string;
  handlers: string[];
}

export interface ManifestInfo {
  path: string;
  /** Absolute path of the schema file. */
  schemaPath: string;
  /** Data sources, then templates, in manifest order. */
  sources: ManifestSource[];
  /** Mockable templates by name -> kind. */
  templates: Map<string, string>;
  /** Template kinds Matchstick does not support (it warns about them). */
  unsupportedTemplates: { name: string; kind: string }[];
}

type Yaml = Record<string, unknown>;
const asList = (v: unknown): Yaml[] => (Array.isArray(v) ? (v as Yaml[]) : []);
const asRecord = (v: unknown): Yaml => (v && typeof v === "object" ? (v as Yaml) : {});

export function readManifest(path: string): ManifestInfo {
  if (!existsSync(path)) throw new ConfigError(`subgraph manifest not found: ${path}`, { details: { path } });
  let doc: Yaml;
  try {
    doc = asRecord(parseManifestYaml(readFileSync(path, "utf8")));
  } catch (cause) {
    throw new ConfigError("subgraph manifest is not valid YAML", { cause, details: { path } });
  }
  const schemaFile = asRecord(doc["schema"])["file"];
  if (typeof schemaFile !== "string") throw new ConfigError("subgraph manifest has no schema.file", { details: { path } });
  const schemaPath = resolve(dirname(path), schemaFile);
  if (!existsSync(schemaPath)) throw new ConfigError(`Could not find schema at \`${schemaFile}\``, { details: { schemaPath } });

  const sources: ManifestSource[] = [];
  for (const source of [...asList(doc["dataSources"]), ...asList(doc["templates"])]) {
    const mapping = asRecord(source["mapping"]);
    const handlers = [...asList(mapping["eventHandlers"]), ...asList(mapping["callHandlers"])]
      .map((h) => h["handler"])
      .filter((h): h is string => typeof h === "string");
    sources.push({ name: String(source["name"] ?? ""), handlers });
  }
  const templates = new Map<string, string>();
  const unsupportedTemplates: { name: string; kind: string }[] = [];
  for (const template of asList(doc["templates"])) {
    const name = String(template["name"] ?? "");
    const kind = String(template["kind"] ?? "");
    if (["ethereum", "ethereum/contract", "file/ipfs"].includes(kind)) templates.set(name, kind);
    else unsupportedTemplates.push({ name, kind });
  }
  return { path, schemaPath, sources, templates, unsupportedTemplates };
}
