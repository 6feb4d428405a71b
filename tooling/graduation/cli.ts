// npm run graduate 的命令行：读参数、写练习文件、给提示。真正跑 Pi 的是 check.ts；入口是 scripts/graduate.ts。
// 参数不对时说一句清楚的话，退出码 2。

import { cpSync, existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { HINT_LEVELS, type HintLevel, LEVEL_NAMES } from "../practice/hints.ts";
import { EXERCISES, type Exercise, parseExercise } from "./exercises.ts";
import { editorConfig, graduationDir, readExerciseFiles, shownPath, writeExerciseFiles } from "./files.ts";
import { graduationHint } from "./hints.ts";
import { type GraduationStub, makeStub, openGraduationStubs } from "./stub.ts";

export const USAGE = "用法：npm run graduate -- 1|2|3 [--check] [--hint [1-4]] [--part 名字] [--solution] [--reset] [--file 路径]";

/** 读出来的命令：哪个练习、要做什么。 */
export type GraduateArgs = { ex: Exercise; check: boolean; solution: boolean; reset: boolean; hint?: HintLevel; part?: string; file?: string };

const VALUE_FLAGS = new Set(["--part", "--file"]);
const FLAGS = new Set(["--check", "--solution", "--reset", "--hint"]);

/** 参数 → 命令；不对就是一句话。 */
export function parseArgs(args: readonly string[]): GraduateArgs | string {
  const positional: string[] = [];
  const on = new Set<string>();
  const values: Record<string, string> = {};
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (VALUE_FLAGS.has(a)) {
      const v = args[++i];
      if (v === undefined || v.startsWith("--")) return `${a} 后面要跟一个值`;
      values[a] = v;
    } else if (FLAGS.has(a)) on.add(a);
    else if (a.startsWith("--")) return `不认识的选项：${a}`;
    else positional.push(a);
  }
  const list = EXERCISES.map((e) => `${e.n} ${e.title}`).join("、");
  if (positional.length === 0) return `要说是第几个练习：${list}`;
  const ex = parseExercise(positional[0]);
  if (ex === undefined) return `没有这个练习：${positional[0]}。有的是：${list}`;
  let hint: HintLevel | undefined;
  if (on.has("--hint")) {
    const level = positional[1] ?? "1";
    hint = HINT_LEVELS.find((l) => String(l) === level);
    if (hint === undefined) return `提示只有 1–4 级，没有「${level}」：1 README 的讲解，2 签名和文档注释，3 骨架，4 答案。`;
  } else if (positional.length > 1) return `多了参数：${positional.slice(1).join(" ")}`;
  if (on.has("--solution") && values["--file"] !== undefined) return "--solution 和 --file 只能选一个";
  // --reset 重写的是练习文件；和 --solution 一起，重写的就成了参考答案
  if (on.has("--solution") && on.has("--reset")) return "--solution 和 --reset 只能选一个：参考答案不重置";
  return { ex, check: on.has("--check"), solution: on.has("--solution"), reset: on.has("--reset"), hint, part: values["--part"], file: values["--file"] };
}

const VERB = { function: "写出整个函数体", manifest: "写出清单（pi 键）" } as const;

/** 写练习文件（练习 3 是一个包的文件夹），旁边放一份给编辑器看的 tsconfig.json；已有的换成 .bak。 */
export function writeStub(ex: Exercise, target: string): string[] {
  const stub = makeStub(ex);
  const lines: string[] = [];
  if (existsSync(target)) {
    rmSync(`${target}.bak`, { recursive: true, force: true });
    cpSync(target, `${target}.bak`, { recursive: true });
    rmSync(target, { recursive: true, force: true });
    lines.push(`--reset：你原来写的存到了 ${shownPath(target)}.bak`);
  }
  writeExerciseFiles(target, stub.files);
  mkdirSync(graduationDir(), { recursive: true });
  writeFileSync(join(graduationDir(), "tsconfig.json"), editorConfig());
  lines.push(`写好了 ${shownPath(target)}：要你写的 ${stub.stubs.length} 处是空白。`);
  for (const s of stub.stubs) lines.push(`  ${s.blank.file === "" ? "" : `${s.blank.file} `}第 ${String(s.line).padStart(3)} 行  ${VERB[s.blank.kind]}：${s.blank.name}`);
  lines.push(
    "",
    ex.blanks.some((b) => b.kind === "function") ? `函数体现在是一句 throw new Error("TODO 毕业 ${ex.n}：…")，换成你的实现；类型、签名、注释都在，别改它们。` : "",
    ex.blanks.some((b) => b.kind === "manifest") ? "package.json 的 pi 键现在是空的 {}，写上这个包要 Pi 装的东西。" : "",
    `旁边的 ${shownPath(join(graduationDir(), "tsconfig.json"))} 让编辑器认得 Pi 的类型（Pi 的包装在 fidelity/ 里，第一次检查时会装）。`,
    `检查：npm run graduate -- ${ex.n}`,
    `卡住了要提示：npm run graduate -- ${ex.n} --hint`,
  );
  return lines.filter((l, i) => l !== "" || lines[i - 1] !== "");
}

/** 挑出要讲的那一处：--part 点名的，或者练习文件里第一处还没写的（还没有练习文件就是第一处）。 */
function pickStub(stubs: readonly GraduationStub[], target: string, part: string | undefined): { stub?: GraduationStub; why: string; left: number } | string {
  const files = readExerciseFiles(target);
  const open = files === undefined ? [...stubs] : openGraduationStubs(stubs, files);
  if (part !== undefined) {
    const stub = stubs.find((s) => s.name === part || s.blank.name === part);
    if (stub === undefined) return `没有叫「${part}」的空白。这个练习挖掉的：${stubs.map((s) => s.blank.name).join("、")}`;
    return { stub, why: "你用 --part 指定的这一处", left: open.length };
  }
  return { stub: open[0], why: files === undefined ? "还没有练习文件，从第一处讲起" : "练习文件里第一处还没写的", left: open.length };
}

/** 一级提示的全文（要打印的字）；参数不对是一句话。 */
export function hintText(ex: Exercise, target: string, level: HintLevel, part: string | undefined): { ok: boolean; text: string } {
  const { stubs } = makeStub(ex);
  const picked = pickStub(stubs, target, part);
  if (typeof picked === "string") return { ok: false, text: picked };
  const { stub, why, left } = picked;
  if (stub === undefined) return { ok: true, text: `${shownPath(target)} 里的 ${stubs.length} 处空白都写完了。检查：npm run graduate -- ${ex.n}` };
  const again = (l: number): string => `npm run graduate -- ${ex.n} --hint ${l}${part === undefined ? "" : ` --part ${stub.blank.name}`}`;
  const next = HINT_LEVELS.find((l) => l === level + 1);
  const lines = [
    `毕业练习 ${ex.n} · ${stub.name}：${VERB[stub.blank.kind]}（README「${ex.section}」）`,
    `  ${why}；还没写的有 ${left} 处。`,
    "",
    `第 ${level}/${HINT_LEVELS.length} 级 · ${LEVEL_NAMES[level]}`,
    "",
    graduationHint(ex, stub, level),
    "",
    next === undefined ? `这就是答案了。合上它自己写一遍，再检查：npm run graduate -- ${ex.n}` : `还卡着？下一级是${LEVEL_NAMES[next].split("：")[0]}：${again(next)}`,
    ...(next === undefined ? [] : [`写好了就检查：npm run graduate -- ${ex.n}`]),
  ];
  return { ok: true, text: lines.join("\n") };
}
