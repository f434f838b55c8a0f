// Chinese text for the token benchmark and the exactness tests: the shared transcripts hold
// almost none, and Chinese is where character estimates fail worst (TOKENS.md). Written for
// this project (a developer talking to an assistant about a codebase), so it may be used freely.

export const CHINESE_SENTENCES: readonly string[] = [
  '我想把这个对话压缩一下，上下文已经快满了。',
  '请先帮我看看 src/engine/tokens/ledger.ts 里的增量计数是不是正确的。',
  '测试在本地能通过，但是在持续集成环境里偶尔会超时。',
  '错误信息是：TypeError: Cannot read properties of undefined (reading "length")。',
  '我怀疑问题出在缓存失效的时机上，新消息追加以后旧的计数没有更新。',
  '能不能把每条消息的令牌数单独缓存起来，这样追加一条消息时只需要计算新的那一条？',
  '好的，我先读一下相关的代码，然后给出修改方案。',
  '这个函数的时间复杂度是平方级的，长字符串会非常慢。',
  '我们可以用一个最小堆来找到排名最低的相邻字节对，复杂度降到 n log n。',
  '注意：特殊标记比如 <|endoftext|> 在这里必须当作普通文本计数。',
  '用户的原始需求是：在状态栏里显示当前对话占用了多少上下文窗口。',
  '摘要需要保留八个部分：主要请求和意图、关键技术概念、文件和代码片段、错误和修复、问题解决、所有用户消息、待办任务、当前工作。',
  '压缩之前一定要先征得用户确认，并且可以随时撤销。',
  '原始对话会完整地保存在归档里，逐字节可以恢复。',
  '工具调用和它的结果必须放在一起，不能被拆开，否则接口会报错。',
  '最近两轮对话保持原样，更早的内容进入摘要。',
  '我把阈值设成了百分之八十，超过以后会提示压缩。',
  '这个模型的上下文窗口是二十万个令牌，输出预留三万两千个。',
  '如果模型不认识，就用估算的方法：中日韩字符除以一点五，其他字符除以四。',
  '估算的误差大约是百分之十六，所以界面上要标明这是估算值。',
  '谢谢！修改以后所有测试都通过了。',
  '还有一个问题：导入 Claude Code 的会话文件时，子代理的消息要不要计入？',
  '默认不计入，但是可以通过 --include-sidechains 参数打开。',
  '日志里出现了很多重复的堆栈信息，能不能在摘要里只保留第一条？',
  '可以，错误签名相同的只保留一次，并记录出现的次数。',
  '下一步我们需要为检查器界面写端到端测试，用无头浏览器运行。',
  '构建命令是 npm run build，测试命令是 npm test。',
  '请不要修改 package.json 里的依赖，其他同事也在同一个工作区里工作。',
  '这段代码在 Windows 上的换行符是 CRLF，需要特别处理。',
  '我刚刚提交了一个小的修复：git commit -m "修复令牌计数的边界情况"。',
  '性能测试显示，每秒可以处理大约十兆字节的文本。',
  '冷启动的时候需要加载词表，大约需要一百毫秒。',
  '词表是懒加载的，扩展激活时不会读取。',
  '为什么把整段对话拼接起来计数，结果会和逐条计数不一样？',
  '因为预分词的边界会跨过消息的分隔处，合并的结果就变了。',
  '明白了，那就坚持逐条计数，然后把每条消息的开销加上。',
  '每条消息额外有三个令牌的开销，回复的起始还有三个。',
  '图片的令牌数按低分辨率的价格计算，也就是八十五个。',
  '周末之前能把这个功能合并进主分支吗？',
  '应该没问题，我今天晚上再跑一遍完整的基准测试。',
];

/** Deterministic pseudo-random order (a linear congruential generator: no Math.random). */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 4294967296;
  };
}

/** About `chars` characters of Chinese paragraphs, sentences drawn in a seeded order. */
export function chineseParagraphs(chars: number, seed = 1): string[] {
  const next = lcg(seed);
  const out: string[] = [];
  let total = 0;
  while (total < chars) {
    let p = '';
    const sentences = 2 + Math.floor(next() * 5);
    for (let i = 0; i < sentences; i++) p += CHINESE_SENTENCES[Math.floor(next() * CHINESE_SENTENCES.length)]!;
    out.push(p);
    total += p.length;
  }
  return out;
}
