/**
 * @module `firewarden service status`: the host's init system and the state of the two units
 * (the unprivileged server and the privileged agent), read with `systemctl show` (argument
 * array, no shell, timeout).
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { unitNames } from './layout.js';
import { systemdRunning } from './systemd.js';

interface UnitState {
  unit: string;
  /** `loaded`, `not-found`... (`unknown` without systemd). */
  load_state: string;
  /** `active`, `inactive`, `failed`... */
  active_state: string;
  /** `enabled`, `disabled`... */
  unit_file_state: string;
}

export interface ServiceStatus {
  init_system: 'systemd' | 'openrc' | 'sysvinit' | 'none';
  units: UnitState[];
}

export function detectInitSystem(): ServiceStatus['init_system'] {
  if (systemdRunning()) return 'systemd';
  if (existsSync('/run/openrc')) return 'openrc';
  if (existsSync('/etc/inittab')) return 'sysvinit';
  return 'none';
}

export async function serviceStatus(): Promise<ServiceStatus> {
  const init_system = detectInitSystem();
  const units = await Promise.all(
    unitNames.map((unit) => (init_system === 'systemd' ? systemdUnitState(unit) : unknownUnit(unit))),
  );
  return { init_system, units };
}

function unknownUnit(unit: string): UnitState {
  return { unit, load_state: 'unknown', active_state: 'unknown', unit_file_state: 'unknown' };
}

function systemdUnitState(unit: string): Promise<UnitState> {
  return new Promise((resolve) => {
    execFile(
      'systemctl',
      ['show', '--property=LoadState,ActiveState,UnitFileState', '--', unit],
      { timeout: 5_000, maxBuffer: 64 * 1024, env: { PATH: '/usr/bin:/bin:/usr/sbin:/sbin', LANG: 'C' } },
      (error, stdout) => {
        if (error) return resolve(unknownUnit(unit));
        const fields = new Map(
          stdout
            .split('\n')
            .filter((line) => line.includes('='))
            .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)] as const),
        );
        resolve({
          unit,
          load_state: fields.get('LoadState') || 'unknown',
          active_state: fields.get('ActiveState') || 'unknown',
          unit_file_state: fields.get('UnitFileState') || 'unknown',
        });
      },
    );
  });
}
