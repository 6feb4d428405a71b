// mini Pi 和 Pi 1.6.0 不一样的地方：故意的每条写明为什么。待定（pending）的行只能是临时的：对照和测试都不放过它。
// 对照时只有这张表里的差异可以被消掉；表外的任何不同都是失败，表里某行没有剧本用到也是失败（过期）。
// fidelity/DIFFERENCES.md 由这张表生成（npx tsx fidelity/doc.ts），课程 README 的「Pi 源码溯源」引用它的编号。

import { adjustFact, adjustTrace, describeEntry, type FidelityDifference, type Entry, type FactDifference, type Observation, rewritePairs, type FidelityTrace } from "./compare.ts";
import { fillTemplate, type Mechanism, MECHANISM_SCENARIOS, USER_SKILL } from "./mechanisms.ts";
import { ABSENT } from "./observe.ts";
import { README } from "./project.ts";
import { AFTER_HOOK_SUFFIX, ASYNC_BLOCK_REASON, CALLER, callerLine, SCENARIOS } from "./scenarios.ts";

// ── 参数校验错误：拆成问题清单 ─────────────────────────────
/** 一条校验问题的统一写法：`missing text`、`unknown file`、`not a string text`。 */
type Problem = string;

/** Pi：`Validation failed for tool "echo":\n  - text: missing\n  - file: unknown field\n\nReceived arguments:…` */
export function piValidationProblems(text: string): { tool: string; problems: Problem[] } | undefined {
  const match = /^Validation failed for tool "([^"]+)":\n((?: {2}- [^\n]*\n?)+)/.exec(text);
  if (match === null) return undefined;
  const problems = match[2]
    .split("\n")
    .filter((line) => line.startsWith("  - "))
    .map((line) => {
      const [, path, message] = /^ {2}- ([^:]+): (.*)$/.exec(line) ?? ["", "?", line];
      if (message === "missing") return `missing ${path}`;
      if (message === "unknown field") return `unknown ${path}`;
      if (message.startsWith("expected string")) return `not a string ${path}`;
      return `${path}: ${message}`;
    });
  return { tool: match[1], problems: problems.sort() };
}

/** 课程（D18）：`invalid arguments for tool "echo": argument "text" is missing; unexpected argument "file"` */
export function miniValidationProblems(text: string): { tool: string; problems: Problem[] } | undefined {
  const match = /^invalid arguments for tool "([^"]+)": (.+)$/s.exec(text);
  if (match === null) return undefined;
  const problems = match[2].split(/; |, /).map((part) => {
    const missing = /^argument "(.+)" is missing$/.exec(part);
    if (missing) return `missing ${missing[1]}`;
    const unknown = /^unexpected argument "(.+)"$/.exec(part);
    if (unknown) return `unknown ${unknown[1]}`;
    const notString = /^argument "(.+)" must be a string$/.exec(part);
    if (notString) return `not a string ${notString[1]}`;
    return part;
  });
  return { tool: match[1], problems: problems.sort() };
}

const canonicalValidation = (v: { tool: string; problems: Problem[] }): string => `invalid arguments for tool "${v.tool}": ${v.problems.join("; ")}`;

type ToolResultEntry = Extract<Entry, { role: "toolResult" }>;

/** 两边同一位置都是出错的工具结果、回答同一个调用时，才交给 f 看文字。 */
const errorResults =
  (f: (p: ToolResultEntry, m: ToolResultEntry) => [Entry, Entry] | undefined) =>
  (p: Entry, m: Entry): [Entry, Entry] | undefined =>
    p.role === "toolResult" && m.role === "toolResult" && p.toolCallId === m.toolCallId && p.isError && m.isError ? f(p, m) : undefined;

/** 两边同一位置、回答同一个调用的结果：Pi 的没出错，课程的出错且文字是 miniText 认得的样子时，课程一边换成 Pi 的。 */
const okVersusError =
  (miniText: (text: string) => boolean, piOk: (p: ToolResultEntry) => boolean = (p) => !p.isError) =>
  (p: Entry, m: Entry): [Entry, Entry] | undefined =>
    p.role === "toolResult" && m.role === "toolResult" && p.toolCallId === m.toolCallId && piOk(p) && m.isError && miniText(m.text) ? [p, { ...p, at: m.at }] : undefined;

/** D28：课程的钩子答得不成样子时的结果文字（去掉 `error: ` 之后），got 是 describeValue 写出的收到了什么。 */
const beforeHookFailed = (got: string): string => `hook failed: beforeToolCall returned ${got}, expected {type: "allow"} or {type: "block", reason}`;
const afterHookFailed = (got: string): string => `hook failed: afterToolCall returned ${got}, expected a string`;

/** 调用方的一行：Pi 是 piLine、课程是 miniLine 时，课程一边换成 Pi 的（只认这两种样子）。 */
const callerSaw = (piLine: (text: string) => boolean, miniLine: string) => (pi: FidelityTrace, mini: FidelityTrace) =>
  rewritePairs(pi, mini, (p, m) => (p.role === "caller" && m.role === "caller" && piLine(p.text) && m.text === miniLine ? [p, { ...p, at: m.at }] : undefined));

/** §4：达到上限时课程追加的那条助手消息，和上限的默认值。 */
const MAX_TURNS_TEXT = "max turns reached";
const MINI_MAX_TURNS = 8;

/**
 * Pi 在带工具的运行开头声明工具：凡是给了工具的循环剧本都会出现 F1；机制剧本里跑过一轮、比历史的（扩展、包）也一样。
 */
const WITH_TOOLS = [
  ...SCENARIOS.filter((s) => s.tools.length > 0).map((s) => s.id),
  ...MECHANISM_SCENARIOS.filter((s) => s.mechanism === "s09" || (s.mechanism === "s12" && s.input !== undefined)).map((s) => s.id),
];

/**
 * 模型第一次回答就以 toolUse 要了工具、随后又被问了一次的剧本：第二次请求里能不能看到那些调用（F13）。
 * 会话树的剧本里，发给模型的路径上有要了工具的回答时也一样。
 */
const ASKED_AGAIN_AFTER_CALLS = [
  ...SCENARIOS.filter((s) => {
    const first = s.reply(0);
    return first?.kind === "message" && first.stop === "toolUse" && first.calls.length > 0;
  }).map((s) => s.id),
  "tree-branch-back",
  "tree-branch-to-tool-result",
  "tree-branch-to-tool-call",
];

/**
 * 表的顺序就是应用的顺序：前面的行先把轨迹改写，后面的行在改写后的轨迹上对齐。
 * status "pending" = 还没定下来是修课程还是写明理由：可以先记下来，但 npm run fidelity 会以非零退出，tests/fidelity-compare.test.ts 也会失败——
 * 每条差异最后要么在课程里修掉，要么写成 "deliberate" 并写明 reason。
 */
export const DIFFERENCES: FidelityDifference[] = [
  {
    id: "F1",
    on: "both",
    status: "deliberate",
    scenarios: WITH_TOOLS,
    pi: "带工具的运行，返回的第一条消息是 role `system`，用 `toolsAdded` 声明这次能用的工具",
    mini: "历史里只有 user / assistant / toolResult；工具清单（和 s08 起的系统提示）放在每次请求的 ProviderInput 里，不进历史",
    reason:
      "§2 字典：AgentMessage 只有三种角色，R1 只增不改。Pi 从 0.86.0 起把提示和工具声明写进 transcript；课程对齐的是 Pi 公开的 Context {systemPrompt, messages, tools}",
    reconcile: (pi, mini) => (pi[0]?.role === "system" && mini[0]?.role !== "system" ? { pi: pi.slice(1), mini } : undefined),
  },
  {
    id: "F2",
    on: "both",
    status: "deliberate",
    scenarios: ["after-hook"],
    pi: "afterToolCall 只在工具真的执行过之后调用；未知工具、参数校验失败、被拦下的调用不经过它",
    mini: "afterToolCall 包在 registry.run 外面，未知工具和参数不对的 `error: …` 结果也会被它改写（这里多出了 afterToolCall 接上的后缀）",
    reason:
      "EVOLUTION.md 决策 D23：s05 起 registry 不变（R2），参数校验在 registry.run 里面，executeToolCall 只拿到一段文字，分不出工具有没有真的执行；课程的 afterToolCall 看到的是除「被拦下」以外的每个结果，连同开头的 error: 标记一起归它处置",
    reconcile: (pi, mini) =>
      rewritePairs(
        pi,
        mini,
        errorResults((p, m) =>
          /^Tool .+ not found$|^Validation failed for tool /.test(p.text) && m.text.endsWith(AFTER_HOOK_SUFFIX)
            ? [p, { ...m, text: m.text.slice(0, -AFTER_HOOK_SUFFIX.length) }]
            : undefined,
        ),
      ),
  },
  {
    id: "F3",
    on: "both",
    status: "deliberate",
    scenarios: ["unknown-tool", "after-hook", "ext-foreign-file"],
    pi: "未知工具的结果文字是 `Tool nope not found`",
    mini: '`error: unknown tool "nope"`',
    reason: "D18：课程的错误文字统一把名字放进引号。两边都是出错的结果，循环照常继续",
    reconcile: (pi, mini) =>
      rewritePairs(
        pi,
        mini,
        errorResults((p, m) => {
          const a = /^Tool (.+) not found$/.exec(p.text);
          const b = /^unknown tool "(.+)"$/.exec(m.text);
          return a !== null && b !== null && a[1] === b[1] ? [p, { ...m, text: p.text }] : undefined;
        }),
      ),
  },
  {
    id: "F4",
    on: "both",
    status: "deliberate",
    scenarios: ["invalid-args", "after-hook"],
    pi: '`Validation failed for tool "echo":`，下面逐行 `- text: missing`、`- file: unknown field`，再附上收到的参数',
    mini: '`error: invalid arguments for tool "echo": argument "text" is missing; unexpected argument "file"`',
    reason: "同一组问题，措辞不同：课程用 zod 校验（D18），Pi 用 pi-schema。对照时把两边拆成问题清单，清单必须一致",
    reconcile: (pi, mini) =>
      rewritePairs(
        pi,
        mini,
        errorResults((p, m) => {
          const a = piValidationProblems(p.text);
          const b = miniValidationProblems(m.text);
          if (a === undefined || b === undefined) return undefined;
          return [
            { ...p, text: canonicalValidation(a) },
            { ...m, text: canonicalValidation(b) },
          ];
        }),
      ),
  },
  {
    id: "F5",
    on: "both",
    status: "deliberate",
    scenarios: ["blocked"],
    pi: "被 beforeToolCall 拦下的结果文字就是 `reason`",
    mini: "`error: blocked: <reason>`",
    reason: "D16：课程给拦截结果加 `blocked: `，读历史时分得清是钩子拦的还是工具自己报错",
    reconcile: (pi, mini) =>
      rewritePairs(
        pi,
        mini,
        errorResults((p, m) => (m.text === `blocked: ${p.text}` ? [p, { ...m, text: p.text }] : undefined)),
      ),
  },
  {
    id: "F6",
    on: "both",
    status: "deliberate",
    scenarios: ["hook-throws"],
    pi: "beforeToolCall 抛错，结果文字就是抛出的消息",
    mini: "`error: hook failed: <消息>`",
    reason: "D16：和 `blocked: ` 一样，课程在结果里写明是钩子出的事",
    reconcile: (pi, mini) =>
      rewritePairs(
        pi,
        mini,
        errorResults((p, m) => (m.text === `hook failed: ${p.text}` ? [p, { ...m, text: p.text }] : undefined)),
      ),
  },
  {
    id: "F7",
    on: "both",
    status: "deliberate",
    scenarios: ["blocked-invalid"],
    pi: "先校验参数：校验不过就是校验错误，beforeToolCall 不会被调用",
    mini: "beforeToolCall 先看到原始调用并拦下：`error: blocked: <reason>`",
    reason: "D16：参数校验在 ToolRegistry.run 里，R2 不许为钩子改 registry，所以课程的钩子在校验之前",
    reconcile: (pi, mini) =>
      rewritePairs(
        pi,
        mini,
        errorResults((p, m) => (piValidationProblems(p.text) !== undefined && m.text.startsWith("blocked: ") ? [p, { ...p, at: m.at }] : undefined)),
      ),
  },
  {
    id: "F8",
    on: "both",
    status: "deliberate",
    scenarios: ["non-string-arg"],
    pi: "参数先按 schema 转换：数字 `42` 变成字符串 `\"42\"`，工具照常执行",
    mini: '`error: invalid arguments for tool "echo": argument "text" must be a string`，工具不执行',
    reason:
      "D18：参数按 spec.input 严格校验，非字符串点名报错，不替模型转换。Pi 的 validateToolArguments 用 pi-schema 并开着强制转换（数字、布尔、null 都会变成字符串）",
    reconcile: (pi, mini) =>
      rewritePairs(pi, mini, (p, m) => {
        if (p.role !== "toolResult" || m.role !== "toolResult" || p.toolCallId !== m.toolCallId || p.isError || !m.isError) return undefined;
        const b = miniValidationProblems(m.text);
        return b !== undefined && b.problems.every((x) => x.startsWith("not a string ")) ? [p, { ...p, at: m.at }] : undefined;
      }),
  },
  {
    id: "F9",
    on: "both",
    status: "deliberate",
    scenarios: ["output-looks-like-error"],
    pi: "工具成功返回 `error: disk full…` 这样的文字，`isError` 仍是 false",
    mini: "结果文字以 `error: ` 开头就算出错，成功的输出也一样",
    reason: "D18：课程的 ToolResultMessage 没有 isError 字段（§2 字典），`error: ` 前缀是唯一的标记，所以这种输出分不出来",
    reconcile: (pi, mini) =>
      rewritePairs(pi, mini, (p, m) =>
        p.role === "toolResult" && m.role === "toolResult" && p.toolCallId === m.toolCallId && !p.isError && m.isError && p.text === `error: ${m.text}`
          ? [p, { ...p, at: m.at }]
          : undefined,
      ),
  },
  {
    id: "F10",
    on: "history",
    status: "deliberate",
    scenarios: ["calls-without-tooluse"],
    pi: "回答里只要有 toolCall 就执行（error / aborted 除外；length 时全部判为出错），然后再问模型一次",
    mini: "回答不以 `toolUse` 收尾，其中的调用不执行，循环结束",
    reason:
      "D19：宪法 §4 的终止条件是「provider 不再发 tool_call 或 stopReason≠toolUse 或达上限」。接真模型时 live/openai.ts 的 mapFinishReason 把带调用的回答一律记作 toolUse，碰不到这一条",
    reconcile: (pi, mini) => {
      const i = mini.length - 1;
      const [m, p, after] = [mini[i], pi[i], pi[i + 1]];
      if (m?.role !== "assistant" || m.stopReason === "toolUse" || m.calls.length === 0) return undefined;
      if (p?.role !== "assistant" || p.stopReason !== m.stopReason || after?.role !== "toolResult" || !p.calls.includes(after.toolCallId)) return undefined;
      return { pi: pi.slice(0, i + 1), mini };
    },
  },
  {
    id: "F11",
    on: "history",
    status: "deliberate",
    scenarios: ["length-cutoff"],
    pi: "被输出上限截断的回答，stopReason 是 `length`",
    mini: "只有 `stop` / `toolUse` / `error` 三个值，截断的回答记作 `stop`（live/openai.ts 的 mapFinishReason 也这样做，另在文字末尾加一行说明）",
    reason:
      "§4：StopReason 维持三值。Pi 1.6.0 的 StopReason 有 7 个值：最终消息上的 stop、length、toolUse、error、aborted，加上只出现在流式中途的 pending 和异步的 deferred",
    reconcile: (pi, mini) =>
      rewritePairs(pi, mini, (p, m) =>
        p.role === "assistant" && m.role === "assistant" && p.stopReason === "length" && m.stopReason === "stop" ? [p, { ...m, stopReason: "length" }] : undefined,
      ),
  },
  {
    id: "F12",
    on: "history",
    status: "deliberate",
    scenarios: ["never-stops"],
    pi: "没有轮数上限，模型要几轮就跑几轮（这里用 Pi 自己的 `finishTurn` 在第 12 轮后结束）",
    mini: "问满 maxTurns（默认 8）次就停，再追加一条 assistant `max turns reached`（stopReason `stop`）",
    reason: "R5（§4）：课程的循环必须有上限。Pi 最接近的机制是 `finishTurn` 和结果的 `terminate`。对照只比前 8 轮，这 8 轮必须一致",
    reconcile: (pi, mini) => {
      const last = mini.at(-1);
      if (last?.role !== "assistant" || last.stopReason !== "stop" || last.text !== MAX_TURNS_TEXT || last.calls.length > 0) return undefined;
      const before = mini.slice(0, -1).filter((e) => e.role === "assistant");
      if (before.length !== MINI_MAX_TURNS || before.some((e) => e.role === "assistant" && e.stopReason !== "toolUse")) return undefined;
      // Pi 在同一处没有停：它的第 k+1 条助手消息还在要工具
      const piAssistants = pi.flatMap((e, i) => (e.role === "assistant" ? [{ e, i }] : []));
      const next = piAssistants[before.length];
      if (next === undefined || next.e.role !== "assistant" || next.e.stopReason !== "toolUse") return undefined;
      return { pi: pi.slice(0, next.i), mini: mini.slice(0, -1) };
    },
  },
  {
    id: "F13",
    on: "requests",
    status: "deliberate",
    scenarios: ASKED_AGAIN_AFTER_CALLS,
    pi: "下一次请求里，助手消息带着它要过的调用（`toolCall` 块：id、名字、参数），后面的结果靠 toolCallId 对上它们",
    mini: "ProviderMessage 里的助手消息只有文字；模型看得到带 toolCallId 的结果，却看不到自己要过哪些调用",
    reason:
      "§2 字典：ProviderMessage 是 `{role: \"user\" | \"assistant\"; content: string}` 加 toolResult，AssistantMessage 也只存文字和 stopReason。真实的 API 要求结果前面有对应的调用，所以 live/openai.ts 的 toChatMessages 按 toolCallId 把调用找回来补上",
    reconcile: (pi, mini) =>
      rewritePairs(pi, mini, (p, m) =>
        p.role === "assistant" && m.role === "assistant" && m.calls.length === 0 && p.calls.length > 0 && p.text === m.text
          ? [p, { ...m, calls: p.calls }]
          : undefined,
      ),
  },
  {
    id: "F37",
    on: "both",
    status: "deliberate",
    scenarios: ["before-undefined"],
    pi: "beforeToolCall 回 undefined 就是放行（类型写着 `BeforeToolCallResult | undefined`，`prepareToolCall` 只看 `block`），调用照常执行",
    mini: '`error: hook failed: beforeToolCall returned undefined, expected {type: "allow"} or {type: "block", reason}`，调用不执行',
    reason:
      "决策 D28：钩子出了岔子就按拦下处理（fail closed）。课程的答复是封闭的 allow / block（§2 字典），漏写一个 return 在 Pi 里是放行，放过一次删除的代价太大，课程宁可不执行并说清楚",
    reconcile: (pi, mini) => rewritePairs(pi, mini, okVersusError((text) => text === beforeHookFailed("undefined"))),
  },
  {
    id: "F38",
    on: "both",
    status: "deliberate",
    scenarios: ["before-async"],
    pi: "钩子本来就是 async 的：等它的 Promise，兑现成放行就执行（这里的 echo），兑现成 `{block: true, reason}` 就拦下，结果文字是 reason（这里的 rm）",
    mini: "答复是 Promise 就算钩子出错：`error: hook failed: beforeToolCall returned a Promise, …`，放行的、要拦的都不执行，Promise 的失败被接住",
    reason:
      "决策 D28：课程的 ToolHooks 是同步的（§2 字典），不等 Promise。以前 resolve 成拦下的 async 钩子被当成放行，是 issue 13 里最要紧的缺陷，所以凡是 Promise 一律不执行；要等人确认的钩子在课程里只能先同步地拦下",
    reconcile: (pi, mini) =>
      rewritePairs(
        pi,
        mini,
        okVersusError(
          (text) => text === beforeHookFailed("a Promise"),
          (p) => !p.isError || p.text === ASYNC_BLOCK_REASON,
        ),
      ),
  },
  {
    id: "F39",
    on: "both",
    status: "deliberate",
    scenarios: ["after-undefined"],
    pi: "afterToolCall 回 undefined 就是不改：工具的结果原样留下",
    mini: '`error: hook failed: afterToolCall returned undefined, expected a string`，工具的结果作废',
    reason:
      "决策 D28：课程的 afterToolCall 回的就是最终结果（D23）。漏写 return 时宁可报错，也不把没处理过的结果原样交出去——那可能正是钩子要遮掉的东西",
    reconcile: (pi, mini) => rewritePairs(pi, mini, okVersusError((text) => text === afterHookFailed("undefined"))),
  },
  {
    id: "F40",
    on: "both",
    status: "deliberate",
    scenarios: ["async-tool"],
    pi: "工具的 execute 本来就是 async 的：等它兑现，结果照常",
    mini: '`error: tool "weather" returned a Promise, expected a string`：不等这个 Promise，它的失败被接住',
    reason:
      "决策 D27：ToolHandler 是同步的、回文字（§2 字典）。把 Promise 当结果存进历史，s06 起每一轮都拍不了快照，agent 从此坏掉；照 Pi 写成 async 的工具在课程里得到一条说清楚的错误结果",
    reconcile: (pi, mini) => rewritePairs(pi, mini, okVersusError((text) => /^tool "[^"]+" returned a Promise, expected a string$/.test(text))),
  },
  {
    id: "F41",
    on: "caller",
    status: "deliberate",
    scenarios: ["second-prompt"],
    pi: "上一句还没跑完，`Agent.prompt` 直接 reject：`Agent is already processing a prompt. Use steer() or followUp() to queue messages, or wait for completion.`；第二句不进历史",
    mini: "runOneTurn 照常 resolve，回一条不存进历史的 `error: agent is already processing a prompt`（stopReason error）；第二句同样不进历史",
    reason:
      "决策 D33：和 Pi 一样拒绝、不排队，历史不交错。R4 不许 runOneTurn reject，所以拒绝写成一条不进历史的说明。Pi 另有 steer() / followUp() 替调用方排队，课程没有",
    reconcile: callerSaw(
      (text) => text.startsWith(callerLine(CALLER.secondPrompt, CALLER.threw("Agent is already processing a prompt."))),
      callerLine(CALLER.secondPrompt, CALLER.returned(describeEntry({ role: "assistant", stopReason: "error", text: "", calls: [], errorText: "agent is already processing a prompt" }))),
    ),
  },
  {
    id: "F42",
    on: "caller",
    status: "deliberate",
    scenarios: ["never-answers"],
    pi: "`Agent.abort()` 触发交给 provider 的 AbortSignal，pi-ai 的 provider 听到就以 stopReason aborted 收尾，prompt() 随即结束。Pi 的循环自己不赛跑：provider 不听信号时 Pi 也一直等（`never-answers-deaf`，两边一致）",
    mini: "没有取消：调用方手里没有可调的东西，这一轮一直等到 provider 回话",
    reason:
      "决策 D35：取消要么给 stream(input) 加参数（R1 不许），要么给 Agent 加字段、在 core 里逐事件赛跑（十万个文字增量时慢十倍）。上限交给 provider 自己设，live/ 的 provider 用 AbortSignal.timeout（s03 README）",
    reconcile: callerSaw((text) => text === callerLine(CALLER.gaveUp, CALLER.settled), callerLine(CALLER.gaveUp, CALLER.running)),
  },
  {
    id: "F43",
    on: "history",
    status: "deliberate",
    scenarios: ["never-answers"],
    pi: "放弃之后，历史里是一条 stopReason aborted 的回答（errorMessage `Request was aborted`），provider 后来的回答不要了",
    mini: "历史里是 provider 最后给出的回答",
    reason: "决策 D35，和 F42 是同一件事在历史里的样子；课程的 StopReason 也没有 aborted（§4，F11）",
    reconcile: (pi, mini) => {
      const [p, m] = [pi.at(-1), mini.at(-1)];
      if (p?.role !== "assistant" || p.stopReason !== "aborted" || m?.role !== "assistant" || m.stopReason !== "stop" || m.calls.length > 0) return undefined;
      return { pi, mini: [...mini.slice(0, -1), { ...p, at: m.at }] };
    },
  },
];

/** 哪一块：循环（s03–s06 的剧本，scenarios.ts）或者某一节的机制（mechanisms.ts）。 */
export type Where = Mechanism | "loop";

/** 表示法对应：同一件事两边写法不同，归一时（或者由剧本的两种写法）对齐，不算差异（见 compare.ts、observe.ts）。 */
export const REPRESENTATIONS: { where: Where; pi: string; mini: string; why: string }[] = [
  { where: "loop", pi: "toolResult 的 `isError: true`", mini: "结果文字以 `error: ` 开头", why: "D18：这个前缀是课程里「这是个错误结果」的唯一标记" },
  { where: "loop", pi: "出错的助手消息另有 `errorMessage`", mini: "助手消息最后一行 `error: <原因>`，前面是已收到的文字", why: "D6：课程的 content 只有一个字符串" },
  {
    where: "loop",
    pi: "助手消息 content 里的 `toolCall` 块（带 id）",
    mini: "provider 在这次回答里发出的 `tool_call` 事件",
    why: "课程的 AssistantMessage 只存文字和 stopReason（§2）；调用经事件流交给循环。只在历史里这样对齐，请求里看不到调用是 F13",
  },
  { where: "loop", pi: "content 是块数组（text / toolCall / …）", mini: "content 是一个字符串", why: "§2 字典；对照只取文字块拼起来" },
  {
    where: "loop",
    pi: "请求里的助手消息带 stopReason",
    mini: "ProviderMessage 不带 stopReason",
    why: "§2 字典；模型 API 也不收它。比较请求时两边都不看 stopReason",
  },
  {
    where: "s07",
    pi: "记录的 id 是随机的 8 位十六进制；消息记录是 `{type: \"message\", message}`",
    mini: "id 是 e1、e2……（D7）；SessionEntry 把消息的字段摊平",
    why: "对照时两边的节点都换成追加顺序里的位置 #0、#1……，父节点也用位置写",
  },
  {
    where: "s07",
    pi: "路径上助手消息里的调用（`toolCall` 块）",
    mini: "剧本记着每条追加的助手消息要过哪些调用",
    why: "和循环的历史一样（见上面循环的表示法对应）；发给模型时看不到调用仍是 F13",
  },
  {
    where: "s08",
    pi: "磁盘上的 AGENTS.md、.pi/skills/<名字>/SKILL.md、.pi/APPEND_SYSTEM.md（和用户目录的 skills/）",
    mini: "交给 ResourceLoader 的 agents、skill、prompt 资料：名字取文件名或技能目录名，内容取文件内容",
    why: "课程的 ResourceLoader 不读磁盘（§2 字典的构造函数收资料），mini-mechanisms.ts 的 resourcesFromFiles 替调用方读同一批文件；只读工作目录和用户目录，不往上找（F17）",
  },
  {
    where: "s08",
    pi: "SKILL.md 文件头里的 `description`",
    mini: "技能内容的第一行（说明一行，正文接在后面）",
    why: "D15：课程的技能索引取内容第一行，换成资料时把说明放在第一行。比的是说明和正文进没进系统提示，不比标题、标签怎么写",
  },
  {
    where: "s09",
    pi: "扩展文件默认导出 `ExtensionFactory`：`registerTool` 收 ToolDefinition（参数是 JSON Schema，execute 是 async），`registerCommand(名字, {handler})`",
    mini: "扩展文件默认导出 Extension：`registerTool` 收 Tool（spec 加同步的 handler），`registerCommand({name, run})`",
    why: "两边的 API 形状不同（§2 字典），同一份 ExtensionSpec 由 project.ts 各写一个文件。`ext-foreign-file` 把两个文件换过来装：两边都拒绝对方的文件，各记一条错误，什么都没登记",
  },
  {
    where: "s09",
    pi: "`message_end` 事件、`agent_end` 事件",
    mini: "`message` 事件、`done` 事件",
    why: "Pi 一边的监听者把它们记成课程的说法（pi-facts 的对应：message ↔ message_end，done ↔ agent_end）；Pi 事件里还带着的东西见 F22",
  },
  {
    where: "s09",
    pi: "工具钩子：扩展订阅 `tool_call`、`tool_result`（底下是 agent-core 的 beforeToolCall / afterToolCall）",
    mini: "s05 的 ToolHooks：beforeToolCall、afterToolCall，装在 Agent 上",
    why: "两边的工具钩子都包着每一个工具，宿主的和扩展登记的一样过钩子（「钩子看到的调用」）；课程的扩展 API 里没有钩子，钩子是 s05 的零件",
  },
  {
    where: "s09",
    pi: "命令的 handler 不返回文字",
    mini: "命令的 run() 返回文字",
    why: "对照时 Pi 的命令把自己的回复记下来，两边比的是「跑的是哪个扩展的命令」",
  },
  {
    where: "s10",
    pi: "`runPrintMode` 写到进程的标准输出和标准错误",
    mini: "PrintMode / JsonMode 写到 Output，一次一行",
    why: "演示里 Output 接到标准输出（consoleOutput）；对照时接住两边写出的东西，按换行符切成行",
  },
  {
    where: "s12",
    pi: "本地的包：package.json 的 `pi` 键列出扩展、skills、prompts 目录，工具和命令由扩展登记；包写进设置的 packages",
    mini: "Package：PackageManifest 列出 tools、commands、resources，contents 放模板、回复和资料；installPackage 装它",
    why: "同一份 PackageSpec 各写成一边的格式（project.ts、mini-mechanisms.ts 的 coursePackage），比的是装上以后有什么",
  },
];

// ── 机制剧本（s07–s12）────────────────────────────────────
type Pair = { pi: Observation; mini: Observation };
const same = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && a.every((x, i) => x === b[i]);

/** 一条事实：Pi 是 piLines、课程是 miniLines 时，课程一边换成 Pi 的（只认这两种样子）。 */
const expect = (name: string, piLines: readonly string[], miniLines: readonly string[]) => (pair: Pair) =>
  adjustFact(pair.pi, pair.mini, name, (p, m) => (same(p, piLines) && same(m, miniLines) ? [p, [...p]] : undefined));

/** 一个机制差异要改好几条事实时，依次改；其中任何一条不是它描述的样子，整行都不适用。 */
const all =
  (...steps: ((pair: Pair) => Pair | undefined)[]) =>
  (pi: Observation, mini: Observation): Pair | undefined => {
    let pair: Pair | undefined = { pi, mini };
    for (const step of steps) {
      pair = pair === undefined ? undefined : step(pair);
    }
    return pair;
  };

/** 监听者或 JSON 流里的消息行：Pi 的带角色 `message[user] "…"`，课程的不带 `message "…"`。 */
const ROLE_LINE = /^(.*)message\[(system|user|assistant|toolResult)\] (".*")$/s;

/**
 * Pi 的消息行去掉系统消息和用户消息，其余去掉角色，剩下的应当和课程的逐行相同（之后照常比较）。
 * 只认 Pi 的每一行都带角色、课程的一行都不带的样子。
 */
const dropRoles = (name: string) => (pair: Pair) =>
  adjustFact(pair.pi, pair.mini, name, (p, m) => {
    const messages = p.filter((line) => line.includes("message"));
    if (messages.length === 0 || !messages.every((line) => ROLE_LINE.test(line)) || m.some((line) => ROLE_LINE.test(line))) return undefined;
    const kept = p.flatMap((line) => {
      const match = ROLE_LINE.exec(line);
      if (match === null) return [line];
      return match[2] === "system" || match[2] === "user" ? [] : [`${match[1]}message ${match[3]}`];
    });
    return [kept, m];
  });

/** 两边同一位置的工具结果，Pi 的文字是 piText、课程的是 miniText 时，课程一边换成 Pi 的。 */
const resultText = (name: string, piText: string, miniText: string) => (pair: Pair) =>
  adjustTrace(pair.pi, pair.mini, name, (p, m) => {
    const i = m.findIndex((e) => e.role === "toolResult" && e.text === miniText);
    const j = p.findIndex((e) => e.role === "toolResult" && e.text === piText);
    if (i < 0 || j < 0) return undefined;
    const out: FidelityTrace = [...m];
    out[i] = { ...p[j], at: m[i].at };
    return [p, out];
  });

/** 课程的路径比 Pi 多了开头的根（F14）：去掉它。 */
const dropLeadingRoot = (name: string) => (pair: Pair) =>
  adjustTrace(pair.pi, pair.mini, name, (p, m) => {
    const root = pair.mini.facts["全部节点（按追加顺序）"]?.[0];
    if (m.length !== p.length + 1 || root === undefined || `#0 ${describeEntry(m[0])}` !== root || m[0].role !== "user") return undefined;
    return [p, m.slice(1)];
  });

/** 包里有的东西：Pi 一边多出来的工具、命令、技能正好是这个包的，课程一边一样都没有。 */
const packageParts = (pkgTools: readonly string[], pkgCommands: readonly [string, string][], pkgSkills: readonly string[]) => (pair: Pair) =>
  all(
    (pair) =>
      adjustFact(pair.pi, pair.mini, "模型能用的工具", (p, m) => {
        const extra = p.filter((t) => !m.includes(t));
        return same(extra, [...pkgTools].sort()) && m.every((t) => p.includes(t)) ? [p, [...p]] : undefined;
      }),
    (pair) =>
      adjustFact(pair.pi, pair.mini, "命令", (p, m) => {
        const ok = pkgCommands.every(([name, reply]) => p.includes(`${name} → ${reply}`) && m.includes(`${name} → 没有运行任何命令`));
        return ok ? [p, p.map((line, i) => (pkgCommands.some(([name]) => line.startsWith(`${name} → `)) ? line : m[i]))] : undefined;
      }),
    (pair) =>
      adjustFact(pair.pi, pair.mini, "技能", (p, m) => {
        const ok = pkgSkills.every((n) => p.includes(`${n}：只有索引（名字和说明）`) && m.includes(`${n}：不在提示里`));
        return ok ? [p, m.map((line) => (pkgSkills.some((n) => line === `${n}：不在提示里`) ? `${line.slice(0, line.indexOf("："))}：只有索引（名字和说明）` : line))] : undefined;
      }),
  )(pair.pi, pair.mini);

const scenario = (id: string) => {
  const found = MECHANISM_SCENARIOS.find((s) => s.id === id);
  if (found === undefined) throw new Error(`no mechanism scenario ${id}`);
  return found;
};
const pkgOf = (id: string) => {
  const s = scenario(id);
  if (s.mechanism !== "s12") throw new Error(`${id} is not a package scenario`);
  return s.pkg;
};
const copycatRead = (() => {
  const s = scenario("ext-name-clash");
  const tool = s.mechanism === "s09" ? s.extensions[1]?.tools.find((t) => t.name === "read") : undefined;
  if (tool === undefined) throw new Error("ext-name-clash has no second read");
  return fillTemplate(tool.template, { path: "README.md" });
})();

const S08 = MECHANISM_SCENARIOS.filter((s) => s.mechanism === "s08").map((s) => s.id);
/** 有监听者的扩展剧本（换成对方写法的那个两边都装不上，没有监听者）。 */
const LISTENING = MECHANISM_SCENARIOS.filter((s) => s.mechanism === "s09" && !s.foreign && s.extensions.some((e) => e.listen)).map((s) => s.id);
const JSON_MODE = MECHANISM_SCENARIOS.filter((s) => s.mechanism === "s10" && s.mode === "json").map((s) => s.id);

/** 机制剧本（s07–s12）的已列出差异：编号接着循环的往下排，按机制分组；同一剧本里的几行按表的顺序应用。 */
export const FACT_DIFFERENCES: FactDifference[] = [
  // ── s07 ──
  {
    id: "F14",
    mechanism: "s07",
    status: "deliberate",
    scenarios: ["tree-restart"],
    pi: "`SessionManager.resetLeaf` 把叶子挪回第一条记录之前，下一条消息成了新的根，树上有两个根（界面里 /tree 选中第一条提问就是这样）",
    mini: "moveTo 只收已有节点的 id，回不到第一条之前；最接近的是换到根，新的提问挂在第一条提问下面，旧的提问还在路径上",
    reason: "§2 字典：SessionTree 只有 append、moveTo、currentPath、allEntries，树只有一个根。想从头另问，课程的读者开一棵新树就是",
    reconcile: all(
      (pair) =>
        adjustFact(pair.pi, pair.mini, "父节点", (p, m) => {
          const moved = p.flatMap((line, i) => (line.endsWith("← 根") && i > 0 && m[i] === line.replace("← 根", "← #0") ? [i] : []));
          return moved.length === 1 ? [p, m.map((line, i) => (moved.includes(i) ? p[i] : line))] : undefined;
        }),
      dropLeadingRoot("当前路径"),
      dropLeadingRoot("发给模型的消息"),
    ),
  },
  {
    id: "F15",
    mechanism: "s07",
    status: "deliberate",
    scenarios: ["tree-branch-to-tool-call"],
    pi: "发给模型之前，pi-ai 的 `transformMessages` 给路径上没有结果的调用补一条出错的结果 `No result provided`",
    mini: "路径原样发出：要了工具的回答后面直接是新的提问，没有那次调用的结果",
    reason:
      "课程的消息里不存调用（§2 字典，F13），buildProviderInput 不知道哪个调用缺了结果。接真模型时 live/openai.ts 的 toChatMessages 只按已有的结果把调用补回请求，缺结果的调用根本不会出现在请求里，请求照样合法",
    reconcile: (pi, mini) =>
      adjustTrace(pi, mini, "发给模型的消息", (p, m) => {
        const synthetic = p.filter((e) => e.role === "toolResult" && e.isError && e.text === "No result provided" && !m.some((x) => x.role === "toolResult" && x.toolCallId === e.toolCallId));
        return synthetic.length > 0 ? [p.filter((e) => !synthetic.includes(e)), m] : undefined;
      }),
  },
  {
    id: "F16",
    mechanism: "s07",
    status: "deliberate",
    scenarios: ["tree-error-on-path"],
    pi: "出错（error / aborted）的助手消息留在会话里，发给模型前由 `transformMessages` 去掉",
    mini: "出错的回答照样发给模型：已收到的文字后面接着 `error: <原因>` 那一行（D6）",
    reason: "决策 D38：路径上的每条消息都原样发给模型，buildProviderInput 不挑。出错的回答是一条普通的助手消息（D6），模型下一次能看到自己上次断在哪；它只是一段文字，任何 API 都收",
    reconcile: (pi, mini) =>
      adjustTrace(pi, mini, "发给模型的消息", (p, m) => {
        const stored = mini.traces["当前路径"]?.trace ?? [];
        const failed = stored.flatMap((e) => (e.role === "assistant" && e.stopReason === "error" && e.errorText !== undefined ? [e.text === "" ? `error: ${e.errorText}` : `${e.text}\nerror: ${e.errorText}`] : []));
        const kept = m.filter((e) => !(e.role === "assistant" && failed.includes(e.text)));
        return failed.length > 0 && kept.length === m.length - failed.length && !p.some((e) => e.role === "assistant" && failed.includes(e.text)) ? [p, kept] : undefined;
      }),
  },
  // ── s08 ──
  {
    id: "F17",
    mechanism: "s08",
    status: "deliberate",
    scenarios: ["prompt-ancestors"],
    pi: "`loadProjectContextFiles` 从用户目录、再从根目录一路找到工作目录，每一级取 AGENTS.md（或 CLAUDE.md），上一级的排在前面",
    mini: "ResourceLoader 不找文件，只用调用方交给它的资料；对照时交的是工作目录里的文件",
    reason: "§2 字典：ResourceLoader 的构造函数收一组资料，课程离线、不碰磁盘。怎么把文件换成资料见「表示法对应」",
    reconcile: (pi, mini) =>
      adjustFact(pi, mini, "进了提示的项目说明（按位置）", (p, m) => {
        const outside = p.filter((label) => !label.startsWith("project/"));
        return outside.length > 0 && !m.some((label) => outside.includes(label)) ? [p.filter((label) => !outside.includes(label)), m] : undefined;
      }),
  },
  {
    id: "F18",
    mechanism: "s08",
    status: "deliberate",
    scenarios: ["prompt-no-read-tool"],
    pi: "既没有 read 也没有 bash 工具时，系统提示里不加技能段：模型没法去读技能的全文",
    mini: "技能索引总在系统提示里，buildSystemPrompt 只看资料，不看有哪些工具",
    reason: "D2：buildSystemPrompt(resources) 的签名在 s08 定死，拿不到工具清单；课程的演示里总有 read 工具",
    reconcile: all(
      (pair) =>
        adjustFact(pair.pi, pair.mini, "技能", (p, m) =>
          p.length > 0 && p.every((l) => l.endsWith("：不在提示里")) && same(m, p.map((l) => l.replace("：不在提示里", "：只有索引（名字和说明）"))) ? [p, [...p]] : undefined,
        ),
      (pair) => adjustFact(pair.pi, pair.mini, "技能条目带文件位置", (p, m) => (p.length === 0 && m.length > 0 && m.every((l) => l.endsWith("：不带")) ? [p, []] : undefined)),
      (pair) => adjustFact(pair.pi, pair.mini, "各部分的先后", (p, m) => (!p.includes("技能索引") && m.includes("技能索引") ? [p, m.filter((x) => x !== "技能索引")] : undefined)),
    ),
  },
  {
    id: "F19",
    mechanism: "s08",
    status: "deliberate",
    scenarios: ["prompt-resources", "prompt-no-read-tool"],
    pi: "APPEND_SYSTEM.md 的内容（`addendum` 段）紧跟在默认提示后面，排在项目说明和技能前面",
    mini: "prompt 类资料接在系统提示的最后",
    reason: "D15：课程的 buildSystemPrompt 按种类排，开场白、项目说明、技能索引、追加的话，「追加」就在最后，和它的名字一致（s08 README 源码溯源）",
    reconcile: (pi, mini) =>
      adjustFact(pi, mini, "各部分的先后", (p, m) => (p[0] === "追加的话" && m.at(-1) === "追加的话" && p.length === m.length ? [p, ["追加的话", ...m.slice(0, -1)]] : undefined)),
  },
  {
    id: "F20",
    mechanism: "s08",
    status: "deliberate",
    scenarios: ["prompt-resources"],
    pi: "技能索引的每一条带着 SKILL.md 的完整路径，并叮嘱模型要用时用 read 去读全文",
    mini: "索引只有名字和说明，没有文件位置",
    reason: "§2 字典：ContextResource 只有 kind、name、content，没有路径；课程的技能全文就在资料里",
    reconcile: (pi, mini) =>
      adjustFact(pi, mini, "技能条目带文件位置", (p, m) =>
        p.length > 0 && p.every((l) => l.endsWith("：带")) && same(m, p.map((l) => l.replace(/：带$/, "：不带"))) ? [p, [...p]] : undefined,
      ),
  },
  {
    id: "F21",
    mechanism: "s08",
    status: "deliberate",
    scenarios: S08,
    pi: "系统提示里还有工具说明、规则、文档指引和工作目录几段（这里看的是工作目录的路径写没写进去）",
    mini: "只有开场白、项目说明、技能索引、追加的话；工具清单单独放在 ProviderInput.tools 里，没有工作目录",
    reason: "s08 只讲资料怎么进系统提示：课程的开场白是一句固定的话（SYSTEM_PREAMBLE），演示的项目在内存里，没有工作目录可写",
    reconcile: all(expect("工作目录写在提示里", ["是"], ["否"])),
  },
  // ── s09 ──
  {
    id: "F22",
    mechanism: "s09",
    status: "deliberate",
    scenarios: LISTENING,
    pi: "订阅 `message_end` 的监听者收到整条消息（看得出角色），系统消息和用户消息也各来一次",
    mini: "message 事件只带文字，只为本轮循环存下的助手回答和工具结果发（D11）",
    reason: "§2 字典：RuntimeEvent 是 `{type: \"message\"; content}` 或 `{type: \"done\"}`。D11：用户消息由 runOneTurn 存，不发事件；课程的历史里没有系统消息（F1）",
    reconcile: all(dropRoles("监听者看到的事件")),
  },
  {
    id: "F23",
    mechanism: "s09",
    status: "deliberate",
    scenarios: ["ext-name-clash"],
    pi: "扩展登记的工具能顶替宿主的同名工具（这里是内置的 read），不报错；两个扩展登记同名工具时先登记的生效，后一个报一条冲突，它别的登记照样生效",
    mini: "工具重名是错误：后一个扩展整个不生效，记一条错误，宿主的 read 不变",
    reason: "s02 起 ToolRegistry.register 不许悄悄覆盖；D10：一个扩展的登记要么全部生效，要么全部作废",
    reconcile: all(resultText("历史", copycatRead, README), (pair) =>
      adjustFact(pair.pi, pair.mini, "监听者看到的事件", (p, m) => {
        const i = m.findIndex((l) => l.endsWith(` ${JSON.stringify(README)}`));
        const j = p.findIndex((l) => l.endsWith(` ${JSON.stringify(copycatRead)}`));
        return i >= 0 && j >= 0 ? [p, m.map((l, k) => (k === i ? l.replace(JSON.stringify(README), JSON.stringify(copycatRead)) : l))] : undefined;
      }),
    ),
  },
  {
    id: "F24",
    mechanism: "s09",
    status: "deliberate",
    scenarios: ["ext-name-clash"],
    pi: "两个扩展登记同名命令时两个都留下，改叫 stats:1、stats:2；原来的 /stats 不再是命令（敲了会当普通提问发给模型）",
    mini: "命令重名是错误：后一个扩展整个不生效，/stats 仍是先装的那个",
    reason: "D10；课程宁可报错，不让读者猜哪个生效（s09 README 源码溯源）",
    reconcile: (pi, mini) =>
      adjustFact(pi, mini, "命令", (p, m) =>
        p.length === m.length && p.every((l, i) => l === m[i] || (l.endsWith("→ 没有运行任何命令") && m[i].startsWith(l.slice(0, l.indexOf("→"))))) && !same(p, m)
          ? [p, [...p]]
          : undefined,
      ),
  },
  // ── s10 ──
  {
    id: "F25",
    mechanism: "s10",
    status: "deliberate",
    scenarios: JSON_MODE,
    pi: "JSON 模式的第一行是会话头（type 为 session，带会话 id、时间、工作目录）",
    mini: "JsonMode 只写事件，没有会话头",
    reason: "课程的会话树只在内存里，没有会话文件和会话 id（s07）；RuntimeMode.render 只收这一轮的事件",
    reconcile: all(expect("开头的会话头", ["有"], ["没有"])),
  },
  {
    id: "F26",
    mechanism: "s10",
    status: "deliberate",
    scenarios: JSON_MODE,
    pi: "每个事件一行，十来种：agent_start、turn_start、message_start、message_update（流式增量）、message_end、tool_execution_start / _end、turn_end、agent_end，最后是 agent_settled",
    mini: "只有 message 和 done 两种，一轮结束时一起写出，最后一行是 done",
    reason: "§2 字典：RuntimeEvent 只有两种；D12：模式在一轮结束时拿到整批事件。Pi 的 agent_settled 说的是不会再自动重试或接着跑（F30），课程的 done 就是这一轮真的完了",
    reconcile: all(
      (pair) =>
        adjustFact(pair.pi, pair.mini, "事件种类（按第一次出现）", (p, m) =>
          same(m, ["message", "done"]) && p.includes("message_end") && p.includes("agent_end") ? [p, [...p]] : undefined,
        ),
      expect("最后一个事件", ["agent_settled"], ["done"]),
    ),
  },
  {
    id: "F27",
    mechanism: "s10",
    status: "deliberate",
    scenarios: JSON_MODE,
    pi: "每条消息的 message_end 带整条消息：读的程序分得出用户、助手和工具结果，系统消息和用户的提问也在流里",
    mini: "message 事件只有文字：读的程序分不出哪条是回答、哪条是工具结果，用户的提问不在流里",
    reason: "§2 字典：RuntimeEvent 没有角色字段；D11 同 F22",
    reconcile: all(dropRoles("读得出的消息")),
  },
  {
    id: "F28",
    mechanism: "s10",
    status: "deliberate",
    scenarios: ["mode-line-separator"],
    pi: "JSON 行里的 U+2028 / U+2029 原样写出（JSON 允许），要求读的程序只按换行符切行",
    mini: "JsonMode 把它们转义成 `\\u2028` / `\\u2029`，用 readline 按行读也不会切错",
    reason: "D12；解析出来的文字两边一样（「读得出的消息」一致），不同的只是字节",
    reconcile: all(expect("原样的 U+2028 / U+2029", ["有"], ["没有"])),
  },
  {
    id: "F29",
    mechanism: "s10",
    status: "deliberate",
    scenarios: ["mode-error"],
    pi: "文字模式下最后一条回答出错时，错误说明写到标准错误，标准输出什么都没有，退出码 1",
    mini: "PrintMode 把出错的回答（`error: …`）和平常的回答一样写到 Output；课程没有退出码",
    reason: "R7、D12：core 只有 Output 一个出口，RuntimeMode 只管呈现这一轮；演示一次跑好几轮，不以进程退出码收尾",
    reconcile: all(
      (pair) => adjustFact(pair.pi, pair.mini, "标准输出", (p, m) => (p.length === 0 && m.length > 0 && m.every((l) => l.startsWith("error: ")) ? [p, []] : undefined)),
      expect("错误说明写在哪", ["标准错误"], ["标准输出"]),
      expect("退出码", ["1"], [ABSENT]),
    ),
  },
  {
    id: "F30",
    mechanism: "s10",
    status: "deliberate",
    scenarios: ["mode-error"],
    pi: "会话遇到 provider 的临时错误（这里是 503）会自动重试，默认 3 次、间隔从 2 秒起翻倍（剧本调成 1 次、1 毫秒）",
    mini: "不重试：provider 出错就是这一轮的结果",
    reason: "R4：provider 出错变成一条 stopReason 为 error 的消息，循环到此结束；§4 的循环里没有重试这一步，要重试是调用方的事",
    reconcile: all(expect("问了模型几次", ["2"], ["1"])),
  },
  // ── s11 ──
  {
    id: "F31",
    mechanism: "s11",
    status: "deliberate",
    scenarios: ["trust-untrusted"],
    pi: "不信任的项目，AGENTS.md 照样加载进系统提示",
    mini: "不信任时一份资料都不加载，AGENTS.md 也不例外",
    reason: "决策 D24：比 Pi 严，宪法 R6 写的是 untrusted 返回空；项目说明正是最容易夹带指令的文件",
    reconcile: all(expect("进了提示的项目说明（按位置）", ["project/AGENTS.md"], [])),
  },
  {
    id: "F32",
    mechanism: "s11",
    status: "deliberate",
    scenarios: ["trust-untrusted"],
    pi: "用户自己的资料（用户目录下的 skills 等）不看项目信任，照样加载",
    mini: "ResourceLoader 只有一份资料清单，不分用户的和项目的；不信任时一份都不加载",
    reason: "§2 字典：ContextResource 没有来源字段；R6、D8：load(trust) 在不信任时返回空",
    reconcile: (pi, mini) =>
      adjustFact(pi, mini, "技能", (p, m) => {
        const [piLine, miniLine] = [`${USER_SKILL}：只有索引（名字和说明）`, `${USER_SKILL}：不在提示里`];
        return p.includes(piLine) && m.includes(miniLine) ? [p, m.map((l) => (l === miniLine ? piLine : l))] : undefined;
      }),
  },
  {
    id: "F33",
    mechanism: "s11",
    status: "deliberate",
    scenarios: ["trust-untrusted", "trust-trusted"],
    pi: "项目 .pi/extensions 里的扩展要等项目被信任才加载（这里是登记 lint 工具的扩展）",
    mini: "没有项目扩展这回事：扩展由调用方 use() 装上，信任不管它；load(trust) 只管资料",
    reason: "§3：s11 的升级只在 load(trust) 上（U1）；课程的扩展和包里的工具都是调用方亲手装的（s12 README 源码溯源）",
    reconcile: (pi, mini) =>
      adjustFact(pi, mini, "项目扩展登记的工具", (p, m) => (same(m, [ABSENT]) && (same(p, []) || same(p, ["lint"])) ? [p, [...p]] : undefined)),
  },
  // ── s12 ──
  {
    id: "F34",
    mechanism: "s12",
    status: "deliberate",
    scenarios: ["package-local"],
    pi: "包里 prompts/ 下的是提示模板：不进系统提示，输入 /style 时展开成一条用户消息",
    mini: "包里 prompts/… 的内容是 prompt 类资料，追加在系统提示末尾；/style 只是一句普通的提问",
    reason: "D15：课程的 prompt 类资料对应 Pi 的 APPEND_SYSTEM.md，课程没有提示模板",
    reconcile: all(expect("提示模板 style", ["系统提示里：没有", "输入 /style：展开成用户消息"], ["系统提示里：有", "输入 /style：原样发出"])),
  },
  {
    id: "F35",
    mechanism: "s12",
    status: "deliberate",
    scenarios: ["package-broken"],
    pi: "清单里列的扩展文件不存在时悄悄跳过，不报错；包里别的扩展、技能照常加载",
    mini: "loadPackage 发现清单里的命令在 contents 里没有，整包拒绝并点名，什么都不装",
    reason: "D13：包要么整个装上，要么什么都不变；宁可装不上，也不要装上半个（s12 README 源码溯源）",
    reconcile: (() => {
      const pkg = pkgOf("package-broken");
      return all(
        packageParts(
          pkg.extension.tools.map((t) => t.name),
          pkg.extension.commands.map((c) => [c.name, c.reply]),
          Object.keys(pkg.skills),
        ),
        expect("报告的问题", ["0"], ["1"]),
      );
    })(),
  },
  {
    id: "F36",
    mechanism: "s12",
    status: "deliberate",
    scenarios: ["package-clash"],
    pi: "包里的扩展和已装的扩展登记了同名工具：先装的生效，报一条冲突，包里别的工具、命令、技能照常加载",
    mini: "installPackage 先查冲突，撞名就整包拒绝，什么都不装",
    reason: "D13；同名的东西装上了哪一个，课程不让读者去猜",
    reconcile: (() => {
      const pkg = pkgOf("package-clash");
      const taken = new Set(MECHANISM_SCENARIOS.flatMap((s) => (s.id === "package-clash" && s.mechanism === "s12" ? s.extensions.flatMap((e) => e.tools.map((t) => t.name)) : [])));
      return all(
        packageParts(
          pkg.extension.tools.map((t) => t.name).filter((n) => !taken.has(n)),
          pkg.extension.commands.map((c) => [c.name, c.reply]),
          Object.keys(pkg.skills),
        ),
      );
    })(),
  },
];
