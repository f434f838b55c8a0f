// A session's title: the first thing a person asked, in file order, among what is sent and the
// history. A `/command` reads as the command line it was; one without arguments (`/clear`, `/init`,
// which open many sessions) only when nothing else was asked. One pass (the first of equal
// positions wins), so a live session's update does not sort its messages; and a live session's
// scan goes on from where the last one stopped (RequestScan), so an update looks at the appended
// messages only.

import { isUserAuthored, messageText, type Message } from '../engine/conversation/model';

interface Found {
  m: Message;
  at: number;
  /** Its index in the live messages (-1: in the history). */
  live: number;
}

const at = (m: Message) => m.source?.line ?? m.source?.index ?? Number.MAX_SAFE_INTEGER;
const bare = (m: Message) => /^\/?\S+$/.test(String(m.source?.extra?.['command'] ?? ' '));

/** The same history as last time (a session without one gives a new empty list each time). */
function sameList(a: readonly Message[], b: readonly Message[] | undefined): boolean {
  return a === b || (a.length === 0 && b?.length === 0);
}

/** The first request of a session read again as it grows: each call scans only the live messages
 *  after the ones it is told are the very objects of the last call. */
export class RequestScan {
  private history: readonly Message[] | undefined;
  private first: Found | undefined;
  private request: Found | undefined;
  /** Live messages scanned by the last call. */
  private scanned = 0;
  private text: { m: Message; text: string } | undefined;

  /** The first request of `live` after `history`. `kept`: how many of the first live messages are
   *  the very objects the last call was given (a message is never changed in place). */
  find(live: readonly Message[], history: readonly Message[], kept = 0): string | undefined {
    let from = Math.min(kept, this.scanned);
    // What was found among the messages scanned again is found again (or not): start over. What was
    // found before them stays what the scan of them starts from, as a scan from the start would.
    if (!sameList(history, this.history) || (this.first && this.first.live >= from) || (this.request && this.request.live >= from)) {
      this.history = history;
      this.first = undefined;
      this.request = undefined;
      this.take(history, 0, -1);
      from = 0;
    }
    this.take(live, from, 0);
    this.scanned = live.length;
    return this.chosenText();
  }

  private take(list: readonly Message[], from: number, liveBase: number): void {
    for (let i = from; i < list.length; i++) {
      const m = list[i]!;
      if (!isUserAuthored(m)) continue;
      const p = at(m);
      const earlierRequest = !this.request || p < this.request.at;
      if (!earlierRequest && this.first && p >= this.first.at) continue;
      if (messageText(m).trim() === '') continue;
      const found = { m, at: p, live: liveBase < 0 ? -1 : i };
      if (!this.first || p < this.first.at) this.first = found;
      if (earlierRequest && !bare(m)) this.request = found;
    }
  }

  private chosenText(): string | undefined {
    const chosen = (this.request ?? this.first)?.m;
    if (!chosen) return undefined;
    if (this.text?.m !== chosen) {
      const command = chosen.source?.extra?.['command'];
      this.text = { m: chosen, text: command === undefined ? messageText(chosen) : `/${String(command).replace(/^\//, '')}` };
    }
    return this.text.text;
  }
}

/** The first request of a session (see RequestScan), in one pass over its messages. */
export function firstRequest(live: readonly Message[], history: readonly Message[]): string | undefined {
  return new RequestScan().find(live, history);
}
