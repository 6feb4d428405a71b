/**
 * Docs check: 代码片段 (every section but Pi 源码溯源). What a README writer must do to pass:
 *
 *   A ```ts / ```typescript block must be a contiguous run of this lesson's code.ts lines, exactly
 *   (indentation included; trailing whitespace and the block's leading/trailing blank lines ignored).
 */
import { lineOf, parseReadme, walk } from "../markdown.ts";
import type { DocsContext } from "./context.ts";

/** Fence languages whose blocks are excerpts of the lesson's code.ts. */
const EXCERPT_LANGS: ReadonlySet<string> = new Set(["ts", "typescript"]);

/**
 * Where `excerpt` (lines, trailing whitespace already trimmed) sits in `code` as a contiguous run of
 * lines: `{ ok: true }`, or the index of the excerpt's first line that no placement gets past.
 */
export function findExcerpt(excerpt: readonly string[], code: string): { ok: true } | { ok: false; differsAt: number } {
  const lines = code.replace(/\r\n?/g, "\n").split("\n").map((l) => l.trimEnd());
  let best = 0;
  for (let start = 0; start < lines.length; start++) {
    let k = 0;
    while (k < excerpt.length && lines[start + k] === excerpt[k]) k++;
    if (k === excerpt.length) return { ok: true };
    best = Math.max(best, k);
  }
  return { ok: false, differsAt: best };
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
      const found = findExcerpt(excerpt, ctx.code);
      if (found.ok) return;
      out.push(`${lessonId} README ${section.name}: code excerpt at line ${lineOf(b)} is not in ${ctx.lessonDir}/code.ts (first differing line: "${excerpt[found.differsAt] ?? ""}")`);
    });
  }
  return out;
}
