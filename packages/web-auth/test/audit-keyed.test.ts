/**
 * @module The keyed audit chain against someone who can edit the database but not the product's
 * data folder (where the HMAC key and the head live): truncation, a rewrite re-hashed with the
 * legacy unkeyed rule, a legacy prefix edited after keying, a forged checkpoint; the head's crash
 * window; retention with a signed checkpoint; incremental verification; counted refusals.
 */
import { chmodSync, chownSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type AuditChainFiles,
  type AuditHeadStore,
  type AuthDatabase,
  auditChainFiles,
  createWebAuth,
  loadOrCreateAuditKey,
  unkeyedAuditHash as unkeyedHash,
  type WebAuth,
} from '../src/index.js';
import { cheapArgon2, fakeClock } from './support/clock.js';
import { databaseKinds, openTestDatabase, type TestDatabase } from './support/databases.js';

type Row = AuthDatabase['auth_audit'];

describe.each(databaseKinds)('keyed audit chain on %s', (kind) => {
  let database: TestDatabase;
  let dataDir: string;
  let chain: AuditChainFiles;
  let auth: WebAuth;
  const clock = fakeClock();

  beforeEach(async () => {
    database = await openTestDatabase(kind);
    dataDir = mkdtempSync(path.join(tmpdir(), 'web-auth-keyed-'));
    chain = auditChainFiles(dataDir);
    auth = createWebAuth({ db: database.db, now: clock.now, argon2: cheapArgon2, audit: chain });
  });
  afterEach(async () => {
    await database?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function appendMany(count: number, stepMs = 1_000) {
    for (let index = 0; index < count; index++) {
      clock.advance(stepMs);
      await auth.audit.append({
        actor: 'alice',
        action: 'settings.update',
        outcome: 'success',
        detail: { index },
      });
    }
  }

  const rows = async (): Promise<Row[]> =>
    (await database.db.selectFrom('auth_audit').selectAll().orderBy('seq').execute()) as Row[];

  it('keeps the key and the head in the data folder, mode 0600, and reuses the key', async () => {
    await appendMany(2);
    for (const file of [chain.keyFile, chain.headFile]) expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(loadOrCreateAuditKey(chain.keyFile).equals(chain.key)).toBe(true);
    expect(JSON.parse(readFileSync(chain.headFile, 'utf8'))).toEqual({
      seq: 2,
      mac: (await rows())[1]!.hash,
    });
    chmodSync(chain.keyFile, 0o644);
    expect(() => loadOrCreateAuditKey(chain.keyFile)).toThrow(/readable by group or others/);
  });

  it('appends committed during a head write share the next one; each resolves once the head names it', async () => {
    const written: number[] = [];
    const slowHead: AuditHeadStore = {
      location: 'test',
      read: chain.head.read,
      async advance(head) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        await chain.head.advance(head);
        written.push(head.seq);
      },
    };
    const writer = createWebAuth({
      db: database.db,
      now: clock.now,
      audit: { key: chain.key, head: slowHead },
    });
    const appended = await Promise.all(
      Array.from({ length: 30 }, (_, index) =>
        writer.audit
          .append({ action: 'burst', outcome: 'success', detail: { index } })
          .then(async (entry) => {
            expect((await chain.head.read())!.seq).toBeGreaterThanOrEqual(entry.seq);
            return entry.seq;
          }),
      ),
    );
    expect(appended.sort((a, b) => a - b)).toEqual(Array.from({ length: 30 }, (_, index) => index + 1));
    expect(written.at(-1)).toBe(30);
    expect(written.length).toBeLessThan(30);
    expect(await writer.audit.verifyChain()).toMatchObject({ ok: true, count: 30, unanchored: 0 });
  });

  it.skipIf(process.getuid?.() !== 0)(
    'a head replaced by root keeps the owner of the one it replaces (the service user can still read it)',
    async () => {
      await appendMany(1);
      chownSync(chain.headFile, 4242, 4343);
      await appendMany(1);
      expect(statSync(chain.headFile)).toMatchObject({ uid: 4242, gid: 4343 });
      expect(statSync(chain.headFile).mode & 0o777).toBe(0o600);
      expect(JSON.parse(readFileSync(chain.headFile, 'utf8')).seq).toBe(2);
    },
  );

  it('detects the 3 newest entries deleted (truncation) and reports the head it checked', async () => {
    await appendMany(10);
    const head = JSON.parse(readFileSync(chain.headFile, 'utf8'));
    expect(await auth.audit.verifyChain()).toMatchObject({ ok: true, count: 10, head, unanchored: 0 });
    await database.db.deleteFrom('auth_audit').where('seq', '>', 7).execute();
    const verdict = await auth.audit.verifyChain();
    expect(verdict).toMatchObject({ ok: false, reason: 'truncated', brokenSeq: 8, head: { seq: 10 } });
    expect(!verdict.ok && verdict.problem).toMatch(
      /ends at entry 7 .* names entry 10: the newest entries were deleted/,
    );
  });

  it('detects an actor rewritten and the chain re-hashed without the key', async () => {
    await appendMany(6);
    const all = await rows();
    let prev = all[2]!.prev_hash;
    for (const row of all.slice(2)) {
      const edited = { ...row, actor: row.seq === all[2]!.seq ? 'mallory' : row.actor, prev_hash: prev };
      edited.hash = unkeyedHash(prev, edited);
      await database.db
        .updateTable('auth_audit')
        .set({ actor: edited.actor, prev_hash: edited.prev_hash, hash: edited.hash })
        .where('seq', '=', row.seq)
        .execute();
      prev = edited.hash;
    }
    expect(await auth.audit.verifyChain()).toMatchObject({ ok: false, brokenSeq: 3, reason: 'unkeyed' });
  });

  it('pins legacy entries once keyed: an edited legacy prefix, even re-hashed, breaks the first keyed link', async () => {
    // Two entries written by the previous, unkeyed version.
    let prev = '0'.repeat(64);
    for (const seq of [1, 2]) {
      const row: Row = {
        id: `legacy-${seq}`,
        seq,
        at: seq,
        actor: 'alice',
        action: 'old',
        target: null,
        outcome: 'success',
        request_id: null,
        client: null,
        detail: '{}',
        prev_hash: prev,
        hash: '',
      };
      row.hash = unkeyedHash(prev, row);
      await database.db.insertInto('auth_audit').values(row).execute();
      prev = row.hash;
    }
    await appendMany(2);
    expect(await auth.audit.verifyChain()).toMatchObject({ ok: true, count: 4, legacy: 2 });
    const [first, second] = await rows();
    const editedFirst = { ...first!, actor: 'mallory' };
    editedFirst.hash = unkeyedHash(editedFirst.prev_hash, editedFirst);
    const editedSecond = { ...second!, prev_hash: editedFirst.hash };
    editedSecond.hash = unkeyedHash(editedSecond.prev_hash, editedSecond);
    for (const edited of [editedFirst, editedSecond])
      await database.db
        .updateTable('auth_audit')
        .set({ actor: edited.actor, prev_hash: edited.prev_hash, hash: edited.hash })
        .where('seq', '=', edited.seq)
        .execute();
    expect(await auth.audit.verifyChain()).toMatchObject({ ok: false, brokenSeq: 3, reason: 'prev_hash' });
  });

  it('accepts a head one entry behind (a crash between commit and head write), and refuses a lost head', async () => {
    await appendMany(3);
    const [, second] = await rows();
    writeFileSync(chain.headFile, JSON.stringify({ seq: 2, mac: second!.hash }));
    expect(await auth.audit.verifyChain()).toMatchObject({ ok: true, head: { seq: 2 }, unanchored: 1 });
    // The next append moves the head to the newest entry again.
    await appendMany(1);
    expect(await auth.audit.verifyChain()).toMatchObject({ ok: true, head: { seq: 4 }, unanchored: 0 });
    rmSync(chain.headFile);
    expect(await auth.audit.verifyChain()).toMatchObject({ ok: false, reason: 'head_missing' });
  });

  it('detects the newest entries replaced by others with the same seqs', async () => {
    await appendMany(3);
    const other = createWebAuth({ db: database.db, now: clock.now, audit: auditChainFiles(dataDir) });
    await database.db.deleteFrom('auth_audit').where('seq', '=', 3).execute();
    // Same key (an attacker has none): the replacement is well-formed, only the head tells.
    writeFileSync(chain.headFile.replace('audit.head', 'saved'), readFileSync(chain.headFile));
    rmSync(chain.headFile);
    await other.audit.append({ action: 'replacement', outcome: 'success' });
    writeFileSync(chain.headFile, readFileSync(chain.headFile.replace('audit.head', 'saved')));
    expect(await auth.audit.verifyChain()).toMatchObject({
      ok: false,
      brokenSeq: 3,
      reason: 'head_mismatch',
    });
  });

  it('refuses a trail verified with another key', async () => {
    await appendMany(2);
    const otherDir = mkdtempSync(path.join(tmpdir(), 'web-auth-other-'));
    try {
      const stranger = createWebAuth({
        db: database.db,
        audit: { ...auditChainFiles(otherDir), head: chain.head },
      });
      expect(await stranger.audit.verifyChain()).toMatchObject({ ok: false, brokenSeq: 1, reason: 'hash' });
    } finally {
      rmSync(otherDir, { recursive: true, force: true });
    }
  });

  it('prunes old entries behind a signed checkpoint: verification still passes, later tampering is found', async () => {
    await appendMany(10, 86_400_000);
    const cutoff = clock.now() - 4.5 * 86_400_000;
    const result = await auth.audit.prune(cutoff);
    expect(result).toMatchObject({ pruned: 5, checkpoint: { seq: 5 } });
    expect((await rows()).map((row) => Number(row.seq))).toEqual([6, 7, 8, 9, 10]);
    expect(await auth.audit.verifyChain()).toMatchObject({ ok: true, count: 5, from: 5, checked: 5 });
    await appendMany(1);
    expect(await auth.audit.verifyChain({ incremental: true })).toMatchObject({ ok: true, checked: 1 });

    // The checkpoint cannot be moved without the key.
    await database.db
      .updateTable('auth_audit_marks')
      .set({ seq: 6 })
      .where('name', '=', 'checkpoint')
      .execute();
    expect(await auth.audit.verifyChain()).toMatchObject({ ok: false, reason: 'mark_forged' });
    await database.db
      .updateTable('auth_audit_marks')
      .set({ seq: 5 })
      .where('name', '=', 'checkpoint')
      .execute();
    // Nor can the oldest kept entry be dropped, nor a later one edited.
    await database.db.updateTable('auth_audit').set({ actor: 'mallory' }).where('seq', '=', 8).execute();
    expect(await auth.audit.verifyChain()).toMatchObject({ ok: false, brokenSeq: 8, reason: 'hash' });
    expect(await auth.audit.prune(clock.now())).toMatchObject({ pruned: 0, refused: { reason: 'hash' } });
    await database.db.deleteFrom('auth_audit').where('seq', '=', 6).execute();
    expect(await auth.audit.verifyChain()).toMatchObject({ ok: false, brokenSeq: 6, reason: 'missing' });
  });

  it('never prunes the newest entry nor the one the head names', async () => {
    await appendMany(3);
    expect(await auth.audit.prune(clock.now() + 1)).toMatchObject({ pruned: 2, checkpoint: { seq: 2 } });
    expect(await auth.audit.verifyChain()).toMatchObject({ ok: true, count: 1, head: { seq: 3 } });
  });

  it('verifies incrementally from the last verified entry; a full verification re-hashes everything', async () => {
    await appendMany(20);
    expect(await auth.audit.verifyChain({ incremental: true })).toMatchObject({
      ok: true,
      checked: 20,
      from: 0,
    });
    await appendMany(3);
    expect(await auth.audit.verifyChain({ incremental: true })).toMatchObject({
      ok: true,
      checked: 3,
      from: 20,
    });
    // An old entry edited: the incremental pass does not re-hash it, the full one finds it.
    await database.db.updateTable('auth_audit').set({ actor: 'mallory' }).where('seq', '=', 4).execute();
    expect(await auth.audit.verifyChain({ incremental: true })).toMatchObject({ ok: true, checked: 0 });
    expect(await auth.audit.verifyChain()).toMatchObject({ ok: false, brokenSeq: 4, full: true });
    // The last verified entry itself is checked by the incremental pass.
    await database.db.deleteFrom('auth_audit').where('seq', '=', 23).execute();
    expect(await auth.audit.verifyChain({ incremental: true })).toMatchObject({ ok: false, brokenSeq: 23 });
  });

  it('writes a flood of refusals at most once a second, not once each', async () => {
    const stored = async () =>
      (await database.db.selectFrom('auth_audit_refusals').select('count').execute()).map((row) =>
        Number(row.count),
      );
    clock.advance(60_000 - (clock.now() % 60_000)); // the start of a window: all below fall in it
    for (let index = 0; index < 1_000; index++) await auth.audit.countRefusal({ kind: 'flood' });
    // The first is written at once, the other 999 of the same second wait in memory.
    expect(await stored()).toEqual([1]);
    clock.advance(1_000);
    await auth.audit.countRefusal({ kind: 'flood' });
    expect(await stored()).toEqual([1_001]);
    for (let index = 0; index < 10; index++) await auth.audit.countRefusal({ kind: 'flood' });
    expect(await auth.audit.listRefusals()).toMatchObject([{ kind: 'flood', count: 1_011 }]);
  });

  it('counts sign-outs without a session per window instead of chaining an entry each', async () => {
    for (let index = 0; index < 2_000; index++) await auth.logout({ token: undefined, client: '192.0.2.7' });
    clock.advance(60_000);
    await auth.logout({ token: 'no-such-token', client: '192.0.2.8' });
    expect(await rows()).toHaveLength(0);
    const refusals = await auth.audit.listRefusals();
    expect(refusals).toMatchObject([
      { kind: 'auth.logout no_session', count: 1, sample: { client: '192.0.2.8' } },
      { kind: 'auth.logout no_session', count: 2_000, sample: { client: '192.0.2.7' } },
    ]);
    expect(await auth.audit.prune(refusals[0]!.windowStart)).toMatchObject({ refusalWindows: 1 });
    expect(await auth.audit.listRefusals()).toHaveLength(1);
  });
});
