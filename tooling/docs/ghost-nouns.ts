/**
 * Docs check: no ghost nouns (every section but Pi 源码溯源).
 *
 *   A space-free inline code span that is not a path, filename, command word, kebab-case word, number,
 *   lesson id (`s04`) or rule id (`R5`, `U1`) is read as names (`A`, `A.b`, `A#b`, `fn()`, `A<B>`); every
 *   part must be an identifier/keyword token or string-literal content of this lesson's code.ts
 *   (comments don't count), or the whole path must be JavaScript's own (`structuredClone`, `toString`, `Promise.all`;
 *   not `ToolRegistry.find`: see isJsBuiltinPath). A quoted literal (`"toolUse"`, even with spaces) must occur in code.ts.
 *   Plain prose is held to the same rule for code-looking words: camelCase/PascalCase (a lowercase letter
 *   followed by an uppercase one: `maxTurns`, `ContextBlock`), snake_case, or a call `name()`; product
 *   names (PRODUCT_WORDS) and file names (APPEND_SYSTEM.md) pass. Names this lesson removes by U1 (s03
 *   `complete`) are allowed. A name of Pi 1.6.0 (a declaration or a string literal type such as
 *   agent_start, tooling/pi-index.json) on a line that says Pi, or in a table column headed Pi, is Pi's.
 *   In 接入主线, a later lesson's name only with a label right after it: `ToolCall`（s04 加） or `ToolCall` (s04 加)
 *   (also 起/引入/新增, or none); one label after a list joined by 、 , / 和 covers the list. The label
 *   must be the lesson that introduces the name. Earlier-lesson labels are just prose.
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

/** Names this lesson's U1 upgrades remove (prev keys gone from this report): allowed in its README. */
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

/** What judging one section needs: where the message goes, whether it is 接入主线, which names this lesson knows. */
type Judge = {
  lessonId: string;
  ctx: DocsContext;
  mainline: boolean;
  say(what: string): void;
  /** Every part of the path is this lesson's (code tokens, names its U1 upgrade removes, TypeScript words), or JavaScript defines the whole path. */
  known(parts: readonly string[]): boolean;
};

/** A later lesson's name in 接入主线 with a label: the label must be right. Returns whether it was handled. */
function checkLabel(j: Judge, shown: string, parts: readonly string[], label: string | undefined): boolean {
  if (!j.mainline || label === undefined || lessonNumber(label) <= lessonNumber(j.lessonId)) return false;
  const firsts = parts.map((p) => j.ctx.origins.get(p)?.lesson).filter((l): l is string => l !== undefined);
  const first = firsts.length === parts.length ? firsts.reduce((a, b) => (lessonNumber(a) >= lessonNumber(b) ? a : b)) : undefined;
  if (first !== undefined && first !== label) j.say(`\`${shown}\` is labelled (${label} 加) but first appears in ${first}`);
  else if (first === undefined && j.ctx.reported.has(label)) j.say(`\`${shown}\` is labelled (${label} 加) but ${label}'s API report does not have it`);
  return true;
}

/** A name that is neither this lesson's nor (on a line that says Pi) Pi's: a ghost; in 接入主线 a later name wants its label. */
function checkName(j: Judge, shown: string, parts: readonly string[], where: string, saysPi: boolean): void {
  const later = parts.map((p) => laterLesson(p, j.lessonId, j.ctx)).find((l) => l !== undefined);
  if (j.mainline && later !== undefined) {
    j.say(`\`${shown}\`${where} comes from ${later}: label it right after the name, \`${shown}\`（${later} 加）`);
    return;
  }
  // a name of Pi 1.6.0 on a line that says it is Pi's (`Pi 里叫 ExtensionFactory`) points the reader to Pi, not to code.ts
  const piName = saysPi && (j.ctx.pi.hasName(parts.slice(0, 2).join(".")) || (parts.length === 1 && j.ctx.pi.hasLiteral(parts[0] ?? "")));
  if (!j.known(parts) && !piName) j.say(`ghost noun \`${shown}\`${where} (not in ${j.ctx.lessonDir}/code.ts)`);
}

/** A quoted literal must be in code.ts — or, labelled with a later lesson in 接入主线, first appear in that lesson. */
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

/** The cells of a table column whose header names Pi (`| | 课程 | Pi 1.6.0 |`): they speak of Pi. */
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
      // plain prose: a code-looking word is a name too, and must be this lesson's. A later lesson's name outside
      // 接入主线 is the vocabulary check's to report (it is a real name, just too early).
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
