// VitePress 的 markdown 插件：课文、根 README 和参考页渲染时，
//   1. 指向仓库文件的相对链接改成站内链接（某课的 README → 那一课的页面，EVOLUTION.md → /evolution.html，……）；
//      站里没有的文件（tests/…）去掉链接只留文字；
//   2. 文字里引用的编号（R1、D4、F3、§7……）链到它的解释（site/lib/cited-codes.ts）；
//   3. Pi 的路径（`packages/agent/src/agent-loop.ts`）链到 Pi 仓库里钉住的那个版本；
//   4. Mermaid 图的代码块换成画好的图（site/lib/diagrams.ts）；
//   5. 参考页：表格第一格恰好是编号的行带上锚点（#d4）；原文里的 HTML 只放行锚点 <a id="…"></a> 和 <br>，其余按文字显示
//      （EVOLUTION.md 这种文件里的 AsyncGenerator<ProviderEvent> 不能被当成标签交给 Vue）。
import type { MarkdownRenderer } from "vitepress";
import { type CodeIndex, codeAnchor, isCode, splitCodes } from "./cited-codes.ts";
import { diagramHtml, diagramId } from "./diagrams.ts";
import { type RefPage, type Site, isPiPath, pageSources, piUrl, readerUrl, resolveRepoLink, rowAnchor } from "./refs.ts";

type CoreRule = Parameters<MarkdownRenderer["core"]["ruler"]["push"]>[1];
type State = Parameters<CoreRule>[0];
type Token = State["tokens"][number];

export type LinkOptions = {
  site: Site;
  /** 编号 → 链接；每次渲染时现取（site/.gen/codes.json 由 site/build.ts 先写好）。 */
  codes: () => CodeIndex;
  /** 画好了的 Mermaid 图（site/.gen/diagrams.json）：图的 id → 尺寸。没画的图照旧显示成代码块。 */
  diagrams?: () => Record<string, { width: number; height: number }>;
};

const SCHEME = /^[a-z][a-z0-9+.-]*:/i;
const PI_PATH_IN_TEXT = /(?<![\w/.-])packages\/[\w@.\-/]*[\w/]/g;

function linkTokens(state: State, href: string, inner: Token[], attrs: [string, string][] = []): Token[] {
  const open = new state.Token("link_open", "a", 1);
  open.attrs = [["href", href], ...attrs];
  const close = new state.Token("link_close", "a", -1);
  return [open, ...inner, close];
}

function textToken(state: State, content: string): Token {
  const t = new state.Token("text", "", 0);
  t.content = content;
  return t;
}

/** 一次渲染里各步都要用的：这一页的源文件、是不是参考页、编号表、画好的图。 */
type PageContext = {
  state: State;
  site: Site;
  /** 这一页对应的仓库文件（相对链接从它算起）。 */
  source: string | undefined;
  refPage: RefPage | undefined;
  codes: CodeIndex;
  diagrams: Record<string, { width: number; height: number }>;
};

/** 逐个走块级 token 时记着的位置：在不在标题里、表格当前行和它的第几格。 */
type BlockPosition = { inHeading: boolean; cell: number; rowOpen: Token | undefined };

/** 改写一个行内 token 序列时的状态：输出、还没闭合的链接、最近一个锚点。 */
type InlineWalk = {
  page: PageContext;
  children: Token[];
  /** 这段文字是表格一行的第一格。 */
  firstCell: boolean;
  inHeading: boolean;
  /** 整段行内文字（和单个 text token 比，判断这一格是不是恰好一个编号）。 */
  blockText: string;
  out: Token[];
  stack: Token[];
  lastAnchor: string | undefined;
};

export function readerLinks(md: MarkdownRenderer, options: LinkOptions): void {
  md.core.ruler.push("lp_reader_links", (state) => {
    const page = pageContext(state, options);
    const position: BlockPosition = { inHeading: false, cell: -1, rowOpen: undefined };
    for (const block of state.tokens) rewriteBlock(page, position, block);
    if (page.refPage !== undefined) wrapRefTables(state);
  });
}

function pageContext(state: State, options: LinkOptions): PageContext {
  const relativePath: string = state.env?.relativePath ?? "";
  const sources = pageSources(options.site);
  const source = sources[relativePath];
  const refPage = options.site.refs.find((r) => `${r.id}.md` === relativePath);
  const codes = options.codes();
  const diagrams = options.diagrams?.() ?? {};
  return { state, site: options.site, source, refPage, codes, diagrams };
}

function rewriteBlock(page: PageContext, position: BlockPosition, block: Token): void {
  if (block.type === "fence" && block.info.trim().split(/\s+/)[0] === "mermaid") {
    replaceDiagram(block, page.diagrams);
    return;
  }
  trackPosition(position, block);
  if (page.refPage !== undefined && block.type === "html_block") block.content = sanitizeBlock(block.content);
  if (block.type !== "inline" || block.children === null) return;

  // 参考页：第一格是编号的行，行上加锚点
  const firstCell = position.cell === 0 && position.rowOpen !== undefined;
  if (page.refPage?.rowAnchors === true && firstCell && position.rowOpen !== undefined && position.rowOpen.attrGet("id") === null) {
    const id = rowAnchor(block.content);
    if (id !== undefined) position.rowOpen.attrSet("id", id);
  }
  block.children = rewriteInline({
    page,
    children: block.children,
    firstCell,
    inHeading: position.inHeading,
    blockText: block.content,
    out: [],
    stack: [],
    lastAnchor: undefined,
  });
}

/** 画好了的 Mermaid 图换掉代码块；没画的照旧是代码块。 */
function replaceDiagram(block: Token, diagrams: PageContext["diagrams"]): void {
  const d = diagrams[diagramId(block.content)];
  if (d === undefined) return;
  block.type = "html_block";
  block.content = diagramHtml({ id: diagramId(block.content), ...d }, block.content);
}

function trackPosition(position: BlockPosition, block: Token): void {
  if (block.type === "heading_open") position.inHeading = true;
  if (block.type === "heading_close") position.inHeading = false;
  if (block.type === "tr_open") {
    position.rowOpen = block;
    position.cell = -1;
  }
  if (block.type === "tr_close") {
    position.rowOpen = undefined;
    position.cell = -1;
  }
  if (block.type === "td_open" || block.type === "th_open") position.cell++;
}

function rewriteInline(walk: InlineWalk): Token[] {
  walk.children.forEach((token, i) => {
    if (token.type === "link_open") openLink(walk, token, i);
    else if (token.type === "link_close") closeLink(walk, token);
    else if (token.type === "html_inline") inlineHtml(walk, token, i);
    else walk.out.push(...rewriteLeaf(walk, token));
  });
  return walk.out;
}

function openLink(walk: InlineWalk, token: Token, i: number): void {
  const children = walk.children;
  walk.stack.push(token);
  rewriteLink(token, walk.page.source, walk.page.site);
  // 课文自己写的编号链接（[R1](../GLOSSARY.md#r1)）和自动链上的编号长得一样
  const text = children[i + 1]?.type === "text" && children[i + 2]?.type === "link_close" ? children[i + 1].content : "";
  if (isCode(text) && (token.attrGet("href") ?? "").endsWith(`#${codeAnchor(text)}`)) token.attrJoin("class", "lp-code-ref");
  walk.out.push(token);
}

/** 开头被换成 <span> 的链接（站里没有的仓库文件），结尾也跟着换。 */
function closeLink(walk: InlineWalk, token: Token): void {
  const open = walk.stack.pop();
  if (open !== undefined && open.tag === "span") token.tag = "span";
  walk.out.push(token);
}

function inlineHtml(walk: InlineWalk, token: Token, i: number): void {
  const children = walk.children;
  if (walk.page.refPage !== undefined && !allowedInline(token.content, children[i + 1]?.content, children[i - 1]?.content)) {
    walk.out.push(textToken(walk.page.state, token.content));
    return;
  }
  walk.lastAnchor = /<a\s+(?:id|name)="([^"]+)"/.exec(token.content)?.[1] ?? walk.lastAnchor;
  walk.out.push(token);
}

/** 行内代码和文字：Pi 路径、编号换成链接；链接里面、标题里的文字不动。 */
function rewriteLeaf(walk: InlineWalk, token: Token): Token[] {
  const state = walk.page.state;
  const insideLink = walk.stack.length > 0;
  if (token.type === "code_inline" && !insideLink && isPiPath(token.content)) {
    return linkTokens(state, piUrl(token.content), [token], [["class", "lp-pi-path"]]);
  }
  if (token.type !== "text" || insideLink || walk.inHeading) return [token];
  // 表格第一格里恰好是编号：那是定义它的那一行，不再链出去
  const definition = walk.firstCell && rowAnchor(token.content) !== undefined && token.content.trim() === walk.blockText.trim();
  return linkText(state, token.content, definition ? {} : walk.page.codes, walk.lastAnchor);
}

// 参考页的表格用满宽度（和课页的代码一样伸进「本页内容」那一栏）：外面套一层会横向滚动的 div，表格自己撑满它
function wrapRefTables(state: State): void {
  const wrapped: Token[] = [];
  for (const t of state.tokens) {
    if (t.type === "table_open") {
      t.attrJoin("class", "lp-ref-table");
      wrapped.push(htmlBlock(state, '<div class="lp-wide lp-table-wrap">\n'));
    }
    wrapped.push(t);
    if (t.type === "table_close") wrapped.push(htmlBlock(state, "</div>\n"));
  }
  state.tokens = wrapped;
}

function htmlBlock(state: State, content: string): Token {
  const t = new state.Token("html_block", "", 0);
  t.content = content;
  return t;
}

/** 文字里的编号和 Pi 路径换成链接。紧跟在自己锚点后面的编号（术语表的条目名）不链到自己。 */
function linkText(state: State, text: string, codes: CodeIndex, anchorHere: string | undefined): Token[] {
  const out: Token[] = [];
  for (const part of splitCodes(text, codes)) {
    if (typeof part !== "string") {
      const self = anchorHere !== undefined && part.href.endsWith(`#${anchorHere}`);
      out.push(...(self ? [textToken(state, part.code)] : linkTokens(state, part.href, [textToken(state, part.code)], [["class", "lp-code-ref"]])));
      continue;
    }
    let last = 0;
    for (const m of part.matchAll(PI_PATH_IN_TEXT)) {
      if (m.index === undefined || !isPiPath(m[0])) continue;
      if (m.index > last) out.push(textToken(state, part.slice(last, m.index)));
      out.push(...linkTokens(state, piUrl(m[0]), [textToken(state, m[0])], [["class", "lp-pi-path"]]));
      last = m.index + m[0].length;
    }
    if (last < part.length) out.push(textToken(state, part.slice(last)));
  }
  return out;
}

function rewriteLink(token: Token, source: string | undefined, site: Site): void {
  const href = token.attrGet("href") ?? "";
  if (SCHEME.test(href) || href.startsWith("/") || href.startsWith("#")) return;
  const resolved = source === undefined ? undefined : resolveRepoLink(source, href);
  const url = resolved === undefined ? undefined : readerUrl(resolved.path, resolved.hash, site);
  if (url !== undefined) {
    token.attrSet("href", url);
    return;
  }
  // Pi 的路径写成了相对链接（少见）：也链到 Pi 仓库
  if (isPiPath(href.split("#")[0])) {
    token.attrSet("href", piUrl(href));
    return;
  }
  token.tag = "span";
  token.attrs = [["class", "lp-repo-path"]];
}

/** 行内 HTML：只放行成对的 <a id="…"></a>（或 name=）和 <br>。 */
function allowedInline(html: string, next: string | undefined, prev: string | undefined): boolean {
  const t = html.trim();
  if (/^<br\s*\/?>$/i.test(t)) return true;
  if (/^<a\s+(?:id|name)="[^"<>]*"\s*>$/i.test(t)) return next?.trim() === "</a>";
  if (/^<\/a>$/i.test(t)) return prev !== undefined && /^<a\s+(?:id|name)="[^"<>]*"\s*>$/i.test(prev.trim());
  return false;
}

/** 块级 HTML：只由锚点组成的块照原样，其余的按文字显示。 */
function sanitizeBlock(html: string): string {
  const onlyAnchors = html.replace(/<a\s+(?:id|name)="[^"<>]*"\s*>\s*<\/a>/gi, "").trim() === "";
  if (onlyAnchors) return html;
  const escaped = html.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  return `<p class="lp-raw-text">${escaped.trim().replace(/\n/g, "<br>")}</p>\n`;
}
