// 保真对照的剧本：同一份数据既喂给真实 Pi（pi-loop.ts），也喂给每一课的 mini Pi（mini-loop.ts）。
// 一个剧本 = 用户说的话 + 有哪些工具 + 可选的拦截钩子 + 模型每次被问到时怎么回答。
// 本文件不引用 Pi，也不引用课程代码：根目录的 `npm test` 会读它，而那里没有装 Pi。

/**
 * 工具被调用时做什么：回显参数、回一段固定的文字，或者抛错；async 是照 Pi 写成 async 的工具——
 * 文字包在 Promise 里交回（Pi 的 execute 本来就是 async 的，课程的 handler 该同步回文字，D27）。
 */
export type FidelityToolBehaviour = { kind: "echo" } | { kind: "reply"; text: string } | { kind: "throw"; message: string } | { kind: "async"; text: string };

/** 剧本里的一个工具。参数一律是必填的字符串，和课程的 ToolSpec.input 一样。 */
export type ScenarioTool = { name: string; params: string[]; behaviour: FidelityToolBehaviour };

/** 模型要求的一次调用。args 故意是 unknown：模型可能送来错的类型。 */
export type ScriptedCall = { id: string; name: string; args: Record<string, unknown> };

/** 模型为什么结束一次回答，用 Pi 的词：length 是输出被截断（课程没有这个值，见 mini-loop.ts）。 */
export type ModelStop = "stop" | "toolUse" | "length";

/**
 * 模型的一次回答：一段文字加若干调用；或者 provider 出错（partialText 是出错前已经吐出的文字，
 * 没有它就是一个字都没吐就出错了）。
 */
export type Reply =
  | { kind: "message"; text: string; calls: ScriptedCall[]; stop: ModelStop }
  | { kind: "error"; message: string; partialText?: string };

/** 剧本答完了还被问时的回答（对照时看得出来：这一句不在任何剧本里）。mini 和 Pi 两边用的是这同一句。 */
export const EXHAUSTED: Reply = { kind: "message", text: "(script exhausted)", calls: [], stop: "stop" };

/**
 * beforeToolCall：调用 tool 时拦下（理由 reason）、钩子自己抛错（message），或者什么都不回（nothing：忘了 return）；
 * 别的工具放行。async 为 true 时，钩子的每个答复都包在 Promise 里交回（Pi 的钩子本来就是 async 的）。
 * afterToolCall：在每个结果的文字后面接上 suffix；nothing 是什么都不回。
 */
export type ScenarioHooks = {
  before?: ({ tool: string; kind: "block"; reason: string } | { tool: string; kind: "throw"; message: string } | { tool: string; kind: "nothing" }) & { async?: true };
  after?: { kind?: "suffix"; suffix: string } | { kind: "nothing" };
};

/**
 * 调用方在一轮进行中做的事（只有少数剧本有，Pi 一侧因此用 Agent 而不是 runAgentLoop）。
 * second-prompt：模型第一次被问到时，调用方在同一个 agent 上再发一句 input（Pi 的 Agent.prompt，课程的 runOneTurn）。
 * hang：模型第一次被问到时不回话；调用方等 waitMs 毫秒，然后放弃（Pi 是 Agent.abort()，课程没有取消，D35），
 * 再等 waitMs 毫秒，最后放模型回话（回的是 reply(0)）。honoursAbort：Pi 一侧的 provider 听不听 AbortSignal——
 * pi-ai 的每个 provider 都听（比如 faux.ts 的 createAbortedMessage），不听的 provider Pi 也停不下它。
 * 剧本自己有上限：每一步最多等 waitMs，对照永远不会卡住。
 */
export type CallerPlan = { kind: "second-prompt"; input: string } | { kind: "hang"; waitMs: number; honoursAbort: boolean };

/** 调用方看到的每一步，两边用同一组说法（轨迹里 role 为 caller 的条目）。 */
export const CALLER = {
  secondPrompt: "第二句话",
  waited: (ms: number): string => `等了 ${ms} ms`,
  gaveUp: "放弃之后",
  released: "模型回话之后",
  running: "还在跑",
  settled: "已结束",
  threw: (message: string): string => `抛错 ${message}`,
  returned: (what: string): string => `回了 ${what}`,
} as const;

/** 调用方看到的一步：「哪一步：看到什么」。 */
export const callerLine = (step: string, saw: string): string => `${step}：${saw}`;

/**
 * 最多等 ms 毫秒：promise 在那之前有了结果（兑现或失败）就是 true。调用方的剧本靠它给自己设上限，对照不会卡住。
 * 结论不取决于机器快慢：「还在跑」的那几步，模型根本不回话、调用方还没动手，这一轮再等多久也落不了定（只看下限）；
 * 「已结束」的那几步（Pi 的 abort()、放模型回话之后），两边都在微任务里就落定了，比任何一只定时器都早——
 * 把 waitMs 改成 0 跑一遍，两边每一步的观察和 20 毫秒时一字不差（issue 28 时量过，s03 和 s12、Pi 1.6.0）。
 */
export function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    const done = (): void => {
      clearTimeout(timer);
      resolve(true);
    };
    promise.then(done, done);
  });
}

/**
 * 不回话的模型（CallerPlan 的 hang）：两边同一套观察。等 waitMs，放弃（giveUp：Pi 是 abort()，课程无事可做），
 * 再等 waitMs，放模型回话（release），再等 waitMs；每一步记下这一轮还在跑还是已结束。
 */
export async function watchHang(turn: Promise<unknown>, waitMs: number, giveUp: () => void, release: () => void): Promise<string[]> {
  const state = async (): Promise<string> => ((await settlesWithin(turn, waitMs)) ? CALLER.settled : CALLER.running);
  const lines = [callerLine(CALLER.waited(waitMs), await state())];
  giveUp();
  lines.push(callerLine(CALLER.gaveUp, await state()));
  release();
  lines.push(callerLine(CALLER.released, await state()));
  return lines;
}

/** 一个循环剧本，两边（真实 Pi、mini Pi）都跑。课程自己的场景（tooling/scenarios/shape.ts 的 Scenario）只在课上跑，形状不同。 */
export type FidelityScenario = {
  id: string;
  /** 一句话说明这个剧本在看什么。 */
  title: string;
  input: string;
  tools: ScenarioTool[];
  /** 钩子。课程从 s05 起才有，所以带钩子的剧本从 s05 起适用。 */
  hooks?: ScenarioHooks;
  /** 调用方在一轮进行中做的事；没有就是照常跑一轮。 */
  caller?: CallerPlan;
  /** 从哪一课起适用：引入这个零件的那一课（流 s03，工具循环和一次一轮 s04，钩子 s05）。 */
  since: "s03" | "s04" | "s05";
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
  if (tool.behaviour.kind === "reply" || tool.behaviour.kind === "async") return tool.behaviour.text;
  return `${tool.name}:${tool.params.map((p) => String(args[p])).join(",")}`;
}

/** after-hook 剧本里 afterToolCall 接在结果后面的文字；差异表 F2 靠它认出被改写过的结果。 */
export const AFTER_HOOK_SUFFIX = " [checked]";

/** before-async 剧本里 async 钩子拦下 rm 的理由；差异表 F38 靠它认出 Pi 一边被拦下的结果。 */
export const ASYNC_BLOCK_REASON = "删除需要人来确认";

export const LOOP_SCENARIOS: FidelityScenario[] = [
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
  {
    id: "before-undefined",
    title: "beforeToolCall 什么都不回（忘了 return）",
    input: "回显一下 a",
    tools: [echo()],
    hooks: { before: { tool: "echo", kind: "nothing" } },
    since: "s05",
    reply: replies(callTools("", call("call_1", "echo", { text: "a" })), answer("好了。")),
  },
  {
    id: "before-async",
    title: "beforeToolCall 是 async 的：放行 echo、拦下 rm，答复都包在 Promise 里",
    input: "回显 a，再删掉 a.txt",
    tools: [echo(), echo("rm", ["path"])],
    hooks: { before: { tool: "rm", kind: "block", reason: ASYNC_BLOCK_REASON, async: true } },
    since: "s05",
    reply: replies(callTools("", call("call_1", "echo", { text: "a" }), call("call_2", "rm", { path: "a.txt" })), answer("好了。")),
  },
  {
    id: "after-undefined",
    title: "afterToolCall 什么都不回（忘了 return）",
    input: "回显一下 a",
    tools: [echo()],
    hooks: { after: { kind: "nothing" } },
    since: "s05",
    reply: replies(callTools("", call("call_1", "echo", { text: "a" })), answer("好了。")),
  },
  {
    id: "async-tool",
    title: "照 Pi 写成 async 的工具：结果包在 Promise 里",
    input: "看看天气",
    tools: [{ name: "weather", params: [], behaviour: { kind: "async", text: "晴，25 度" } }],
    since: "s04",
    reply: replies(callTools("", call("call_1", "weather", {})), answer("晴天。")),
  },
  {
    id: "second-prompt",
    title: "一轮还没跑完，同一个 agent 上又来一句",
    input: "讲个笑话",
    tools: [],
    caller: { kind: "second-prompt", input: "再讲一个" },
    since: "s04",
    reply: replies(answer("从前有个程序员……")),
  },
  {
    id: "never-answers",
    title: "模型一直不回话，调用方放弃（Pi 的 provider 听 AbortSignal）",
    input: "在吗",
    tools: [],
    caller: { kind: "hang", waitMs: 20, honoursAbort: true },
    since: "s03",
    reply: replies(answer("（迟到的回答）")),
  },
  {
    id: "never-answers-deaf",
    title: "模型一直不回话，调用方放弃，Pi 的 provider 不听 AbortSignal",
    input: "在吗",
    tools: [],
    caller: { kind: "hang", waitMs: 20, honoursAbort: false },
    since: "s03",
    reply: replies(answer("（迟到的回答）")),
  },
];
