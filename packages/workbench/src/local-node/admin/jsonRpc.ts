// JSON-RPC 2.0 framing as graph-node's admin server does it: batches, notifications (run, no answer),
// "Parse error" for anything that is not a well-formed request, "Invalid Request" for a wrong version
// or an empty batch, "Method not found". The methods themselves live elsewhere.

export type JsonRpcId = string | number | null;

export interface JsonRpcRequest {
  jsonrpc: string;
  method: string;
  /** Absent or null params are both `null`, as graph-node's `Option<Value>`. */
  params: unknown;
  /** undefined = notification. */
  id: JsonRpcId | undefined;
}

export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

export type JsonRpcResponse =
  | { jsonrpc: "2.0"; result: unknown; id: JsonRpcId }
  | { jsonrpc: "2.0"; error: JsonRpcErrorObject; id: JsonRpcId };

/** A method's failure: the JSON-RPC error it answers. */
export class JsonRpcMethodError extends Error {
  override readonly name = "JsonRpcMethodError";
  readonly code: number;
  constructor(code: number, message: string, options: { cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
  }
}

export const PARSE_ERROR: JsonRpcErrorObject = { code: -32700, message: "Parse error" };
export const INVALID_REQUEST: JsonRpcErrorObject = { code: -32600, message: "Invalid Request" };
export const METHOD_NOT_FOUND: JsonRpcErrorObject = { code: -32601, message: "Method not found" };

export function success(id: JsonRpcId, result: unknown): JsonRpcResponse {
  return { jsonrpc: "2.0", result, id };
}

export function failure(id: JsonRpcId, error: JsonRpcErrorObject): JsonRpcResponse {
  return { jsonrpc: "2.0", error, id };
}

/** graph-node's id: a string, an i64, or null (null counts as absent). */
function readId(value: unknown): JsonRpcId | undefined | "invalid" {
  if (value === undefined || value === null) return undefined;
  if (typeof value === "string") return value;
  if (typeof value === "number" && Number.isSafeInteger(value)) return value;
  return "invalid";
}

/** One request object, or null when it does not deserialize (graph-node then answers Parse error). */
export function readRequest(value: unknown): JsonRpcRequest | null {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return null;
  const obj = value as Record<string, unknown>;
  if (typeof obj.jsonrpc !== "string" || typeof obj.method !== "string") return null;
  const id = readId(obj.id);
  if (id === "invalid") return null;
  return { jsonrpc: obj.jsonrpc, method: obj.method, params: obj.params ?? null, id };
}

export type MethodHandler = (params: unknown) => Promise<unknown>;

async function dispatch(methods: Record<string, MethodHandler>, request: JsonRpcRequest): Promise<JsonRpcResponse | null> {
  if (request.jsonrpc !== "2.0") return failure(null, INVALID_REQUEST);
  const id = request.id ?? null;
  const method = Object.hasOwn(methods, request.method) ? methods[request.method] : undefined;
  let response: JsonRpcResponse;
  if (method === undefined) {
    response = failure(id, METHOD_NOT_FOUND);
  } else {
    try {
      response = success(id, (await method(request.params)) ?? null);
    } catch (error) {
      if (!(error instanceof JsonRpcMethodError)) throw error;
      response = failure(id, { code: error.code, message: error.message });
    }
  }
  // Notifications run but get no answer.
  return request.id === undefined ? null : response;
}

/** Handles one HTTP body: a request or a batch. Answers the JSON value to send back. */
export async function handleJsonRpcBody(methods: Record<string, MethodHandler>, body: string): Promise<unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return failure(null, PARSE_ERROR);
  }
  if (Array.isArray(parsed)) {
    const requests = parsed.map(readRequest);
    if (requests.some((r) => r === null)) return failure(null, PARSE_ERROR);
    if (requests.length === 0) return failure(null, INVALID_REQUEST);
    const responses: JsonRpcResponse[] = [];
    // In order, one after another, as graph-node does.
    for (const request of requests as JsonRpcRequest[]) {
      const response = await dispatch(methods, request);
      if (response !== null) responses.push(response);
    }
    return responses;
  }
  const request = readRequest(parsed);
  if (request === null) return failure(null, PARSE_ERROR);
  return (await dispatch(methods, request)) ?? success(null, null);
}
