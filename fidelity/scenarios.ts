// 保真对照的剧本：同一份数据既喂给真实 Pi（pi.ts），也喂给每一课的 mini Pi（mini.ts）。
// 一个剧本 = 用户说的话 + 有哪些工具 + 可选的拦截钩子 + 模型每次被问到时怎么回答。
// 本文件不引用 Pi，也不引用课程代码：根目录的 `npm test` 会读它，而那里没有装 Pi。

/** 工具被调用时做什么：回显参数、回一段固定的文字，或者抛错。 */
export type ToolBehaviour = { kind: "echo" } | { kind: "reply"; text: string } | { kind: "throw"; message: string };

/** 剧本里的一个工具。参数一律是必填的字符串，和课程的 ToolSpec.input 一样。 */
export type ScenarioTool = { name: string; params: string[]; behaviour: ToolBehaviour };

/** 模型要求的一次调用。args 故意是 unknown：模型可能送来错的类型。 */
export type ScriptedCall = { id: string; name: string; args: Record<string, unknown> };

/** 模型为什么结束一次回答，用 Pi 的词：length 是输出被截断（课程没有这个值，见 mini.ts）。 */
export type ModelStop = "stop" | "toolUse" | "length";

/**
 * 模型的一次回答：一段文字加若干调用；或者 provider 出错（partialText 是出错前已经吐出的文字，
 * 没有它就是一个字都没吐就出错了）。
 */
export type Reply =
  | { kind: "message"; text: string; calls: ScriptedCall[]; stop: ModelStop }
  | { kind: "error"; message: string; partialText?: string };

/**
 * beforeToolCall：调用 tool 时拦下（理由 reason）或者钩子自己抛错（message）；别的工具放行。
 * afterToolCall：在每个结果的文字后面接上 suffix。
 */
export type ScenarioHooks = {
  before?: { tool: string; kind: "block"; reason: string } | { tool: string; kind: "throw"; message: string };
  after?: { suffix: string };
};

export type Scenario = {
  id: string;
  /** 一句话说明这个剧本在看什么。 */
  title: string;
  input: string;
  tools: ScenarioTool[];
  /** 钩子。课程从 s05 起才有，所以带钩子的剧本从 s05 起适用。 */
  hooks?: ScenarioHooks;
  /** 从哪一课起适用（有钩子的剧本从 s05 起）。 */
  since: "s04" | "s05";
  /** 第 n 次（从 0 数）请求模型时的回答；undefined 表示剧本写完了却还在被问——那是对照本身的错。 */
  reply(n: number): Reply | undefined;
  /** Pi 没有轮数上限：对一直要工具的模型，用 Pi 自己的 finishTurn 在这么多轮后结束。 */
  piTurnLimit?: number;
};

// ── 写剧本用的小工具 ───────────────────────────────────────
const answer = (text: string): Reply => ({ kind: "message", text, calls: [], stop: "stop" });
const callTools = (text: string, ...calls: ScriptedCall[]): Reply => ({ kind: "message", text, calls, stop: "toolUse" });
const call = (id: string, name: string, args: Record<string, unknown>): ScriptedCall => ({ id, name, args });
const replies =
  (...list: Reply[]) =>
  (n: number): Reply | undefined =>
    list[n];

const echo = (name = "echo", params = ["text"]): ScenarioTool => ({ name, params, behaviour: { kind: "echo" } });

/** 工具的输出：两边都用这一个函数，保证「工具本身」在两边一模一样，比的只是 agent 循环。 */
export function toolOutput(tool: ScenarioTool, args: Record<string, unknown>): string {
  if (tool.behaviour.kind === "throw") throw new Error(tool.behaviour.message);
  if (tool.behaviour.kind === "reply") return tool.behaviour.text;
  return `${tool.name}:${tool.params.map((p) => String(args[p])).join(",")}`;
}

/** after-hook 剧本里 afterToolCall 接在结果后面的文字；差异表 F2 靠它认出被改写过的结果。 */
export const AFTER_HOOK_SUFFIX = " [checked]";

export const SCENARIOS: Scenario[] = [
  {
    id: "text-only",
    title: "只回一段文字，不调工具",
    input: "你好",
    tools: [],
    since: "s04",
    reply: replies(answer("你好！有什么要帮忙的？")),
  },
  {
    id: "one-tool",
    title: "调一次工具，再回答",
    input: "回显一下 hi",
    tools: [echo()],
    since: "s04",
    reply: replies(callTools("我调一下 echo。", call("call_1", "echo", { text: "hi" })), answer("echo 回了 echo:hi。")),
  },
  {
    id: "tool-throws",
    title: "工具抛错：变成出错的结果，循环继续",
    input: "试试 boom",
    tools: [echo(), { name: "boom", params: ["text"], behaviour: { kind: "throw", message: "kaboom" } }],
    since: "s04",
    reply: replies(callTools("", call("call_1", "boom", { text: "x" })), answer("工具出错了：kaboom。")),
  },
  {
    id: "unknown-tool",
    title: "调一个不存在的工具",
    input: "用 nope 看看",
    tools: [echo()],
    since: "s04",
    reply: replies(callTools("", call("call_1", "nope", { text: "x" })), answer("没有 nope 这个工具。")),
  },
  {
    id: "two-calls",
    title: "一次回答里要两个调用：结果按调用顺序回来",
    input: "回显 a 和 b",
    tools: [echo()],
    since: "s04",
    reply: replies(
      callTools("两个一起。", call("call_1", "echo", { text: "a" }), call("call_2", "echo", { text: "b" })),
      answer("a 和 b 都回来了。"),
    ),
  },
  {
    id: "output-looks-like-error",
    title: "工具成功了，但输出恰好以 error: 开头",
    input: "看看日志第一行",
    tools: [{ name: "log_head", params: [], behaviour: { kind: "reply", text: "error: disk full (logged at 03:00)" } }],
    since: "s04",
    reply: replies(callTools("", call("call_1", "log_head", {})), answer("日志第一行是一条旧错误。")),
  },
  {
    id: "invalid-args",
    title: "参数不对：缺一个、多一个",
    input: "回显，但参数写错",
    tools: [echo()],
    since: "s04",
    reply: replies(callTools("", call("call_1", "echo", { file: "x" })), answer("参数写错了。")),
  },
  {
    id: "non-string-arg",
    title: "参数类型不对：该给字符串却给了数字",
    input: "回显 42",
    tools: [echo()],
    since: "s04",
    reply: replies(callTools("", call("call_1", "echo", { text: 42 })), answer("好了。")),
  },
  {
    id: "blocked",
    title: "beforeToolCall 拦下一个调用",
    input: "删掉 a.txt",
    tools: [echo(), echo("rm", ["path"])],
    hooks: { before: { tool: "rm", kind: "block", reason: "删除需要人来确认" } },
    since: "s05",
    reply: replies(callTools("", call("call_1", "rm", { path: "a.txt" })), answer("被拦下了。")),
  },
  {
    id: "blocked-invalid",
    title: "钩子要拦的调用，参数本身也不对：谁先说话",
    input: "删掉 a.txt（参数写错）",
    tools: [echo(), echo("rm", ["path"])],
    hooks: { before: { tool: "rm", kind: "block", reason: "删除需要人来确认" } },
    since: "s05",
    reply: replies(callTools("", call("call_1", "rm", { file: "a.txt" })), answer("没做成。")),
  },
  {
    id: "hook-throws",
    title: "beforeToolCall 自己抛错",
    input: "删掉 a.txt",
    tools: [echo(), echo("rm", ["path"])],
    hooks: { before: { tool: "rm", kind: "throw", message: "policy service down" } },
    since: "s05",
    reply: replies(callTools("", call("call_1", "rm", { path: "a.txt" })), answer("钩子坏了。")),
  },
  {
    id: "after-hook",
    title: "afterToolCall 改写结果：执行了的、没找到工具的、参数不对的",
    input: "回显 a，再试试 nope 和错参数",
    tools: [echo()],
    hooks: { after: { suffix: AFTER_HOOK_SUFFIX } },
    since: "s05",
    reply: replies(
      callTools("", call("call_1", "echo", { text: "a" }), call("call_2", "nope", { text: "b" }), call("call_3", "echo", { file: "c" })),
      answer("好了。"),
    ),
  },
  {
    id: "provider-error",
    title: "provider 一开口就出错",
    input: "在吗",
    tools: [],
    since: "s04",
    reply: replies({ kind: "error", message: "provider unavailable (503)" }),
  },
  {
    id: "provider-error-midstream",
    title: "provider 说到一半断了",
    input: "讲讲",
    tools: [],
    since: "s04",
    reply: replies({ kind: "error", message: "connection reset", partialText: "我先说一半" }),
  },
  {
    id: "never-stops",
    title: "模型一直要工具，永远不收尾",
    input: "一直回显，别停",
    tools: [echo()],
    since: "s04",
    reply: (n) => callTools("再来一次。", call(`call_${n + 1}`, "echo", { text: String(n + 1) })),
    piTurnLimit: 12,
  },
  {
    id: "tooluse-without-calls",
    title: "以 toolUse 收尾，却一个调用都没有",
    input: "想调工具又没调",
    tools: [echo()],
    since: "s04",
    reply: replies({ kind: "message", text: "我要调工具……", calls: [], stop: "toolUse" }),
  },
  {
    id: "calls-without-tooluse",
    title: "回答里有调用，却以 stop 收尾",
    input: "顺手回显一下",
    tools: [echo()],
    since: "s04",
    reply: replies({ kind: "message", text: "顺手调一下。", calls: [call("call_1", "echo", { text: "x" })], stop: "stop" }, answer("好了。")),
  },
  {
    id: "length-cutoff",
    title: "回答被输出上限截断",
    input: "写一篇长文",
    tools: [],
    since: "s04",
    reply: replies({ kind: "message", text: "从前有座山，山里", calls: [], stop: "length" }),
  },
];
