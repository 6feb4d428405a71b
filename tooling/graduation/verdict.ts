// 毕业检查的判定：真实 Pi 有没有做到练习要的事。每条要求一行，没做到的用学习者的话说清楚：看到了什么、Pi 为什么这样、该怎么改。
// 判定只看 Pi 一侧（Pi 做到了，练习就过了）；和 mini Pi 的不同另由 differences.ts 解释，不影响过不过。
// 练习 1、2 的要求在这里，练习 3（包）的在 verdict-package.ts。

import { DOOMED_FILE, LINK_OUT, OUTSIDE_FILE, OUTSIDE_TEXT } from "./exercises.ts";
import { chain, fail, findTodo, loadRequirement, pass, type Requirement, resultOf, skip, type VerdictInput } from "./requirements.ts";
import type { PiRun } from "./runs.ts";
import { packageRequirements } from "./verdict-package.ts";

export type { Requirement, Status, VerdictInput } from "./requirements.ts";

/** 练习的判定：每条要求一行。 */
export function verdict(input: VerdictInput): Requirement[] {
  if (input.ex.n === 1) return toolRequirements(input);
  if (input.ex.n === 2) return gateRequirements(input);
  return packageRequirements(input);
}

// ── 练习 1：工具 ─────────────────────────────────────────
const REGISTERED = "登记了一个叫 read 的工具，参数是字符串 path";
const READS = "README.md 读出了全文";
const OUTSIDE = `走出工作目录的 ../${OUTSIDE_FILE} 读不到`;
const LINK = `指到外面的链接 ${LINK_OUT} 读不到`;

function toolRequirements(input: VerdictInput): Requirement[] {
  const run = input.runs[0] as PiRun;
  return chain(loadRequirement(input), () => chain(registration(run), () => [readsFile(input, run), fenced(run, "call_2", OUTSIDE, outsideLines), fenced(run, "call_3", LINK, linkLines)], [READS, OUTSIDE, LINK]), [REGISTERED, READS, OUTSIDE, LINK]);
}

/** parameters 里有一个必填的字符串 path 吗（TypeBox 的 Type.Object 就是 JSON Schema）。 */
function hasPathParameter(parameters: unknown): boolean {
  const schema = parameters as { properties?: Record<string, { type?: unknown }>; required?: unknown } | null;
  return schema?.properties?.path?.type === "string" && Array.isArray(schema.required) && schema.required.includes("path");
}

function registration(run: PiRun): Requirement {
  const tools = run.learner.flatMap((e) => e.tools);
  if (tools.length === 0) return fail(REGISTERED, "你的扩展没登记任何工具：在默认导出的函数里调 pi.registerTool({ name, label, description, parameters, execute })。");
  const read = tools.find((t) => t.name === "read");
  if (read === undefined) {
    const names = tools.map((t) => (typeof t.name === "string" ? t.name : String(t.name)));
    if (names.every((n) => n === "undefined")) return fail(REGISTERED, "登记的工具没有名字：Pi 的工具定义是平的，name、parameters、execute 直接写在对象上，不是 mini Pi 的 { spec, handler }。");
    return fail(REGISTERED, `你登记的工具叫 ${names.join("、")}，不叫 read。只有同名才顶替 Pi 自带的 read（差异表 F23 说的就是这件事）；不然模型调 read 时用的还是 Pi 自己的，它不设围栏。`);
  }
  if (!hasPathParameter(read.parameters)) {
    return fail(REGISTERED, "read 的 parameters 里要有一个必填的字符串 path，比如 Type.Object({ path: Type.String() })：模型送来的是 {\"path\": …}，Pi 先照 parameters 校验它，对不上就不调 execute。");
  }
  return pass(REGISTERED);
}

function readsFile({ demo }: VerdictInput, run: PiRun): Requirement {
  const result = resultOf(run, "call_1");
  const want = demo["README.md"] ?? "";
  if (result === undefined) return fail(READS, "Pi 的历史里没有读 README.md 的结果。");
  const todo = findTodo(result.text);
  if (todo !== undefined) return fail(READS, `还空着：${todo}`);
  if (result.isError) return fail(READS, `读 README.md 出错了：${result.text}`);
  if (result.text !== want) return fail(READS, `交回的和文件不一样。文件是「${want}」，你的工具交回的是「${result.text}」。`);
  return pass(READS);
}

const outsideLines = (text: string): string[] => [
  `你的 read 把工作目录外面的 ../${OUTSIDE_FILE} 读出来了：「${text}」。`,
  "模型从此能读到项目外面的任何文件，这正是围栏要挡住的。先把路径按工作目录解开（path.resolve），再看它还在不在里面（path.relative 的结果不以 .. 开头），走出去就抛错。",
];
const linkLines = (text: string): string[] => [
  `${LINK_OUT} 是项目里的一个链接，指向外面的 ${OUTSIDE_FILE}，你的 read 跟着它读出来了：「${text}」。`,
  "字面上在里面还不够：先用 fs.realpathSync 解开链接，拿真实路径再比一次。",
];

/** 一个不该读到的调用：必须是出错的结果，而且外面那个文件的字一个都没漏出来。 */
function fenced(run: PiRun, call: string, name: string, leaked: (text: string) => string[]): Requirement {
  const result = resultOf(run, call);
  if (result === undefined) return fail(name, "Pi 的历史里没有这个调用的结果。");
  const todo = findTodo(result.text);
  if (todo !== undefined) return fail(name, `还空着：${todo}`);
  if (result.text.includes(OUTSIDE_TEXT)) return fail(name, ...leaked(result.text.trim()));
  if (!result.isError) return fail(name, `这个调用没被拒绝，你的工具交回了「${result.text}」。读不了就抛错，错误信息会交给模型，它才知道为什么。`);
  return pass(name);
}

// ── 练习 2：闸 ───────────────────────────────────────────
const SUBSCRIBED = "订阅了 tool_call";
const BLOCKED = `rm 被拦下了，${DOOMED_FILE} 还在`;
const REASON = "拦下时说明了理由";
const ALLOWED = "别的调用照常：README.md 读到了";
/** Pi 拦下一个调用、回答里却没有 reason 时写的话（pi-agent-core 的 prepareToolCall）。 */
export const PI_DEFAULT_BLOCK = "Tool execution was blocked";

function gateRequirements(input: VerdictInput): Requirement[] {
  const run = input.runs[0] as PiRun;
  const blocked = (): Requirement[] => {
    const first = blocking(run);
    return [first, first.status === "pass" ? reason(run) : skip(REASON), passesOthers(input, run)];
  };
  return chain(loadRequirement(input), () => chain(subscribed(run), blocked, [BLOCKED, REASON, ALLOWED]), [SUBSCRIBED, BLOCKED, REASON, ALLOWED]);
}

function subscribed(run: PiRun): Requirement {
  const events = [...new Set(run.learner.flatMap((e) => e.events))];
  if (events.includes("tool_call")) return pass(SUBSCRIBED);
  if (events.length === 0) return fail(SUBSCRIBED, "你的扩展没订阅任何事件：在默认导出的函数里写 pi.on(\"tool_call\", (event) => …)。");
  return fail(SUBSCRIBED, `你订阅的是 ${events.join("、")}。Pi 在每个工具执行之前发的事件叫 tool_call，能拦下调用的只有它。`);
}

const gateAnswer = (run: PiRun, tool: string): string | undefined => run.gate.find((g) => g.toolName === tool)?.answered;

function blocking(run: PiRun): Requirement {
  const result = resultOf(run, "call_1");
  const still = run.files[DOOMED_FILE] === true;
  if (result?.isError === true && still) return pass(BLOCKED);
  const answered = gateAnswer(run, "rm");
  const todo = findTodo(result?.text ?? "", ...run.problems);
  if (todo !== undefined) return fail(BLOCKED, `还空着：${todo}`);
  const lines = [still ? "rm 没被拦下。" : `rm 真的执行了，${DOOMED_FILE} 被删掉了。`];
  if (answered === undefined) lines.push("你的 tool_call 监听没看到 rm 这个调用。");
  else if (answered === "undefined") lines.push("你的监听对 rm 什么都没回：在 Pi 里，什么都不回就是放行（mini Pi 当它是钩子出错，差异表 F37）。要拦就回 { block: true, reason: \"…\" }。");
  else if (/"type"\s*:\s*"block"/.test(answered)) lines.push(`你的监听对 rm 回的是 ${answered}：这是 mini Pi 的写法。Pi 只看回答里的 block，没有 block: true 就是放行。`);
  else lines.push(`你的监听对 rm 回的是 ${answered}：Pi 只在回答里有 block: true 时才拦下。`);
  return fail(BLOCKED, ...lines);
}

function reason(run: PiRun): Requirement {
  const text = resultOf(run, "call_1")?.text.trim() ?? "";
  if (text === "" || text === PI_DEFAULT_BLOCK) {
    return fail(REASON, `拦下了，可没说为什么：模型看到的只有 Pi 默认的「${PI_DEFAULT_BLOCK}」。在回答里加上 reason，比如 { block: true, reason: \"删除 ${DOOMED_FILE} 需要人来确认\" }，它会原样交给模型。`);
  }
  return pass(REASON);
}

function passesOthers({ demo }: VerdictInput, run: PiRun): Requirement {
  const result = resultOf(run, "call_2");
  if (result === undefined) return fail(ALLOWED, "Pi 的历史里没有读 README.md 的结果。");
  if (!result.isError && result.text === demo["README.md"]) return pass(ALLOWED);
  const answered = gateAnswer(run, "read");
  const why = answered !== undefined && answered !== "undefined" ? `你的监听对 read 回了 ${answered}。` : "";
  return fail(ALLOWED, `读 README.md 没做成：${result.text}`, `${why}只拦 rm，别的调用什么都不回（undefined），Pi 就照常执行。`);
}
