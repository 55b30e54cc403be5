// Logging: Matchstick's store and data source dumps (as pretty JSON at debug level), and `log.log`
// with matchstick-as's levels.
import { LEVELS } from "../logger.js";
import { critical, type ImportGroup, type MatchstickLink } from "./linkContext.js";
import { entityToJson } from "./values.js";

function pretty(value: unknown): string {
  return JSON.stringify(value, null, 2);
}

export function storeLogImports({ state, logger, mockSchema, str }: MatchstickLink): ImportGroup {
  return {
    logStore: () => {
      const out: Record<string, Record<string, unknown>> = {};
      for (const type of state.store.types()) {
        out[type] = Object.fromEntries(state.store.entries(type).map(([id, data]) => [id, entityToJson(data)]));
      }
      logger.log("debug", pretty(out));
    },
    logEntity: (t: number, id: number, showRelated: number) => {
      const entityType = str(t);
      const entityId = str(id);
      if (!mockSchema.entities.has(entityType)) critical(state, logger, `(logEntity) Entity "${entityType}" does not match any of the schema definitions`);
      const out: Record<string, unknown> = {};
      const row = state.store.get(entityType, entityId);
      if (row !== null) {
        Object.assign(out, entityToJson(row));
        if (showRelated !== 0) {
          for (const field of mockSchema.derived.get(entityType)?.keys() ?? []) {
            out[field] = state.store.loadRelated(entityType, entityId, field).map(entityToJson);
          }
        }
      }
      logger.log("debug", pretty(out));
    },
    logDataSources: (t: number) => {
      const template = str(t);
      const created = state.templates.get(template);
      if (created === undefined) critical(state, logger, `(logDataSources) No template with name '${template}' found.`);
      const out: Record<string, unknown> = {};
      for (const [address, ds] of created) out[address] = { kind: ds.kind, name: ds.name, address: ds.address, context: ds.context === null ? null : entityToJson(ds.context) };
      logger.log("debug", pretty(out));
    },
  };
}

export function logLevelImports({ state, logger, str }: MatchstickLink): ImportGroup {
  return {
    // matchstick-as's log levels: 0 critical (stops the run) .. 4 debug, 5 success.
    "log.log": (level: number, message: number) => {
      const text = str(message);
      const name = LEVELS[level];
      if (name === undefined) critical(state, logger, "Level is not supported!");
      if (name === "critical") critical(state, logger, text);
      logger.log(name, text);
    },
  };
}
