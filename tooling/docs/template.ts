/**
 * 文档检查：模板（§6.2）。写 README 的人要做到：
 *
 *   第 1 行是 `# sNN: <主题> — <点题>`（长破折号 `—`）。它和 `## 问题` 之间只有引用块：先是格言，再是 `Pi 边界：…`。
 *   然后恰好是这几个二级标题，按这个顺序：问题、解决方案、工作原理、试一下、接入主线、接下来、Pi 源码溯源（三级标题随意）。
 *   Pi 源码溯源的整个正文是一个 `<details>` … `</details>`（它的第一块和最后一块；不能是 `<details open>`）。
 */
import type { Nodes } from "mdast";
import { lineOf, lineText, linesOf, parseReadme } from "../markdown.ts";

/** §6.2 的二级标题，按顺序。 */
export const SECTIONS = ["问题", "解决方案", "工作原理", "试一下", "接入主线", "接下来", "Pi 源码溯源"] as const;

export function checkTemplate(lessonId: string, readme: string): string[] {
  const out: string[] = [];
  const say = (what: string): void => void out.push(`${lessonId} README 模板 (§6.2): ${what}`);
  const doc = parseReadme(readme);
  const first = doc.lines[0] ?? "";
  const title = /^# (s\d\d): (.+?) — (.+)$/.exec(first);
  if (!title) say(`line 1 must be "# ${lessonId}: <主题> — <点题>", got "${first}"`);
  else if (title[1] !== lessonId) say(`title names ${title[1]}, expected ${lessonId}`);

  const quotes: string[] = [];
  for (const node of doc.head.filter((n) => lineOf(n) > 1)) {
    if (node.type !== "blockquote") {
      say(`line ${lineOf(node)}: only the motto and Pi 边界 quote lines may stand between the title and ## 问题`);
      break;
    }
    // Markdown 允许紧跟在 `> …` 后面的普通一行接着算引用（「懒」续行）；模板要求每一行都写 `>`
    const lazy = doc.lines.slice(lineOf(node) - 1, node.position?.end.line).findIndex((l) => l.trim() !== "" && !/^ {0,3}>/.test(l));
    if (lazy !== -1) say(`line ${lineOf(node) + lazy}: every line between the title and ## 问题 starts with \`>\` (the motto, then Pi 边界)`);
    for (const l of linesOf(node.children)) if (lineText(l).trim() !== "") quotes.push(lineText(l).trim());
  }
  const boundary = quotes.findIndex((q) => /^Pi 边界[：:]\s*\S/.test(q));
  if (quotes.length === 0 || boundary === 0) say("missing the motto quote line `> …` after the title");
  if (boundary === -1) say("missing the quote line `> Pi 边界：…`");

  const got = doc.sections.map((s) => s.name);
  if (got.join("|") !== SECTIONS.join("|")) {
    const missing = SECTIONS.filter((s) => !got.includes(s));
    const extra = got.filter((s) => !(SECTIONS as readonly string[]).includes(s));
    const detail = [
      missing.length > 0 ? `missing ${missing.map((s) => `## ${s}`).join(", ")}` : "",
      extra.length > 0 ? `unexpected ${extra.map((s) => `## ${s}`).join(", ")}` : "",
      missing.length === 0 && extra.length === 0 ? `got ${got.map((s) => `## ${s}`).join(", ")}` : "",
    ].filter((s) => s !== "");
    say(`H2 sections must be exactly ${SECTIONS.map((s) => `## ${s}`).join(", ")} in this order; ${detail.join("; ")}`);
  }

  const trace = doc.sections.find((s) => s.name === "Pi 源码溯源");
  if (trace) {
    const source = (n: Nodes | undefined): string => (n?.position ? readme.slice(n.position.start.offset, n.position.end.offset) : "");
    const head = source(trace.nodes[0]);
    const opens = /^\s*<details(\s[^>]*)?>/.test(head) && !/^\s*<details[^>]*\bopen\b/.test(head);
    const closes = /<\/details>\s*$/.test(source(trace.nodes.at(-1)));
    if (!opens || !closes) say("## Pi 源码溯源 must be folded: its body is one <details> … </details> (not open)");
  }
  return out;
}
