// 首页的「一轮对话的完整链路」（EVOLUTION.md §5）：不画图片、不靠前端脚本渲染 mermaid，而是从根 README
// 「一轮对话的完整链路（s12）」一节里那张文字表（步骤 | 做什么 | 哪一节 | 规则 | s12 里的函数）生成一串静态 HTML 框，
// 每一步链到它的课，函数名链到 s12 代码里的那一行。README 改了，图跟着变；表里多出或少了一步，生成直接报错。
import type { MarkdownRenderer } from "vitepress";
import type { Declaration } from "./codeview.ts";
import { type CodeIndex, linkCodesHtml } from "./codes.ts";
import type { Lesson } from "./course.ts";
import { escapeHtml } from "./html.ts";
import { withSiteBase } from "./base.ts";

export const CHAIN_HEADING = "## 一轮对话的完整链路";

/** 版式：哪几步在循环外、哪几步每次请求都重复。步骤名必须和 README 表的第一列一一对应。 */
export const LAYOUT = { before: ["①", "②", "③"], loop: ["④", "⑤", "⑥"], after: ["⑦"] } as const;

export type ChainRow = { step: string; what: string; lessons: string; rules: string; functions: string };

export type ChainSection = {
  /** 节标题下、图之前的说明（markdown）。 */
  intro: string;
  rows: ChainRow[];
  /** 表后面的说明（markdown）：另外几种收场，和 §5 伪代码不一样的那段。 */
  outro: string;
  /** mermaid 图里「旁路」那个框的文字（扩展、包），没有就是 undefined。 */
  bypass: string | undefined;
};

/** 从根 README 切出链路那一节，用 markdown-it（VitePress 自带的那个）解析里面的表。 */
export function readChain(readme: string, md: MarkdownRenderer): ChainSection {
  const start = readme.split("\n").findIndex((l) => l.startsWith(CHAIN_HEADING));
  if (start < 0) throw new Error(`README.md has no "${CHAIN_HEADING}" section`);
  const rest = readme.split("\n").slice(start + 1);
  const end = rest.findIndex((l) => l.startsWith("## "));
  const section = (end < 0 ? rest : rest.slice(0, end)).join("\n");

  const tokens = md.parse(section, {});
  const tableOpen = tokens.findIndex((t) => t.type === "table_open");
  const tableClose = tokens.findIndex((t) => t.type === "table_close");
  if (tableOpen < 0 || tableClose < 0) throw new Error("README.md chain section has no table");
  const rows: string[][] = [];
  let row: string[] = [];
  for (const t of tokens.slice(tableOpen, tableClose)) {
    if (t.type === "tr_open") row = [];
    if (t.type === "inline") row.push(t.content);
    if (t.type === "tr_close") rows.push(row);
  }
  const [header, ...body] = rows;
  if (header === undefined || header.length < 5) throw new Error("README.md chain table needs 5 columns");
  const lines = section.split("\n");
  const [firstTableLine, lastTableLine] = tokens[tableOpen].map ?? [0, 0];
  const mermaidOpen = tokens.find((t) => t.type === "fence" && t.info.trim() === "mermaid");
  const introEnd = mermaidOpen?.map?.[0] ?? firstTableLine;
  const intro = lines.slice(0, introEnd).join("\n").trim();
  // 表前那一句「同一条链，写成文字：」是给表的引子；图已经替代了表，引子不再要。
  const outro = lines.slice(lastTableLine).join("\n").trim();
  const bypassMatch = mermaidOpen === undefined ? null : /\bX\["([^"]+)"\]/.exec(mermaidOpen.content);
  const bypass = bypassMatch?.[1]?.replace(/<br\s*\/?>/g, "\n");

  const parsed = body.map(([step, what, lessons, rules, functions]) => ({ step: step.trim(), what, lessons, rules, functions }));
  const placed: string[] = [...LAYOUT.before, ...LAYOUT.loop, ...LAYOUT.after];
  const inTable = parsed.map((r) => r.step);
  const missing = inTable.filter((s) => !placed.includes(s));
  const stale = placed.filter((s) => !inTable.includes(s));
  if (missing.length > 0 || stale.length > 0) {
    throw new Error(`site/lib/chain.ts LAYOUT does not match README.md's chain table: not placed ${JSON.stringify(missing)}, not in table ${JSON.stringify(stale)}`);
  }
  return { intro, rows: parsed, outro, bypass };
}

/** 「s08、s11」→ 链到这两课的小标签。 */
function lessonChips(cell: string, lessons: Lesson[]): string {
  const ids = cell.match(/s\d\d/g) ?? [];
  return ids
    .map((id) => {
      const lesson = lessons.find((l) => l.id === id);
      if (lesson === undefined) throw new Error(`README.md chain table names ${id}, which is not a lesson`);
      return `<a class="lp-chip" href="${withSiteBase(`/${id}.html`)}">${id} ${escapeHtml(lesson.topic)}</a>`;
    })
    .join("");
}

/** `<code>runOneTurn</code>` → 链到 s12 代码里 runOneTurn 那一行。 */
function linkFunctions(html: string, lastLesson: Lesson, decls: Declaration[]): string {
  return html.replace(/<code>([A-Za-z_$][\w$]*)([^<]*)<\/code>/g, (whole, name: string) => {
    const decl = decls.find((d) => d.name === name);
    return decl === undefined ? whole : `<a class="lp-fn" href="${withSiteBase(`/${lastLesson.id}.html#L${decl.line}`)}">${whole}</a>`;
  });
}

export function chainHtml(chain: ChainSection, md: MarkdownRenderer, lessons: Lesson[], lastDecls: Declaration[], codes: CodeIndex = {}): string {
  const last = lessons[lessons.length - 1];
  const inline = (text: string): string => linkFunctions(md.renderInline(text.trim(), {}), last, lastDecls);
  const step = (name: string): string => {
    const row = chain.rows.find((r) => r.step === name);
    if (row === undefined) throw new Error(`chain step ${name} missing`);
    const rules = row.rules.trim() === "—" || row.rules.trim() === "" ? "" : `<span class="lp-rule">${linkCodesHtml(escapeHtml(row.rules.trim()), codes)}</span>`;
    return (
      `<li class="lp-chain-step"><span class="lp-chain-no">${escapeHtml(row.step)}</span><div class="lp-chain-body">` +
      `<p class="lp-chain-what">${inline(row.what)}</p><p class="lp-chain-meta">${lessonChips(row.lessons, lessons)}${rules}</p>` +
      `<p class="lp-chain-fn">${inline(row.functions)}</p></div></li>`
    );
  };
  const bypass =
    chain.bypass === undefined
      ? ""
      : `<aside class="lp-chain-bypass">${chain.bypass
          .split("\n")
          .map((line) => `<p>${escapeHtml(line).replace(/s\d\d/g, (id) => (lessons.some((l) => l.id === id) ? `<a href="${withSiteBase(`/${id}.html`)}">${id}</a>` : id))}</p>`)
          .join("")}</aside>`;
  return (
    `<div class="lp-chain" id="lp-chain">` +
    `<p class="lp-chain-start">用户说了一句话</p>` +
    `<ol class="lp-chain-list">${LAYOUT.before.map(step).join("")}</ol>` +
    `<div class="lp-chain-loop"><p class="lp-chain-loop-label">循环：最多 maxTurns 次请求（s04 · R5）；回答以 toolUse 收尾就执行工具、再问一次</p>` +
    `<ol class="lp-chain-list">${LAYOUT.loop.map(step).join("")}</ol><p class="lp-chain-back">↺ 回到 ④</p></div>` +
    `<ol class="lp-chain-list">${LAYOUT.after.map(step).join("")}</ol>` +
    `${bypass}</div>`
  );
}
