// The person's edits on top of the host's preview: pins, restores and section texts. Pure
// functions over InspectorEdits, so the views never disagree about what is pinned or restored.

import type { SectionName } from '../../../src/shared/engineNames';
import type { InspectorEdits, MessageView } from '../../../src/shared/protocol';

export function isPinned(edits: InspectorEdits, m: MessageView): boolean {
  if (edits.pin.includes(m.id)) return true;
  if (edits.unpin.includes(m.id)) return false;
  return m.pinned;
}

/** Flips the pin of a message; an edit that returns to the conversation's own state is removed. */
export function togglePin(edits: InspectorEdits, m: MessageView): void {
  const pinned = isPinned(edits, m);
  edits.pin = edits.pin.filter((id) => id !== m.id);
  edits.unpin = edits.unpin.filter((id) => id !== m.id);
  if (pinned && m.pinned) edits.unpin.push(m.id);
  if (!pinned && !m.pinned) edits.pin.push(m.id);
}

export function isRestored(edits: InspectorEdits, id: string): boolean {
  return edits.restore.includes(id);
}

export function toggleRestore(edits: InspectorEdits, id: string): void {
  if (edits.restore.includes(id)) edits.restore = edits.restore.filter((x) => x !== id);
  else edits.restore.push(id);
}

export function setSectionText(edits: InspectorEdits, name: SectionName, text: string): void {
  edits.sections[name] = text;
}

export function revertSection(edits: InspectorEdits, name: SectionName): void {
  delete edits.sections[name];
}

export function editCount(edits: InspectorEdits): number {
  return Object.keys(edits.sections).length + edits.restore.length + edits.pin.length + edits.unpin.length;
}

/** Edits that change the plan (and so need a new preview), as opposed to section texts. */
export function planEditKey(edits: InspectorEdits): string {
  return JSON.stringify([[...edits.restore].sort(), [...edits.pin].sort(), [...edits.unpin].sort()]);
}
