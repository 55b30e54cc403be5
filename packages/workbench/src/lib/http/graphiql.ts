// The GraphiQL page, served from node_modules (graphiql 3.8's UMD bundle with React 18), never from a CDN.
// The query and status servers both serve it: the page for an endpoint, and its assets under /graphiql/.
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

const require = createRequire(import.meta.url);

function packageDir(name: string): string {
  return dirname(require.resolve(`${name}/package.json`));
}

export interface StaticAsset {
  file: string;
  contentType: string;
}

/** URL path under /graphiql/ -> file on disk. */
export function graphiqlAssets(): Map<string, StaticAsset> {
  const graphiql = packageDir("graphiql");
  const react = packageDir("react");
  const reactDom = packageDir("react-dom");
  const js = "application/javascript; charset=utf-8";
  return new Map([
    ["/graphiql/react.production.min.js", { file: join(react, "umd", "react.production.min.js"), contentType: js }],
    ["/graphiql/react-dom.production.min.js", { file: join(reactDom, "umd", "react-dom.production.min.js"), contentType: js }],
    ["/graphiql/graphiql.min.js", { file: join(graphiql, "graphiql.min.js"), contentType: js }],
    ["/graphiql/graphiql.min.css", { file: join(graphiql, "graphiql.min.css"), contentType: "text/css; charset=utf-8" }],
  ]);
}

/** The GraphiQL page for an endpoint path such as /subgraphs/name/me/approvals. */
export function graphiqlHtml(endpoint: string): string {
  const url = JSON.stringify(endpoint).replace(/</g, "\\u003c");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8" />
<title>GraphiQL</title>
<meta name="viewport" content="width=device-width, initial-scale=1" />
<style>html, body, #graphiql { height: 100%; margin: 0; overflow: hidden; }</style>
<link rel="stylesheet" href="/graphiql/graphiql.min.css" />
</head>
<body>
<div id="graphiql">Loading...</div>
<script src="/graphiql/react.production.min.js"></script>
<script src="/graphiql/react-dom.production.min.js"></script>
<script src="/graphiql/graphiql.min.js"></script>
<script>
  const fetcher = GraphiQL.createFetcher({ url: new URL(${url}, window.location.href).toString() });
  const defaultQuery = "{\\n  _meta {\\n    block {\\n      number\\n    }\\n    deployment\\n    hasIndexingErrors\\n  }\\n}\\n";
  // ?query=... opens the page with that query in the editor (handy for links).
  const initial = new URLSearchParams(window.location.search).get("query");
  const props = { fetcher, defaultQuery, defaultEditorToolsVisibility: false };
  if (initial) props.query = initial;
  ReactDOM.createRoot(document.getElementById("graphiql")).render(React.createElement(GraphiQL, props));
</script>
</body>
</html>
`;
}
