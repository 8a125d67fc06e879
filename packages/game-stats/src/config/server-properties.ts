/**
 * @module Reader of the game's `server.properties` (Java properties: `key=value`, `#` comments,
 * backslash escapes).
 */

export type ServerProperties = ReadonlyMap<string, string>;

export function parseServerProperties(text: string): ServerProperties {
  const properties = new Map<string, string>();
  for (const rawLine of text.split(/\r?\n/)) {
    const line = rawLine.trimStart();
    if (line === '' || line.startsWith('#') || line.startsWith('!')) continue;
    const separator = line.search(/[=:]/);
    const key = (separator === -1 ? line : line.slice(0, separator)).trim();
    const value = separator === -1 ? '' : line.slice(separator + 1).trim();
    properties.set(key, unescapeProperty(value));
  }
  return properties;
}

function unescapeProperty(value: string): string {
  return value.replace(/\\(u[0-9a-fA-F]{4}|.)/g, (_, escaped: string) =>
    escaped.length === 5 ? String.fromCharCode(Number.parseInt(escaped.slice(1), 16)) : escaped,
  );
}

export function propertyInt(properties: ServerProperties, key: string): number | undefined {
  const value = properties.get(key);
  if (value === undefined || !/^\d+$/.test(value)) return undefined;
  return Number(value);
}

export function propertyBool(properties: ServerProperties, key: string): boolean | undefined {
  const value = properties.get(key);
  return value === undefined ? undefined : value === 'true';
}
