// npm run hint -- s04 [级别] [--part 名字]：练习时卡住了，要一级提示，不要答案。
// 默认讲练习文件里第一处还没写的空白，按阶段的顺序（tooling/practice/stage-lookup.ts 的 inStageOrder，和 check 停的阶段一致；还没有练习文件就是第一处）；--part 换一处。级别 1–4（tooling/practice/hints.ts）：
// 1 README 的讲解、2 签名和文档注释、3 骨架、4 答案。每次只打印要的那一级，末尾说下一级怎么要。
// 参数不对（没有这一课、级别不在 1–4、没有这一处）时说一句清楚的话，退出码 2。
import { existsSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import { LESSONS, ROOT, lessonDir } from "../../tooling/course.ts";
import { inStageOrder, stageOfStub, stagesOf } from "../../tooling/practice/stage-lookup.ts";
import { HINT_LEVELS, type HintLesson, type HintLevel, LEVEL_NAMES, currentStub, hintBody, openStubs, partArg } from "../../tooling/practice/hints.ts";
import { parseLesson, practiceFile } from "../../tooling/practice/lesson-arg.ts";
import { type Stub, makePractice } from "../../tooling/practice/stub.ts";

const VERB: Record<Stub["kind"], string> = { body: "写出整个函数体", rewrite: "改写整个函数体", part: "补上这一课改的那几条语句" };

/** 一次命令的结果：退出码和要打印的字。 */
export type HintRun = { code: number; stdout: string; stderr: string };

/** 命令要的外部东西：一课的练习空白（按练习的顺序）、代码和 README，学习者的练习文件（没有是 undefined）。测试里可以换掉。 */
export type HintWorld = {
  stubs: (id: string) => readonly Stub[];
  lesson: (id: string) => HintLesson;
  practice: (id: string) => string | undefined;
};

export const realWorld: HintWorld = {
  // verify: false：挖哪些、挖成什么和 npm run practice 一样，只是不再做一遍类型检查（那要好几秒）
  stubs: (id) => inStageOrder(id, makePractice(id, { verify: false }).stubs),
  lesson: (id) => ({ code: readFileSync(join(ROOT, lessonDir(id), "code.ts"), "utf8"), readme: readFileSync(join(ROOT, lessonDir(id), "README.md"), "utf8") }),
  practice: (id) => (existsSync(practiceFile(id)) ? readFileSync(practiceFile(id), "utf8") : undefined),
};

const USAGE = "用法：npm run hint -- s04 [1-4] [--part 名字]";
const bad = (message: string): HintRun => ({ code: 2, stdout: "", stderr: `${message}\n${USAGE}\n` });

/** 解析参数、挑出那一处、打印那一级。 */
export function hint(args: readonly string[], world: HintWorld = realWorld): HintRun {
  const positional: string[] = [];
  let part: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === "--part") {
      part = args[++i];
      if (part === undefined || part.startsWith("--")) return bad("--part 后面要跟一处空白的名字，比如 --part ToolRegistry.run");
    } else if (a.startsWith("--part=")) part = a.slice("--part=".length);
    else if (a.startsWith("--")) return bad(`不认识的选项：${a}`);
    else positional.push(a);
  }
  if (positional.length === 0) return bad(`要说是哪一课。\n已有的课：${LESSONS.join(" ")}`);
  const id = parseLesson(positional[0]);
  if (id === undefined) return bad(`没有这一课：${positional[0]}\n已有的课：${LESSONS.join(" ")}`);
  if (positional.length > 2) return bad(`多了参数：${positional.slice(2).join(" ")}`);
  const levelArg = positional[1] ?? "1";
  const level = HINT_LEVELS.find((l) => String(l) === levelArg);
  if (level === undefined) return bad(`提示只有 1–4 级，没有「${levelArg}」：1 README 的讲解，2 签名和文档注释，3 骨架，4 答案。`);

  const stubs = world.stubs(id);
  const practice = world.practice(id);
  const open = openStubs(stubs, practice);
  let stub: Stub | undefined;
  let why: string;
  if (part !== undefined) {
    const named = stubs.filter((s) => s.name === part || s.name.split(/ › |\./).at(-1) === part);
    const names = [...new Set(named.map((s) => s.name))];
    if (named.length === 0 || names.length > 1) {
      const all = [...new Set(stubs.map((s) => s.name))].join("、");
      return bad(named.length === 0 ? `${id} 没有叫「${part}」的空白。这一课挖掉的：${all}` : `「${part}」不止一处：${names.join("、")}，写全名。`);
    }
    stub = named.find((s) => open.includes(s)) ?? named[0];
    why = "你用 --part 指定的这一处";
  } else if (practice === undefined) {
    stub = stubs[0];
    why = `还没有练习文件（npm run practice -- ${id} 生成），从第一处讲起`;
  } else {
    stub = currentStub(stubs, practice);
    why = "练习文件里第一处还留着 TODO 的";
  }
  if (stub === undefined) {
    return { code: 0, stdout: `${relative(ROOT, practiceFile(id))} 里的 ${stubs.length} 处空白都写完了。检查：npm run check -- ${id}\n要看某一处的提示：npm run hint -- ${id} --part 名字\n`, stderr: "" };
  }
  // 学习者写了几处以后行号会挪：throw 那句话在文件里只有一处时，报它现在的行号
  const needle = `throw new Error(${JSON.stringify(stub.message)});`;
  const at = practice?.indexOf(needle) ?? -1;
  const line = practice !== undefined && at >= 0 && practice.indexOf(needle, at + 1) < 0 ? practice.slice(0, at).split("\n").length : stub.line;
  return { code: 0, stdout: render(id, world.lesson(id), { ...stub, line }, level, why, part, open.length), stderr: "" };
}

function render(id: string, lesson: HintLesson, stub: Stub, level: HintLevel, why: string, part: string | undefined, left: number): string {
  const again = (l: number): string => `npm run hint -- ${id} ${l}${part === undefined ? "" : ` --part ${partArg(stub.name)}`}`;
  const stage = stageOfStub(id, stub.name);
  const lines = [
    ...(stage === undefined ? [] : [`${id} 第 ${stage.number} 阶段（共 ${stagesOf(id).length} 个）：${stage.stage.title} —— ${stage.stage.asks}`]),
    `${id} · ${stub.name}：${VERB[stub.kind]}（练习文件第 ${stub.line} 行，README「${stub.section}」）`,
    `  ${why}；还没写的有 ${left} 处。`,
    "",
    `第 ${level}/${HINT_LEVELS.length} 级 · ${LEVEL_NAMES[level]}`,
    "",
    hintBody(lesson, stub, level),
    "",
  ];
  const next = HINT_LEVELS.find((l) => l === level + 1);
  if (next === undefined) lines.push(`这就是答案了。合上它自己写一遍，再检查：npm run check -- ${id}`);
  else lines.push(`还卡着？下一级是${LEVEL_NAMES[next].split("：")[0]}：${again(next)}`, `写好了就检查：npm run check -- ${id}`);
  return `${lines.join("\n")}\n`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const out = hint(process.argv.slice(2));
  process.stdout.write(out.stdout);
  process.stderr.write(out.stderr);
  process.exitCode = out.code;
}
