// `dataSource.*` as Matchstick mocks it: templates created into a registry (for the dataSource
// asserts), and the address, network and context set by `dataSourceMock.setReturnValues`.
import type { EntityData } from "../../wasm-host/index.js";
import type { ImportGroup, MatchstickLink } from "./linkContext.js";

const ZERO_ADDRESS = "0x0000000000000000000000000000000000000000";

function createDataSource({ state }: MatchstickLink, name: string, params: string[], context: EntityData | null): void {
  const kind = state.templateKinds.get(name);
  const created = state.templates.get(name);
  if (kind === undefined || created === undefined) {
    throw new Error(
      `Failed to create data source from name \`${name}\`: No template with this name available. Available names: ${[...state.templateKinds.keys()].join(", ")}.`,
    );
  }
  const address = params[0] ?? "";
  created.set(address, { kind, name, address, context });
}

export function dataSourceImports(link: MatchstickLink): ImportGroup {
  const { state, logger, codec, str } = link;
  return {
    "dataSource.create": (name: number, params: number) => createDataSource(link, str(name), codec.readStringArray(params), null),
    "dataSource.createWithContext": (name: number, params: number, context: number) =>
      createDataSource(link, str(name), codec.readStringArray(params), codec.readEntity(context)),
    "dataSource.address": () => {
      const mocked = state.dataSourceReturn?.address;
      if (mocked === undefined) {
        logger.log("error", "No mocked Eth address or Ipfs CID found, so fallback to Eth Zero address");
        return codec.writeBytes(new Uint8Array(20));
      }
      // A valid non-zero address (or exactly the zero address) is an Address; anything else an IPFS CID's bytes.
      const isAddress = /^(0x)?[0-9a-fA-F]{40}$/.test(mocked);
      if ((isAddress && !/^(0x)?0{40}$/.test(mocked)) || mocked === ZERO_ADDRESS) {
        return codec.writeBytes(Uint8Array.from(Buffer.from(mocked.replace(/^0x/, ""), "hex")));
      }
      return codec.writeBytes(new TextEncoder().encode(mocked));
    },
    "dataSource.network": () => codec.writeString(state.dataSourceReturn?.network ?? "mainnet"),
    "dataSource.context": () => codec.writeEntity(state.dataSourceReturn?.context ?? new Map()),
    "dataSourceMock.setReturnValues": (address: number, network: number, context: number) => {
      state.dataSourceReturn = { address: str(address), network: str(network), context: codec.readEntity(context) };
    },
  };
}
