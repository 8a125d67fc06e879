/**
 * @module Every machine-readable error code of the API with its HTTP status: the one table the
 * README documents and the envelope reads. Clients switch on `error.code`, never on messages.
 */
export const errorStatus = {
  /** Malformed JSON, unknown fields, wrong types, bad query parameters; details list every problem. */
  REQUEST_INVALID: 400,
  /** Body larger than `server.max_body_bytes`. */
  REQUEST_TOO_LARGE: 413,
  /** A body that is not `application/json`. */
  REQUEST_UNSUPPORTED_MEDIA_TYPE: 415,
  /** No session, or the session expired (idle or absolute) or was logged out. */
  AUTH_REQUIRED: 401,
  /** Wrong username or password (the same answer for both, and for a disabled account). */
  AUTH_INVALID_CREDENTIALS: 401,
  /** The role of the signed-in user does not allow this. */
  AUTH_FORBIDDEN: 403,
  /** A state-changing request under a session without the right `X-Firewarden-CSRF` header. */
  AUTH_CSRF_INVALID: 403,
  /** Right password, but an admin disabled the account. */
  AUTH_ACCOUNT_DISABLED: 403,
  /** A state-changing request from a browser page of another origin. */
  ORIGIN_NOT_ALLOWED: 403,
  /** Too many login attempts from this client or for this user; see `Retry-After`. */
  AUTH_RATE_LIMITED: 429,
  /** The `Host` header is neither loopback, the bind address nor in `server.allowed_hosts` (DNS rebinding). */
  HOST_NOT_ALLOWED: 403,
  /** Unknown route or resource. */
  NOT_FOUND: 404,
  /** Known route, other method. */
  METHOD_NOT_ALLOWED: 405,
  /** The resource already exists (a username). */
  CONFLICT: 409,
  /** The change would leave no enabled admin (disabling or demoting the last one). */
  LAST_ADMIN: 409,
  /** Well-formed, but a value is out of range or breaks a rule (a setting, a password); details list every problem. */
  VALIDATION_FAILED: 422,
  /** The setting is fixed by a `FIREWARDEN_*` environment variable. */
  SETTING_LOCKED: 409,
  /** The privileged agent is not running or not reachable (no agent socket). */
  FW_AGENT_UNAVAILABLE: 503,
  /** Rules or transaction actions failed validation. */
  FW_VALIDATION_FAILED: 422,
  /** Another firewall manager owns the firewall: writes blocked. */
  FW_BACKEND_CONFLICT: 409,
  /** Neither ufw nor iptables is installed. */
  FW_BACKEND_NOT_FOUND: 503,
  /** The change would cut SSH or the management port from this session's address; resend with `acknowledge_lockout: true`. */
  FW_LOCKOUT_RISK: 409,
  /** An action names a rule another tool owns (`details.owner`): firewarden shows foreign rules read-only. */
  FW_FOREIGN_RULE: 409,
  /** Another safe-apply transaction waits for its confirm (`details.transaction_id`). */
  FW_TRANSACTION_PENDING: 409,
  /** firewarden's chains hold lines the rule model cannot express (`details.lines`), which the change would drop; resend with `acknowledge_unmanaged` naming each. */
  FW_UNMANAGED_RULES: 409,
  /** The transaction is no longer waiting for a confirm (`details.state`: rolled back, confirmed, failed). */
  FW_TRANSACTION_NOT_PENDING: 409,
  /** No transaction with this id. */
  FW_TRANSACTION_NOT_FOUND: 404,
  /** No restore point with this id. */
  FW_SNAPSHOT_NOT_FOUND: 404,
  /** The agent could not apply (the previous state was restored at once) or store a restore point. */
  FW_APPLY_FAILED: 500,
  /** Even restoring the previous state failed: the firewall needs an operator. */
  FW_ROLLBACK_FAILED: 500,
  /** No blocklist with this name. */
  FW_BLOCKLIST_NOT_FOUND: 404,
  /** The blocklist is the `source` of rules (`details.rules`): change or delete those rules first. */
  FW_BLOCKLIST_IN_USE: 409,
  /** A blocklist past its bounds (`details.limit`): entries or bytes of one list, lists, or entries over every list. */
  FW_BLOCKLIST_TOO_LARGE: 413,
  /** No such extension, or no such widget in it. */
  EXTENSION_NOT_FOUND: 404,
  /** `extension.yaml` breaks the manifest schema (the message names the key path). */
  EXTENSION_INVALID: 422,
  /** The extension's `min_app` is newer than this firewarden. */
  EXTENSION_APP_TOO_OLD: 422,
  /** A capability the widget needs is not granted, or the capability can never be granted. */
  EXTENSION_CAPABILITY_DENIED: 403,
  /** The capability is not declared in the extension's manifest. */
  EXTENSION_CAPABILITY_UNDECLARED: 422,
  /** The widget's `http.local` URL resolves to a non-loopback address or redirects off loopback. */
  EXTENSION_SOURCE_REFUSED: 403,
  /** The widget's source did not answer JSON in time, within the size cap, with HTTP 200. */
  EXTENSION_SOURCE_FAILED: 502,
  /** The database did not answer. */
  DB_UNAVAILABLE: 503,
  /** A bug: logged with the request id; the body says nothing more. */
  INTERNAL_ERROR: 500,
} as const;

export type ErrorCode = keyof typeof errorStatus;
