// Enum-shaped and composite graph-ts objects: store Value, Entity (TypedMap), ethereum.Value,
// JSONValue, Wrapped<bool>, with graph-node's layout (to_from/external.rs).
// One module per value family (storeValueCodec, ethereumValueCodec, jsonValueCodec); each returns
// direct closures, so a read or write costs what it did before the split.
import type { AscHeap } from "./heap.js";
import type { PrimitiveCodec } from "./primitives.js";
import { createStoreValueCodec } from "./storeValueCodec.js";
import { createEthereumValueCodec } from "./ethereumValueCodec.js";
import { createJsonValueCodec } from "./jsonValueCodec.js";
import { TypeId } from "./typeIds.js";

export function createValueCodec(heap: AscHeap, p: PrimitiveCodec) {
  const { readStoreValue, writeStoreValue, readEntity, writeEntity } = createStoreValueCodec(heap, p);
  const { readEthereumValue, writeEthereumValue } = createEthereumValueCodec(heap, p);
  const { readJsonValue, writeJsonValue } = createJsonValueCodec(heap, p);

  const writeWrappedBool = (value: boolean): number => {
    const ptr = heap.alloc(TypeId.WrappedBool, 4);
    heap.views().u8[ptr] = value ? 1 : 0;
    return ptr;
  };

  return { readStoreValue, writeStoreValue, readEntity, writeEntity, readEthereumValue, writeEthereumValue, readJsonValue, writeJsonValue, writeWrappedBool };
}
