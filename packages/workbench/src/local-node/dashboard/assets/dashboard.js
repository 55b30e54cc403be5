// The node's dashboard in the browser: polls the dashboard's JSON and the status API every second and
// updates each deployment's card in place (its chart is made once and updated).
"use strict";
(() => {
  const OVERVIEW = "/_workbench/api/overview";
  const STATUS_QUERY = `{ indexingStatuses { subgraph synced health entityCount
    fatalError { message handler block { number } } nonFatalErrors { message handler block { number } }
    chains { network chainHeadBlock { number } latestBlock { number } } } }`;
  const LEVELS = ["debug", "info", "warning", "error", "critical"];
  const cards = new Map();
  const $ = (sel, root = document) => root.querySelector(sel);

  function el(tag, attrs = {}, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) {
      if (k === "class") node.className = v;
      else if (k.startsWith("data-")) node.setAttribute(k, v);
      else node[k] = v;
    }
    for (const c of children) node.append(c);
    return node;
  }
  const fmt = (n, digits = 0) => (n === null || n === undefined || Number.isNaN(n) ? "–" : Number(n).toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits }));
  const bytes = (n) => (n >= 2 ** 20 ? `${fmt(n / 2 ** 20, 1)} MiB` : n >= 1024 ? `${fmt(n / 1024, 1)} KiB` : `${fmt(n)} B`);
  const duration = (s) => (s === null || s === undefined ? "–" : s === 0 ? "at the head" : s < 90 ? `${fmt(s, 0)} s` : s < 5400 ? `${fmt(s / 60, 1)} min` : `${fmt(s / 3600, 1)} h`);

  function field(card, name, text) {
    const node = $(`[data-field="${name}"]`, card.root);
    if (node && node.textContent !== text) node.textContent = text;
  }

  function makeCard(d) {
    const root = el("section", { class: "deployment", "data-deployment": d.id });
    root.append(
      el("h2", {}, el("span", { "data-field": "names" }), " ", el("span", { class: "badge", "data-field": "health" })),
      el("p", { class: "id" }, el("code", {}, d.id), " ", el("span", { "data-field": "links" })),
      el("div", { class: "progress" }, el("progress", { max: 1, value: 0 }), el("span", { "data-field": "percent" })),
      el(
        "dl",
        { class: "figures" },
        el("dt", {}, "start block"), el("dd", { "data-field": "start" }),
        el("dt", {}, "latest block"), el("dd", { "data-field": "latest" }),
        el("dt", {}, "chain head"), el("dd", { "data-field": "head" }),
        el("dt", {}, "events/s now · avg"), el("dd", { "data-field": "events" }),
        el("dt", {}, "blocks/s now · avg"), el("dd", { "data-field": "blocks" }),
        el("dt", {}, "time to head"), el("dd", { "data-field": "eta" }),
        el("dt", {}, "entities"), el("dd", { "data-field": "entityCount" }),
        el("dt", {}, "store size"), el("dd", { "data-field": "size" }),
      ),
      el("h3", {}, "Entities by type"),
      el("table", { class: "entities" }, el("tbody", { "data-field": "entityTable" })),
      el("h3", {}, "Errors"),
      el("ul", { class: "errors", "data-field": "errors" }),
      el("h3", {}, "Handler profile"),
      el(
        "table",
        { class: "profile" },
        el("thead", {}, el("tr", {}, ...["data source", "handler", "calls", "total ms", "mean ms", "max ms", "get", "set", "remove", "eth_call", "eth_call ms", "cached"].map((h) => el("th", {}, h)))),
        el("tbody", { "data-field": "profile" }),
      ),
      el("div", { class: "chart" }, el("canvas", { "aria-label": "time per handler" })),
    );
    $("#deployments").append(root);
    const chart = new Chart($("canvas", root), {
      type: "bar",
      data: { labels: [], datasets: [{ label: "total ms", data: [] }, { label: "eth_call ms", data: [] }] },
      options: { indexAxis: "y", animation: false, responsive: true, maintainAspectRatio: false, plugins: { title: { display: true, text: "Where the time goes (ms per handler)" } } },
    });
    const card = { root, chart, profileKey: "" };
    cards.set(d.id, card);
    return card;
  }

  function rows(tbody, data) {
    tbody.replaceChildren(...data.map((cells) => el("tr", {}, ...cells.map((c) => el("td", {}, String(c))))));
  }

  function update(d, status) {
    const card = cards.get(d.id) ?? makeCard(d);
    const chain = status?.chains?.[0];
    const latest = chain?.latestBlock ? Number(chain.latestBlock.number) : d.latestBlock;
    const head = chain?.chainHeadBlock ? Number(chain.chainHeadBlock.number) : d.chainHead;
    field(card, "names", d.names.length ? d.names.map((n) => `${n.name}${n.label ? ` (${n.label})` : ""}${n.role === "pending" ? " pending" : ""}`).join(", ") : "(no name)");
    const health = status?.health ?? d.health;
    field(card, "health", `${health}${status?.synced ?? d.synced ? ", synced" : ""}${d.paused ? ", paused" : ""}`);
    $('[data-field="health"]', card.root).dataset.health = health;
    const links = $('[data-field="links"]', card.root);
    if (!links.childElementCount) {
      links.append(el("a", { href: `/subgraphs/id/${d.id}/graphql` }, "GraphiQL"));
      for (const n of d.names) links.append(" · ", el("a", { href: `/subgraphs/name/${n.name}/graphql` }, `GraphiQL ${n.name}`));
    }
    const span = head !== null && head !== undefined ? head - d.startBlock + 1 : null;
    const done = latest !== null && latest !== undefined ? latest - d.startBlock + 1 : 0;
    const share = span && span > 0 ? Math.max(0, Math.min(1, done / span)) : 0;
    $("progress", card.root).value = share;
    field(card, "percent", `${fmt(share * 100, 1)}%`);
    field(card, "start", fmt(d.startBlock));
    field(card, "latest", latest === null || latest === undefined ? "–" : String(latest));
    field(card, "head", head === null || head === undefined ? "–" : String(head));
    field(card, "events", `${fmt(d.rates.eventsPerSecond.now, 1)} · ${fmt(d.rates.eventsPerSecond.average, 1)}`);
    field(card, "blocks", `${fmt(d.rates.blocksPerSecond.now, 1)} · ${fmt(d.rates.blocksPerSecond.average, 1)}`);
    field(card, "eta", duration(d.rates.secondsToHead));
    field(card, "entityCount", status ? String(status.entityCount) : "–");
    field(card, "size", bytes(d.storeBytes));
    rows($('[data-field="entityTable"]', card.root), Object.entries(d.entities).map(([type, n]) => [type, n]));
    const errors = $('[data-field="errors"]', card.root);
    errors.replaceChildren(
      ...(d.errors.length === 0
        ? [el("li", { class: "none" }, "none")]
        : d.errors.map((e) =>
            el(
              "li",
              { class: e.kind === "fatal" ? "fatal" : "nonfatal" },
              el("strong", {}, e.kind),
              ` at block ${e.block ?? "?"}${e.handler ? `, handler ${e.handler}` : ""}${e.transaction ? `, transaction ${e.transaction}` : ""}`,
              el("br"),
              el("span", { class: "location", "data-field": "location" }, e.location ? `at ${e.location}` : "location unknown"),
              el("br"),
              el("code", {}, e.message),
            ),
          )),
    );
    rows(
      $('[data-field="profile"]', card.root),
      d.profile.map((r) => [r.dataSource, r.handler, r.calls, fmt(r.totalMs, 1), fmt(r.calls ? r.totalMs / r.calls : 0, 3), fmt(r.maxMs, 2), r.storeGets, r.storeSets, r.storeRemoves, r.ethCalls, fmt(r.ethCallMs, 1), r.ethCalls ? `${fmt((100 * r.ethCallsCached) / r.ethCalls)}%` : "–"]),
    );
    const key = JSON.stringify(d.profile.map((r) => [r.handler, r.calls, r.totalMs]));
    if (key !== card.profileKey) {
      card.profileKey = key;
      card.chart.data.labels = d.profile.map((r) => `${r.dataSource} ${r.handler}`);
      card.chart.data.datasets[0].data = d.profile.map((r) => r.totalMs);
      card.chart.data.datasets[1].data = d.profile.map((r) => r.ethCallMs);
      card.chart.update();
    }
  }

  function renderLogs(logs, deployments) {
    const level = $("#log-level").value;
    const deployment = $("#log-deployment").value;
    const select = $("#log-deployment");
    const known = new Set([...select.options].map((o) => o.value));
    for (const d of deployments) if (!known.has(d.id)) select.append(el("option", { value: d.id }, d.names[0]?.name ?? d.id));
    const min = LEVELS.indexOf(level);
    const shown = logs.filter((l) => LEVELS.indexOf(l.level) >= min && (deployment === "" || (deployment === "node" ? l.deployment === null : l.deployment === deployment)));
    $("#logs").replaceChildren(...shown.slice(-200).map((l) => el("li", { "data-level": l.level }, `${l.time} ${l.level.toUpperCase()} ${l.deployment ? `${l.deployment.slice(0, 12)}… ` : ""}${l.message}`)));
  }

  async function tick() {
    try {
      const overview = await (await fetch(OVERVIEW, { cache: "no-store" })).json();
      let statuses = [];
      try {
        const res = await fetch(overview.links.status, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ query: STATUS_QUERY }) });
        statuses = (await res.json()).data?.indexingStatuses ?? [];
      } catch {
        statuses = [];
      }
      const status = $("#status-link");
      if (!status.href) status.href = overview.links.status;
      if (overview.links.metrics) {
        const metrics = $("#metrics-link");
        if (!metrics.href) (metrics.href = overview.links.metrics), (metrics.hidden = false);
      }
      $("#empty").hidden = overview.deployments.length > 0;
      for (const d of overview.deployments) update(d, statuses.find((s) => s.subgraph === d.id));
      renderLogs(overview.logs, overview.deployments);
      $("#updated").textContent = `updated ${new Date().toLocaleTimeString()}`;
      document.body.dataset.ticks = String(Number(document.body.dataset.ticks ?? "0") + 1);
    } catch (err) {
      $("#updated").textContent = `node not answering (${err instanceof Error ? err.message : String(err)})`;
    }
  }

  for (const id of ["log-level", "log-deployment"]) document.getElementById(id).addEventListener("change", () => void tick());
  void tick();
  setInterval(() => void tick(), 1000);
})();
