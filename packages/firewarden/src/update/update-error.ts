/**
 * @module The one error of `firewarden update`: a code the CLI prints and a message to show as is.
 */
type UpdateErrorCode =
  | 'UPDATE_NOT_CONFIGURED'
  | 'UPDATE_FETCH_FAILED'
  | 'UPDATE_MANIFEST_INVALID'
  | 'UPDATE_NO_PINNED_KEY'
  | 'UPDATE_BAD_SIGNATURE'
  | 'UPDATE_BAD_HASH'
  | 'UPDATE_ARTEFACT_INVALID'
  | 'UPDATE_NOT_INSTALLED'
  | 'UPDATE_ROLLED_BACK';

export class UpdateError extends Error {
  override readonly name = 'UpdateError';
  constructor(
    readonly code: UpdateErrorCode,
    message: string,
  ) {
    super(message);
  }
}
