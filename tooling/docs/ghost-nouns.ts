/**
 * 文档检查：没有幽灵名词（Pi 源码溯源以外的每一节）。
 *
 *   不带空格的行内代码，只要不是路径、文件名、命令词、短横线连起来的词、数字、课号（`s04`）或规则编号（`R5`、`U1`），
 *   就读成名字（`A`、`A.b`、`A#b`、`fn()`、`A<B>`）：每一截都得是这一课 code.ts 里的标识符、关键字或字符串字面量的内容
 *   （注释里的不算），要么整条路径是 JavaScript 自己的（`structuredClone`、`toString`、`Promise.all`；`ToolRegistry.find`
 *   不算，见 isJsBuiltinPath）。带引号的字面量（`"toolUse"`，有空格也算）必须在 code.ts 里出现。
 *   正文里像代码的词守同一条规矩：驼峰（小写字母后面跟大写：`maxTurns`、`ContextBlock`）、下划线连起来的词、调用
 *   `name()`；产品名（PRODUCT_WORDS）和文件名（APPEND_SYSTEM.md）放行。这一课用 U1 去掉的名字（s03 的 `complete`）
 *   可以出现。Pi 1.6.0 的名字（声明或字符串字面量类型，比如 agent_start，见 tooling/pi-index.json）出现在说 Pi 的那一行、
 *   或表头写着 Pi 的那一栏里，就是 Pi 的。
 *   接入主线里，后面课的名字后面必须紧跟一个标签：`ToolCall`（s04 加）或 `ToolCall` (s04 加)（「起」「引入」「新增」
 *   也行，不写动词也行）；用 、 , / 和 连起来的一串名字后面跟一个标签，整串都算。标签必须是引入这个名字的那一课；
 *   标着前面课的标签只是普通文字。
 */
import type { Nodes } from "mdast";
import { toString } from "mdast-util-to-string";
import { keyInfo } from "../api/keys.ts";
import { lessonNumber } from "../course.ts";
import { type Section, containers, inlineLines, lineText, parseReadme, walk } from "../markdown.ts";
import { TS_WORDS, codeTokens } from "../names.ts";
import { type DocsContext, laterLesson } from "./context.ts";
import { IGNORED_WORDS, PRODUCT_WORDS, type Span, classifySpan, ghostLooking, isJsBuiltinPath, proseTokens, spansOfLine } from "./spans.ts";

const SAYS_PI = /(?<![\w-])Pi(?![\w-])/;

/** 这一课的 U1 升级去掉的名字（前一课有、这一课的报告里没了的键）：它的 README 里可以出现。 */
function removedNames(ctx: DocsContext): Set<string> {
  const out = new Set<string>();
  if (!ctx.prevReport || !ctx.report) return out;
  for (const key of Object.keys(ctx.prevReport)) {
    if (key in ctx.report) continue;
    const info = keyInfo(key);
    if (info) for (const t of info.tokens) out.add(t);
  }
  return out;
}

/** 判一节要用的东西：报错往哪里放、是不是接入主线、这一课认得哪些名字。 */
type Judge = {
  lessonId: string;
  ctx: DocsContext;
  mainline: boolean;
  say(what: string): void;
  /** 路径的每一截都是这一课的（代码里的词、U1 升级去掉的名字、TypeScript 的词），或者整条路径是 JavaScript 定义的。 */
  known(parts: readonly string[]): boolean;
};

/** 接入主线里带标签的后面课的名字：标签得对。回它是不是按标签处理了。 */
function checkLabel(j: Judge, shown: string, parts: readonly string[], label: string | undefined): boolean {
  if (!j.mainline || label === undefined || lessonNumber(label) <= lessonNumber(j.lessonId)) return false;
  const firsts = parts.map((p) => j.ctx.origins.get(p)?.lesson).filter((l): l is string => l !== undefined);
  const first = firsts.length === parts.length ? firsts.reduce((a, b) => (lessonNumber(a) >= lessonNumber(b) ? a : b)) : undefined;
  if (first !== undefined && first !== label) j.say(`\`${shown}\` is labelled (${label} 加) but first appears in ${first}`);
  else if (first === undefined && j.ctx.reported.has(label)) j.say(`\`${shown}\` is labelled (${label} 加) but ${label}'s API report does not have it`);
  return true;
}

/** 既不是这一课的、（在说 Pi 的那一行上）也不是 Pi 的名字：幽灵；在接入主线里，后面课的名字要带标签。 */
function checkName(j: Judge, shown: string, parts: readonly string[], where: string, saysPi: boolean): void {
  const later = parts.map((p) => laterLesson(p, j.lessonId, j.ctx)).find((l) => l !== undefined);
  if (j.mainline && later !== undefined) {
    j.say(`\`${shown}\`${where} comes from ${later}: label it right after the name, \`${shown}\`（${later} 加）`);
    return;
  }
  // 说是 Pi 的那一行上的 Pi 1.6.0 名字（`Pi 里叫 ExtensionFactory`）让读者去看 Pi，不是看 code.ts
  const piName = saysPi && (j.ctx.pi.hasName(parts.slice(0, 2).join(".")) || (parts.length === 1 && j.ctx.pi.hasLiteral(parts[0] ?? "")));
  if (!j.known(parts) && !piName) j.say(`ghost noun \`${shown}\`${where} (not in ${j.ctx.lessonDir}/code.ts)`);
}

/** 带引号的字面量必须在 code.ts 里；或者在接入主线里标着后面的某一课，那就得在那一课第一次出现。 */
function checkLiteral(j: Judge, value: string, label: string | undefined): void {
  if (j.mainline && label !== undefined && lessonNumber(label) > lessonNumber(j.lessonId)) {
    const first = j.ctx.origins.get(value)?.lesson;
    if (first !== label) j.say(`\`"${value}"\` is labelled (${label} 加) but ${first === undefined ? "no lesson introduces it" : `first appears in ${first}`}`);
  } else if (!j.ctx.code.includes(value)) j.say(`ghost literal \`"${value}"\` (not in ${j.ctx.lessonDir}/code.ts)`);
}

function checkSpan(j: Judge, span: Span, saysPi: boolean): void {
  const kind = classifySpan(span.text);
  if (kind.kind === "ignore") return;
  if (kind.kind === "literal") return checkLiteral(j, kind.value, span.label);
  for (const lit of kind.literals) if (!j.ctx.code.includes(lit)) j.say(`ghost literal \`"${lit}"\` (not in ${j.ctx.lessonDir}/code.ts)`);
  for (const path of kind.paths) if (!checkLabel(j, path.join("."), path, span.label)) checkName(j, path.join("."), path, "", saysPi);
}

/** 表头点名 Pi 的那一栏的格子（`| | 课程 | Pi 1.6.0 |`）：它们说的是 Pi。 */
function piColumnCells(nodes: readonly Nodes[]): Set<Nodes> {
  const cells = new Set<Nodes>();
  walk(nodes, (n) => {
    if (n.type !== "table") return;
    n.children[0]?.children.forEach((head, i) => {
      if (SAYS_PI.test(toString(head))) for (const row of n.children.slice(1)) if (row.children[i]) cells.add(row.children[i]);
    });
  });
  return cells;
}

function checkSection(j: Judge, section: Section): void {
  const piCells = piColumnCells(section.nodes);
  for (const container of containers(section.nodes)) {
    for (const line of inlineLines(container)) {
      const saysPi = piCells.has(container) || SAYS_PI.test(lineText(line));
      for (const span of spansOfLine(line)) checkSpan(j, span, saysPi);
      // 正文：像代码的词也是名字，也得是这一课的。接入主线之外出现的后面课的名字归词汇检查报（它是真名字，只是来得太早）。
      for (const t of proseTokens(line, ghostLooking)) {
        if (PRODUCT_WORDS.has(t.name) || IGNORED_WORDS.has(t.name)) continue;
        if (!j.mainline && laterLesson(t.name, j.lessonId, j.ctx) !== undefined) continue;
        if (!checkLabel(j, t.shown, [t.name], t.label)) checkName(j, t.shown, [t.name], " in prose", saysPi);
      }
    }
  }
}

export function checkGhostNouns(lessonId: string, readme: string, ctx: DocsContext): string[] {
  const out: string[] = [];
  const tokens = codeTokens(ctx.code);
  const removed = removedNames(ctx);
  const ours = (part: string): boolean => tokens.has(part) || removed.has(part) || TS_WORDS.has(part);
  const known = (parts: readonly string[]): boolean => parts.every(ours) || isJsBuiltinPath(parts);
  for (const section of parseReadme(readme).sections) {
    if (section.name === "Pi 源码溯源") continue;
    const say = (what: string): void => void out.push(`${lessonId} README ${section.name}: ${what}`);
    checkSection({ lessonId, ctx, mainline: section.name === "接入主线", say, known }, section);
  }
  return [...new Set(out)];
}
