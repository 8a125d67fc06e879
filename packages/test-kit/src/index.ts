/**
 * @module What the suite's test files share: running bins, TLS material, slow clients.
 */
export { type RunningBin, type StartBinOptions, startBin } from './running-bin.js';
export {
  opensslInstalled,
  type SelfSignedCertificate,
  selfSignedCertificate,
} from './self-signed-certificate.js';
export { type TrickleOptions, type TrickleResult, trickleRequest } from './trickle-request.js';
