/**
 * @module One path, two query languages: `/streak`, `/trophy` and `/typing` answer both our
 * parameters (strict) and those of the service they replace (lenient), so a URL of the old
 * service works after only its host is changed.
 */
import type { Endpoint } from '../http/endpoint.js';

interface Dialect {
  /** The other service's endpoint (lenient parameters). */
  endpoint: Endpoint;
  /**
   * Parameters both use where theirs accepts more (their theme names, a bigger column count):
   * a query naming only shared parameters, one of these among them, is theirs when ours
   * rejects it.
   */
  widerNames: readonly string[];
}

/**
 * Our endpoint, answering the other service's queries too. A query is read as theirs when it
 * names none of our own parameters and either names one only they use, or fails our strict
 * validation while naming only parameters both use, a wider one among them. Everything else
 * is ours, strictly.
 *
 * @example export const trophy = withDialect(ourTrophy, { endpoint: profileTrophy, widerNames: ['column', 'theme'] });
 */
export function withDialect(ours: Endpoint, dialect: Dialect): Endpoint {
  const theirs = new Set(Object.keys(dialect.endpoint.params));
  const shared = new Set(Object.keys(ours.params).filter((name) => theirs.has(name)));
  const oursOnly = Object.keys(ours.params).filter((name) => !shared.has(name));
  const theirsOnly = [...theirs].filter((name) => !shared.has(name));
  const wider = dialect.widerNames.filter((name) => shared.has(name));
  return {
    ...ours,
    queryNames: [...new Set([...Object.keys(ours.params), ...theirs])],
    prepare(query) {
      if (oursOnly.some((name) => name in query)) return ours.prepare(query);
      if (theirsOnly.some((name) => name in query)) return dialect.endpoint.prepare(query);
      const prepared = ours.prepare(query);
      if (prepared.ok || !wider.some((name) => name in query)) return prepared;
      const onlyShared = Object.keys(query).every((name) => shared.has(name));
      return onlyShared ? dialect.endpoint.prepare(query) : prepared;
    },
  };
}
