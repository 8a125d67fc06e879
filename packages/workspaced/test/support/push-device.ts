/**
 * @module What a browser does with Web Push, written here with node:crypto only, independently of
 * the web-push library the daemon uses: a device key pair and auth secret to subscribe with
 * (RFC 8291 section 2), decryption of an `aes128gcm` message (RFC 8291 section 3.4 over RFC 8188's
 * record format), and the push service's check of the VAPID `Authorization` header (RFC 8292:
 * an ES256 JWT verified with the `k` key).
 */
import { createDecipheriv, createECDH, createPublicKey, hkdfSync, randomBytes, verify } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

export class PushDevice {
  private readonly ecdh = createECDH('prime256v1');
  readonly auth = randomBytes(16);

  constructor(readonly endpoint: string) {
    this.ecdh.generateKeys();
  }

  /** The `PushSubscription.toJSON()` a browser would POST. */
  subscription() {
    return {
      endpoint: this.endpoint,
      expirationTime: null,
      keys: {
        p256dh: this.ecdh.getPublicKey().toString('base64url'),
        auth: this.auth.toString('base64url'),
      },
    };
  }

  /** Decrypts an `aes128gcm` body (one record, as every push message is) into its text. */
  decrypt(body: Buffer): string {
    const salt = body.subarray(0, 16);
    const recordSize = body.readUInt32BE(16);
    const keyIdLength = body[20]!;
    const serverKey = body.subarray(21, 21 + keyIdLength);
    const record = body.subarray(21 + keyIdLength);
    if (keyIdLength !== 65 || record.length > recordSize) throw new Error('not a one-record aes128gcm body');
    const shared = this.ecdh.computeSecret(serverKey);
    const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), this.ecdh.getPublicKey(), serverKey]);
    const ikm = Buffer.from(hkdfSync('sha256', shared, this.auth, keyInfo, 32));
    const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
    const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
    const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
    decipher.setAuthTag(record.subarray(record.length - 16));
    const padded = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()]);
    // The last record's plaintext ends with the delimiter 0x02, then zero padding.
    let end = padded.length - 1;
    while (end >= 0 && padded[end] === 0) end--;
    if (padded[end] !== 2) throw new Error('no last-record delimiter');
    return padded.subarray(0, end).toString('utf8');
  }
}

export interface VapidClaims {
  aud: string;
  exp: number;
  sub: string;
}

/**
 * Checks `Authorization: vapid t=<JWT>, k=<key>` as a push service does: the JWT's header says
 * ES256, its signature verifies with `k`. Answers `k` and the claims.
 */
export function verifyVapid(headers: IncomingHttpHeaders): { key: string; claims: VapidClaims } {
  const match = /^vapid t=([\w-]+\.[\w-]+\.[\w-]+), k=([\w-]+)$/.exec(headers.authorization ?? '');
  if (!match) throw new Error(`not a VAPID Authorization header: ${headers.authorization}`);
  const [token, key] = [match[1]!, match[2]!];
  const [header, payload, signature] = token.split('.') as [string, string, string];
  const json = (part: string) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
  if (json(header).alg !== 'ES256') throw new Error('the JWT is not ES256');
  const point = Buffer.from(key, 'base64url');
  const publicKey = createPublicKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      x: point.subarray(1, 33).toString('base64url'),
      y: point.subarray(33, 65).toString('base64url'),
    },
    format: 'jwk',
  });
  const signed = verify(
    'sha256',
    Buffer.from(`${header}.${payload}`),
    { key: publicKey, dsaEncoding: 'ieee-p1363' },
    Buffer.from(signature, 'base64url'),
  );
  if (!signed) throw new Error('the VAPID signature does not verify');
  return { key, claims: json(payload) as VapidClaims };
}
