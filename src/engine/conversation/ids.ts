// Stable message ids. The same file must import to the same ids every time (undo, the archive and
// the inspector refer to messages by id), and no two messages of a conversation may share one.

import { shortHash } from '../text/hash';

/** The id of a message the source gave no id: its position and a hash of what it says. */
export function derivedMessageId(index: number, role: string, text: string): string {
  // join() makes one flat string; `${index}-${hash}` would keep three (a rope and its parts), 50
  // bytes more for every message of a long conversation.
  return [index, '-', shortHash(role + text)].join('');
}

/** Hands out ids, making repeats unique by a deterministic suffix (":1", ":2", …) so a source
 *  that reuses an id (a resumed Claude Code session, one entry split into several messages)
 *  still yields distinct, stable ids. */
export class IdAllocator {
  private readonly used = new Set<string>();

  /** `taken`: ids already handed out (the messages before, in a conversation read as it grows). */
  constructor(private readonly taken: ReadonlySet<string> = new Set()) {}

  take(wanted: string): string {
    if (!this.has(wanted)) {
      this.used.add(wanted);
      return wanted;
    }
    for (let k = 1; ; k++) {
      const candidate = `${wanted}:${k}`;
      if (!this.has(candidate)) {
        this.used.add(candidate);
        return candidate;
      }
    }
  }

  private has(id: string): boolean {
    return this.used.has(id) || this.taken.has(id);
  }
}
