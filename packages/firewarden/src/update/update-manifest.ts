/**
 * @module The update manifest served at `update.url` and its Ed25519 signature. The signature
 * covers the version and the artefact's SHA-256 together, so a valid signature cannot be moved
 * to another artefact or replayed under another version number.
 */
import { createPublicKey, verify } from 'node:crypto';
import { readFileSync } from 'node:fs';
import semver from 'semver';
import { z } from 'zod';
import { UpdateError } from './update-error.js';

export const updateManifestSchema = z.strictObject({
  version: z.string().refine((text) => semver.valid(text) === text, 'must be a semantic version'),
  /** The release tarball (`.tar.gz` of a release folder); relative to the manifest URL allowed. */
  artefact_url: z.string().min(1).max(2_048),
  sha256: z.string().regex(/^[0-9a-f]{64}$/, 'must be 64 lower-case hex digits'),
  /** Base64 Ed25519 signature of `signedStatement(version, sha256)`. */
  signature: z.string().regex(/^[A-Za-z0-9+/]{86}==$/, 'must be a base64 Ed25519 signature'),
});

export type UpdateManifest = z.output<typeof updateManifestSchema>;

/** What the release key signs. */
function signedStatement(version: string, sha256: string): Buffer {
  return Buffer.from(`firewarden-update-v1\n${version}\n${sha256}\n`);
}

/**
 * The release public key is pinned in the release itself (`packaging/update-signing-key.pem`
 * next to `dist/`), never taken from configuration, the environment or the update server.
 */
const pinnedKeyFile = new URL('../../packaging/update-signing-key.pem', import.meta.url);

export function verifyManifestSignature(manifest: UpdateManifest, keyFile: URL = pinnedKeyFile): void {
  let pem: string;
  try {
    pem = readFileSync(keyFile, 'utf8');
  } catch {
    throw new UpdateError(
      'UPDATE_NO_PINNED_KEY',
      `this build has no pinned update key (${keyFile.pathname}): updates cannot be verified, so none is applied`,
    );
  }
  const key = createPublicKey(pem);
  if (key.asymmetricKeyType !== 'ed25519')
    throw new UpdateError('UPDATE_NO_PINNED_KEY', 'the pinned key is not Ed25519');
  const valid = verify(
    null,
    signedStatement(manifest.version, manifest.sha256),
    key,
    Buffer.from(manifest.signature, 'base64'),
  );
  if (!valid)
    throw new UpdateError(
      'UPDATE_BAD_SIGNATURE',
      `the manifest for ${manifest.version} is not signed by the pinned key`,
    );
}
