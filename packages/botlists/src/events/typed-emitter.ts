/**
 * @module An EventEmitter whose `on`/`once`/`off`/`emit` know each event's payload type (runtime: plain node:events).
 */
import { EventEmitter } from 'node:events';

type Listener<T> = (payload: T) => void;
type AnyListener = (...args: unknown[]) => void;

/** Every event carries exactly one payload, so `lists.on('vote', (vote) => vote.voterId)` is typed. */
export class TypedEmitter<Events extends object> extends EventEmitter {
  override on<K extends keyof Events & string>(event: K, listener: Listener<Events[K]>): this {
    return super.on(event, listener as AnyListener);
  }

  override once<K extends keyof Events & string>(event: K, listener: Listener<Events[K]>): this {
    return super.once(event, listener as AnyListener);
  }

  override off<K extends keyof Events & string>(event: K, listener: Listener<Events[K]>): this {
    return super.off(event, listener as AnyListener);
  }

  override emit<K extends keyof Events & string>(event: K, payload: Events[K]): boolean {
    return super.emit(event, payload);
  }
}
