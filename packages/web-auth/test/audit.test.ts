/**
 * @module The hash-chained audit trail on SQLite and PostgreSQL: entries chain by HMAC-SHA256 over
 * canonical JSON (legacy SHA-256 entries before the first keyed one), verification finds the first broken seq after SQL edits and deletions, listing
 * filters and pages newest first, and two appenders on separate connection pools (two server
 * processes) keep one unforked chain.
 */
import { createHash, createHmac } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type AuditChainFiles,
  auditChainFiles,
  canonicalJson,
  createWebAuth,
  genesisHash,
  type WebAuth,
} from '../src/index.js';
import { cheapArgon2, fakeClock } from './support/clock.js';
import { databaseKinds, openTestDatabase, type TestDatabase } from './support/databases.js';

describe.each(databaseKinds)('audit trail on %s', (kind) => {
  let database: TestDatabase;
  let auth: WebAuth;
  let dataDir: string;
  let chain: AuditChainFiles;
  const clock = fakeClock();

  beforeEach(async () => {
    database = await openTestDatabase(kind);
    dataDir = mkdtempSync(path.join(tmpdir(), 'web-auth-audit-'));
    chain = auditChainFiles(dataDir);
    auth = createWebAuth({ db: database.db, now: clock.now, argon2: cheapArgon2, audit: chain });
  });
  afterEach(async () => {
    await database?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });
  afterAll(() => undefined);

  async function appendMany(count: number, log = auth) {
    const entries = [];
    for (let index = 0; index < count; index++) {
      clock.advance(1_000);
      entries.push(
        await log.audit.append({
          actor: index % 2 ? 'alice' : 'bob',
          action: index % 3 ? 'settings.update' : 'users.create',
          target: `thing-${index}`,
          outcome: index % 4 ? 'success' : 'denied',
          requestId: `req-${index}`,
          client: '127.0.0.1',
          detail: { index, nested: { b: 1, a: [true, null, 'x'] } },
        }),
      );
    }
    return entries;
  }

  it('chains every entry to the previous one by HMAC-SHA256 over canonical JSON', async () => {
    const [first, second] = await appendMany(2);
    expect(first).toMatchObject({ seq: 1, prevHash: genesisHash, actor: 'bob', requestId: 'req-0' });
    const expected = createHmac('sha256', chain.key)
      .update('web-auth-audit-v2\n')
      .update(genesisHash)
      .update(
        canonicalJson({
          id: first!.id,
          seq: 1,
          at: first!.at,
          actor: 'bob',
          action: 'users.create',
          target: 'thing-0',
          outcome: 'denied',
          request_id: 'req-0',
          client: '127.0.0.1',
          detail: { index: 0, nested: { a: [true, null, 'x'], b: 1 } },
        }),
      )
      .digest('hex');
    expect(first!.hash).toBe(expected);
    expect(second).toMatchObject({ seq: 2, prevHash: first!.hash });
    expect(await auth.audit.verifyChain()).toMatchObject({
      ok: true,
      count: 2,
      headHash: second!.hash,
      head: { seq: 2, mac: second!.hash },
    });
  });

  it('verifies an empty chain', async () => {
    expect(await auth.audit.verifyChain()).toMatchObject({
      ok: true,
      count: 0,
      headHash: genesisHash,
      head: null,
    });
  });

  it('detects an edited column at its seq', async () => {
    await appendMany(5);
    await database.db.updateTable('auth_audit').set({ outcome: 'tampered' }).where('seq', '=', 3).execute();
    expect(await auth.audit.verifyChain()).toMatchObject({ ok: false, brokenSeq: 3, reason: 'hash' });
  });

  it('detects an edited detail, and an edit whose hash was recomputed breaks the next link', async () => {
    const entries = await appendMany(4);
    await database.db
      .updateTable('auth_audit')
      .set({ detail: '{"index":99}' })
      .where('seq', '=', 2)
      .execute();
    expect(await auth.audit.verifyChain()).toMatchObject({ ok: false, brokenSeq: 2, reason: 'hash' });
    await database.db
      .updateTable('auth_audit')
      .set({ hash: 'f'.repeat(64) })
      .where('seq', '=', 2)
      .execute();
    expect((await auth.audit.verifyChain()).ok).toBe(false);
    await database.db
      .updateTable('auth_audit')
      .set({
        detail: canonicalJson({ index: 1, nested: { a: [true, null, 'x'], b: 1 } }),
        hash: entries[1]!.hash,
      })
      .where('seq', '=', 2)
      .execute();
    expect((await auth.audit.verifyChain()).ok).toBe(true);
    await database.db.updateTable('auth_audit').set({ detail: 'not json' }).where('seq', '=', 4).execute();
    expect(await auth.audit.verifyChain()).toMatchObject({ ok: false, brokenSeq: 4, reason: 'detail' });
  });

  it('detects a deleted entry in the middle', async () => {
    await appendMany(4);
    await database.db.deleteFrom('auth_audit').where('seq', '=', 2).execute();
    expect(await auth.audit.verifyChain()).toMatchObject({ ok: false, brokenSeq: 2, reason: 'missing' });
  });

  it('detects a relinked chain (an entry removed and the next re-pointed)', async () => {
    const entries = await appendMany(3);
    await database.db.deleteFrom('auth_audit').where('seq', '=', 2).execute();
    await database.db
      .updateTable('auth_audit')
      .set({ seq: 2, prev_hash: entries[0]!.hash })
      .where('seq', '=', 3)
      .execute();
    expect(await auth.audit.verifyChain()).toMatchObject({ ok: false, brokenSeq: 2, reason: 'hash' });
  });

  it('verifies a legacy (unkeyed) chain longer than one verification page, then keys what follows', async () => {
    const rows = [];
    let prev = genesisHash;
    // Written by a second, independent implementation of the documented hash rule.
    for (let seq = 1; seq <= 2_500; seq++) {
      const fields = {
        id: `id-${seq}`,
        seq,
        at: seq,
        actor: null,
        action: 'bulk',
        target: null,
        outcome: 'success',
        request_id: null,
        client: null,
        detail: '{}',
      };
      const hash = createHash('sha256')
        .update(prev)
        .update(
          `{"action":"bulk","actor":null,"at":${seq},"client":null,"detail":{},"id":"id-${seq}","outcome":"success","request_id":null,"seq":${seq},"target":null}`,
        )
        .digest('hex');
      rows.push({ ...fields, prev_hash: prev, hash });
      prev = hash;
    }
    for (let start = 0; start < rows.length; start += 500) {
      await database.db
        .insertInto('auth_audit')
        .values(rows.slice(start, start + 500))
        .execute();
    }
    expect(await auth.audit.verifyChain()).toMatchObject({
      ok: true,
      count: 2_500,
      headHash: prev,
      legacy: 2_500,
    });
    const appended = await auth.audit.append({ action: 'after.bulk', outcome: 'success' });
    expect(appended).toMatchObject({ seq: 2_501, prevHash: prev });
    expect(await auth.audit.verifyChain()).toMatchObject({ ok: true, count: 2_501, legacy: 2_500 });
    await database.db.updateTable('auth_audit').set({ action: 'edited' }).where('seq', '=', 1_700).execute();
    expect(await auth.audit.verifyChain()).toMatchObject({ ok: false, brokenSeq: 1_700, reason: 'hash' });
  });

  it('lists newest first with filters, a bounded limit and a seq cursor', async () => {
    await appendMany(12);
    const all = await auth.audit.list({ limit: 100 });
    expect(all.entries.map((entry) => entry.seq)).toEqual([12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1]);
    expect(all.nextBefore).toBeNull();

    const page1 = await auth.audit.list({ limit: 5 });
    expect(page1.entries.map((entry) => entry.seq)).toEqual([12, 11, 10, 9, 8]);
    const page2 = await auth.audit.list({ limit: 5, before: page1.nextBefore! });
    expect(page2.entries.map((entry) => entry.seq)).toEqual([7, 6, 5, 4, 3]);

    const alice = await auth.audit.list({ actor: 'alice', action: 'settings.update', outcome: 'success' });
    expect(alice.entries.map((entry) => entry.seq)).toEqual([12, 8, 6, 2]);
    const first = all.entries.at(-1)!;
    const window = await auth.audit.list({ since: first.at + 2_000, until: first.at + 5_000 });
    expect(window.entries.map((entry) => entry.seq)).toEqual([5, 4, 3]);

    expect(
      (await auth.audit.list({ since: Number.NaN, until: Number.POSITIVE_INFINITY, before: 1e300 })).entries,
    ).toHaveLength(12);
    expect((await auth.audit.list({ before: 2.7 })).entries.map((entry) => entry.seq)).toEqual([1]);
    expect((await auth.audit.list({ actor: 'a'.repeat(300) })).entries).toEqual([]);
    expect((await auth.audit.list({ limit: 0 })).entries).toHaveLength(1);
    expect((await auth.audit.list({ limit: 10_000 })).entries).toHaveLength(12);
  });

  it('bounds long text fields and oversized details instead of failing', async () => {
    const entry = await auth.audit.append({
      actor: 'a'.repeat(10_000),
      action: 'big',
      outcome: 'success',
      detail: { blob: 'x'.repeat(100_000) },
    });
    expect(entry.actor).toHaveLength(256);
    expect(entry.detail).toEqual({ truncated: true, length: 100_011 });
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const odd = await auth.audit.append({ action: 'odd', outcome: 'success', detail: cyclic as never });
    expect(odd.detail).toEqual({ unserialisable: true });
    const big = await auth.audit.append({ action: 'odd', outcome: 'success', detail: { n: 1n } as never });
    expect(big.detail).toEqual({ unserialisable: true });
    expect((await auth.audit.verifyChain()).ok).toBe(true);
  });

  it('keeps one chain with many concurrent appends in one process', async () => {
    await Promise.all(
      Array.from({ length: 50 }, (_, index) => auth.audit.append({ action: `a${index}`, outcome: 'ok' })),
    );
    expect(await auth.audit.verifyChain()).toMatchObject({ ok: true, count: 50 });
  });

  it('keeps one chain with two processes (separate connection pools) appending at once', async () => {
    const second = createWebAuth({
      db: database.openSecond(),
      argon2: cheapArgon2,
      audit: auditChainFiles(dataDir),
    });
    const perProcess = 60;
    await Promise.all([
      Promise.all(
        Array.from({ length: perProcess }, (_, index) =>
          auth.audit.append({ action: `p1-${index}`, outcome: 'ok' }),
        ),
      ),
      Promise.all(
        Array.from({ length: perProcess }, (_, index) =>
          second.audit.append({ action: `p2-${index}`, outcome: 'ok' }),
        ),
      ),
    ]);
    expect(await auth.audit.verifyChain()).toMatchObject({ ok: true, count: 2 * perProcess });
    const seqs = (await auth.audit.list({ limit: 500 })).entries.map((entry) => entry.seq);
    expect(seqs).toEqual(Array.from({ length: 2 * perProcess }, (_, index) => 2 * perProcess - index));
    // Both processes really interleaved.
    const actions = (await auth.audit.list({ limit: 500 })).entries.map((entry) => entry.action.slice(0, 2));
    expect(new Set(actions)).toEqual(new Set(['p1', 'p2']));
  });
});
