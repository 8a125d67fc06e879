/**
 * @module A throw-away self-signed certificate for loopback HTTPS tests, made by the real
 * `openssl` binary in a fresh temporary folder.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface SelfSignedCertificate {
  /** The temporary folder holding both files. */
  dir: string;
  certFile: string;
  keyFile: string;
  /** PEM text of the certificate: what a client passes as `ca` to trust the server. */
  cert: string;
  /** PEM text of the private key. */
  key: string;
  /** Deletes the folder. */
  remove(): void;
}

/** Whether an `openssl` binary runs here (tests skip with a reason without it, and fail on CI). */
export function opensslInstalled(): boolean {
  return spawnSync('openssl', ['version'], { stdio: 'ignore' }).status === 0;
}

/**
 * A P-256 certificate valid for one day for `localhost`, `127.0.0.1` and `::1` (EC rather than
 * RSA: the key is made in milliseconds, which matters on a loaded test machine).
 *
 * @example
 * const pem = selfSignedCertificate();
 * https.get(url, { ca: pem.cert }, ...);
 * pem.remove();
 */
export function selfSignedCertificate(): SelfSignedCertificate {
  const dir = mkdtempSync(path.join(tmpdir(), 'test-kit-tls-'));
  const certFile = path.join(dir, 'cert.pem');
  const keyFile = path.join(dir, 'key.pem');
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=localhost',
        '-addext',
        'subjectAltName=DNS:localhost,IP:127.0.0.1,IP:::1',
        '-keyout',
        keyFile,
        '-out',
        certFile,
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    const stderr = (error as { stderr?: Buffer }).stderr?.toString().trim();
    throw new Error(
      `openssl could not make a self-signed certificate: ${stderr || (error as Error).message}`,
    );
  }
  return {
    dir,
    certFile,
    keyFile,
    cert: readFileSync(certFile, 'utf8'),
    key: readFileSync(keyFile, 'utf8'),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
