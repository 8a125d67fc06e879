export { errorText } from './error-text.js';
export { Link, type LinkProps } from './link.js';
export { navigate, usePath } from './router.js';
export {
  createSessionClient,
  type JsonAnswer,
  type Method,
  NotJsonAnswer,
  type SessionClient,
  type SessionClientOptions,
} from './session-client.js';
export { type Loaded, useLoad } from './use-load.js';
