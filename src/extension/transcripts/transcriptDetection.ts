// Cheap tests for "is this editor's file a transcript?", run before the real import: by name for
// formats with telling names, by the first few kilobytes for JSON and Markdown, so focusing an
// ordinary JSON or Markdown file costs a substring search and nothing more.

/** How much of a document is looked at before deciding to import it. */
export const SNIFF_CHARS = 8_192;

/** The Open Transcript pick's globs (the UI contract with the end-to-end test). */
export const TRANSCRIPT_GLOBS = ['**/*.jsonl', '**/*.traj', '**/*.traj.json', '**/.aider.chat.history.md', '**/*.aider.chat.history.md', '**/*.json'] as const;
export const TRANSCRIPT_EXCLUDE = '**/node_modules/**';

/** Names that say "transcript" by themselves. */
const TELLING_NAMES = [/\.jsonl$/i, /\.traj$/i, /\.traj\.json$/i, /(?:^|[\\/])\.?[^\\/]*aider\.chat\.history\.md$/i];

/** Keys that transcript JSON carries near its start (OpenAI/Anthropic messages, SWE-agent history,
 *  VS Code chat exports, OpenHands events, LongMemEval sessions) — and configuration files don't. */
const JSON_MARKERS = [
  /"role"\s*:/,
  /"messages"\s*:/,
  /"history"\s*:\s*\[/,
  /"requests"\s*:\s*\[/,
  /"haystack_sessions"\s*:/,
  /"observation"\s*:/,
  /"tool_call_id"\s*:/,
];

const AIDER_HEADER = /^# aider chat started at /m;

/** Well-known configuration files that match *.json but are never transcripts. */
const NOT_TRANSCRIPTS = new Set([
  'package.json',
  'package-lock.json',
  'tsconfig.json',
  'jsconfig.json',
  'settings.json',
  'launch.json',
  'tasks.json',
  'extensions.json',
  'composer.json',
  'composer.lock',
]);

function baseName(fileName: string): string {
  const parts = fileName.split(/[\\/]/);
  return parts[parts.length - 1] ?? fileName;
}

/** Whether a file of this name should be listed by Open Transcript (after the globs matched). */
export function isListableTranscriptName(fileName: string): boolean {
  return !NOT_TRANSCRIPTS.has(baseName(fileName).toLowerCase());
}

/** True when the file is worth importing: a telling name, or JSON/Markdown whose start looks like one. */
export function looksLikeTranscript(fileName: string, head: string): boolean {
  if (TELLING_NAMES.some((re) => re.test(fileName))) return true;
  const name = baseName(fileName).toLowerCase();
  const start = head.slice(0, SNIFF_CHARS);
  if (name.endsWith('.json')) {
    if (NOT_TRANSCRIPTS.has(name)) return false;
    const trimmed = start.trimStart();
    if (!trimmed.startsWith('{') && !trimmed.startsWith('[')) return false;
    return JSON_MARKERS.some((re) => re.test(start));
  }
  if (name.endsWith('.md')) return AIDER_HEADER.test(start);
  return false;
}
