// One row per Approval log, keyed `<tx hash>-<log index>` as the subgraph keys it.
import { ApprovalToken } from "generated";

ApprovalToken.Approval.handler(async ({ event, context }) => {
  context.Approval.set({
    id: `${event.transaction.hash}-${event.logIndex}`,
    owner: event.params.owner,
    spender: event.params.spender,
    value: event.params.value,
  });
});
