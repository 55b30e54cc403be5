// One row per Approval log, as the subgraph's ApprovalQuery entity.
import { onchainTable } from "ponder";

export const approval = onchainTable("approval", (t) => ({
  id: t.text().primaryKey(),
  owner: t.hex().notNull(),
  spender: t.hex().notNull(),
  value: t.bigint().notNull(),
}));
