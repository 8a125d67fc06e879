/**
 * @module The YAML configuration: one zod schema that validates the file, rejects unknown keys
 * and gives every default of the spec's table (snake_case keys, as in the spec).
 */
import { z } from 'zod';
import { parseTrustedProxy } from './trusted-proxies.js';

/** Where the spec puts the file when `--config` is not given. */
export const defaultConfigPath = '/etc/firewarden/config.yaml';

const port = z.number().int().min(0).max(65_535);
const filePath = z.string().min(1).max(4_096);

const logLevels = ['trace', 'debug', 'info', 'warn', 'error', 'fatal'] as const;

export const configSchema = z
  .object({
    server: z
      .object({
        bind: z.string().min(1).max(255).default('127.0.0.1'),
        port: port.default(7443),
        /** Explicit opt-in for a non-loopback bind without TLS (`FIREWARDEN_ALLOW_INSECURE_BIND`). */
        allow_insecure_bind: z.boolean().default(false),
        /**
         * Reverse proxies (addresses or CIDR blocks) whose `X-Forwarded-For` names the client:
         * the login throttle, the audit and the lockout check then use the client's address.
         */
        trusted_proxies: z
          .array(
            z
              .string()
              .min(1)
              .max(64)
              .refine((entry) => parseTrustedProxy(entry) !== undefined, {
                message: 'must be an IP address or a CIDR block (172.30.0.1, 172.30.0.0/16, fd00::/8)',
              }),
          )
          .max(64)
          .default([]),
        /**
         * `Host` values the API answers to besides loopback names and the bind address (`name` or
         * `name:port`): the name a browser or a reverse proxy uses. Guards against DNS rebinding.
         */
        allowed_hosts: z.array(z.string().min(1).max(253)).max(64).default([]),
        /** Largest request body accepted, in bytes. */
        max_body_bytes: z
          .number()
          .int()
          .min(1_024)
          .max(16 * 1_048_576)
          .default(1_048_576),
      })
      .strict()
      .prefault({}),
    tls: z
      .object({
        enabled: z.boolean().default(false),
        cert_file: filePath.optional(),
        key_file: filePath.optional(),
      })
      .strict()
      .prefault({}),
    database: z
      .object({
        driver: z.enum(['sqlite', 'postgres']).default('sqlite'),
        sqlite_path: filePath.default('/var/lib/firewarden/firewarden.db'),
        postgres_dsn: z.string().min(1).max(4_096).optional(),
        /** Apply pending migrations when `serve` starts (`firewarden db migrate` does it by hand). */
        migrate_on_start: z.boolean().default(true),
      })
      .strict()
      .prefault({}),
    firewall: z
      .object({
        backend: z.enum(['auto', 'ufw', 'iptables']).default('auto'),
        safe_apply_timeout_seconds: z.number().int().min(5).max(3_600).default(60),
        allow_write_on_manager_conflict: z.boolean().default(false),
        /** Inbound rules also govern Docker's published ports; effective where Docker's chains exist. */
        docker_published_ports: z.enum(['follow', 'ignore']).default('follow'),
      })
      .strict()
      .prefault({}),
    agent: z
      .object({
        /** Unix socket of the privileged agent (`FIREWARDEN_AGENT_SOCKET`). */
        socket_path: filePath.default('/run/firewarden/agent.sock'),
      })
      .strict()
      .prefault({}),
    logging: z
      .object({
        level: z.enum(logLevels).default('info'),
        format: z.enum(['json', 'text']).default('json'),
        file_path: filePath.default('/var/log/firewarden/firewarden.log'),
      })
      .strict()
      .prefault({}),
    restore_points: z
      .object({
        auto_enabled: z.boolean().default(true),
        retain_automatic: z.number().int().min(1).max(10_000).default(50),
        retain_manual: z.number().int().min(1).max(10_000).default(20),
      })
      .strict()
      .prefault({}),
    update: z
      .object({
        /** `firewarden update check` asks the update server only when this is true (off by default). */
        enabled: z.boolean().default(false),
        /** The signed update manifest (JSON); `update check` and `update apply` read it. */
        url: z
          .url({ protocol: /^https?$/ })
          .max(2_048)
          .optional(),
      })
      .strict()
      .prefault({}),
    audit: z
      .object({
        /** Entries and refusal counts older than this are pruned daily behind a signed checkpoint; 0 keeps all. */
        retention_days: z.number().int().min(0).max(36_500).default(365),
        /** The chain's HMAC key (created 0600 at first start); default `audit.key` beside the SQLite database. */
        key_file: filePath.optional(),
        /** The chain head kept outside the database; default `audit.head` beside the SQLite database. */
        head_file: filePath.optional(),
      })
      .strict()
      .prefault({}),
    security: z
      .object({
        session_idle_timeout_minutes: z.number().int().min(1).max(1_440).default(30),
        /** Hard limit of a session whatever its activity. */
        session_absolute_timeout_hours: z.number().int().min(1).max(720).default(24),
        login_rate_limit_per_minute: z.number().int().min(1).max(1_000).default(5),
      })
      .strict()
      .prefault({}),
  })
  .strict()
  .superRefine((config, context) => {
    if (config.database.driver === 'postgres' && !config.database.postgres_dsn) {
      context.addIssue({
        code: 'custom',
        path: ['database', 'postgres_dsn'],
        message: 'required when database.driver is postgres',
      });
    }
    if (config.tls.enabled) {
      for (const key of ['cert_file', 'key_file'] as const) {
        if (!config.tls[key]) {
          context.addIssue({
            code: 'custom',
            path: ['tls', key],
            message: 'required when tls.enabled is true',
          });
        }
      }
    }
  });

export type Config = z.output<typeof configSchema>;
export type ConfigInput = z.input<typeof configSchema>;
