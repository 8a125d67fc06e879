/**
 * The editor's templates for the common rules: each fills the form (and may add companion rules,
 * DNS over TCP beside UDP); the engine still validates what is sent.
 */
import type { Rule } from '../types';

export interface RuleTemplate {
  id: string;
  label: string;
  /** What it opens, said under the buttons once chosen. */
  summary: string;
  rules: Rule[];
}

export const ruleTemplates: RuleTemplate[] = [
  {
    id: 'ssh',
    label: 'SSH',
    summary: 'Allows SSH (tcp 22) from anywhere; put your network in source to narrow it.',
    rules: [{ direction: 'in', action: 'allow', protocol: 'tcp', destination_port: '22', comment: 'ssh' }],
  },
  {
    id: 'web',
    label: 'Web server',
    summary: 'Allows HTTP and HTTPS (tcp 80 and 443).',
    rules: [
      { direction: 'in', action: 'allow', protocol: 'tcp', destination_port: '80,443', comment: 'web' },
    ],
  },
  {
    id: 'mail',
    label: 'Mail',
    summary: 'Allows SMTP, submission, SMTPS and IMAPS (tcp 25, 465, 587, 993).',
    rules: [
      {
        direction: 'in',
        action: 'allow',
        protocol: 'tcp',
        destination_port: '25,465,587,993',
        comment: 'mail',
      },
    ],
  },
  {
    id: 'dns',
    label: 'DNS',
    summary: 'Allows DNS on udp 53, and adds the same on tcp 53 (large answers, zone transfers).',
    rules: [
      { direction: 'in', action: 'allow', protocol: 'udp', destination_port: '53', comment: 'dns' },
      { direction: 'in', action: 'allow', protocol: 'tcp', destination_port: '53', comment: 'dns' },
    ],
  },
];

/** "Allow my current address": everything from the address the server saw this session sign in from. */
export function myAddressTemplate(address: string): RuleTemplate {
  return {
    id: 'my-address',
    label: 'Allow my current address',
    summary: `Allows everything from ${address}, the address this session signed in from.`,
    rules: [{ direction: 'in', action: 'allow', protocol: 'any', source: address, comment: 'my address' }],
  };
}
