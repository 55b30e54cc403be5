// store.* host functions: thin adapters over HostStore (graph-node's runtime/wasm/src/module/context.rs).
import type { HostEnv, HostFunctions } from "./env.js";
import { TypeId } from "../abi/typeIds.js";

export function storeImports(env: HostEnv): HostFunctions {
  const { codec, store } = env;
  return {
    "store.get": (typePtr: number, idPtr: number) => {
      const entity = store.get(codec.readString(typePtr), codec.readString(idPtr));
      return entity === null ? 0 : codec.writeEntity(entity);
    },
    "store.get_in_block": (typePtr: number, idPtr: number) => {
      const entity = store.getInBlock(codec.readString(typePtr), codec.readString(idPtr));
      return entity === null ? 0 : codec.writeEntity(entity);
    },
    "store.loadRelated": (typePtr: number, idPtr: number, fieldPtr: number) => {
      const entities = store.loadRelated(codec.readString(typePtr), codec.readString(idPtr), codec.readString(fieldPtr));
      return codec.writeArray(TypeId.ArrayTypedMapEntryStringStoreValue, entities, codec.writeEntity);
    },
    "store.set": (typePtr: number, idPtr: number, dataPtr: number) => {
      store.set(codec.readString(typePtr), codec.readString(idPtr), codec.readEntity(dataPtr));
    },
    "store.remove": (typePtr: number, idPtr: number) => {
      store.remove(codec.readString(typePtr), codec.readString(idPtr));
    },
  };
}
