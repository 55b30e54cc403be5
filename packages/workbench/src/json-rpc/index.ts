export {
  createJsonRpcClient,
  type BatchEntry,
  type JsonRpcClient,
  type JsonRpcClientOptions,
  type RequestOptions,
  type RpcCall,
  type RpcParams,
} from "./createJsonRpcClient.js";
export {
  ConnectionError,
  HttpRequestError,
  InternalRpcError,
  InvalidParamsRpcError,
  InvalidRequestRpcError,
  InvalidResponseError,
  LimitExceededRpcError,
  MethodNotFoundRpcError,
  MissingBatchResponseError,
  ParseRpcError,
  RpcClientError,
  ResponseTooLargeError,
  RpcResponseError,
  ServerRpcError,
  TimeoutError,
  rpcResponseErrorFrom,
} from "./errors.js";
export { maskUrl } from "../lib/redact.js";
export { parseJson } from "./parseJson.js";
export { createBatchCaller, type BatchCaller, type BatchCallerOptions } from "./createBatchCaller.js";
