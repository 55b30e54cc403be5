// Error tree for the marketplace token flow. Every class has a stable `code` (like jose's ERR_JWT_EXPIRED)
// and the validator's messages are exactly the reference validator's, so callers and logs can match on them.
import { BaseError } from "subgraph-workbench/lib/errors";

export type ErrorDetails = Readonly<Record<string, unknown>>;

export type MarketplaceErrorOptions = {
  cause?: unknown;
  details?: ErrorDetails;
};

export class MarketplaceError extends BaseError {
  static readonly code: string = "ERR_MARKETPLACE";
  override readonly code: string = MarketplaceError.code;
  declare readonly details: ErrorDetails;

  constructor(message: string, options: MarketplaceErrorOptions = {}) {
    super(message, options.cause === undefined ? { details: { ...options.details } } : { cause: options.cause, details: { ...options.details } });
    this.name = new.target.name;
  }
}

// ---------------------------------------------------------------------------------------------------------
// Client: POST {base_url}/v1/marketplace/applications/{slug}/token/

/** Any failure to obtain a token from the token endpoint. */
export class TokenRequestError extends MarketplaceError {
  static override readonly code: string = "ERR_TOKEN_REQUEST";
  override readonly code: string = TokenRequestError.code;
}

/** Missing or unusable client settings (base URL, API key, slug). */
export class TokenClientConfigError extends TokenRequestError {
  static override readonly code = "ERR_TOKEN_CONFIG";
  override readonly code = TokenClientConfigError.code;
}

/** The endpoint answered with a non-2xx status. */
export class TokenHttpError extends TokenRequestError {
  static override readonly code = "ERR_TOKEN_HTTP";
  override readonly code = TokenHttpError.code;
  readonly status: number;
  readonly bodyMessage: string;

  constructor(status: number, bodyMessage: string, options: MarketplaceErrorOptions = {}) {
    super(`Token request failed with HTTP ${status}: ${bodyMessage}`, options);
    this.status = status;
    this.bodyMessage = bodyMessage;
  }
}

/** A 2xx answer whose body carries no usable `access_token`. */
export class TokenResponseError extends TokenRequestError {
  static override readonly code = "ERR_TOKEN_RESPONSE";
  override readonly code = TokenResponseError.code;
}

/** No complete answer within the timeout. */
export class TokenTimeoutError extends TokenRequestError {
  static override readonly code = "ERR_TOKEN_TIMEOUT";
  override readonly code = TokenTimeoutError.code;
}

/** Connection refused, reset, DNS failure, or the caller aborted. */
export class TokenNetworkError extends TokenRequestError {
  static override readonly code = "ERR_TOKEN_NETWORK";
  override readonly code = TokenNetworkError.code;
}

// ---------------------------------------------------------------------------------------------------------
// Validator: messages are the reference table's, word for word.

/** Any reason a token or the validator's configuration is not accepted. */
export class TokenValidationError extends MarketplaceError {
  static override readonly code: string = "ERR_TOKEN_VALIDATION";
  override readonly code: string = TokenValidationError.code;
}

/** `error loading .env file: <reason>` */
export class EnvFileError extends TokenValidationError {
  static override readonly code = "ERR_ENV_FILE";
  override readonly code = EnvFileError.code;
  readonly reason: string;

  constructor(reason: string, options: MarketplaceErrorOptions = {}) {
    super(`error loading .env file: ${reason}`, options);
    this.reason = reason;
  }
}

/** `Environment variable for public key is not set` */
export class PublicKeyNotSetError extends TokenValidationError {
  static override readonly code = "ERR_PUBLIC_KEY_NOT_SET";
  override readonly code = PublicKeyNotSetError.code;

  constructor(options: MarketplaceErrorOptions = {}) {
    super("Environment variable for public key is not set", options);
  }
}

/** `Failed to parse PEM block containing the public key` */
export class PublicKeyPemError extends TokenValidationError {
  static override readonly code = "ERR_PUBLIC_KEY_PEM";
  override readonly code = PublicKeyPemError.code;

  constructor(options: MarketplaceErrorOptions = {}) {
    super("Failed to parse PEM block containing the public key", options);
  }
}

/** `Failed to parse public key: <reason>` */
export class PublicKeyParseError extends TokenValidationError {
  static override readonly code = "ERR_PUBLIC_KEY_PARSE";
  override readonly code = PublicKeyParseError.code;
  readonly reason: string;

  constructor(reason: string, options: MarketplaceErrorOptions = {}) {
    super(`Failed to parse public key: ${reason}`, options);
    this.reason = reason;
  }
}

/** `Failed to convert public key to Ed25519 public key` */
export class PublicKeyTypeError extends TokenValidationError {
  static override readonly code = "ERR_PUBLIC_KEY_TYPE";
  override readonly code = PublicKeyTypeError.code;

  constructor(options: MarketplaceErrorOptions = {}) {
    super("Failed to convert public key to Ed25519 public key", options);
  }
}

/** `Failed to parse JWT token: <reason>`; subclasses tell which golang-jwt check failed. */
export class TokenParseError extends TokenValidationError {
  static override readonly code: string = "ERR_JWT_PARSE";
  override readonly code: string = TokenParseError.code;
  readonly reason: string;

  constructor(reason: string, options: MarketplaceErrorOptions = {}) {
    super(`Failed to parse JWT token: ${reason}`, options);
    this.reason = reason;
  }
}

/** Not a well-formed compact JWS/JWT (segments, base64url, JSON, size). */
export class TokenMalformedError extends TokenParseError {
  static override readonly code = "ERR_JWT_MALFORMED";
  override readonly code = TokenMalformedError.code;
}

/** Missing or unknown `alg`, or an unsupported critical header. */
export class TokenUnverifiableError extends TokenParseError {
  static override readonly code = "ERR_JWT_UNVERIFIABLE";
  override readonly code = TokenUnverifiableError.code;
}

/** Signature does not verify with the Ed25519 key, or `alg` is not EdDSA. */
export class TokenSignatureError extends TokenParseError {
  static override readonly code = "ERR_JWS_SIGNATURE_INVALID";
  override readonly code = TokenSignatureError.code;
}

/** reason `Token is expired` */
export class TokenExpiredError extends TokenParseError {
  static override readonly code = "ERR_JWT_EXPIRED";
  override readonly code = TokenExpiredError.code;

  constructor(options: MarketplaceErrorOptions = {}) {
    super("Token is expired", options);
  }
}

/** reason `Token used before issued` */
export class TokenUsedBeforeIssuedError extends TokenParseError {
  static override readonly code = "ERR_JWT_USED_BEFORE_ISSUED";
  override readonly code = TokenUsedBeforeIssuedError.code;

  constructor(options: MarketplaceErrorOptions = {}) {
    super("Token used before issued", options);
  }
}

/** reason `Token is not valid yet` */
export class TokenNotValidYetError extends TokenParseError {
  static override readonly code = "ERR_JWT_NOT_VALID_YET";
  override readonly code = TokenNotValidYetError.code;

  constructor(options: MarketplaceErrorOptions = {}) {
    super("Token is not valid yet", options);
  }
}

/** `Invalid Token: Invalid audience` */
export class InvalidAudienceError extends TokenValidationError {
  static override readonly code = "ERR_JWT_AUDIENCE";
  override readonly code = InvalidAudienceError.code;

  constructor(options: MarketplaceErrorOptions = {}) {
    super("Invalid Token: Invalid audience", options);
  }
}

/**
 * `Invalid Token: Token is not valid`: the signature and times are fine but the token fails a check the
 * reference does not make (issuer, claim types). `details.reason` says which.
 */
export class TokenInvalidError extends TokenValidationError {
  static override readonly code: string = "ERR_JWT_INVALID";
  override readonly code: string = TokenInvalidError.code;

  constructor(options: MarketplaceErrorOptions = {}) {
    super("Invalid Token: Token is not valid", options);
  }
}

/** A required scope is missing from `scope`; same reference message, `details.missingScopes` lists them. */
export class InsufficientScopeError extends TokenInvalidError {
  static override readonly code = "ERR_JWT_SCOPE";
  override readonly code = InsufficientScopeError.code;
}

/** The middleware found no `Authorization: Bearer <jwt>` header. */
export class MissingBearerTokenError extends TokenValidationError {
  static override readonly code = "ERR_BEARER_MISSING";
  override readonly code = MissingBearerTokenError.code;

  constructor(options: MarketplaceErrorOptions = {}) {
    super("Missing bearer token in the Authorization header", options);
  }
}
