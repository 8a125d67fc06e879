/**
 * @module A small integer for every UUID the read models have met, so rosters and rankings are
 * typed arrays of slots instead of arrays of strings.
 */

export class PlayerSlots {
  private readonly slotByUuid = new Map<string, number>();
  /** UUID of each slot. */
  readonly uuids: string[] = [];

  /** The UUID's slot, allocated on first sight (slots are never reused). */
  slotOf(uuid: string): number {
    let slot = this.slotByUuid.get(uuid);
    if (slot === undefined) {
      slot = this.uuids.length;
      this.slotByUuid.set(uuid, slot);
      this.uuids.push(uuid);
    }
    return slot;
  }

  get size(): number {
    return this.uuids.length;
  }
}
