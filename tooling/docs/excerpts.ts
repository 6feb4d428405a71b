/**
 * 文档检查：代码片段（Pi 源码溯源以外的每一节）。写 README 的人要做到：
 *
 *   ```ts / ```typescript 代码块必须是这一课 code.ts 里连续的几行，一字不差（缩进也算；行尾空白和代码块首尾的空行不算）。
 *   一行 `// …`（或 `// ...`，缩进随意，后面可以跟字）表示这里省掉了几行：几个记号之间的每一段都得是 code.ts 里
 *   连续的几行，按代码里的先后。
 *   片段停在哪里要老实：在片段里开头的每个声明、语句或代码块，也在片段里结束——要么片段最后一行是 `// …` 记号。
 *   （可以从一个代码块中间开始：只给一个函数最后几行，连同收尾的大括号，没问题。）
 */
import ts from "typescript";
import { lineOf, parseReadme, walk } from "../markdown.ts";
import type { DocsContext } from "./context.ts";

/** 这几种语言的代码块是这一课 code.ts 的片段。 */
const EXCERPT_LANGS: ReadonlySet<string> = new Set(["ts", "typescript"]);

/** 说「这里省掉了几行」的那一行。 */
export const OMISSION_MARK = /^\s*\/\/\s*(?:…|\.\.\.)/;

const codeLines = (code: string): string[] =>
  code
    .replace(/\r\n?/g, "\n")
    .split("\n")
    .map((l) => l.trimEnd());

/** 一段连续的行在 `lines` 里从第 `from` 行起的位置：第一行的下标，或者最好的一次试到了哪一行。 */
function placeRun(run: readonly string[], lines: readonly string[], from: number): { at: number } | { differsAt: number } {
  let best = 0;
  for (let start = from; start < lines.length; start++) {
    let k = 0;
    while (k < run.length && lines[start + k] === run[k]) k++;
    if (k === run.length) return { at: start };
    best = Math.max(best, k);
  }
  return { differsAt: best };
}

/**
 * `excerpt`（一行行，行尾空白已去掉）在 `code` 里的位置：`// …` 记号隔开的每一段，各是代码里连续的几行，按先后。
 * 回 `{ ok: true, first, last }`（片段占的代码行，从 0 数，省掉的行也算在内），或者片段里哪一行怎么放都过不去。
 */
export function findExcerpt(excerpt: readonly string[], code: string): { ok: true; first: number; last: number } | { ok: false; differsAt: number } {
  const lines = codeLines(code);
  const runs: { lines: string[]; offset: number }[] = [{ lines: [], offset: 0 }];
  excerpt.forEach((line, i) => {
    if (OMISSION_MARK.test(line)) runs.push({ lines: [], offset: i + 1 });
    else runs.at(-1)?.lines.push(line);
  });
  let from = 0;
  let first: number | undefined;
  let last = 0;
  for (const run of runs) {
    if (run.lines.length === 0) continue;
    const placed = placeRun(run.lines, lines, from);
    if ("differsAt" in placed) return { ok: false, differsAt: run.offset + placed.differsAt };
    first ??= placed.at;
    last = placed.at + run.lines.length - 1;
    from = last + 1;
  }
  return { ok: true, first: first ?? 0, last };
}

const sources = new Map<string, ts.SourceFile>();

/** 在代码第 first..last 行（从 0 数）里开头、却在它们之后才结束的最外层语法节点，有的话。 */
export function openNodeIn(code: string, first: number, last: number): { kind: string; line: number; endLine: number } | undefined {
  let sf = sources.get(code);
  if (sf === undefined) {
    sf = ts.createSourceFile("code.ts", code, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
    sources.set(code, sf);
  }
  const file = sf;
  const from = file.getPositionOfLineAndCharacter(first, 0);
  const lineStarts = file.getLineStarts();
  const to = last + 1 < lineStarts.length ? (lineStarts[last + 1] ?? file.end) - 1 : file.end;
  const find = (node: ts.Node): ts.Node | undefined => {
    const start = node.getStart(file);
    if (start >= from && start <= to && node.getEnd() > to) return node;
    if (node.getEnd() <= from || start > to) return undefined;
    return node.forEachChild(find);
  };
  const open = file.forEachChild(find);
  if (open === undefined) return undefined;
  const line = (pos: number): number => file.getLineAndCharacterOfPosition(pos).line + 1;
  return { kind: ts.SyntaxKind[open.kind] ?? "node", line: line(open.getStart(file)), endLine: line(open.getEnd()) };
}

export function checkCodeExcerpts(lessonId: string, readme: string, ctx: DocsContext): string[] {
  const out: string[] = [];
  for (const section of parseReadme(readme).sections) {
    if (section.name === "Pi 源码溯源") continue;
    walk(section.nodes, (b) => {
      if (b.type !== "code" || !EXCERPT_LANGS.has((b.lang ?? "").toLowerCase())) return;
      const excerpt = b.value.split("\n").map((l) => l.trimEnd());
      while (excerpt.length > 0 && excerpt[0] === "") excerpt.shift();
      while (excerpt.length > 0 && excerpt.at(-1) === "") excerpt.pop();
      if (excerpt.length === 0) return;
      const where = `${lessonId} README ${section.name}: code excerpt at line ${lineOf(b)}`;
      const found = findExcerpt(excerpt, ctx.code);
      if (!found.ok) {
        out.push(`${where} is not in ${ctx.lessonDir}/code.ts (first differing line: "${excerpt[found.differsAt] ?? ""}")`);
        return;
      }
      if (OMISSION_MARK.test(excerpt.at(-1) ?? "")) return;
      const open = openNodeIn(ctx.code, found.first, found.last);
      if (open !== undefined) {
        out.push(
          `${where} stops inside code.ts's ${open.kind} of line ${open.line}, which ends at line ${open.endLine}: show it to its end, or end the excerpt with a \`// …\` line`,
        );
      }
    });
  }
  return out;
}
