// store.* host functions: thin adapters over HostStore (graph-node's runtime/wasm/src/module/context.rs).
import type { HostEnv, HostFunctions } from "./env.js";
import { TypeId } from "../abi/typeIds.js";
import { HostError } from "../errors.js";

export function storeImports(env: HostEnv): HostFunctions {
  const { codec, store } = env;
  /** graph-node's entity type access check: a file data source touches only its `entities`. */
  const accessible = (entityType: string): string => {
    const ds = env.dataSource();
    if (ds.entities !== undefined && !ds.entities.includes(entityType)) {
      throw new HostError(
        "STORE",
        `entity type \`${entityType}\` is not on the 'entities' list for data source \`${ds.name ?? ""}\`. Hint: Add \`${entityType}\` to the 'entities' list, which currently is: \`${ds.entities.join(", ")}\`.`,
      );
    }
    return entityType;
  };
  return {
    "store.get": (typePtr: number, idPtr: number) => {
      const entity = store.get(accessible(codec.readString(typePtr)), codec.readString(idPtr));
      return entity === null ? 0 : codec.writeEntity(entity);
    },
    "store.get_in_block": (typePtr: number, idPtr: number) => {
      const entity = store.getInBlock(accessible(codec.readString(typePtr)), codec.readString(idPtr));
      return entity === null ? 0 : codec.writeEntity(entity);
    },
    "store.loadRelated": (typePtr: number, idPtr: number, fieldPtr: number) => {
      const entities = store.loadRelated(accessible(codec.readString(typePtr)), codec.readString(idPtr), codec.readString(fieldPtr));
      return codec.writeArray(TypeId.ArrayTypedMapEntryStringStoreValue, entities, codec.writeEntity);
    },
    "store.set": (typePtr: number, idPtr: number, dataPtr: number) => {
      store.set(accessible(codec.readString(typePtr)), codec.readString(idPtr), codec.readEntity(dataPtr));
    },
    "store.remove": (typePtr: number, idPtr: number) => {
      store.remove(accessible(codec.readString(typePtr)), codec.readString(idPtr));
    },
  };
}
