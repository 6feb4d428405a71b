// 毕业练习的提示，和练习模式一样分四级（D43），都取自课程自己：
//   1 graduation/README.md 里讲这个练习的那一小节的正文（代码块不要）；
//   2 函数的文档注释和签名，函数体是 …（清单是 Pi 的 PiManifest 长什么样）；
//   3 骨架：注释和控制结构原样，表达式换成 …（清单是键原样、路径换成 …）；
//   4 答案：参考答案里挖掉的原文。
// 第 2–4 级对函数用的正是练习模式的那几个函数（tooling/practice/hints.ts 的 hintSource、codeHint、skeleton）。

import { readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { codeHint, ELIDED, type HintLevel, hintSource, indentBy, proseHint, skeleton } from "../practice/hints.ts";
import { ROOT } from "../course.ts";
import { type Exercise, solutionPath } from "./exercises.ts";
import type { GraduationStub } from "./stub.ts";

/** graduation/README.md 里放三个练习的那一节（### 练习 N：…）。 */
export const EXERCISES_SECTION = "三个练习";

export const readGraduationReadme = (): string => readFileSync(join(ROOT, "graduation", "README.md"), "utf8");

/** Pi 1.6.0 的 pi 键能写什么（packages/coding-agent/src/core/pi-manifest.ts 的 PiManifest）。 */
const MANIFEST_SHAPE = [
  "package.json 的 pi 键（Pi 的 PiManifest），四类资源各是一串相对包根的路径，可以用通配：",
  "",
  '"pi": {',
  '  "extensions"?: string[],',
  '  "skills"?: string[],',
  '  "prompts"?: string[],',
  '  "themes"?: string[]',
  "}",
].join("\n");

/** 清单的骨架：键原样，每个路径换成 …。 */
const manifestSkeleton = (code: string): string => `"pi": ${code.replace(/"(?:[^"\\]|\\.)*"(?=\s*[,\]\n])/g, (s, offset: number) => (code.slice(0, offset).trimEnd().endsWith(":") ? s : '"…"'))}`;

function solutionCode(ex: Exercise, stub: GraduationStub): string {
  const root = solutionPath(ex);
  return readFileSync(stub.blank.file === "" ? root : join(root, stub.blank.file), "utf8");
}

/** 一处空白第 level 级的提示正文。 */
export function graduationHint(ex: Exercise, stub: GraduationStub, level: HintLevel, readme: string = readGraduationReadme()): string {
  if (level === 1) return proseHint(readme, ex.section, EXERCISES_SECTION) ?? `（graduation/README.md 里没有叫「${ex.section}」的小节）`;
  if (stub.blank.kind === "manifest") {
    // 和函数一样逐级露出来：第 2 级是「签名」（pi 键能写什么），第 3、4 级在它下面再给这个包的骨架、答案
    if (level === 2) return MANIFEST_SHAPE;
    return `${MANIFEST_SHAPE}\n\n这个包的：\n\n${level === 3 ? manifestSkeleton(stub.code) : `"pi": ${stub.code}`}`;
  }
  const src = hintSource(solutionCode(ex, stub), { name: stub.blank.name, kind: "body" });
  if (src === undefined) throw new Error(`graduation: ${stub.blank.name} not found in ${ex.solution}`);
  // 第 3 级的骨架换成 extensionSkeleton：同一个函数，只是调用拆开一层
  return codeHint(src, level === 3 ? { code: extensionSkeleton(stub.code) } : stub, level === 3 ? 4 : level);
}

// ── 第 3 级：扩展的骨架 ─────────────────────────────────
/**
 * 扩展的函数体多半只是一两句 pi.registerTool(…)、pi.on(…)：练习模式的骨架会把整句换成 …，什么都看不出来。
 * 这里把这样的调用拆开一层：调用谁、传了几个参数原样留着，对象字面量留下键、值换成 …，函数留下参数、函数体照样是骨架。
 * 别的语句交给练习模式的 skeleton。
 */
export function extensionSkeleton(code: string): string {
  const sf = ts.createSourceFile("hint.ts", code, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const isCall = (st: ts.Statement): boolean => ts.isExpressionStatement(st) && ts.isCallExpression(st.expression);
  if (!sf.statements.some(isCall)) return skeleton(code);
  return sf.statements.map((st) => (ts.isExpressionStatement(st) && ts.isCallExpression(st.expression) ? `${callShape(st.expression, sf, "")};` : skeleton(st.getText(sf)))).join("\n");
}


function functionShape(fn: ts.ArrowFunction | ts.FunctionExpression | ts.MethodDeclaration, sf: ts.SourceFile, pad: string): string {
  const params = `(${fn.parameters.map((p) => p.name.getText(sf)).join(", ")})`;
  const async = fn.modifiers?.some((m) => m.kind === ts.SyntaxKind.AsyncKeyword) === true ? "async " : "";
  const head = ts.isMethodDeclaration(fn) ? `${async}${fn.name.getText(sf)}${params}` : ts.isArrowFunction(fn) ? `${async}${params} =>` : `${async}function ${params}`;
  if (fn.body === undefined || !ts.isBlock(fn.body)) return `${head} ${ELIDED}`;
  const inner = fn.body.statements.map((s) => s.getText(sf)).join("\n");
  return `${head} {\n${indentBy(skeleton(inner), `${pad}  `)}\n${pad}}`;
}

function argShape(arg: ts.Expression, sf: ts.SourceFile, pad: string): string {
  if (ts.isStringLiteral(arg)) return arg.getText(sf);
  if (ts.isArrowFunction(arg) || ts.isFunctionExpression(arg)) return functionShape(arg, sf, pad);
  if (!ts.isObjectLiteralExpression(arg)) return ELIDED;
  const props = arg.properties.map((p) => {
    if (ts.isMethodDeclaration(p)) return `${pad}  ${functionShape(p, sf, `${pad}  `)},`;
    return `${pad}  ${p.name?.getText(sf) ?? ELIDED}: ${ELIDED},`;
  });
  return `{\n${props.join("\n")}\n${pad}}`;
}

function callShape(call: ts.CallExpression, sf: ts.SourceFile, pad: string): string {
  return `${call.expression.getText(sf)}(${call.arguments.map((a) => argShape(a, sf, pad)).join(", ")})`;
}
