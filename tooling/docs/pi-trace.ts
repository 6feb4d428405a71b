/**
 * Docs check: Pi 源码溯源. What a README writer must do to pass:
 *
 *   Backticked Pi names (`SessionManager.branch`, `runAgentLoop()`; the first two parts are checked) and
 *   paths (`packages/…`, `docs/x.md`, short `agent/…` `ai/…` `ca/…`, bare `agent-loop.ts`) must exist in
 *   Pi 1.6.0 (tooling/pi-index.json); `packages/…`/`docs/….md` paths in prose, links and blocks too. Names of
 *   this lesson's code, quoted strings and spans with spaces are skipped: write Pi string values quoted.
 */
import { findSection, linesOf, walk } from "../markdown.ts";
import { type DocsContext, type PiLookup } from "./context.ts";
import { FILE_EXT, classifySpan, spansOfLine } from "./spans.ts";
import { codeTokens } from "../names.ts";

const SHORT_PATHS: Readonly<Record<string, string>> = { "ai/": "packages/ai/src/", "agent/": "packages/agent/src/", "ca/": "packages/coding-agent/src/" };
const PI_REPO_URL = /^https?:\/\/github\.com\/earendil-works\/pi\/(?:blob|tree)\/[^/]+\/(.+)$/;
const PI_PATH_IN_TEXT = /(?<![\w/.-])(?:packages\/[\w./-]+|docs\/[\w./-]+\.md)/g;

/** Whether a cited path exists in Pi; undefined when the text is not a Pi path citation at all. */
export function piPathExists(raw: string, pi: PiLookup): boolean | undefined {
  const files = piPathFiles(raw, pi);
  return files === undefined ? undefined : files.length > 0;
}

/** The Pi repo paths a citation resolves to (a file, a folder, or a bare file name's matches); undefined when not a Pi path. */
export function piPathFiles(raw: string, pi: PiLookup): string[] | undefined {
  const url = PI_REPO_URL.exec(raw)?.[1];
  const p = (url ?? raw).replace(/^\.\//, "").replace(/(?::\d+(?:-\d+)?|#.*)$/, "").replace(/[.,;:)]+$/, "");
  if (/[*<>{}]/.test(p) || /^[.~]/.test(p) || /^s\d\d_/.test(p) || /^(?:tests|scripts)\//.test(p) || /^[a-z]+:/.test(p)) return undefined;
  const full = (q: string): string[] => (pi.hasPath(q) ? [q] : []);
  if (p.startsWith("packages/")) return full(p);
  if (p.startsWith("docs/")) return full(`packages/coding-agent/${p}`);
  for (const [short, long] of Object.entries(SHORT_PATHS)) if (p.startsWith(short)) return full(long + p.slice(short.length));
  if (!/\.(ts|js)$/.test(p)) return undefined;
  return pi.paths.filter((known) => known === p || known.endsWith(`/${p}`));
}

export function checkPiTrace(lessonId: string, readme: string, ctx: DocsContext): string[] {
  const section = findSection(readme, "Pi 源码溯源");
  if (!section) return [];
  const out: string[] = [];
  const say = (what: string): void => void out.push(`${lessonId} README Pi 源码溯源: ${what}`);
  const tokens = codeTokens(ctx.code);
  const plain: string[] = [];
  for (const line of linesOf(section.nodes)) {
    for (const piece of line.pieces) {
      if (piece.link !== undefined) plain.push(piece.link);
      if (!piece.code) plain.push(piece.value);
    }
    for (const span of spansOfLine(line)) {
      const text = span.text.trim();
      if (/^(["']).*\1$/s.test(text) || /\s/.test(text) || text === "") continue;
      if (text.includes("/") || FILE_EXT.test(text)) {
        if (piPathExists(text, ctx.pi) === false) say(`path \`${text}\` not found in Pi 1.6.0`);
        continue;
      }
      const kind = classifySpan(text);
      if (kind.kind !== "names") continue;
      for (const path of kind.paths) {
        if (path.every((p) => tokens.has(p))) continue; // a course name of this lesson
        if (!ctx.pi.hasName(path.slice(0, 2).join("."))) say(`\`${path.join(".")}\` not found in Pi 1.6.0`);
      }
    }
  }
  walk(section.nodes, (n) => {
    if (n.type === "code" || n.type === "html") plain.push(n.value);
  });
  for (const text of plain) {
    if (PI_REPO_URL.test(text)) {
      if (piPathExists(text, ctx.pi) === false) say(`path \`${text}\` not found in Pi 1.6.0`);
      continue;
    }
    for (const m of text.matchAll(PI_PATH_IN_TEXT)) {
      const p = m[0].replace(/[.,;:)]+$/, "");
      if (piPathExists(p, ctx.pi) === false) say(`path \`${p}\` not found in Pi 1.6.0`);
    }
  }
  return [...new Set(out)];
}
