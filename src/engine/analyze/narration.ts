// What an assistant sentence does: announce its own next step ("I'll help you implement the
// necessary changes…", "Okay, I will make that change.", "First, I need to add an import for
// …", "Let me check the tests.") — narration, which a summary must not present as a task or
// as problem solving — or state a decision with its reason or a finding ("I'll read it as a
// property instead, because the type is a Date.", "The issue is that …"), which it keeps.
// Or it restates what it was told ("The user wants …"), which is not work either.
// And whether an assistant reply reports work as done ("I've created …", "CLAUDE.md has been
// updated …"), the evidence Pending Tasks needs before it calls a request finished.

import { compileKeywords } from '../text/keywordMatcher';

/** Openers that carry no meaning of their own: "Okay, ", "Now ", "THOUGHT: ", "- ", "1. ". */
const LEAD_IN =
  /^(?:\s*(?:[-*•]\s+|\d{1,3}[.)]\s+|thought:\s*|(?:ok(?:ay)?|alright|all right|great|good|perfect|sure|yes|right|now|so|wait|first(?:ly)?|next|then|finally|also|and|but|hmm|well)\b[,:!.]?\s+))+/i;

/** A sentence that opens with the speaker's own next step. */
const INTENT =
  /^(?:i(?:'ll| will| am going to|'m going to| need to| have to| must| should| want to| would like to| can| shall)|i'm (?:now |just |also )?(?:going|about) to|let me|let's|let us|we(?:'ll| will| need to| have to| must| should| can| are going to|'re going to)|now i|i'm now)\b|^(?:我来|让我|我将|我会|我需要|我们需要|我先|接下来我|首先我|下面我)/i;

/** Words that give a reason or name a cause or an outcome: what makes an announced step worth
 *  keeping as a decision or a finding. A change of plan alone ("I'll update the README to say
 *  PNG instead of React") is still an announcement; with its reason it is a decision. */
const REASON_OR_FINDING = compileKeywords({
  en: [
    'because',
    'since',
    'so that',
    'to avoid',
    'otherwise',
    'the issue',
    'the problem',
    'the cause',
    'root cause',
    'caused by',
    'the reason',
    'turns out',
    'which means',
    'this means',
    'therefore',
    'decided',
    'decide',
    'chose',
    'choose',
    "didn't work",
    "doesn't work",
    'did not work',
    'does not work',
    "won't work",
    'found that',
    'the bug',
    'the fix is',
    'the culprit',
  ],
  zh: ['因为', '所以', '而不是', '改为', '改用', '原因', '问题在于', '决定', '导致', '发现'],
});

/** The sentence without list markers and filler openers ("Okay, ", "THOUGHT: ", "- "). */
function core(sentence: string): string {
  return sentence.replace(LEAD_IN, '').trim();
}

/** An assistant sentence that only announces the speaker's next step (no reason, no finding).
 *  The reason must be the speaker's own clause: what follows a colon lists what the step covers
 *  ("I need to follow the protocol: Root Cause Analysis, …"), it does not explain it. */
export function isNarration(sentence: string): boolean {
  const s = core(sentence);
  if (!INTENT.test(s)) return false;
  const colon = s.search(/[:：]\s/);
  return !REASON_OR_FINDING.has((colon >= 0 ? s.slice(0, colon) : s).toLowerCase());
}

/** A sentence that restates what the speaker was told ("The user wants …", "The prompt says
 *  …", "They remind me: …", "用户要求…"): the model reading its instructions, in its reasoning
 *  most often, which is neither a decision nor a finding. */
const RESTATES =
  /^(?:the |my )?(?:user|person|prompt|system prompt|instructions?|task description|request|they|he|she)(?:'s (?:request|question|message))? (?:says?|said|states?|wants?|wanted|asks?|asked|is asking|requests?|requested|mentions?|mentioned|remind(?:s|ed)? me|tells? me|told me|needs?|expects?)\b|^(?:用户|提示词?|指令)(?:要求|希望|想要|说|问)/i;

export function restatesInstructions(sentence: string): boolean {
  return RESTATES.test(core(sentence));
}

/** A reply's opening says that work was finished: "I've created …", "I have fixed …", "… has
 *  been updated", "All done", "successfully created". Promises ("I will …") are not reports. */
const DONE_REPORT =
  /\bi(?:'ve| have) (?:now |successfully |also |just )?(?:created|implemented|fixed|updated|added|made|completed|finished|written|wrote|changed|refactored|removed|moved|renamed|set up|configured|built|resolved|applied|restored|replaced|deleted)\b|^(?:[✅✔☑]\s*)?(?:all )?(?:done|finished|all set)\b|\b(?:task|work|changes?|fix|implementation|feature)s? (?:is|are|has been|have been) (?:now )?(?:complete|completed|done|finished|applied|in place)\b|\b(?:has|have) been (?:successfully )?(?:created|implemented|fixed|updated|added|completed|written|changed|refactored|removed|resolved|applied)\b|\bsuccessfully (?:created|implemented|fixed|updated|added|completed)\b|(?:已完成|完成了|已修复|已经完成|已创建|已更新)/i;

/** Characters of a reply read for a report of finished work: the report opens it. */
const DONE_REPORT_SCAN_CHARS = 400;

export function reportsDone(reply: string): boolean {
  const head = core(reply.replace(/^\s*#+\s*/, '').slice(0, DONE_REPORT_SCAN_CHARS));
  return DONE_REPORT.test(head);
}
