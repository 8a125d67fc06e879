/**
 * @module firewarden as a library: the configuration loader, the service set-up and the Hono app,
 * for tests, benchmarks and embedding. The `firewarden` bin is the usual entry point.
 */

export { can, type Permission, type Role, roles } from './auth/roles.js';
export { type Clock, chooseClock, systemClock } from './clock/clock.js';
export { insecureBindProblem, isLoopbackHost } from './config/bind-policy.js';
export { ConfigError } from './config/config-error.js';
export { environmentOverrides } from './config/env-overrides.js';
export { type LoadedConfig, loadConfig, parseConfig } from './config/load-config.js';
export { type Config, type ConfigInput, configSchema, defaultConfigPath } from './config/schema.js';
export { type AppOptions, createApp, csrfHeaderName } from './http/app.js';
export { type ErrorCode, errorStatus } from './http/error-codes.js';
export { sessionCookieName } from './http/routes/auth.js';
export { runServer } from './server/run-server.js';
export { argon2Parameters, createServices, type Services } from './server/services.js';
export { apiVersion, appVersion } from './version.js';
