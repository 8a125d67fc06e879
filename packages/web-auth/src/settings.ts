/**
 * @module The effective settings of a WebAuth: the product's partial options over the defaults,
 * checked once at construction so a bad configuration fails at start-up with the option's name,
 * not at the first sign-in.
 */
import { type Argon2Parameters, defaultArgon2Parameters } from './passwords/argon2.js';
import { defaultPasswordPolicy, type PasswordPolicy } from './passwords/policy.js';
import { defaultSessionOptions, type SessionOptions } from './sessions/session-store.js';
import {
  defaultThrottleOptions,
  type LockoutOptions,
  type ThrottleOptions,
} from './throttle/login-throttle.js';

export interface WebAuthSettings {
  argon2: Argon2Parameters;
  passwordPolicy: PasswordPolicy;
  sessions: SessionOptions;
  throttle: ThrottleOptions;
}

export interface WebAuthSettingsInput {
  argon2?: Partial<Argon2Parameters>;
  passwordPolicy?: Partial<PasswordPolicy>;
  sessions?: Partial<SessionOptions>;
  throttle?: Partial<Omit<ThrottleOptions, 'lockout'>> & { lockout?: Partial<LockoutOptions> };
}

/** Options that may be 0 (turning a feature off); every other number must be at least 1. */
const mayBeZero = new Set(['sessions.cacheSeconds', 'sessions.cacheMaxEntries']);

function assertWholeNumbers(prefix: string, values: object): void {
  for (const [key, value] of Object.entries(values)) {
    const name = `${prefix}.${key}`;
    if (typeof value === 'object' && value !== null) {
      assertWholeNumbers(name, value);
      continue;
    }
    const minimum = mayBeZero.has(name) ? 0 : 1;
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < minimum) {
      throw new RangeError(`@suite/web-auth option ${name} must be a whole number of at least ${minimum}`);
    }
  }
}

export function resolveSettings(input: WebAuthSettingsInput): WebAuthSettings {
  const settings: WebAuthSettings = {
    argon2: { ...defaultArgon2Parameters, ...input.argon2 },
    passwordPolicy: { ...defaultPasswordPolicy, ...input.passwordPolicy },
    sessions: { ...defaultSessionOptions, ...input.sessions },
    throttle: {
      ...defaultThrottleOptions,
      ...input.throttle,
      lockout: { ...defaultThrottleOptions.lockout, ...input.throttle?.lockout },
    },
  };
  for (const [prefix, values] of Object.entries(settings)) assertWholeNumbers(prefix, values);
  return settings;
}
