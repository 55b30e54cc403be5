// The long-running node's process-level memory settings, and its threads' heap ceilings (explicit
// collections, lib/heapCeiling.ts), each of which the memory benchmark turns off to measure what it
// gives (`npm run bench:node-memory -- --variants`): an internal switch read from the environment, not a
// user's option. `all` turns every one off.
export const PROCESS_SETTINGS = ["mmap-threshold", "v8-pool-size", "wasm-tiering", "heap-ceilings"] as const;
export type ProcessSetting = (typeof PROCESS_SETTINGS)[number];

export const PROCESS_SETTINGS_OFF_VARIABLE = "SUBGRAPH_WORKBENCH_SETTINGS_OFF";

/** The settings a comma-separated list names (`all` for every one); an unknown name is an error naming the known ones. */
export function parseSettingsOff(list: string): Set<ProcessSetting> {
  const names = list
    .split(",")
    .map((n) => n.trim())
    .filter(Boolean);
  if (names.includes("all")) return new Set(PROCESS_SETTINGS);
  const unknown = names.filter((n) => !(PROCESS_SETTINGS as readonly string[]).includes(n));
  if (unknown.length > 0) throw new Error(`${PROCESS_SETTINGS_OFF_VARIABLE}: no setting named ${unknown.join(", ")}; the settings are ${PROCESS_SETTINGS.join(", ")} (or all)`);
  return new Set(names as ProcessSetting[]);
}

/** Whether the environment turns this setting off. */
export function processSettingOff(setting: ProcessSetting, env: NodeJS.ProcessEnv = process.env): boolean {
  return parseSettingsOff(env[PROCESS_SETTINGS_OFF_VARIABLE] ?? "").has(setting);
}
