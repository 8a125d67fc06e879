/**
 * @module A transaction may only change firewarden's own rules. An action that names a rule the
 * agent listed as foreign (`{op, foreign: {family, table, chain, rule}}`, as the UI's read-only
 * rows carry it) is refused with 409 `FW_FOREIGN_RULE` and the tool that owns it, before anything
 * is applied; a `foreign` naming no listed rule is a 422 with its path.
 */
import type { RulesetView } from '../engine/ruleset-verdict.js';
import { ApiError } from '../http/api-error.js';

type ForeignLine = RulesetView['foreign'][number] & { owner: string };

export interface ForeignView extends RulesetView {
  foreign: ForeignLine[];
}

export function refuseForeignTargets(actions: unknown[], foreign: ForeignLine[]): void {
  for (const [index, action] of actions.entries()) {
    if (typeof action !== 'object' || action === null || !('foreign' in action)) continue;
    const named = action.foreign as Record<string, unknown> | null;
    const found = foreign.find(
      (line) =>
        named !== null &&
        typeof named === 'object' &&
        line.family === named.family &&
        line.table === named.table &&
        line.chain === named.chain &&
        line.rule === named.rule,
    );
    if (found === undefined) {
      throw new ApiError('FW_VALIDATION_FAILED', 'the actions are invalid', {
        errors: [
          {
            path: `actions.${index}.foreign`,
            code: 'not_found',
            message: 'no such foreign rule in force (GET /api/v1/firewall/rules lists them)',
          },
        ],
      });
    }
    throw new ApiError(
      'FW_FOREIGN_RULE',
      `actions.${index} names a rule ${found.owner === 'unknown' ? 'another tool' : found.owner} owns (${found.chain}: ${found.rule}); firewarden only changes its own rules`,
      { path: `actions.${index}`, owner: found.owner, rule: found },
    );
  }
}
