/**
 * @module Types of fake-rcon.mjs.
 */
export interface FakePlayer {
  name: string;
  uuid: string;
}

export class FakeRconServer {
  online: FakePlayer[];
  max: number;
  /** Commands received after login, in order. */
  readonly commands: string[];
  logins: number;
  port: number;
  constructor(password: string);
  start(port?: number): Promise<number>;
  stop(): Promise<void>;
  listOutput(withUuids: boolean): string;
}
