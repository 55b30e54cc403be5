// The HTTP kit of the local node's servers and the test fixture servers: listen on 127.0.0.1 and close
// at once, refuse malformed targets and (optionally) browser pages from other sites, read a body under a
// byte cap, send JSON / text / plain-text errors, the GraphiQL page, and what the GraphQL endpoints share.
export { describeError, listen, parseRequestTarget, serve } from "./listen.js";
export type { FailedRequest, RequestHandler, RunningServer, ServeOptions } from "./listen.js";
export { isLoopbackHostname, isLoopbackOrigin, loopbackRefusal } from "./loopback.js";
export { readBody, readText } from "./body.js";
export type { ReadBodyOptions } from "./body.js";
export { ANY_ORIGIN, CORS_HEADERS, sendError, sendJson, sendText } from "./send.js";
export type { HeaderMap } from "./send.js";
export { BodyTooLargeError } from "./errors.js";
export { graphiqlAssets, graphiqlHtml } from "./graphiql.js";
export type { StaticAsset } from "./graphiql.js";
export { GRAPHQL_MAX_BODY_BYTES, graphiqlAssetServer, readGraphqlBody, sendGraphiqlPage, sendGraphqlJson } from "./graphqlEndpoint.js";
export type { GraphiqlAssetServer } from "./graphqlEndpoint.js";
