// 毕业检查的每条要求长什么样，和几条要求共用的小函数：还空着的 TODO、前面没过后面就「没轮到」、找某个调用的结果、Pi 装不装得上。
import type { Entry } from "../../fidelity/compare.ts";
import type { Exercise } from "./exercises.ts";
import type { PiRun } from "./runs.ts";

/** 练习 3 读到的 package.json：读得出来就是它的 pi 键，读不出来是为什么。 */
export type ManifestRead = { ok: true; pi: unknown } | { ok: false; error: string };

export type Status = "pass" | "fail" | "skip";
/** 一条要求：它说什么、过没过；没过时 lines 是给学习者的话。 */
export type Requirement = { name: string; status: Status; lines: string[] };

/** 判定要的东西：练习、Pi 的每次对话、把绝对路径换成给人看的写法、练习 3 的 package.json。 */
export type VerdictInput = {
  ex: Exercise;
  runs: readonly PiRun[];
  /** 学习者的文件或包的文件夹（绝对路径）。 */
  target: string;
  shown: (text: string) => string;
  /** s12 演示的文件：读出来的内容该是什么。 */
  demo: Readonly<Record<string, string>>;
  manifest?: ManifestRead;
};

export const pass = (name: string): Requirement => ({ name, status: "pass", lines: [] });
export const fail = (name: string, ...lines: string[]): Requirement => ({ name, status: "fail", lines });
export const skip = (name: string): Requirement => ({ name, status: "skip", lines: [] });

/** 练习文件里还空着的地方抛出的那句话。 */
const TODO = /TODO 毕业 \d：[^"\n]*/;
export const findTodo = (...texts: readonly string[]): string | undefined => texts.map((t) => TODO.exec(t)?.[0]).find((t) => t !== undefined);

/** 前面一条没过时，后面依赖它的几条都记成「没轮到」。 */
export function chain(first: Requirement, rest: () => Requirement[], names: readonly string[]): Requirement[] {
  return first.status === "pass" ? [first, ...rest()] : [first, ...names.map(skip)];
}

/** 回答某个调用的工具结果。 */
export const resultOf = (run: PiRun, call: string): Extract<Entry, { role: "toolResult" }> | undefined =>
  run.history.find((e): e is Extract<Entry, { role: "toolResult" }> => e.role === "toolResult" && e.toolCallId === call);

// ── 装得上 ───────────────────────────────────────────────
/** Pi 装载扩展时的几种常见错误，各说一句怎么改；认不出来的就只让学习者读 Pi 的原话。 */
const LOAD_ADVICE: readonly [RegExp, string][] = [
  [/does not export a valid factory function/, "扩展文件要默认导出一个函数（export default function (pi: ExtensionAPI) { … }），Pi 装载时把 ExtensionAPI 交给它。"],
  [/Tool "undefined"/, "登记的工具没有名字：Pi 的工具定义是平的，name、label、description、parameters、execute 直接写在一个对象上，不是 mini Pi 的 { spec, handler }。"],
  [/parameter schema/, "parameters 要是一个对象的 JSON Schema，比如 Type.Object({ path: Type.String() })。"],
];

function loadAdvice(problems: string): string[] {
  const hits = LOAD_ADVICE.filter(([re]) => re.test(problems)).map(([, advice]) => advice);
  return hits.length > 0 ? hits : ["上面是 Pi 的原话：它装载你的文件时就出了错，后面的检查都没法做。"];
}
const LOADS = "Pi 装得上你的扩展";

/** Pi 装载学习者的扩展时报了什么：还空着的 TODO、装不上的错误；一个扩展都没装上也不行。 */
export function loadRequirement({ runs, target, shown }: VerdictInput, name = LOADS, needExtension = true): Requirement {
  const run = runs[0];
  if (run === undefined) return fail(name, "Pi 一侧一次都没跑。");
  const mine = run.problems.filter((p) => p.includes(target));
  const todo = findTodo(...mine);
  if (todo !== undefined) return fail(name, `还空着：${todo}`);
  if (mine.length > 0) return fail(name, ...mine.map((p) => `Pi 报的错：${shown(p)}`), ...loadAdvice(mine.join("\n")));
  if (needExtension && run.learner.length === 0) return fail(name, `Pi 没装上 ${shown(target)}：它得是一个默认导出工厂函数的 .ts 文件。`);
  return pass(name);
}

