/**
 * Docs check: 代码片段 (every section but Pi 源码溯源). What a README writer must do to pass:
 *
 *   A ```ts / ```typescript block must be a contiguous run of this lesson's code.ts lines, exactly
 *   (indentation included; trailing whitespace and the block's leading/trailing blank lines ignored).
 *   A line `// …` (or `// ...`, any indentation, words after it allowed) marks lines left out: the runs
 *   between marks must each be contiguous code.ts lines, in the code's order.
 *   An excerpt is honest about where it stops: every declaration, statement or block that starts inside it
 *   also ends inside it — or its last line is a `// …` mark. (It may start inside a block: showing the last
 *   lines of a function, closing brace included, is fine.)
 */
import ts from "typescript";
import { lineOf, parseReadme, walk } from "../markdown.ts";
import type { DocsContext } from "./context.ts";

/** Fence languages whose blocks are excerpts of the lesson's code.ts. */
const EXCERPT_LANGS: ReadonlySet<string> = new Set(["ts", "typescript"]);

/** A line that says "lines left out here". */
export const OMISSION_MARK = /^\s*\/\/\s*(?:…|\.\.\.)/;

const codeLines = (code: string): string[] =>
  code
    .replace(/\r\n?/g, "\n")
    .split("\n")
    .map((l) => l.trimEnd());

/** Where a contiguous run of lines sits in `lines`, at or after line `from`: its first line's index, or how far the best try got. */
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
 * Where `excerpt` (lines, trailing whitespace already trimmed) sits in `code`: its runs between `// …` marks, each a
 * contiguous run of code lines, in order. `{ ok: true, first, last }` (0-based code lines the excerpt spans, omitted
 * lines included), or the index of the excerpt's first line that no placement gets past.
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

/** The outermost syntax node that starts on code lines first..last (0-based) and ends after them, if any. */
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
