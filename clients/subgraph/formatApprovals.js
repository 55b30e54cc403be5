/** A plain-text table: id, owner, spender and value in raw units; `maxRows` cuts long listings short. */
export function formatApprovalsTable(approvals, options = {}) {
    const header = ["id", "owner", "spender", "value"];
    const shown = options.maxRows === undefined ? approvals : approvals.slice(0, options.maxRows);
    const rows = shown.map((a) => [a.id, a.owner, a.spender, a.value.toString()]);
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
    const line = (cells) => cells.map((c, i) => (i === 3 ? c.padStart(widths[i] ?? 0) : c.padEnd(widths[i] ?? 0))).join("  ").trimEnd();
    const out = [line(header), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map(line)];
    if (shown.length < approvals.length)
        out.push(`... ${approvals.length - shown.length} more (\`npm run query\` lists them all)`);
    out.push(`${approvals.length} approval${approvals.length === 1 ? "" : "s"}`);
    return out.join("\n");
}
/** One JSON array; values as decimal strings, since JSON has no bigint. */
export function formatApprovalsJson(approvals) {
    return JSON.stringify(approvals.map((a) => ({ ...a, value: a.value.toString() })));
}
