/**
 * @module Validation of rules as a client sends them: every problem of every rule is reported with
 * its field path (`rules.2.source`), never only the first, so a form can mark all fields at once.
 * Cross-field rules (a port needs tcp or udp, addresses must match the family) are checked only
 * when the fields involved are valid on their own, so one mistake gives one message.
 */
import { z } from 'zod';
import { formatNetwork, hasZoneId, parseNetwork } from './addresses.js';
import { blocklistReference, isBlocklistName, maxBlocklistNameLength } from './blocklist.js';
import { formatPorts, parsePorts } from './ports.js';
import { actions, directions, families, protocols, type Rule, ruleFields } from './rule.js';
import { finishNow, type SteppedWork } from './stepped-work.js';

export interface RuleProblem {
  /** Dotted path from the request body, e.g. `rules.2.destination_port`. */
  path: string;
  code: string;
  message: string;
}

export type Backend = 'ufw' | 'iptables';

interface ValidateOptions {
  /** Path prefix of the list in the request body. */
  at?: string;
  /** Backend-specific limits (iptables has no `limit` action, ufw rules no ICMP). */
  backend?: Backend;
  maxRules?: number;
}

type RulesValidation = { ok: true; rules: Rule[] } | { ok: false; errors: RuleProblem[] };

export const defaultMaxRules = 10_000;
const maxInterfaceLength = 15;
const maxCommentLength = 256;

const portText = z.union([z.string().max(200), z.number().int()]).transform(String);
const fieldSchemas = {
  direction: z.enum(directions),
  action: z.enum(actions),
  protocol: z.enum(protocols),
  destination_port: portText,
  source_port: portText,
  family: z.enum(families),
  source: z.string().max(64),
  destination: z.string().max(64),
  interface: z.string().nullable(),
  comment: z.string().nullable(),
  position: z.number().int().min(1),
} satisfies Record<(typeof ruleFields)[number], z.ZodType>;

export const blocklistNameRule = `a blocklist name is 1-${maxBlocklistNameLength} lowercase letters, digits, "-" or "_", starting with a letter or digit`;

const requiredFields = new Set(['direction', 'action', 'protocol']);

export function validateRules(input: unknown, options: ValidateOptions = {}): RulesValidation {
  return finishNow(new RuleListValidation(input, options));
}

/** The validation of a list, one rule per step (the server steps through it with `finishInTurns`). */
export class RuleListValidation implements SteppedWork<RulesValidation> {
  private readonly at: string;
  private readonly items: readonly unknown[];
  private readonly errors: RuleProblem[] = [];
  private readonly rules: Rule[] = [];
  private next = 0;

  constructor(
    input: unknown,
    private readonly options: ValidateOptions = {},
  ) {
    this.at = options.at ?? 'rules';
    const maxRules = options.maxRules ?? defaultMaxRules;
    if (!Array.isArray(input)) {
      this.errors.push({ path: this.at, code: 'invalid_type', message: 'must be an array of rules' });
      this.items = [];
    } else if (input.length > maxRules) {
      this.errors.push({ path: this.at, code: 'too_many', message: `must hold at most ${maxRules} rules` });
      this.items = [];
    } else this.items = input;
  }

  advance(steps: number): boolean {
    const end = Math.min(this.items.length, this.next + steps);
    for (; this.next < end; this.next += 1) {
      const result = validateRule(this.items[this.next], `${this.at}.${this.next}`, this.options.backend);
      if (result.ok) this.rules.push(result.rule);
      else this.errors.push(...result.errors);
    }
    return this.next === this.items.length;
  }

  result(): RulesValidation {
    return this.errors.length === 0 ? { ok: true, rules: this.rules } : { ok: false, errors: this.errors };
  }
}

type RuleValidation = { ok: true; rule: Rule } | { ok: false; errors: RuleProblem[] };

export function validateRule(raw: unknown, at: string, backend?: Backend): RuleValidation {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return { ok: false, errors: [{ path: at, code: 'invalid_type', message: 'must be a rule object' }] };
  }
  const errors: RuleProblem[] = [];
  const problem = (field: string, code: string, message: string) =>
    errors.push({ path: `${at}.${field}`, code, message });
  const record = raw as Record<string, unknown>;
  const known = new Set<string>(ruleFields);
  for (const key of Object.keys(record)) if (!known.has(key)) problem(key, 'unknown_field', 'unknown field');

  const fields: Partial<Record<string, unknown>> = {};
  for (const field of ruleFields) {
    const value = record[field];
    if (value === undefined) {
      if (requiredFields.has(field)) problem(field, 'required', 'is required');
      continue;
    }
    const parsed = fieldSchemas[field].safeParse(value);
    if (parsed.success) fields[field] = parsed.data;
    else problem(field, 'invalid_value', parsed.error.issues[0]?.message ?? 'is invalid');
  }

  const protocol = fields.protocol as Rule['protocol'] | undefined;
  const ports = (['destination_port', 'source_port'] as const).map((field) => {
    const text = fields[field] as string | undefined;
    if (text === undefined) return 'any';
    const parsed = parsePorts(text);
    if (!parsed.ok) {
      problem(field, 'invalid_port', parsed.message);
      return undefined;
    }
    if (parsed.ports !== null && protocol !== undefined && protocol !== 'tcp' && protocol !== 'udp') {
      problem(field, 'port_needs_protocol', 'ports need protocol tcp or udp');
    }
    return formatPorts(parsed.ports);
  });

  const addressFamilies = new Set<string>();
  const addresses = (['source', 'destination'] as const).map((field) => {
    const text = fields[field] as string | undefined;
    if (text === undefined || text === 'any') return 'any';
    const list = field === 'source' ? blocklistReference(text) : null;
    if (list !== null) {
      if (isBlocklistName(list)) return text;
      problem(field, 'invalid_blocklist', blocklistNameRule);
      return undefined;
    }
    if (hasZoneId(text)) {
      problem(
        field,
        'invalid_address',
        'must not hold a zone id ("%"): give the address without its interface',
      );
      return undefined;
    }
    const network = parseNetwork(text);
    if (network === null) {
      problem(
        field,
        'invalid_address',
        field === 'source'
          ? 'must be "any", an IP address, a CIDR block or "@" and a blocklist name'
          : 'must be "any", an IP address or a CIDR block',
      );
      return undefined;
    }
    addressFamilies.add(network.family);
    return formatNetwork(network);
  });
  if (addressFamilies.size > 1) {
    problem('destination', 'family_mismatch', 'source and destination must be of the same IP family');
  }
  const declared = fields.family as Rule['family'] | undefined;
  const [addressFamily] = [...addressFamilies] as ('ipv4' | 'ipv6')[];
  if (declared !== undefined && addressFamily !== undefined && declared !== addressFamily) {
    problem('family', 'family_mismatch', `is ${declared} but the addresses are ${addressFamily}`);
  }

  const iface = checkInterface(fields.interface as string | null | undefined, problem);
  const comment = checkComment(fields.comment as string | null | undefined, problem);
  const action = fields.action as Rule['action'] | undefined;
  if (backend === 'iptables' && action === 'limit') {
    problem('action', 'unsupported_action', '"limit" is only available with the ufw backend');
  }
  // On ufw a blocklist rule lives in our chain jumped to from ufw's before-input (inbound only).
  if (backend === 'ufw' && typeof addresses[0] === 'string' && blocklistReference(addresses[0]) !== null) {
    if (fields.direction !== undefined && fields.direction !== 'in')
      problem('source', 'unsupported_source', 'on ufw a blocklist can be the source of inbound rules only');
    if (action === 'limit')
      problem(
        'action',
        'unsupported_action',
        '"limit" cannot apply to a blocklist source (ufw limits its own rules only)',
      );
  }
  if (backend === 'ufw' && protocol === 'icmp') {
    problem('protocol', 'unsupported_protocol', 'ufw rules cannot match ICMP (its before.rules do)');
  }
  if (action === 'limit' && fields.direction !== undefined && fields.direction !== 'in') {
    problem('action', 'unsupported_action', '"limit" applies to inbound rules only');
  }
  // Denying loopback input breaks local services (and the agent link) without protecting anything.
  if (fields.direction === 'in' && iface === 'lo' && action !== undefined && action !== 'allow') {
    problem('interface', 'loopback_block', 'inbound rules on loopback may only allow');
  }
  if (errors.length > 0) return { ok: false, errors };
  return {
    ok: true,
    rule: {
      direction: fields.direction as Rule['direction'],
      action: action!,
      protocol: protocol!,
      destination_port: ports[0]!,
      source_port: ports[1]!,
      family: declared ?? addressFamily ?? 'both',
      source: addresses[0]!,
      destination: addresses[1]!,
      interface: iface ?? null,
      comment: comment ?? null,
    },
  };
}

type Report = (field: string, code: string, message: string) => void;

/** Linux interface names: 1-15 characters; we allow the conservative set ufw and iproute2 use. */
function checkInterface(value: string | null | undefined, problem: Report): string | null | undefined {
  if (value === undefined || value === null || value === '' || value === 'any') return null;
  const valid =
    value.length <= maxInterfaceLength &&
    [...value].every((c) => /[A-Za-z0-9_.-]/.test(c)) &&
    value !== '.' &&
    value !== '..';
  if (!valid) {
    problem(
      'interface',
      'invalid_interface',
      `must be 1-${maxInterfaceLength} characters of letters, digits, "_", "." or "-"`,
    );
  }
  return value;
}

/** Comments end up in iptables and ufw argument lists: printable, no quotes or backslashes. */
function checkComment(value: string | null | undefined, problem: Report): string | null | undefined {
  if (value === undefined || value === null || value === '') return null;
  const printable = [...value].every(
    (c) => c >= ' ' && !(c >= '\u007f' && c <= '\u009f') && c !== '"' && c !== '\\' && c !== "'",
  );
  if (value.length > maxCommentLength || !printable) {
    problem(
      'comment',
      'invalid_comment',
      `must be at most ${maxCommentLength} printable characters without quotes or backslashes`,
    );
  }
  return value;
}
