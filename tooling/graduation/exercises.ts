// 毕业的三个练习，写成数据：学习者写哪个文件、参考答案在哪、挖掉哪几处、两边跑的是哪一段对话、哪几行差异表可能用得上。
// 课程自己的 Node（scripts/graduate.ts、mini Pi 一侧、报告）和 Node 24 子进程（fidelity/pi-graduation.ts，真实 Pi 一侧）都读它，
// 所以这里不引用 Pi，也不引用课程代码。

import { join } from "node:path";
import type { Reply, ScriptedCall } from "../../fidelity/scenarios.ts";
import { ROOT } from "../course.ts";

export type ExerciseNumber = 1 | 2 | 3;

/**
 * 学习者要写的一处。function：一个函数的函数体（练习文件里换成一句 throw "TODO 毕业 N：…"）；
 * manifest：package.json 的 pi 键（练习文件里是空的 {}）。file 是相对练习根的路径（单文件的练习是 ""）。
 */
export type Blank = { file: string; name: string; kind: "function" | "manifest" };

/** 一次对话在哪种设置下跑：label 给人看（一个练习跑两次时分得清），trusted 是项目信不信任。 */
export type RunPlan = { label: string; trusted: boolean };

/** 两边跑的同一段对话：用户说的一句话，模型第 n 次被问到时怎么回答（prompt 是这次请求的系统提示）。 */
export type Dialogue = { input: string; reply(n: number, prompt: string): Reply | undefined };

export type Exercise = {
  n: ExerciseNumber;
  title: string;
  /** 一句话：这个练习要 Pi 做到什么。 */
  asks: string;
  /** 学习者的文件（或包的文件夹），相对 practice/graduation/。 */
  target: string;
  /** 参考答案，相对仓库根。 */
  solution: string;
  /** graduation/README.md 里讲它的小节（### 标题），提示的第 1 级取它的正文。 */
  section: string;
  /** 练习文件的开头一段注释（替掉参考答案的那段）；包的练习写在它的 .ts 文件上。 */
  header: string;
  blanks: Blank[];
  dialogue: Dialogue;
  runs: RunPlan[];
  /** 差异表（fidelity/listed-differences/trace-rows.ts）里可能解释两边不同的行。 */
  rows: string[];
  /** 跑完以后要看还在不在的文件（相对工作目录）。 */
  watch: string[];
};

// ── 练习 1：工具 ─────────────────────────────────────────
/** 工作目录外面的文件：在项目的上一级，练习 1 的 read 一个字都不能读出来。 */
export const OUTSIDE_FILE = "secret.txt";
export const OUTSIDE_TEXT = "这是项目外面的文件，工具不该读到它。";
/** 项目里的一个链接，字面上在里面，指的是外面的 secret.txt。 */
export const LINK_OUT = "notes.md";

const call = (id: string, name: string, path: string): ScriptedCall => ({ id, name, args: { path } });
const say = (text: string, ...calls: ScriptedCall[]): Reply => ({ kind: "message", text, calls, stop: calls.length > 0 ? "toolUse" : "stop" });

/** 两个回答的对话：先要几个调用，拿到结果再说一句话收尾。 */
const twoReplies = (input: string, first: Reply, last: Reply): Dialogue => ({ input, reply: (n) => [first, last][n] });

const TOOL: Exercise = {
  n: 1,
  title: "工具",
  asks: "登记一个叫 read 的 Pi 工具，只读工作目录里的文件：走出去的 ..、指到外面的链接都拒绝",
  target: "1-tool.ts",
  solution: "graduation/solutions/1-tool.ts",
  section: "练习 1：工具",
  header: "// 毕业练习 1：把演示里那个只读项目文件的 read，写成 Pi 1.6.0 的工具（见 graduation/README.md「练习 1：工具」）。",
  blanks: [
    { file: "", name: "fencedRead", kind: "function" },
    { file: "", name: "insideProject", kind: "function" },
  ],
  dialogue: twoReplies(
    `读一下 README.md、../${OUTSIDE_FILE} 和 ${LINK_OUT}。`,
    say("我一个一个读。", call("call_1", "read", "README.md"), call("call_2", "read", `../${OUTSIDE_FILE}`), call("call_3", "read", LINK_OUT)),
    say("三个文件我都试过了。"),
  ),
  runs: [{ label: "", trusted: true }],
  rows: ["F1"],
  watch: [],
};

// ── 练习 2：闸 ───────────────────────────────────────────
/** 练习 2 里模型想删的文件：跑完以后它必须还在。 */
export const DOOMED_FILE = "src/config.ts";

const GATE: Exercise = {
  n: 2,
  title: "闸",
  asks: "订阅 tool_call，删除文件的 rm 调用一律拦下并说明理由，别的调用放行",
  target: "2-gate.ts",
  solution: "graduation/solutions/2-gate.ts",
  section: "练习 2：闸",
  header: "// 毕业练习 2：把 s05 演示里的权限闸，写成 Pi 1.6.0 的 tool_call 监听（见 graduation/README.md「练习 2：闸」）。",
  blanks: [
    { file: "", name: "permissionGate", kind: "function" },
    { file: "", name: "decide", kind: "function" },
  ],
  dialogue: twoReplies(
    `删掉 ${DOOMED_FILE}，然后读一下 README.md。`,
    say(`先删 ${DOOMED_FILE}，再读 README.md。`, call("call_1", "rm", DOOMED_FILE), call("call_2", "read", "README.md")),
    say("删除没做成，README.md 读到了。"),
  ),
  runs: [{ label: "", trusted: true }],
  rows: ["F1", "F5"],
  watch: [DOOMED_FILE],
};

// ── 练习 3：包 ───────────────────────────────────────────
/** 包的名字、它带的项目说明和技能（s08 演示里的那两份资料）。 */
export const PACKAGE_NAME = "house-rules";
export const AGENTS_TEXT = "用 pnpm，不要用 npm。提交前先跑 pnpm test。";
export const SKILL = { name: "release", description: "发布新版本：打 tag、写 changelog。", body: "1. pnpm version patch\n2. 更新 CHANGELOG.md" } as const;

/** 问规矩的那一句，和 s12 的假模型一样：系统提示里有项目说明就照着说，没有就说不知道。 */
const askRules: Dialogue = {
  input: "这个项目有什么规矩？",
  reply: (n, prompt) => {
    if (n > 0) return undefined;
    return say(prompt.includes(AGENTS_TEXT) ? `项目说明里写着：${AGENTS_TEXT}` : "系统提示里没有项目说明，我不知道这个项目的规矩。");
  },
};

const PACKAGE: Exercise = {
  n: 3,
  title: "包",
  asks: "写一个 Pi 包：清单里列出一个扩展和技能，扩展把包里的 AGENTS.md 交给系统提示；项目被信任时才装上",
  target: "3-package",
  solution: "graduation/solutions/3-package",
  section: "练习 3：包",
  header: "// 毕业练习 3：包里唯一的代码，把包里的 AGENTS.md 交给 Pi 的系统提示（见 graduation/README.md「练习 3：包」）。",
  blanks: [
    { file: "package.json", name: "pi", kind: "manifest" },
    { file: "src/project-notes.ts", name: "projectNotes", kind: "function" },
  ],
  dialogue: askRules,
  runs: [
    { label: "项目被信任", trusted: true },
    { label: "项目不被信任", trusted: false },
  ],
  rows: ["F1"],
  watch: [],
};

export const EXERCISES: readonly Exercise[] = [TOOL, GATE, PACKAGE];

/** 1、2、3（也认 `1-tool`、`tool` 这样的写法）→ 练习；认不出来是 undefined。 */
export function parseExercise(arg: string | undefined): Exercise | undefined {
  if (arg === undefined) return undefined;
  return EXERCISES.find((e) => arg === String(e.n) || arg === e.target.replace(/\.ts$/, "") || arg === e.target.replace(/^\d-|\.ts$/g, ""));
}

export const exercise = (n: ExerciseNumber): Exercise => EXERCISES[n - 1] as Exercise;

/** 参考答案的绝对路径（包的练习是文件夹）。 */
export const solutionPath = (ex: Exercise): string => join(ROOT, ex.solution);

/** 对照时这个练习的剧本名（差异表的行按剧本名认）。 */
export const scenarioId = (ex: Exercise): string => `graduation-${ex.n}`;

/** 一处空白的名字（提示、报告里用）：包里的写成 `package.json › pi`、`src/project-notes.ts › projectNotes`。 */
export const blankName = (blank: Blank): string => (blank.file === "" ? blank.name : `${blank.file} › ${blank.name}`);
