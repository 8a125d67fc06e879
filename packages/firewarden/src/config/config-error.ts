/**
 * @module The one error type of configuration loading: its message names the file or variable
 * and the key path, and is meant to be printed as is.
 */
export class ConfigError extends Error {
  override name = 'ConfigError';
}
