// Shapes a CompactionResult and the conversation it was computed from into what the inspector
// shows (src/shared/protocol.ts): each original message once, with its plan beside it.

import type { Conversation, Message } from '../../engine/conversation/model';
import type { CompactionEdits, ImportanceMetrics, MessagePlan } from '../../engine/result';
import { SECTION_NAMES } from '../../engine/sections';
import { warningText, type EngineWarning } from '../../engine/warnings';
import type { Compaction } from '../conversationService';
import { compactionCost, type CompactionCost } from '../../engine/compactionCost';
import { modelPrice } from '../../engine/tokens/modelPrices';
import type {
  ContextHistoryView,
  CostView,
  ImportanceView,
  InspectorEdits,
  InspectorModel,
  InspectorPhase,
  MessageView,
  ResultMessageView,
  SectionView,
} from '../../shared/protocol';
import { biggestItems } from './biggestItems';

export interface ModelInput {
  key: string;
  label: string;
  phase: InspectorPhase;
  /** The conversation the result was computed from (the original, for an applied result). */
  before: Conversation;
  /** The compaction and its figures (before → after as the agent will send them). */
  compaction: Pick<Compaction, 'result' | 'figures'>;
  /** The model tokens are counted for. */
  model: string;
  countMethod?: 'exact' | 'proxy' | 'estimate';
  canUndo: boolean;
  /** The engine's warnings in words (the host's translation; default English). */
  warningWords?: (w: EngineWarning) => string;
  /** The context over time, when it could be read. */
  history?: ContextHistoryView;
  /** Why nothing can be offloaded (an agent session's compaction is written as a new session, which
   *  needs a summary); absent: tool results can be. */
  offloadNote?: string;
  /** The edits the compaction was made with (its scope: up to a message, only offloads). */
  edits?: InspectorEdits;
}

/** Everything the model reads in a message, as plain text: the text parts, thinking, tool calls
 *  with their arguments and image placeholders, in order. */
export function displayText(m: Message): string {
  const parts: string[] = [];
  for (const p of m.content) {
    if (p.type === 'text') parts.push(p.text);
    else if (p.type === 'thinking') parts.push(p.redacted ? '[thinking: redacted]' : `[thinking]\n${p.text}`);
    else parts.push(`[image: ${p.placeholder}]`);
  }
  if (m.toolCalls) for (const c of m.toolCalls) parts.push(`→ ${c.name}(${c.arguments})`);
  return parts.join('\n');
}

function importanceView(i: ImportanceMetrics | undefined): ImportanceView {
  return {
    criticality: i?.criticality ?? 0,
    dependency: i?.dependency ?? 0,
    uniqueness: i?.uniqueness ?? 0,
    actionability: i?.actionability ?? 0,
    overall: i?.overall ?? 0,
    temporal: i?.temporal ?? 0,
    temporalCategory: i?.temporalCategory ?? 'historical',
  };
}

function messageView(m: Message, index: number, plan: MessagePlan | undefined): MessageView {
  const view: MessageView = {
    id: m.id,
    index,
    role: m.role,
    itemType: m.itemType,
    text: displayText(m),
    tokens: plan?.tokens ?? 0,
    tokensAfter: plan?.tokensAfter ?? 0,
    // A message the plan does not mention was not touched by it.
    decision: plan?.decision ?? 'kept',
    reason: plan?.reason ?? '',
    importance: importanceView(plan?.importance),
    contentType: plan?.classification.contentType ?? 'general',
    pinned: m.pinned === true,
  };
  if (m.timestamp) view.timestamp = m.timestamp;
  return view;
}

export function buildInspectorModel(input: ModelInput): InspectorModel {
  const { result, figures } = input.compaction;
  const plans = new Map<string, MessagePlan>();
  for (const p of result.plan) plans.set(p.id, p);
  const messages = input.before.messages.map((m, i) => messageView(m, i, plans.get(m.id)));
  const after: ResultMessageView[] = result.conversation.messages.map((m) => ({
    id: m.id,
    role: m.role,
    itemType: m.itemType,
    text: displayText(m),
  }));
  const byName = new Map(result.summary.sections.map((s) => [s.name, s]));
  const sections: SectionView[] = SECTION_NAMES.map((name) => ({
    name,
    text: byName.get(name)?.text ?? '',
    tokens: byName.get(name)?.tokens ?? 0,
  }));
  const header: InspectorModel['header'] = {
    tokensBefore: figures.before.total,
    tokensAfter: figures.after.total,
    ...(figures.before.notInFile > 0 || figures.after.notInFile > 0 ? { notInFile: { before: figures.before.notInFile, after: figures.after.notInFile } } : {}),
    ratio: figures.ratio,
    retention: result.loss.overallRetention,
    lossLevel: result.loss.lossLevel,
    lossAcceptable: result.loss.acceptable,
    strategy: result.strategy,
    level: result.level,
    summarizer: result.summarizer.name,
    model: input.model,
    compactionCount: result.compactionCount,
    warnings: result.warnings.map(input.warningWords ?? warningText),
    degradation: result.degradation.map((d) => ({ ...d })),
  };
  if (result.summarizer.model) header.summarizerModel = result.summarizer.model;
  if (result.summarizer.fallbackReason) header.summarizerFallback = result.summarizer.fallbackReason;
  if (input.countMethod) header.countMethod = input.countMethod;
  const priceModel = input.before.meta.model ?? input.model;
  const cost = compactionCost(figures, modelPrice(priceModel));
  return {
    key: input.key,
    label: input.label,
    phase: input.phase,
    header,
    sections,
    summaryTokens: result.summary.tokens,
    messages,
    after,
    missing: result.loss.missing.map((f) => ({ kind: f.kind, value: f.value, sourceId: f.sourceId })),
    canUndo: input.canUndo,
    ...(input.history ? { history: input.history } : {}),
    cost: costView(cost, priceModel),
    biggest: biggestItems(input.before.messages, (m) => plans.get(m.id)?.tokens ?? 0, input.offloadNote === undefined),
    ...(input.offloadNote ? { offloadNote: input.offloadNote } : {}),
    scope: { ...(input.edits?.upTo !== undefined ? { upTo: input.edits.upTo } : {}), offload: [...(input.edits?.offload ?? [])] },
  };
}

function costView(c: CompactionCost, model: string): CostView {
  return {
    rewritten: c.rewritten,
    wouldRead: c.wouldRead,
    savedPerRequest: c.savedPerRequest,
    model,
    ...(c.price
      ? {
          price: {
            family: c.price.family,
            input: c.price.input,
            cacheWrite: c.price.cacheWrite,
            cacheRead: c.price.cacheRead,
            source: c.price.source,
            readOn: c.price.readOn,
          },
        }
      : {}),
    ...(c.dollars ? { extraAtNext: c.dollars.extraAtNext, savedPerRequestDollars: c.dollars.savedPerRequest } : {}),
    ...(c.paysOffAfter !== undefined ? { paysOffAfter: c.paysOffAfter } : {}),
  };
}

/** The engine's edits from the inspector's (empty parts left out, so "no edits" is `{}`). */
export function toCompactionEdits(edits: InspectorEdits): CompactionEdits {
  const out: CompactionEdits = {};
  if (Object.keys(edits.sections).length > 0) out.sections = { ...edits.sections };
  if (edits.restore.length > 0) out.restore = [...edits.restore];
  if (edits.pin.length > 0) out.pin = [...edits.pin];
  if (edits.unpin.length > 0) out.unpin = [...edits.unpin];
  if (edits.upTo !== undefined) out.upTo = edits.upTo;
  // An offload is a compaction of its own: nothing else changes.
  if (edits.offload.length > 0) {
    out.offload = [...edits.offload];
    out.offloadOnly = true;
  }
  return out;
}
