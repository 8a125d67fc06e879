/**
 * @module ConsoleReport: the status board as a fixed-width text table, and prefilled issue links for dead lists.
 */
import type { StatusBoardInput, StatusEntryInput } from '../types.js';
import { isoTime } from './report-time.js';

/** Where issue links point unless a repository is given. */
const DEFAULT_ISSUE_REPO = 'botlists/botlists';

function pad(text: string, width: number): string {
  return text.length >= width ? text : text + ' '.repeat(width - text.length);
}

function probedOn(entry: StatusEntryInput): string {
  const time = isoTime(entry.lastChecked);
  return time ? ` on ${time}` : '';
}

export const ConsoleReport = {
  /** A plain-text table (no colours: it is also written to logs and CI output). */
  table(board: StatusBoardInput): string {
    const header = ['LIST', 'STATE', 'HTTP', 'MS', 'DETAIL'];
    const rows = board.entries.map((e) => [
      e.listId,
      e.state,
      String(e.httpStatus ?? '-'),
      String(e.latencyMs ?? '-'),
      e.detail ?? '',
    ]);
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
    const line = (cells: string[]) =>
      cells.map((c, i) => (i === cells.length - 1 ? c : pad(c, widths[i]!))).join('  ');
    const { live, deprecated, shutdown, unknown } = board.summary;
    return [
      line(header),
      ...rows.map(line),
      '',
      `${live} live, ${deprecated} deprecated, ${shutdown} shutdown, ${unknown} unknown`,
    ].join('\n');
  },

  /** One prefilled GitHub "new issue" URL per deprecated or shut-down list. */
  issueUrls(
    dead: readonly StatusEntryInput[] | StatusBoardInput,
    repo: string = DEFAULT_ISSUE_REPO,
  ): string[] {
    const entries: readonly StatusEntryInput[] = Array.isArray(dead)
      ? dead
      : (dead as StatusBoardInput).entries;
    return entries
      .filter((e) => e.state === 'deprecated' || e.state === 'shutdown')
      .map((e) => {
        const params = new URLSearchParams({
          title: `List ${e.state}: ${e.listId}`,
          body: `${e.listName} (${e.website}) probed as **${e.state}**${probedOn(e)}${e.detail ? `: ${e.detail}` : ''}.\n\nProposed: remove it from registry-data/lists.json (or mark its status).`,
          labels: 'list-status',
        });
        return `https://github.com/${repo}/issues/new?${params}`;
      });
  },
};
