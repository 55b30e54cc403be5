// What an error's message says of where it happened, for the dashboard (the status API's message is
// graph-node's text; the parts are read back out of it): the handler, the block, the transaction and the
// source location (an AssemblyScript abort names its file, line and column; a trap's location comes from
// the node's log, see sourceLocations).
export interface ErrorPlace {
  handler: string | null;
  transaction: string | null;
  /** `file:line:column`, or a function in the wasm, when known. */
  location: string | null;
}

export function placeOf(message: string): ErrorPlace {
  const handler = /in handler `([^`]+)`/.exec(message)?.[1] ?? null;
  const transaction = /transaction (?:0x)?([0-9a-f]{64})/i.exec(message)?.[1] ?? null;
  const abort = /Mapping aborted at ([^,]+)(?:, line (\d+))?(?:, column (\d+))?/.exec(message);
  const location = abort ? [abort[1], abort[2], abort[3]].filter((p) => p !== undefined).join(":") : null;
  return { handler, transaction: transaction ? `0x${transaction.toLowerCase()}` : null, location };
}
