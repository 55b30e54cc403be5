// The node's dashboard: a page for a browser at the query port's `/`, and the JSON behind it.
export { createDashboardRoutes, DASHBOARD_API, type DashboardRoutes, type DashboardSources } from "./routes.js";
