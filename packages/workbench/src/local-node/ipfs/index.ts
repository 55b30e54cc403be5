export { createIpfsStore, kuboImporterOptions, KUBO_CHUNK_SIZE, KUBO_MAX_LINKS } from "./ipfsStore.js";
export { createIpfsServer } from "./ipfsServer.js";
export { parseIpfsPath } from "./unixfsReader.js";
export { parseContentPath } from "./contentPath.js";
export { IpfsError, IpfsNotFoundError, IpfsPathError, IpfsRequestError } from "./errors.js";
export type { IpfsAddedEntry, IpfsAddFile, IpfsAddOptions, IpfsStore, IpfsStoreOptions, IpfsServerOptions, RunningServer } from "./types.js";
