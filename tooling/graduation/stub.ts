// 毕业练习的文件从参考答案来，和练习模式一样（tooling/practice/stub.ts）：要学习者写的函数体换成一句
// `throw new Error("TODO 毕业 N：…")`，包的清单换成空的 `"pi": {}`；类型、签名、文档注释、import 原样留着。
// 同一个办法也用来造「看着像对的错误写法」（tests/graduation/）：把某个函数体换成别的写法，或者换一份清单。

import ts from "typescript";
import { findFunction } from "../practice/hints.ts";
import { type Blank, blankName, type Exercise, solutionPath } from "./exercises.ts";
import { readExerciseFiles } from "./files.ts";

/** 一个练习的文件：相对练习根的路径 → 内容。单文件的练习只有一项，路径是 ""。 */
export type ExerciseFiles = Record<string, string>;

/** 练习文件里的一处空白：它是哪一处、throw 的那句话（清单没有）、挖掉的原文（提示的第 4 级）、在文件里第几行。 */
export type GraduationStub = { blank: Blank; name: string; message?: string; code: string; line: number };

/** 参考答案的全部文件。 */
export function solutionFiles(ex: Exercise): ExerciseFiles {
  const files = readExerciseFiles(solutionPath(ex));
  if (files === undefined) throw new Error(`no reference solution at ${solutionPath(ex)}`);
  return files;
}

/** throw 出的那句话：还空着的地方一跑到就说出它是哪一处、回头读哪一节。 */
export const todoMessage = (ex: Exercise, blank: Blank): string => `TODO 毕业 ${ex.n}：写出 ${blank.name} —— 见 graduation/README.md「${ex.section}」`;

const parse = (code: string): ts.SourceFile => ts.createSourceFile("x.ts", code, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);

/** 函数 name 的函数体（不含花括号）和它的缩进；找不到就抛错（练习的数据和参考答案对不上了）。 */
function bodyOf(code: string, name: string): { start: number; end: number; inner: string; indent: string } {
  const sf = parse(code);
  const body = findFunction(sf, name)?.fn.body;
  if (body === undefined || !ts.isBlock(body)) throw new Error(`graduation: no function ${name} with a block body`);
  const start = body.getStart(sf);
  const lineStart = code.lastIndexOf("\n", start) + 1;
  const indent = /^[ \t]*/.exec(code.slice(lineStart))?.[0] ?? "";
  return { start, end: body.getEnd(), inner: code.slice(start + 1, body.getEnd() - 1), indent };
}

/** 把函数 name 的函数体换成 lines（每一行相对函数体缩进两格）。 */
export function replaceBody(code: string, name: string, lines: readonly string[]): string {
  const { start, end, indent } = bodyOf(code, name);
  const inner = lines.map((l) => (l === "" ? "" : `${indent}  ${l}`)).join("\n");
  return `${code.slice(0, start)}{\n${inner}\n${indent}}${code.slice(end)}`;
}

/** 换掉 package.json 的 pi 键（其余的键原样，缩进两格）。 */
export function withManifest(json: string, pi: unknown): string {
  const parsed = JSON.parse(json) as Record<string, unknown>;
  return `${JSON.stringify({ ...parsed, pi }, null, 2)}\n`;
}

/** 换掉开头那段注释（参考答案说自己是答案的那几行）：练习文件开头说这是练习、怎么检查。 */
function withHeader(code: string, ex: Exercise): string {
  const lines = code.split("\n");
  const first = lines.findIndex((l) => !l.startsWith("//"));
  const header = [ex.header, `// 每一处 TODO 换成你的实现；写完检查：npm run graduate -- ${ex.n}，卡住了要提示：npm run graduate -- ${ex.n} --hint`];
  return [...header, ...lines.slice(first)].join("\n");
}

/** 练习文件：每一处空白挖掉，.ts 文件的开头换成练习的说明。 */
export function makeStub(ex: Exercise): { files: ExerciseFiles; stubs: GraduationStub[] } {
  const files = solutionFiles(ex);
  const stubs: GraduationStub[] = [];
  for (const [path, content] of Object.entries(files)) if (path === "" || path.endsWith(".ts")) files[path] = withHeader(content, ex);
  for (const blank of ex.blanks) {
    const text = files[blank.file];
    if (text === undefined) throw new Error(`graduation: ${ex.solution} has no ${blank.file}`);
    if (blank.kind === "manifest") {
      const code = JSON.stringify((JSON.parse(text) as { pi?: unknown }).pi, null, 2);
      files[blank.file] = withManifest(text, {});
      stubs.push({ blank, name: blankName(blank), code, line: lineOf(files[blank.file] ?? "", '"pi"') });
      continue;
    }
    const message = todoMessage(ex, blank);
    const { inner } = bodyOf(text, blank.name);
    files[blank.file] = replaceBody(text, blank.name, [`throw new Error(${JSON.stringify(message)});`]);
    stubs.push({ blank, name: blankName(blank), message, code: inner.replace(/^\n/, "").replace(/\n[ \t]*$/, ""), line: lineOf(files[blank.file] ?? "", message) });
  }
  return { files, stubs };
}

const lineOf = (text: string, needle: string): number => text.slice(0, Math.max(0, text.indexOf(needle))).split("\n").length;

/** 练习文件里还没写的空白：函数体还是那句 throw，清单还是空的（或者没有 pi 键）。 */
export function openGraduationStubs(stubs: readonly GraduationStub[], files: Readonly<ExerciseFiles>): GraduationStub[] {
  return stubs.filter((s) => {
    const text = files[s.blank.file];
    if (text === undefined) return true;
    if (s.message !== undefined) return text.includes(`throw new Error(${JSON.stringify(s.message)});`);
    try {
      const pi = (JSON.parse(text) as { pi?: unknown }).pi;
      return pi === undefined || (typeof pi === "object" && pi !== null && Object.keys(pi).length === 0);
    } catch {
      return false;
    }
  });
}
