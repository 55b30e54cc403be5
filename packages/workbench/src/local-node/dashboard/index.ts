// The node's dashboard: a page for a browser at the query port's `/`, its files and the JSON behind it.
export { createDashboardRoutes, DASHBOARD_API, type DashboardRoutes } from "./routes.js";
export type { DashboardSources, Overview } from "./overview.js";
export { createLogBuffer, type LogBuffer, type LogLine } from "./logBuffer.js";
export { prefersHtml } from "./acceptsHtml.js";
export { createSourceMapRegistry, type SourceMapRegistry } from "./sourceMaps.js";
