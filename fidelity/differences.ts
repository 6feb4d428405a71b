// mini Pi 和 Pi 1.6.0 不一样的地方：故意的每条写明为什么。待定（pending）的行只能是临时的：对照和测试都不放过它。
// 对照时只有这张表里的差异可以被消掉；表外的任何不同都是失败，表里某行没有剧本用到也是失败（过期）。
// fidelity/DIFFERENCES.md 由这张表生成（npx tsx fidelity/doc.ts），课程 README 的「Pi 源码溯源」引用它的编号。

import { type Difference, type Entry, rewritePairs } from "./compare.ts";
import { AFTER_HOOK_SUFFIX, SCENARIOS } from "./scenarios.ts";

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

/** §4：达到上限时课程追加的那条助手消息，和上限的默认值。 */
const MAX_TURNS_TEXT = "max turns reached";
const MINI_MAX_TURNS = 8;

/** Pi 在带工具的运行开头声明工具：凡是给了工具的剧本都会出现 F1。 */
const WITH_TOOLS = SCENARIOS.filter((s) => s.tools.length > 0).map((s) => s.id);

/** 模型第一次回答就以 toolUse 要了工具、随后又被问了一次的剧本：第二次请求里能不能看到那些调用（F13）。 */
const ASKED_AGAIN_AFTER_CALLS = SCENARIOS.filter((s) => {
  const first = s.reply(0);
  return first?.kind === "message" && first.stop === "toolUse" && first.calls.length > 0;
}).map((s) => s.id);

/**
 * 表的顺序就是应用的顺序：前面的行先把轨迹改写，后面的行在改写后的轨迹上对齐。
 * status "pending" = 还没定下来是修课程还是写明理由：可以先记下来，但 npm run fidelity 会以非零退出，tests/fidelity-compare.test.ts 也会失败——
 * 每条差异最后要么在课程里修掉，要么写成 "deliberate" 并写明 reason。
 */
export const DIFFERENCES: Difference[] = [
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
    scenarios: ["unknown-tool", "after-hook"],
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
];

/** 表示法对应：同一件事两边写法不同，归一时对齐，不算差异（见 compare.ts）。 */
export const REPRESENTATIONS: { pi: string; mini: string; why: string }[] = [
  { pi: "toolResult 的 `isError: true`", mini: "结果文字以 `error: ` 开头", why: "D18：这个前缀是课程里「这是个错误结果」的唯一标记" },
  { pi: "出错的助手消息另有 `errorMessage`", mini: "助手消息最后一行 `error: <原因>`，前面是已收到的文字", why: "D6：课程的 content 只有一个字符串" },
  {
    pi: "助手消息 content 里的 `toolCall` 块（带 id）",
    mini: "provider 在这次回答里发出的 `tool_call` 事件",
    why: "课程的 AssistantMessage 只存文字和 stopReason（§2）；调用经事件流交给循环。只在历史里这样对齐，请求里看不到调用是 F13",
  },
  { pi: "content 是块数组（text / toolCall / …）", mini: "content 是一个字符串", why: "§2 字典；对照只取文字块拼起来" },
  {
    pi: "请求里的助手消息带 stopReason",
    mini: "ProviderMessage 不带 stopReason",
    why: "§2 字典；模型 API 也不收它。比较请求时两边都不看 stopReason",
  },
];

