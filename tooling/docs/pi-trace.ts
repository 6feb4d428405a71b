/**
 * 文档检查：Pi 源码溯源。写 README 的人要做到：
 *
 *   反引号里的 Pi 名字（`SessionManager.branch`、`runAgentLoop()`；查前两截）和路径（`packages/…`、`docs/x.md`、简写的
 *   `agent/…` `ai/…` `ca/…`、只写文件名的 `agent-loop.ts`）在 Pi 1.6.0 里都得有（tooling/pi-index.json）；正文、链接和
 *   代码块里的 `packages/…`、`docs/….md` 路径也一样。这一课代码里的名字、带引号的字符串和带空格的片段跳过：
 *   Pi 的字符串值要加引号写。
 */
import { findSection, linesOf, walk } from "../markdown.ts";
import { type DocsContext, type PiLookup } from "./context.ts";
import { FILE_EXT, classifySpan, spansOfLine } from "./spans.ts";
import { codeTokens } from "../names.ts";

const SHORT_PATHS: Readonly<Record<string, string>> = { "ai/": "packages/ai/src/", "agent/": "packages/agent/src/", "ca/": "packages/coding-agent/src/" };
const PI_REPO_URL = /^https?:\/\/github\.com\/earendil-works\/pi\/(?:blob|tree)\/[^/]+\/(.+)$/;
const PI_PATH_IN_TEXT = /(?<![\w/.-])(?:packages\/[\w./-]+|docs\/[\w./-]+\.md)/g;

/** 引用的路径在 Pi 里有没有；这段文字根本不是在引用 Pi 的路径时回 undefined。 */
export function piPathExists(raw: string, pi: PiLookup): boolean | undefined {
  const files = piPathFiles(raw, pi);
  return files === undefined ? undefined : files.length > 0;
}

/** 一处引用落到 Pi 仓库的哪些路径（一个文件、一个文件夹，或只写文件名时对上的那几个）；不是 Pi 的路径时回 undefined。 */
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
        if (path.every((p) => tokens.has(p))) continue; // 这一课自己的名字
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
