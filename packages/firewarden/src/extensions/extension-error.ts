/**
 * @module The one error of the extension feature: a machine-readable code (also the API's
 * error code) and a message meant to be printed as is.
 */
type ExtensionErrorCode =
  | 'EXTENSION_INVALID'
  | 'EXTENSION_APP_TOO_OLD'
  | 'EXTENSION_NOT_FOUND'
  | 'EXTENSION_CAPABILITY_DENIED'
  | 'EXTENSION_CAPABILITY_UNDECLARED'
  | 'EXTENSION_SOURCE_REFUSED'
  | 'EXTENSION_SOURCE_FAILED';

export class ExtensionError extends Error {
  override readonly name = 'ExtensionError';
  constructor(
    readonly code: ExtensionErrorCode,
    message: string,
  ) {
    super(message);
  }
}
