/** IPv6 addresses with a zone id, each a different way the parser went wrong before it refused `%`. */
export const zoneIdAddresses = [
  '::ffff:10.0.0.1%eth0',
  '2001:db8::1%:ffff:ffff',
  'fe80::1%eth0',
  'fe80::1%1/64',
  '::1%',
  '2001:db8::%25eth0',
];
