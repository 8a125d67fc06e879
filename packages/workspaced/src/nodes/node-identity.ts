/**
 * @module This daemon's node identity: an Ed25519 key pair made on first use and kept in
 * `<data-dir>/node-identity.pem` (0600). Its public key (32 bytes, base64url) is what another
 * daemon registers for this one; its fingerprint is `SHA256:` and the unpadded base64 of the
 * key's SHA-256, as OpenSSH prints them, for people to compare by eye. When pairing, the daemon
 * that issues the credential signs the other side's random challenge together with that
 * credential, so the receiver knows the credential comes from the key it expects.
 */
import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  type KeyObject,
  sign,
  verify,
} from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const fileName = 'node-identity.pem';
const signatureContext = 'workspaced node pairing v1';

interface NodeIdentity {
  publicKey: string;
  fingerprint: string;
  /** Signs what a pairing answer vouches for: the asker's challenge and the credential. */
  signPairing: (challenge: string, credential: string) => string;
}

export function fingerprintOf(publicKey: string): string {
  return `SHA256:${createHash('sha256').update(Buffer.from(publicKey, 'base64url')).digest('base64').replace(/=$/, '')}`;
}

function rawPublicKey(key: KeyObject): string {
  return createPublicKey(key).export({ format: 'jwk' }).x!;
}

function loadOrCreateKey(dataDir: string): KeyObject {
  const file = path.join(dataDir, fileName);
  try {
    return createPrivateKey(readFileSync(file, 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const { privateKey } = generateKeyPairSync('ed25519');
  // `wx`: two daemons starting on one data dir cannot both write a key; the loser reads the winner's.
  try {
    writeFileSync(file, privateKey.export({ format: 'pem', type: 'pkcs8' }), { mode: 0o600, flag: 'wx' });
    return privateKey;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return createPrivateKey(readFileSync(file, 'utf8'));
  }
}

const pairingMessage = (challenge: string, credential: string) =>
  Buffer.from(`${signatureContext}\n${challenge}\n${credential}`);

const identities = new Map<string, NodeIdentity>();

/** The identity of the daemon using `dataDir`, loaded (or made) once. */
export function nodeIdentity(dataDir: string): NodeIdentity {
  let identity = identities.get(dataDir);
  if (!identity) {
    const key = loadOrCreateKey(dataDir);
    const publicKey = rawPublicKey(key);
    identity = {
      publicKey,
      fingerprint: fingerprintOf(publicKey),
      signPairing: (challenge, credential) =>
        sign(null, pairingMessage(challenge, credential), key).toString('base64url'),
    };
    identities.set(dataDir, identity);
  }
  return identity;
}

/** True when `signature` is `publicKey`'s signature of this pairing answer. */
export function verifyPairing(
  publicKey: string,
  challenge: string,
  credential: string,
  signature: string,
): boolean {
  try {
    const key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: publicKey }, format: 'jwk' });
    return verify(null, pairingMessage(challenge, credential), key, Buffer.from(signature, 'base64url'));
  } catch {
    return false;
  }
}
