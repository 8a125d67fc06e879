/**
 * @module What an extension may ask for. Every capability is denied until an admin grants it
 * (one by one); the forbidden ones can never be granted, so a manifest naming one is refused.
 */

/** Capabilities an admin may grant, each with the sentence shown when asking. */
export const grantableCapabilities = {
  'dashboard.widget': 'show its widgets on the dashboard',
  'firewall.status.read': 'read the firewall status summary (backend, rule count) for its widgets',
  'events.read': 'read notification counts for its widgets',
  'diagnostics.check': 'add a read-only check to the diagnostics page',
  'rules.template': 'offer rule templates (rules are still validated and applied by an admin)',
  'notify.channel': 'be listed as a notification channel',
  'events.enrich': 'add labels to events shown in the UI',
  'ui.panel': 'show a read-only panel in the UI',
} as const satisfies Record<string, string>;

export type GrantableCapability = keyof typeof grantableCapabilities;

/**
 * Never grantable, whatever an admin answers: each would let a declarative manifest run code,
 * change the firewall, escalate to an account or read secrets, which is exactly what the
 * capability model exists to prevent (an extension never runs code in the server).
 */
const forbiddenCapabilities = [
  'exec',
  'shell',
  'process.spawn',
  'filesystem.write',
  'firewall.write',
  'firewall.apply',
  'users.manage',
  'sessions.read',
  'settings.write',
  'audit.write',
  'secrets.read',
  'network.outbound',
] as const;

export function isGrantable(capability: string): capability is GrantableCapability {
  return Object.hasOwn(grantableCapabilities, capability);
}

export function isForbidden(capability: string): boolean {
  return (forbiddenCapabilities as readonly string[]).includes(capability);
}
