export { getAccountInfo, type GetAccountInfoParameters, type GetAccountInfoReturnType } from "./getAccountInfo.js";
export {
  getMultipleAccounts,
  MAX_ACCOUNTS_PER_REQUEST,
  type GetMultipleAccountsParameters,
  type GetMultipleAccountsReturnType,
} from "./getMultipleAccounts.js";
export {
  decodeAccount,
  type AccountDataFor,
  type AccountEncoding,
  type AccountInfo,
  type JsonParsedAccountData,
  type RpcContext,
} from "./accountRecord.js";
export type { AccountConfigParameters, Commitment } from "./accountConfig.js";
export { assertPublicKey } from "./publicKey.js";
export { accountToJson } from "./accountJson.js";
export { AccountDecodeError, InvalidPublicKeyError } from "./errors.js";
