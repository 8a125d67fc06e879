/**
 * @module Who is called what: names from `usercache.json` and from RCON, the most recently seen
 * claim winning for both a UUID's name and a name's UUID.
 */

interface NameClaim {
  name: string;
  seenAt: number;
}

export class NameBook {
  private readonly byUuid = new Map<string, NameClaim>();
  private readonly byLowerName = new Map<string, { uuid: string; seenAt: number }>();

  /** `onRename(uuid)` runs whenever the name shown for a UUID changes (or a first name is learnt). */
  constructor(private readonly onRename: (uuid: string) => void = () => {}) {}

  /** Records that `uuid` was called `name` at `seenAt`; older claims never replace newer ones. */
  claim(uuid: string, name: string, seenAt: number): boolean {
    const current = this.byUuid.get(uuid);
    if (current && current.seenAt > seenAt) return false;
    if (current?.name === name) {
      // Same name seen again: remember when, but nothing visible changed.
      current.seenAt = seenAt;
      const holder = this.byLowerName.get(name.toLowerCase());
      if (holder?.uuid === uuid) holder.seenAt = seenAt;
      else if (!holder || holder.seenAt <= seenAt) {
        this.byLowerName.set(name.toLowerCase(), { uuid, seenAt });
        return true;
      }
      return false;
    }
    if (current) {
      const previous = this.byLowerName.get(current.name.toLowerCase());
      if (previous?.uuid === uuid) this.byLowerName.delete(current.name.toLowerCase());
    }
    this.byUuid.set(uuid, { name, seenAt });
    this.onRename(uuid);
    const lower = name.toLowerCase();
    const holder = this.byLowerName.get(lower);
    if (!holder || holder.seenAt <= seenAt) this.byLowerName.set(lower, { uuid, seenAt });
    return true;
  }

  nameOf(uuid: string): string | undefined {
    return this.byUuid.get(uuid)?.name;
  }

  /** UUID currently holding a name (names are case-insensitive in the game). */
  uuidOf(name: string): string | undefined {
    return this.byLowerName.get(name.toLowerCase())?.uuid;
  }

  uuids(): IterableIterator<string> {
    return this.byUuid.keys();
  }
}
