/**
 * @module Rooted file access: `GET /projects/{id}/files` (list a folder), `GET .../files/read`,
 * `POST .../files/write`, `DELETE .../files`. Paths are relative to the project root and
 * resolved inside it (files/rooted-path.ts for the early answers, then files/beneath.ts on
 * directory descriptors for the work itself); `.git` is read-only and the daemon's data dir out
 * of reach (files/reserved-paths.ts), checked again on the path the work resolved.
 */
import path from 'node:path';
import type { Hono } from 'hono';
import { z } from 'zod';
import { projectGuard } from '../access/project-access.js';
import { ApiError } from '../http/api-error.js';
import type { AppEnv, DaemonContext } from '../http/app-env.js';
import { readJson, readQuery } from '../http/request-input.js';
import { contentEncodingSchema, decodeContent, encodeContent } from './content-encoding.js';
import { deleteEntry } from './delete-file.js';
import { listDirectory } from './list-directory.js';
import { LargeReadLimiter } from './read-concurrency.js';
import { readRegularFile } from './read-file.js';
import { parseRelativePath } from './relative-path.js';
import { refuseGitMetadata, refuseReserved } from './reserved-paths.js';
import { canonicalRoot, resolveRooted } from './rooted-path.js';
import { writeFileAtomic } from './write-file.js';

const pathField = z.string().max(8_192);
const listQuery = z.object({ path: pathField.default('') });
const readQuerySchema = z.object({ path: pathField, encoding: contentEncodingSchema.optional() });
const deleteQuery = z.object({ path: pathField });
const writeBody = z.object({
  path: pathField,
  content: z.string(),
  encoding: contentEncodingSchema.default('utf8'),
  create_dirs: z.boolean().default(false),
});

export function registerFileRoutes(app: Hono<AppEnv>, { db, dataDir, fileLimits }: DaemonContext): void {
  const largeReads = new LargeReadLimiter();
  app.get('/projects/:id/files', projectGuard(db, 'files.view'), async (c) => {
    const segments = parseRelativePath(readQuery(c, listQuery).path);
    const root = await canonicalRoot(c.var.project.path);
    const target = await resolveRooted(root, segments);
    refuseReserved(dataDir, target.real);
    if (!target.exists) throw new ApiError('FILE_NOT_FOUND', 'no such folder');
    const listing = await listDirectory(root, segments, fileLimits.maxListEntries, (real) =>
      refuseReserved(dataDir, real),
    );
    return c.json({ path: target.relative, ...listing });
  });

  app.get('/projects/:id/files/read', projectGuard(db, 'files.view'), async (c) => {
    const query = readQuery(c, readQuerySchema);
    const segments = parseRelativePath(query.path);
    const root = await canonicalRoot(c.var.project.path);
    const target = await resolveRooted(root, segments);
    refuseReserved(dataDir, target.real);
    if (!target.exists) throw new ApiError('FILE_NOT_FOUND', 'no such file');
    return largeReads.run(target.real, c.var.principal.id, async () => {
      const { bytes, modifiedAt } = await readRegularFile(root, segments, fileLimits.maxReadBytes, (real) =>
        refuseReserved(dataDir, real),
      );
      return c.json({
        path: target.relative,
        size: bytes.length,
        modified_at: modifiedAt.toISOString(),
        ...encodeContent(bytes, query.encoding),
      });
    });
  });

  // The body limit of this route (10 MiB of content) is set in app.ts with the others.
  app.post('/projects/:id/files/write', projectGuard(db, 'files.write'), async (c) => {
    const body = await readJson(c, writeBody);
    const segments = parseRelativePath(body.path);
    const bytes = decodeContent(body.content, body.encoding);
    if (bytes.length > fileLimits.maxWriteBytes)
      throw new ApiError(
        'FILE_TOO_LARGE',
        `the file is larger than the ${fileLimits.maxWriteBytes}-byte limit`,
      );
    const root = await canonicalRoot(c.var.project.path);
    const target = (await resolveRooted(root, segments)).real;
    refuseReserved(dataDir, target);
    refuseGitMetadata(root, target);
    const result = await writeFileAtomic(root, segments, bytes, {
      createDirs: body.create_dirs,
      guard: (real) => {
        refuseReserved(dataDir, real);
        refuseGitMetadata(root, real);
      },
    });
    return c.json(
      { path: segments.join('/'), size: result.size, created: result.created },
      result.created ? 201 : 200,
    );
  });

  app.delete('/projects/:id/files', projectGuard(db, 'files.write'), async (c) => {
    const segments = parseRelativePath(readQuery(c, deleteQuery).path);
    const root = await canonicalRoot(c.var.project.path);
    const parent = await resolveRooted(root, segments.slice(0, -1));
    const entry = path.join(parent.real, segments.at(-1) ?? '');
    refuseReserved(dataDir, parent.real, entry);
    refuseGitMetadata(root, entry);
    await deleteEntry(root, segments, (real) => {
      refuseReserved(dataDir, real);
      refuseGitMetadata(root, real);
    });
    return c.body(null, 204);
  });
}
