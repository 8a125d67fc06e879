/**
 * @module Reads and verifies the signed manifest at `update.url` and compares its version with
 * the running one. Used by `update check` and as the first step of `update apply`.
 */
import semver from 'semver';
import { formatIssues } from '../config/load-config.js';
import { download } from './download.js';
import { UpdateError } from './update-error.js';
import { type UpdateManifest, updateManifestSchema, verifyManifestSignature } from './update-manifest.js';

/** A manifest is a few hundred bytes. */
const maxManifestBytes = 64 * 1024;
const manifestTimeoutMs = 15_000;

export interface UpdateStatus {
  current: string;
  latest: string;
  available: boolean;
  manifest: UpdateManifest;
  /** The artefact URL resolved against the manifest URL. */
  artefactUrl: string;
}

export async function checkForUpdate(manifestUrl: string, current: string): Promise<UpdateStatus> {
  const body = await download(manifestUrl, maxManifestBytes, manifestTimeoutMs);
  let raw: unknown;
  try {
    raw = JSON.parse(body.toString('utf8'));
  } catch {
    throw new UpdateError('UPDATE_MANIFEST_INVALID', `${manifestUrl}: not JSON`);
  }
  const parsed = updateManifestSchema.safeParse(raw);
  if (!parsed.success)
    throw new UpdateError('UPDATE_MANIFEST_INVALID', `${manifestUrl}: ${formatIssues(parsed.error)}`);
  verifyManifestSignature(parsed.data);
  return {
    current,
    latest: parsed.data.version,
    available: semver.gt(parsed.data.version, current),
    manifest: parsed.data,
    artefactUrl: new URL(parsed.data.artefact_url, manifestUrl).href,
  };
}
