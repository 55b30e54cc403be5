// Host-function fixture: thin exports over graph-ts APIs, called by hostFunctions.test.ts.
import {
  Address,
  BigDecimal,
  BigInt,
  Bytes,
  ByteArray,
  crypto,
  dataSource,
  ens,
  ethereum,
  ipfs,
  json,
  JSONValue,
  log,
  store,
  Entity,
  Value,
  yaml,
  YAMLValue,
} from "@graphprotocol/graph-ts";

export function bigIntOp(op: string, a: string, b: string): string {
  const x = BigInt.fromString(a);
  const y = BigInt.fromString(b);
  if (op == "plus") return x.plus(y).toString();
  if (op == "minus") return x.minus(y).toString();
  if (op == "times") return x.times(y).toString();
  if (op == "div") return x.div(y).toString();
  if (op == "mod") return x.mod(y).toString();
  if (op == "pow") return x.pow(y.toI32() as u8).toString();
  if (op == "shl") return x.leftShift(y.toI32() as u8).toString();
  if (op == "shr") return x.rightShift(y.toI32() as u8).toString();
  if (op == "or") return x.bitOr(y).toString();
  if (op == "and") return x.bitAnd(y).toString();
  if (op == "hex") return x.toHexString();
  if (op == "divDecimal") return x.divDecimal(BigDecimal.fromString(b)).toString();
  return "unknown op";
}

export function bigIntFromI32(n: i32): BigInt {
  return BigInt.fromI32(n);
}

export function bigIntToStringInAs(x: BigInt): string {
  return x.toString();
}

export function bigIntToI32(x: BigInt): i32 {
  return x.toI32();
}

export function bigDecimalOp(op: string, a: string, b: string): string {
  const x = BigDecimal.fromString(a);
  const y = BigDecimal.fromString(b);
  if (op == "plus") return x.plus(y).toString();
  if (op == "minus") return x.minus(y).toString();
  if (op == "times") return x.times(y).toString();
  if (op == "div") return x.div(y).toString();
  if (op == "equals") return x.equals(y) ? "true" : "false";
  if (op == "parse") return x.toString();
  return "unknown op";
}

export function bigDecimalEcho(x: BigDecimal): BigDecimal {
  return x.plus(BigDecimal.zero());
}

export function bytesToHex(b: Bytes): string {
  return b.toHexString();
}

export function bytesToString(b: Bytes): string {
  return b.toString();
}

export function bytesToBase58(b: Bytes): string {
  return b.toBase58();
}

export function stringToAddress(s: string): Address {
  return Address.fromString(s);
}

export function keccak(b: Bytes): ByteArray {
  return crypto.keccak256(b);
}

export function jsonParse(b: Bytes): JSONValue {
  return json.fromBytes(b);
}

export function jsonTryIsOk(b: Bytes): bool {
  return json.try_fromBytes(b).isOk;
}

export function jsonToI64(s: string): i64 {
  return json.toI64(s);
}

export function jsonToU64(s: string): u64 {
  return json.toU64(s);
}

export function jsonToF64(s: string): f64 {
  return json.toF64(s);
}

export function jsonToBigInt(s: string): string {
  return json.toBigInt(s).toString();
}

function describeYaml(v: YAMLValue): string {
  if (v.isNull()) return "null";
  if (v.isBool()) return v.toBool() ? "true" : "false";
  if (v.isNumber()) return "n:" + v.toNumber();
  if (v.isString()) return "'" + v.toString() + "'";
  if (v.isArray()) {
    const items = v.toArray();
    let out = "[";
    for (let i = 0; i < items.length; i++) out += (i > 0 ? "," : "") + describeYaml(items[i]);
    return out + "]";
  }
  if (v.isObject()) {
    const entries = v.toObject().entries;
    let out = "{";
    for (let i = 0; i < entries.length; i++) out += (i > 0 ? "," : "") + describeYaml(entries[i].key) + ":" + describeYaml(entries[i].value);
    return out + "}";
  }
  if (v.isTagged()) {
    const t = v.toTagged();
    return t.tag + " " + describeYaml(t.value);
  }
  return "?";
}

export function yamlDescribe(b: Bytes): string {
  return describeYaml(yaml.fromBytes(b));
}

export function yamlTryIsOk(b: Bytes): bool {
  return yaml.try_fromBytes(b).isOk;
}

export function encodeValue(v: ethereum.Value): Bytes | null {
  return ethereum.encode(v);
}

export function decodeValue(types: string, data: Bytes): ethereum.Value | null {
  return ethereum.decode(types, data);
}

export function callBalanceOf(token: Address, owner: Address): string {
  const call = new ethereum.SmartContractCall("Token", token, "balanceOf", "balanceOf(address):(uint256)", [ethereum.Value.fromAddress(owner)]);
  const result = ethereum.call(call);
  if (result === null) return "reverted";
  return result[0].toBigInt().toString();
}

export function balanceOf(a: Address): string {
  return ethereum.getBalance(a).toString();
}

export function hasCode(a: Address): bool {
  return ethereum.hasCode(a).inner;
}

export function logAt(level: i32, message: string): void {
  log.log(level, message);
}

export function failWith(message: string): void {
  assert(false, message);
}

export function dsAddress(): Address {
  return dataSource.address();
}

export function dsNetwork(): string {
  return dataSource.network();
}

export function dsContextString(key: string): string {
  return dataSource.context().getString(key);
}

export function dsCreate(name: string, param: string): void {
  dataSource.create(name, [param]);
}

export function ensName(hash: string): string {
  const name = ens.nameByHash(hash);
  if (name === null) return "<null>";
  return name!;
}

export function ipfsCat(hash: string): Bytes | null {
  return ipfs.cat(hash);
}

export function ipfsMapItems(hash: string): void {
  ipfs.mapJSON(hash, "ipfsItemCallback", Value.fromString("from-ipfs"));
}

export function ipfsItemCallback(value: JSONValue, userData: Value): void {
  const id = value.toObject().get("id")!.toString();
  const item = new Entity();
  item.set("id", Value.fromString(id));
  item.set("name", userData);
  store.set("Item", id, item);
}
