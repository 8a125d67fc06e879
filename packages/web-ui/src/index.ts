export { navigate, usePath } from './router.js';
export {
  createSessionClient,
  type JsonAnswer,
  type Method,
  NotJsonAnswer,
  type SessionClient,
  type SessionClientOptions,
} from './session-client.js';
