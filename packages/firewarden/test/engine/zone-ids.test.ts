/**
 * @module Tests: an IPv6 address with a zone id (`%eth0`) is refused with the field's path, never
 * crashes the parser or becomes another address (it was a 500 for `::ffff:10.0.0.1%eth0` and
 * `2001:db8::1` for `2001:db8::1%:ffff:ffff`).
 */
import { describe, expect, test } from 'vitest';
import { parseNetwork } from '../../src/engine/addresses.js';
import { validateRules } from '../../src/engine/validate.js';
import { zoneIdAddresses } from './support/zone-ids.js';

describe('zone ids', () => {
  test.each(zoneIdAddresses)('%s is not a network', (address) => {
    expect(parseNetwork(address)).toBeNull();
  });

  test.each(
    zoneIdAddresses.flatMap((address) => [
      ['source', address],
      ['destination', address],
    ]),
  )('%s %s is refused with its path', (field, address) => {
    const result = validateRules([
      { direction: 'in', action: 'allow', protocol: 'tcp', destination_port: '22', [field]: address },
    ]);
    expect(result).toEqual({
      ok: false,
      errors: [
        {
          path: `rules.0.${field}`,
          code: 'invalid_address',
          message: 'must not hold a zone id ("%"): give the address without its interface',
        },
      ],
    });
  });
});
