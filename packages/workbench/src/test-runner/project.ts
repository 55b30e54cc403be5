// What a run needs from the project: the manifest, and the schema read twice: as Matchstick reads it
// (syntax only; a syntax error stops the run as in Matchstick) and as graph-node validates it (needed
// for graph-node semantics; in Matchstick semantics a schema graph-node rejects only earns a warning).
import { readFileSync } from "node:fs";
import { parseSubgraphSchema, type SubgraphSchema } from "../subgraph-schema/index.js";
import type { RunnerConfig } from "./config.js";
import { readManifest, type ManifestInfo } from "./manifest.js";
import { readMockSchema, type MockSchema } from "./matchstick/mockSchema.js";
import { ConfigError } from "./errors.js";

export interface Project {
  manifest: ManifestInfo;
  mockSchema: MockSchema;
  /** null when graph-node would reject the schema (see schemaError). */
  schema: SubgraphSchema | null;
  schemaError: string | null;
}

export function loadProject(config: RunnerConfig): Project {
  const manifest = readManifest(config.manifestPath);
  let sdl: string;
  try {
    sdl = readFileSync(manifest.schemaPath, "utf8");
  } catch (cause) {
    throw new ConfigError(`Something went wrong when trying to read \`${manifest.schemaPath}\``, { cause });
  }
  const mockSchema = readMockSchema(sdl);
  try {
    return { manifest, mockSchema, schema: parseSubgraphSchema(sdl), schemaError: null };
  } catch (cause) {
    return { manifest, mockSchema, schema: null, schemaError: (cause as Error).message };
  }
}
