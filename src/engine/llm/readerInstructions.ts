// Whether an LLM's summary speaks to its reader instead of about the conversation: the summary is
// put back into a model's context (a resumed session, a handoff), so a reply that says "ignore all
// previous instructions", opens a <system> block, or tells the next assistant to send the user's
// keys somewhere would become an instruction there. A summary states facts about the conversation;
// these phrases are not such facts unless the conversation itself holds them (a session about
// prompt injection may well quote one), so each kind is flagged only when the summary has it and
// the source (the transcript sent, the previous summary, the must-keep facts, the focus) does not.
// The patterns are kept to what addresses a reader or a model; a pending task in the imperative
// ("Run the tests") is not one.

export interface ReaderInstructionKind {
  /** What it is, in words for a fallback reason (the summary's own text is never quoted). */
  label: string;
  pattern: RegExp;
}

/** A few words within one sentence. */
const GAP = '[^.!?\\n]{0,40}';
const SECRETS = '(?:api[\\s_-]?keys?|credentials|secrets|passwords?|private\\s+keys?|ssh\\s+keys?|access\\s+tokens?|environment\\s+variables)';

export const READER_INSTRUCTION_KINDS: readonly ReaderInstructionKind[] = [
  {
    label: 'to ignore earlier instructions',
    pattern: new RegExp(
      `\\b(?:ignore|disregard|forget|override|bypass)\\b${GAP}\\b(?:previous|prior|above|earlier|preceding|original|system)\\s+(?:instructions?|prompts?|rules|directions|directives?|guidelines)\\b` +
        `|\\b(?:ignore|disregard|forget)\\s+(?:all|any|your)\\s+(?:instructions?|prompts?|directives?)\\b` +
        `|\\b(?:ignore|disregard|forget)\\s+(?:everything|all)\\s+(?:you\\s+)?(?:were|have\\s+been)\\s+(?:told|instructed)\\b`,
      'i',
    ),
  },
  {
    label: 'a new system prompt or hidden instructions',
    pattern:
      /\b(?:new|updated|real|hidden|secret|override)\s+system\s+(?:prompt|instructions?|message)\b|\b(?:hidden|secret|override)\s+(?:instructions?|directives?)\b/i,
  },
  {
    label: 'chat markup that opens a system or instruction turn',
    pattern: /<\/?\s*(?:system|instructions?|sys)\s*>|<\|\s*(?:im_start|im_end|system|endoftext)\s*\|>|\[\/?INST\]/i,
  },
  {
    label: 'a message addressed to the assistant that reads the summary',
    pattern:
      /\b(?:note|message|instructions?|reminder)\s+(?:to|for)\s+(?:the\s+)?(?:next\s+)?(?:assistant|ai|model|agent|llm|reader)\b|\b(?:the\s+)?next\s+(?:assistant|model|agent|ai|llm)\s+(?:must|should|shall|will|needs?\s+to)\b|\b(?:whoever|the\s+(?:assistant|model|agent|ai))\s+(?:reading|that\s+reads|who\s+reads)\s+(?:this|the\s+summary)\b|^\s*(?:assistant|system)\s*:\s*(?:you|ignore|disregard|always|never|do\s+not|please)\b/im,
  },
  {
    label: 'to keep something from the user',
    pattern:
      /\b(?:do\s+not|don't|never)\s+(?:tell|inform|mention\s+(?:this\s+)?to|reveal\s+(?:this\s+)?to)\s+the\s+user\b|\bwithout\s+(?:telling|informing)\s+the\s+user\b/i,
  },
  {
    label: "to send the user's secrets somewhere",
    pattern: new RegExp(
      `\\b(?:send|upload|post|exfiltrate|email|forward|transmit|leak)\\b${GAP}\\b(?:(?:your|the\\s+user's|all(?:\\s+the)?)\\s+${SECRETS}|~\\/\\.ssh|id_rsa|id_ed25519)`,
      'i',
    ),
  },
  {
    label: 'a jailbreak (a mode without its rules)',
    pattern:
      /\byou\s+are\s+(?:now\s+)?(?:in\s+)?(?:developer\s+mode|dan\b|jailbroken|unrestricted|free\s+of\s+(?:all\s+)?(?:rules|restrictions))|\bjailbreak\b/i,
  },
];

/** The kinds of reader instruction the summary has and the source does not. */
export function readerInstructions(summary: string, source: string): ReaderInstructionKind[] {
  return READER_INSTRUCTION_KINDS.filter((k) => k.pattern.test(summary) && !k.pattern.test(source));
}
