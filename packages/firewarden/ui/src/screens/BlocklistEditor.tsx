/**
 * The dialog that creates a blocklist or replaces its entries: paste them or load a file (one
 * address or CIDR a line, `#` comments), then one PUT with safe apply. The server checks them:
 * each bad entry is shown at the text box by its line, a name it refuses at the name, a lockout
 * risk with its reasons and the acknowledge checkbox before the PUT is sent again.
 */
import { Button, Dialog, SelectField, Skeleton, TextField } from '@suite/web-ui/kit';
import { FileUp, ShieldCheck } from 'lucide-react';
import { type ChangeEvent, useEffect, useState } from 'react';
import { type BlocklistFileLines, readBlocklistFile } from '../../../src/engine/blocklist-file.js';
import { ApiFailure, describeError, get, put } from '../api';
import type { Blocklist, BlocklistSummary, Conflict } from '../types';
import { lineErrors } from './blocklist-text';
import { LockoutWarning } from './LockoutWarning';
import { ErrorMessage } from './Messages';

/** How many refused lines are listed at the text box; the count says how many there are. */
const shownErrors = 20;

interface Problems {
  name?: string;
  entries?: string[];
  other?: string;
}

export interface SavedBlocklist {
  name: string;
  entries: number;
  received: number;
}

export function BlocklistEditor(props: {
  /** The list whose entries are replaced, or `null` for a new one. */
  existing: BlocklistSummary | null;
  /** Names in use: a new list may not take one (a PUT would silently replace it). */
  taken: string[];
  onClose: () => void;
  onSaved: (saved: SavedBlocklist) => void;
}) {
  const { existing } = props;
  const [name, setName] = useState(existing?.name ?? '');
  const [family, setFamily] = useState<string>(existing?.family ?? 'both');
  const [comment, setComment] = useState(existing?.comment ?? '');
  const [text, setText] = useState<string | null>(existing ? null : '');
  const [problems, setProblems] = useState<Problems>({});
  const [lockout, setLockout] = useState<Conflict[] | null>(null);
  const [acknowledged, setAcknowledged] = useState(false);
  const [busy, setBusy] = useState(false);

  // Replacing starts from the entries the kernel holds now.
  useEffect(() => {
    if (!existing) return;
    get<{ blocklist: Blocklist }>(`/firewall/blocklists/${encodeURIComponent(existing.name)}`).then(
      ({ blocklist }) => setText(blocklist.entries.join('\n')),
      (failure) => {
        setText('');
        setProblems({ other: describeError(failure) });
      },
    );
  }, [existing]);

  const load = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    if (file) setText(await file.text());
  };

  const save = async () => {
    if (!existing && props.taken.includes(name)) {
      setProblems({ name: `A blocklist named ${name} exists already: replace its entries instead.` });
      return;
    }
    const read = readBlocklistFile(text ?? '');
    setBusy(true);
    setProblems({});
    try {
      const answer = await put<{ blocklist: { entries: number; received: number } }>(
        `/firewall/blocklists/${encodeURIComponent(name)}`,
        {
          entries: read.entries,
          family,
          comment: comment === '' ? null : comment,
          safe_apply: true,
          acknowledge_lockout: acknowledged,
        },
      );
      props.onSaved({ name, ...answer.blocklist });
    } catch (failure) {
      setProblems(problemsOf(failure, read));
      if (failure instanceof ApiFailure && failure.code === 'FW_LOCKOUT_RISK')
        setLockout((failure.details.conflicts as Conflict[]) ?? []);
    }
    setBusy(false);
  };

  const entryErrors = problems.entries ?? [];
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && props.onClose()}
      title={existing ? `Replace the entries of ${existing.name}` : 'New blocklist'}
      description="One address or CIDR block a line; # starts a comment. Duplicates and overlapping blocks are merged. It is applied with safe apply: confirm it on the dashboard in time or it is rolled back."
      actions={
        <>
          <Button onClick={props.onClose}>Cancel</Button>
          <Button
            variant="primary"
            icon={<ShieldCheck size={16} />}
            onClick={save}
            disabled={busy || text === null || name === '' || (lockout !== null && !acknowledged)}
          >
            Save with safe apply
          </Button>
        </>
      }
    >
      <div className="blocklist-form">
        {!existing && (
          <TextField
            id="blocklist-name"
            label="Name"
            hint="1-24 of a-z, 0-9, - and _; rules name it as source @name"
            value={name}
            maxLength={24}
            error={problems.name}
            onChange={(event) => setName(event.target.value)}
          />
        )}
        <SelectField
          id="blocklist-family"
          label="Family"
          value={family}
          onChange={(event) => setFamily(event.target.value)}
          options={[
            { value: 'both', label: 'IPv4 and IPv6' },
            { value: 'ipv4', label: 'IPv4 only' },
            { value: 'ipv6', label: 'IPv6 only' },
          ]}
        />
        <TextField
          id="blocklist-comment"
          label="Comment"
          value={comment}
          maxLength={256}
          onChange={(event) => setComment(event.target.value)}
        />
        {text === null ? (
          <Skeleton lines={4} label="Reading the entries" />
        ) : (
          <div className={`kit-field${entryErrors.length > 0 ? ' kit-field-invalid' : ''}`}>
            <label htmlFor="blocklist-entries">Entries</label>
            <textarea
              id="blocklist-entries"
              className="kit-input kit-mono entries"
              rows={8}
              spellCheck={false}
              value={text}
              aria-invalid={entryErrors.length > 0 ? true : undefined}
              aria-describedby={entryErrors.length > 0 ? 'blocklist-entries-error' : undefined}
              onChange={(event) => setText(event.target.value)}
            />
            {entryErrors.length > 0 && (
              <ul id="blocklist-entries-error" className="kit-field-error">
                {entryErrors.map((line) => (
                  <li key={line}>{line}</li>
                ))}
              </ul>
            )}
          </div>
        )}
        <div className="kit-field">
          <label htmlFor="blocklist-file">
            <FileUp aria-hidden="true" size={16} /> Or load a file
          </label>
          <input id="blocklist-file" type="file" accept=".txt,.list,.csv,text/plain" onChange={load} />
        </div>
        {lockout && (
          <LockoutWarning
            title={<p>This list would cut your own access:</p>}
            conflicts={lockout}
            acknowledged={acknowledged}
            onAcknowledge={setAcknowledged}
          />
        )}
        <ErrorMessage text={problems.other} />
      </div>
    </Dialog>
  );
}

/** Where each refusal of the server belongs: the name, the entries by line, or the dialog. */
function problemsOf(failure: unknown, read: BlocklistFileLines): Problems {
  if (!(failure instanceof ApiFailure)) return { other: describeError(failure) };
  switch (failure.code) {
    case 'FW_BLOCKLIST_NOT_FOUND':
      // A PUT answers this for a name that cannot be one.
      return { name: 'Not a blocklist name: 1-24 of a-z, 0-9, - and _, starting with a letter or digit.' };
    case 'FW_VALIDATION_FAILED': {
      const lines = lineErrors(failure.fieldErrors.slice(0, shownErrors), read);
      const invalid = Number(failure.details.invalid ?? lines.length);
      if (invalid > lines.length) lines.push(`and ${invalid - lines.length} more invalid lines`);
      return { entries: lines };
    }
    case 'FW_BLOCKLIST_TOO_LARGE':
      return { entries: [failure.message] };
    case 'FW_LOCKOUT_RISK':
      return {};
    default:
      return { other: describeError(failure) };
  }
}
