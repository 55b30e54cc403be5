// Public API of the marketplace token client, validator and middleware.
export {
  fetchApplicationToken,
  tokenEndpoint,
  DEFAULT_TOKEN_TIMEOUT_MS,
  type FetchApplicationTokenParameters,
  type FetchApplicationTokenReturnType,
} from "./fetchApplicationToken.js";
export { loadPublicKey, parsePublicKeyPem, PUBLIC_KEY_VARIABLE, type LoadPublicKeyParameters } from "./loadPublicKey.js";
export {
  createTokenValidator,
  validateToken,
  isTokenValidationError,
  type MarketplaceClaims,
  type TokenValidator,
  type TokenValidatorOptions,
} from "./validateToken.js";
export {
  createTokenMiddleware,
  readBearerToken,
  type AuthenticatedRequest,
  type TokenErrorBody,
  type TokenMiddleware,
  type TokenMiddlewareOptions,
} from "./middleware.js";
export { decodeUnverified, type UnverifiedToken } from "./decodeUnverified.js";
export {
  MarketplaceError,
  TokenRequestError,
  TokenClientConfigError,
  TokenHttpError,
  TokenResponseError,
  TokenTimeoutError,
  TokenNetworkError,
  TokenValidationError,
  EnvFileError,
  PublicKeyNotSetError,
  PublicKeyPemError,
  PublicKeyParseError,
  PublicKeyTypeError,
  TokenParseError,
  TokenMalformedError,
  TokenUnverifiableError,
  TokenSignatureError,
  TokenExpiredError,
  TokenUsedBeforeIssuedError,
  TokenNotValidYetError,
  InvalidAudienceError,
  TokenInvalidError,
  InsufficientScopeError,
  MissingBearerTokenError,
  type ErrorDetails,
  type MarketplaceErrorOptions,
} from "./errors.js";
export { runTokenCommand } from "./commands/tokenCommand.js";
export { runValidateCommand } from "./commands/validateCommand.js";
export { createGuardedApp } from "./example/guardedApp.js";
