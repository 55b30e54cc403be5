// Shared fixtures for the store and GraphQL tests.
import type { EntityData, StoreValue } from "../../../wasm-host/values/storeValue.js";

export const TEST_SCHEMA = `
type ApprovalQuery @entity(immutable: true) {
  id: Bytes!
  owner: Bytes!
  spender: Bytes!
  value: BigInt!
  blockNumber: BigInt!
  account: Account
}
type Account @entity {
  id: ID!
  name: String!
  balance: BigInt!
  ratio: BigDecimal
  count: Int
  big: Int8
  active: Boolean
  at: Timestamp
  tags: [String!]
  approvals: [ApprovalQuery!]! @derivedFrom(field: "account")
}
`;

export function bytes(hex: string): StoreValue {
  return { kind: "Bytes", value: Uint8Array.from(Buffer.from(hex.replace(/^0x/, ""), "hex")) };
}

export function approval(n: number, owner: string, account: string | null = null): { id: string; data: EntityData } {
  const id = `0x${n.toString(16).padStart(8, "0")}`;
  const data: EntityData = new Map<string, StoreValue>([
    ["id", bytes(id)],
    ["owner", bytes(owner)],
    ["spender", bytes("0x" + "22".repeat(20))],
    ["value", { kind: "BigInt", value: BigInt(n) * 10n ** 18n }],
    ["blockNumber", { kind: "BigInt", value: BigInt(n) }],
  ]);
  if (account !== null) data.set("account", { kind: "String", value: account });
  return { id, data };
}

export function account(id: string, name: string, balance: bigint, extra: Record<string, StoreValue> = {}): EntityData {
  return new Map<string, StoreValue>([
    ["id", { kind: "String", value: id }],
    ["name", { kind: "String", value: name }],
    ["balance", { kind: "BigInt", value: balance }],
    ...Object.entries(extra),
  ]);
}

export const OWNER_A = "0x" + "aa".repeat(20);
export const OWNER_B = "0x" + "bb".repeat(20);

export function block(number: number) {
  return { number, hash: `0x${number.toString(16).padStart(64, "0")}` };
}
