// The index-node status API beyond the statuses (status.ts) and the proofs (proofOfIndexing.ts), on both
// engines: its schema by introspection, type by type, and the answers of the fields that read the
// deployment, the chain and the node (subgraphFeatures, entityChangesInBlock, blockData,
// blockHashFromNumber, cachedEthereumCalls, apiVersions, version, the statuses by subgraph name, a proof
// asked with a `String!` variable where the schema says `Bytes!`). Each engine is asked about its own
// deployment id (gnd dev's is a manifest path).
import { getIntrospectionQuery } from "graphql";
import { createJsonRpcClient } from "../json-rpc/index.js";
import type { Engine } from "./engines.js";
import { postGraphQL, type GraphQLAnswer } from "./graphql.js";
import { readDeploymentId } from "./status.js";

type Subject = [string, unknown, unknown];

/** An answer as compared: the data, and the error messages (graph-node's locations are not compared). */
function answerOf(answer: GraphQLAnswer): unknown {
  return { data: answer.data ?? null, errors: answer.errors?.map((e) => e.message) ?? [] };
}

interface IntrospectedType {
  name: string;
  [key: string]: unknown;
}

/** The status API's schema on both engines: its root types, directives, type names, then each type. */
export async function indexNodeSchemaSubjects(local: Engine, graphNode: Engine): Promise<Subject[]> {
  const query = getIntrospectionQuery();
  const [l, g] = await Promise.all([postGraphQL(local.statusUrl, query), postGraphQL(graphNode.statusUrl, query)]);
  const schemaOf = (a: GraphQLAnswer) => (a.data as { __schema?: Record<string, unknown> } | undefined)?.__schema ?? null;
  const [ls, gs] = [schemaOf(l), schemaOf(g)];
  if (!ls || !gs) return [["index-node:schema", answerOf(l), answerOf(g)]];
  const typesOf = (s: Record<string, unknown>) => new Map((s.types as IntrospectedType[]).map((t) => [t.name, t]));
  const [lt, gt] = [typesOf(ls), typesOf(gs)];
  const subjects: Subject[] = [
    ["index-node:schema.roots", [ls.queryType, ls.mutationType, ls.subscriptionType], [gs.queryType, gs.mutationType, gs.subscriptionType]],
    ["index-node:schema.directives", ls.directives, gs.directives],
    ["index-node:schema.typeNames", [...lt.keys()].sort(), [...gt.keys()].sort()],
  ];
  for (const name of [...new Set([...lt.keys(), ...gt.keys()])].sort()) subjects.push([`index-node:schema.type.${name}`, lt.get(name) ?? null, gt.get(name) ?? null]);
  return subjects;
}

/** graph-node collects a deployment's data source and handler kinds in hash sets: compared in order. */
function featuresSorted(answer: GraphQLAnswer): unknown {
  const f = (answer.data as { f?: Record<string, unknown> | null } | undefined)?.f;
  if (!f) return answerOf(answer);
  const sorted = (v: unknown) => (Array.isArray(v) ? [...(v as string[])].sort() : v);
  return { data: { f: { ...f, dataSources: sorted(f.dataSources), handlers: sorted(f.handlers) } }, errors: answer.errors?.map((e) => e.message) ?? [] };
}

const STATUS_FIELDS = `synced health entityCount node paused historyBlocks
  fatalError { message handler deterministic block { number hash } } nonFatalErrors { message handler deterministic block { number hash } }
  chains { network latestBlock { number hash } earliestBlock { number hash } lastHealthyBlock { number hash } }
  subgraphSize { rowEstimate tableSize indexSize toastSize totalSize }`;

/** A status with the sizes left as their shape: each engine's tables and Postgres measure them differently. */
function statusesShaped(answer: GraphQLAnswer): unknown {
  const shape = (s: Record<string, unknown> | null) => {
    if (!s || typeof s !== "object") return s;
    const size = s.subgraphSize as Record<string, string> | undefined;
    return { ...s, subgraphSize: size ? Object.fromEntries(Object.entries(size).map(([k, v]) => [k, /^\d+$/.test(v) ? "<non-negative integer>" : v])) : size };
  };
  const data = answer.data as Record<string, unknown> | null | undefined;
  if (!data) return answerOf(answer);
  const shaped = Object.fromEntries(Object.entries(data).map(([k, v]) => [k, Array.isArray(v) ? v.map(shape) : shape(v as Record<string, unknown> | null)]));
  return { data: shaped, errors: answer.errors?.map((e) => e.message) ?? [] };
}

/**
 * The block fields that the provider's JSON and graph-node's stored copy (alloy's serialization, or
 * `{block, transaction_receipts}` for a block it kept with receipts) both carry, as they carry them.
 */
function blockHeader(answer: GraphQLAnswer): unknown {
  const d = (answer.data as { d?: Record<string, unknown> | null } | undefined)?.d;
  if (!d) return answerOf(answer);
  const block = (typeof d.block === "object" && d.block !== null ? d.block : d) as Record<string, unknown>;
  const fields = ["hash", "number", "parentHash", "timestamp", "stateRoot", "transactionsRoot", "receiptsRoot", "logsBloom", "gasUsed", "gasLimit", "miner", "extraData", "baseFeePerGas"];
  const transactions = Array.isArray(block.transactions) ? block.transactions.map((t) => (typeof t === "string" ? t : (t as { hash?: unknown }).hash)) : null;
  return { ...Object.fromEntries(fields.map((f) => [f, block[f] ?? null])), transactions };
}

/** Cached calls in one order: graph-node orders them by contract address only, the ties as Postgres reads them. */
function callsSorted(answer: GraphQLAnswer): unknown {
  const c = (answer.data as { c?: { contractAddress: string; idHash: string }[] | null } | undefined)?.c;
  if (!Array.isArray(c)) return answerOf(answer);
  const key = (x: { contractAddress: string; idHash: string }) => `${x.contractAddress}:${x.idHash}`;
  return { data: { c: [...c].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0)) }, errors: answer.errors?.map((e) => e.message) ?? [] };
}

/** A public proof: the block as the engine writes it, and a proof of 32 bytes (its value names the deployment id). */
function publicProofShape(answer: GraphQLAnswer): unknown {
  const p = (answer.data as { p?: { block: unknown; proofOfIndexing: unknown }[] } | undefined)?.p;
  if (!p) return answerOf(answer);
  return p.map((r) => ({ block: r.block, proofIsHex32: typeof r.proofOfIndexing === "string" && /^0x[0-9a-f]{64}$/.test(r.proofOfIndexing) }));
}

/** The proof a `String!` variable gets where the schema says `Bytes!`: accepted, and the same as asked with `Bytes!`. */
async function proofWithStringHash(engine: Engine, id: string, block: number, hash: string): Promise<unknown> {
  const ask = (type: string) => postGraphQL(engine.statusUrl, `query P($id: String!, $n: Int!, $h: ${type}) { p: proofOfIndexing(subgraph: $id, blockNumber: $n, blockHash: $h) }`, { id, n: block, h: hash });
  const [asString, asBytes] = [await ask("String!"), await ask("Bytes!")];
  const proof = (a: GraphQLAnswer) => (a.data as { p?: unknown } | undefined)?.p ?? null;
  return {
    errors: asString.errors?.map((e) => e.message) ?? [],
    proofIsHex32: typeof proof(asString) === "string" && /^0x[0-9a-f]{64}$/.test(proof(asString) as string),
    sameAsBytesVariable: proof(asString) === proof(asBytes),
  };
}

/** The answers of the index-node fields at the blocks (the head among them) for both engines' deployments. */
export async function indexNodeFieldSubjects(local: Engine, graphNode: Engine, chainUrl: string, network: string, blocks: number[]): Promise<Subject[]> {
  const engines = [local, graphNode] as const;
  const ids = await Promise.all(engines.map(readDeploymentId));
  const subjects: Subject[] = [];
  /** One query on both engines, each with its own deployment id as `$id`. */
  const both = async (subject: string, query: string, variables: Record<string, unknown> = {}, view: (a: GraphQLAnswer) => unknown = answerOf) => {
    const [l, g] = await Promise.all(engines.map((e, i) => postGraphQL(e.statusUrl, query, { ...variables, id: ids[i] })));
    subjects.push([`index-node:${subject}`, view(l!), view(g!)]);
  };
  const unknownId = `QmUnknown${"Z".repeat(37)}`;

  await both("subgraphFeatures", "query F($id: String!) { f: subgraphFeatures(subgraphId: $id) { apiVersion specVersion features dataSources handlers network } }", {}, featuresSorted);
  await both("apiVersions", "query V($id: String!) { v: apiVersions(subgraphId: $id) { version } }");
  await both("version", "{ version { version commit } }");
  await both("indexingStatusesForSubgraphName", `query S($name: String!) { s: indexingStatusesForSubgraphName(subgraphName: $name) { ${STATUS_FIELDS} } }`, { name: local.name }, statusesShaped);
  await both("indexingStatusForPendingVersion", `query S($name: String!) { s: indexingStatusForPendingVersion(subgraphName: $name) { ${STATUS_FIELDS} } }`, { name: local.name }, statusesShaped);
  await both("indexingStatusesForSubgraphName.unknown", '{ s: indexingStatusesForSubgraphName(subgraphName: "no/such-name") { synced } }');

  const chain = createJsonRpcClient({ url: chainUrl });
  const head = Number(await chain.request<string>("eth_blockNumber"));
  for (const block of blocks) {
    const header = await chain.request<{ hash: string } | null>("eth_getBlockByNumber", [`0x${block.toString(16)}`, false]);
    if (!header) continue;
    await both(`blockHashFromNumber@${block}`, "query H($net: String!, $n: Int!) { h: blockHashFromNumber(network: $net, blockNumber: $n) }", { net: network, n: block });
    await both(`entityChangesInBlock@${block}`, "query C($id: String!, $n: Int!) { c: entityChangesInBlock(subgraphId: $id, blockNumber: $n) { updates { type entities } deletions { type entities } } }", { n: block });
    await both(`blockData@${block}`, "query D($net: String!, $h: Bytes!) { d: blockData(network: $net, blockHash: $h) }", { net: network, h: header.hash });
    await both(`blockHeader@${block}`, "query D($net: String!, $h: Bytes!) { d: blockData(network: $net, blockHash: $h) }", { net: network, h: header.hash }, blockHeader);
    await both(`publicProofsOfIndexing@${block}`, "query P($id: String!, $n: BigInt!) { p: publicProofsOfIndexing(requests: [{ deployment: $id, blockNumber: $n }]) { block { number hash } proofOfIndexing } }", { n: String(block) }, publicProofShape);
    await both(`cachedEthereumCalls@${block}`, "query E($net: String!, $h: Bytes!) { c: cachedEthereumCalls(network: $net, blockHash: $h) { idHash block { number hash } contractAddress returnValue } }", { net: network, h: header.hash }, callsSorted);
    const [l, g] = await Promise.all(engines.map((e, i) => proofWithStringHash(e, ids[i]!, block, header.hash)));
    subjects.push([`index-node:proofOfIndexing.stringVariable@${block}`, l, g]);
  }
  // What neither engine has: a block past the head, a network it does not index, an unknown deployment.
  await both("blockHashFromNumber.pastHead", "query H($net: String!, $n: Int!) { h: blockHashFromNumber(network: $net, blockNumber: $n) }", { net: network, n: head + 1000 });
  await both("blockHashFromNumber.unknownNetwork", '{ h: blockHashFromNumber(network: "no-such-network", blockNumber: 1) }');
  await both("blockData.unknownHash", `query D($net: String!) { d: blockData(network: $net, blockHash: "0x${"12".repeat(32)}") }`, { net: network });
  await both("cachedEthereumCalls.unknownHash", `query E($net: String!) { c: cachedEthereumCalls(network: $net, blockHash: "0x${"12".repeat(32)}") { idHash } }`, { net: network });
  await both("entityChangesInBlock.unknownDeployment", `{ c: entityChangesInBlock(subgraphId: "${unknownId}", blockNumber: 1) { updates { type } } }`);
  await both("subgraphFeatures.unknownDeployment", `{ f: subgraphFeatures(subgraphId: "${unknownId}") { specVersion } }`);
  // graph-node coerces a variable to the type the query declares, and then lets it through in any position.
  await both("variable.notCoercible", "query P($id: String!, $h: String!) { p: proofOfIndexing(subgraph: $id, blockNumber: 1, blockHash: $h) }", { h: 5 });
  await both("variable.missing", "query P($id: String!, $h: Bytes!) { p: proofOfIndexing(subgraph: $id, blockNumber: 1, blockHash: $h) }");
  await both("field.unknown", "{ nope }");
  return subjects;
}
