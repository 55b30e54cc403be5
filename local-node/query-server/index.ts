export { createQueryServer, parseRequestBody } from "./queryServer.js";
export type { QueryServerOptions } from "./queryServer.js";
export type { RunningServer } from "./http.js";
export { graphiqlAssets, graphiqlHtml } from "./graphiqlAssets.js";
export { BodyTooLargeError, listen, readBody, sendJson, sendText } from "./http.js";
