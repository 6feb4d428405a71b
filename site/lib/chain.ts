// 首页的「一轮对话的完整链路」（EVOLUTION.md §5）：不画图片、不靠前端脚本渲染 mermaid，而是从根 README
// 「一轮对话的完整链路（s12）」一节里那张文字表（步骤 | 做什么 | 哪一节 | 规则 | s12 里的函数）生成一串静态 HTML 框，
// 每一步链到它的课，函数名链到 s12 代码里的那一行。README 改了，图跟着变；表里多出或少了一步，生成直接报错。
import type { MarkdownRenderer } from "vitepress";
import type { Declaration } from "./codeview.ts";
import { type CodeIndex, linkCodesHtml } from "./cited-codes.ts";
import type { Lesson } from "./course.ts";
import { escapeHtml } from "./html.ts";
import { withSiteBase } from "./base.ts";
import { CHAIN_HEADING, readChainSection } from "../../tooling/teaching/chain-section.ts";
import { mermaidNodes } from "../../tooling/teaching/diagram.ts";

/** 版式：哪几步在循环外、哪几步每次请求都重复。步骤名必须和 README 表的第一列一一对应。 */
export const LAYOUT = { before: ["①", "②", "③"], loop: ["④", "⑤", "⑥"], after: ["⑦"] } as const;

/** 表的一行：每一格是原样的 Markdown（渲染时再交给 VitePress 的 markdown-it）。 */
export type HomeChainStep = { step: string; what: string; lessons: string; rules: string; functions: string };

export type HomeChain = {
  /** 节标题下、图之前的说明（markdown）。 */
  intro: string;
  rows: HomeChainStep[];
  /** 表后面的说明（markdown）：另外几种收场，和 §5 伪代码不一样的那段。 */
  outro: string;
  /** mermaid 图里「旁路」那个框的文字（扩展、包），没有就是 undefined。 */
  bypass: string | undefined;
};

/** 首页要的链路：根 README 的那一节由 tooling/teaching/chain-section.ts 读（教学检查读的是同一份），这里只挑出图要的几样。 */
export function readHomeChain(readme: string): HomeChain {
  const chain = readChainSection(readme);
  if (chain === undefined) throw new Error(`README.md has no "## ${CHAIN_HEADING}" section`);
  if (chain.table === undefined) throw new Error("README.md chain section has no table");
  if (chain.table.header.length < 5) throw new Error("README.md chain table needs 5 columns");
  const bypass = chain.diagram === undefined ? undefined : mermaidNodes(chain.diagram.body).labels.get("X")?.trim().replace(/<br\s*\/?>/g, "\n");
  const rows = chain.table.rows.map(({ markdown: [step = "", what = "", lessons = "", rules = "", functions = ""] }) => ({ step: step.trim(), what, lessons, rules, functions }));
  const placed: string[] = [...LAYOUT.before, ...LAYOUT.loop, ...LAYOUT.after];
  const inTable = rows.map((r) => r.step);
  const missing = inTable.filter((s) => !placed.includes(s));
  const stale = placed.filter((s) => !inTable.includes(s));
  if (missing.length > 0 || stale.length > 0) {
    throw new Error(`site/lib/chain.ts LAYOUT does not match README.md's chain table: not placed ${JSON.stringify(missing)}, not in table ${JSON.stringify(stale)}`);
  }
  // 图和表之间那一段（图例和「同一条链，写成文字：」）是给 README 里的表的引子；首页的图替代了表，引子不再要：导语只到图为止，说明从表后算起。
  return { intro: chain.intro, rows, outro: chain.outro, bypass };
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

export function chainHtml(chain: HomeChain, md: MarkdownRenderer, lessons: Lesson[], lastDecls: Declaration[], codes: CodeIndex = {}): string {
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
