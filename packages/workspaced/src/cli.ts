#!/usr/bin/env node
/**
 * @module The `workspaced` command: `serve` runs the daemon.
 */
import os from 'node:os';
import path from 'node:path';
import { createLogger } from '@suite/server-kit';
import { Command, InvalidArgumentError } from 'commander';
import { ConfigFileInvalid } from './attempts/profile-config.js';
import { startDaemon } from './daemon.js';
import { logProcessFailures } from './observability/process-failures.js';
import { packageName, packageVersion } from './package-info.js';
import { PreviewPortTaken } from './preview/preview-server.js';
import { defaultPushSubject, PushSubjectError } from './push/push-subject.js';
import { VapidKeyError } from './push/vapid-keys.js';
import { BindRefused } from './security/bind-policy.js';

function portNumber(text: string): number {
  const port = Number(text);
  if (!/^\d{1,5}$/.test(text) || port > 65_535) throw new InvalidArgumentError('must be 0-65535');
  return port;
}

function positiveInteger(text: string): number {
  const value = Number(text);
  if (!/^\d{1,6}$/.test(text) || value < 1) throw new InvalidArgumentError('must be a positive integer');
  return value;
}

const collect = (value: string, previous: string[]) => [...previous, value];

/** `1000,4000`: at most 5 waits of at most 10 minutes each; an empty string means no retry. */
function retryDelays(text: string): number[] {
  const parts = text === '' ? [] : text.split(',');
  if (parts.length > 5 || parts.some((part) => !/^\d{1,6}$/.test(part) || Number(part) > 600_000))
    throw new InvalidArgumentError('must be up to 5 comma-separated waits in ms (each at most 600000)');
  return parts.map(Number);
}

interface ServeOptions {
  host: string;
  port: number;
  dataDir: string;
  allowedHost: string[];
  allowedOrigin: string[];
  tlsCert?: string;
  tlsKey?: string;
  allowInsecureRemote?: boolean;
  secureCookies?: boolean;
  loginAttemptsPerMinute: number;
  previewPort?: number;
  allowPrivateTargets?: boolean;
  deliveryTimeoutMs?: number;
  deliveryRetryDelaysMs?: number[];
  setupOpen?: boolean;
  pushSubject?: string;
  config?: string;
}

const program = new Command()
  .name('workspaced')
  .description('Local workspace daemon: projects, files, git, tasks in worktrees, users and roles.')
  .version(packageVersion)
  .showHelpAfterError();

program
  .command('serve')
  .description('run the daemon (HTTP API under /api/v1)')
  .option('--host <host>', 'address to listen on; non-loopback needs an owner and TLS', '127.0.0.1')
  .option('--port <port>', 'port, 0 for any free port', portNumber, 7676)
  .option(
    '--data-dir <dir>',
    'where the database and task worktrees live',
    path.join(os.homedir(), '.workspaced'),
  )
  .option('--allowed-host <name>', 'extra Host header value to accept (repeatable)', collect, [])
  .option('--allowed-origin <origin>', 'extra Origin allowed to make changes (repeatable)', collect, [])
  .option('--tls-cert <file>', 'PEM certificate chain: serve HTTPS')
  .option('--tls-key <file>', 'PEM private key for --tls-cert')
  .option('--allow-insecure-remote', 'allow a non-loopback address without TLS (behind a TLS proxy)')
  .option(
    '--preview-port <port>',
    'port of the preview origin on 127.0.0.1 (default: --port + 1; any free one with --port 0)',
    portNumber,
  )
  .option('--secure-cookies', 'mark the session cookie Secure without --tls-cert (an HTTPS proxy in front)')
  .option(
    '--login-attempts-per-minute <n>',
    'sign-in attempts allowed per client address each minute',
    positiveInteger,
    5,
  )
  .option(
    '--allow-private-targets',
    'let webhooks, notification rules and push endpoints reach loopback, private and link-local addresses (also WORKSPACED_ALLOW_PRIVATE_TARGETS=true)',
  )
  .option('--delivery-timeout-ms <ms>', 'timeout of one outbound webhook attempt', positiveInteger)
  .option(
    '--delivery-retry-delays-ms <list>',
    'waits before each outbound retry, comma-separated (default 1000,4000)',
    retryDelays,
  )
  .option(
    '--setup-open',
    'let the first caller of POST /api/v1/setup become the owner without the one-time setup token (tests, containers)',
  )
  .option(
    '--push-subject <uri>',
    `the VAPID contact sent to push services, mailto: or https: (also WORKSPACED_PUSH_SUBJECT; default ${defaultPushSubject})`,
  )
  .option('--config <file>', 'the config file: agent profiles (default: <data-dir>/config.json when present)')
  .action(async (options: ServeOptions) => {
    if ((options.tlsCert === undefined) !== (options.tlsKey === undefined))
      program.error('--tls-cert and --tls-key go together');
    const logger = createLogger({ name: packageName });
    logProcessFailures(logger);
    try {
      await startDaemon({
        logger,
        host: options.host,
        port: options.port,
        dataDir: path.resolve(options.dataDir),
        allowedHosts: options.allowedHost,
        allowedOrigins: options.allowedOrigin,
        tlsCertFile: options.tlsCert,
        tlsKeyFile: options.tlsKey,
        allowInsecureRemote: options.allowInsecureRemote === true,
        secureCookies: options.secureCookies === true,
        loginAttemptsPerMinute: options.loginAttemptsPerMinute,
        previewPort: options.previewPort,
        setupOpen: options.setupOpen === true,
        pushSubject: options.pushSubject ?? process.env.WORKSPACED_PUSH_SUBJECT,
        configFile: options.config === undefined ? undefined : path.resolve(options.config),
        allowPrivateTargets:
          options.allowPrivateTargets === true || process.env.WORKSPACED_ALLOW_PRIVATE_TARGETS === 'true',
        deliveryTiming: {
          ...(options.deliveryTimeoutMs === undefined ? {} : { timeoutMs: options.deliveryTimeoutMs }),
          ...(options.deliveryRetryDelaysMs === undefined
            ? {}
            : { retryDelaysMs: options.deliveryRetryDelaysMs }),
        },
      });
    } catch (error) {
      if (error instanceof BindRefused) program.error(`workspaced: ${error.message}`, { exitCode: 2 });
      if (error instanceof PushSubjectError || error instanceof VapidKeyError)
        program.error(`workspaced: ${error.message}`);
      if (error instanceof PreviewPortTaken || error instanceof ConfigFileInvalid)
        program.error(`workspaced: ${error.message}`);
      throw error;
    }
  });

await program.parseAsync();
