// `npm run query`: lists approvals from the local node (default) or --endpoint / QUERY_URL.
import { queryUrlFor } from "subgraph-workbench/deploy";
import { formatApprovalsJson, formatApprovalsTable, listApprovals, subgraphName } from "../clients/subgraph/index.js";
import { fail, parseCli } from "subgraph-workbench/cli";

const { values } = parseCli({
  endpoint: { type: "string", default: process.env.QUERY_URL ?? queryUrlFor(subgraphName()) },
  first: { type: "string" },
  owner: { type: "string" },
  spender: { type: "string" },
  "min-value": { type: "string" },
  json: { type: "boolean", default: false },
});

try {
  const first = values.first === undefined ? undefined : Number(values.first);
  if (first !== undefined && !(Number.isInteger(first) && first > 0)) throw new Error(`--first must be a positive integer, got "${values.first}"`);
  for (const flag of ["owner", "spender"] as const) {
    const v = values[flag];
    if (v !== undefined && !/^0x[0-9a-fA-F]{40}$/.test(v)) throw new Error(`--${flag} must be a 0x address of 20 bytes, got "${v}"`);
  }
  let minValue: bigint | undefined;
  if (values["min-value"] !== undefined) {
    if (!/^\d+$/.test(values["min-value"])) throw new Error(`--min-value must be a non-negative integer in raw units, got "${values["min-value"]}"`);
    minValue = BigInt(values["min-value"]);
  }
  const approvals = await listApprovals({
    endpoint: values.endpoint,
    ...(first !== undefined ? { first } : {}),
    ...(values.owner ? { owner: values.owner } : {}),
    ...(values.spender ? { spender: values.spender } : {}),
    ...(minValue !== undefined ? { minValue } : {}),
  });
  console.log(values.json ? formatApprovalsJson(approvals) : formatApprovalsTable(approvals));
} catch (error) {
  fail(error);
}
