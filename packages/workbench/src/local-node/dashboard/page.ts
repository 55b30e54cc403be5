// The dashboard's page and its assets: our own script and styles (assets/), and Chart.js from its npm
// package. Nothing is fetched from the network: the page works offline.
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const require = createRequire(import.meta.url);

/** Where the page's files are served, under the dashboard's own path. */
export const ASSETS = "/_workbench/assets";

export interface Asset {
  file: string;
  contentType: string;
}

/** The page's files by path; the assets folder sits beside this module (copied beside dist's too). */
export function dashboardAssets(): Map<string, Asset> {
  const own = (name: string) => fileURLToPath(new URL(`./assets/${name}`, import.meta.url));
  return new Map([
    [`${ASSETS}/dashboard.js`, { file: own("dashboard.js"), contentType: "text/javascript; charset=utf-8" }],
    [`${ASSETS}/dashboard.css`, { file: own("dashboard.css"), contentType: "text/css; charset=utf-8" }],
    // Its UMD build (every chart type registered, as `Chart`), beside the entry point its exports name.
    [`${ASSETS}/chart.umd.min.js`, { file: join(dirname(require.resolve("chart.js")), "chart.umd.min.js"), contentType: "text/javascript; charset=utf-8" }],
  ]);
}

export async function readAsset(asset: Asset): Promise<Buffer> {
  return readFile(asset.file);
}

export const DASHBOARD_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Subgraph workbench: local node</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${ASSETS}/dashboard.css">
<script src="${ASSETS}/chart.umd.min.js"></script>
<script src="${ASSETS}/dashboard.js" defer></script>
</head>
<body>
<header>
<h1>Local node</h1>
<a id="status-link">status API</a>
<a id="metrics-link" hidden>metrics</a>
<span id="updated"></span>
</header>
<p id="empty" hidden>No deployment yet: <code>graph create</code> and <code>graph deploy</code> one to this node.</p>
<div id="deployments"></div>
<section>
<h2>Log</h2>
<label>level <select id="log-level"><option value="debug">all</option><option value="info" selected>info and up</option><option value="warning">warnings and errors</option><option value="error">errors</option></select></label>
<label>deployment <select id="log-deployment"><option value="">all</option><option value="node">the node's own</option></select></label>
<ul id="logs"></ul>
</section>
</body>
</html>
`;
