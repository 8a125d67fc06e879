/**
 * @module Public surface: `createStatsApi` for Node hosts, plus the pieces it is built from.
 */
export { ConfigError, parseConfig, readConfigFile, resolveSettings } from './config/load-config.js';
export { type Config, type ConfigInput, configSchema } from './config/schema.js';
export { formatTicks } from './format/units.js';
export type { ClientAddressReader } from './http/security.js';
export { parseListOutput } from './online/list-output.js';
export { queryFullStat } from './online/query-client.js';
export { RconClient } from './online/rcon-client.js';
export { builtinStats, type StatDefinition, type StatLookup } from './query/stat-resolver.js';
export { parseStatsFile, type StatDump } from './stats/stats-file.js';
export { createStatsApi, type StatsApi, type StatsApiOptions } from './stats-api.js';
