// The person's edits on top of the host's preview: pins, restores, section texts, the range
// compacted (up to a message) and the tool results offloaded. Pure
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

/** Compacts only up to `id` (inclusive), or the whole conversation again (undefined). An
 *  offload is a compaction of its own, so choosing a range drops the offloads. */
export function setUpTo(edits: InspectorEdits, id: string | undefined): void {
  if (id === undefined) delete edits.upTo;
  else {
    edits.upTo = id;
    edits.offload = [];
  }
}

export function isOffloaded(edits: InspectorEdits, id: string): boolean {
  return edits.offload.includes(id);
}

/** Adds a tool result to the offloads, or takes it out; offloading changes nothing else, so it
 *  drops a chosen range. */
export function toggleOffload(edits: InspectorEdits, id: string): void {
  if (edits.offload.includes(id)) edits.offload = edits.offload.filter((x) => x !== id);
  else {
    edits.offload.push(id);
    delete edits.upTo;
  }
}

export function editCount(edits: InspectorEdits): number {
  return (
    Object.keys(edits.sections).length +
    edits.restore.length +
    edits.pin.length +
    edits.unpin.length +
    edits.offload.length +
    (edits.upTo !== undefined ? 1 : 0)
  );
}

/** Edits that change the plan (and so need a new preview), as opposed to section texts. */
export function planEditKey(edits: InspectorEdits): string {
  return JSON.stringify([[...edits.restore].sort(), [...edits.pin].sort(), [...edits.unpin].sort(), [...edits.offload].sort(), edits.upTo ?? null]);
}
