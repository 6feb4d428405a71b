// VitePress 的 markdown 插件：课文、根 README 和参考页渲染时，
//   1. 指向仓库文件的相对链接改成站内链接（某课的 README → 那一课的页面，EVOLUTION.md → /evolution.html，……）；
//      站里没有的文件（tests/…）去掉链接只留文字；
//   2. 文字里引用的编号（R1、D4、F3、§7……）链到它的解释（site/lib/codes.ts）；
//   3. Pi 的路径（`packages/agent/src/agent-loop.ts`）链到 Pi 仓库里钉住的那个版本；
//   4. Mermaid 图的代码块换成画好的图（site/lib/diagrams.ts）；
//   5. 参考页：表格第一格恰好是编号的行带上锚点（#d4）；原文里的 HTML 只放行锚点 <a id="…"></a> 和 <br>，其余按文字显示
//      （EVOLUTION.md 这种文件里的 AsyncGenerator<ProviderEvent> 不能被当成标签交给 Vue）。
import type { MarkdownRenderer } from "vitepress";
import { type CodeIndex, codeAnchor, isCode, splitCodes } from "./codes.ts";
import { diagramHtml, diagramId } from "./diagrams.ts";
import { type Site, isPiPath, pageSources, piUrl, readerUrl, resolveRepoLink, rowAnchor } from "./refs.ts";

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

export function readerLinks(md: MarkdownRenderer, options: LinkOptions): void {
  md.core.ruler.push("lp_reader_links", (state) => {
    const relativePath: string = state.env?.relativePath ?? "";
    const sources = pageSources(options.site);
    const source = sources[relativePath];
    const refPage = options.site.refs.find((r) => `${r.id}.md` === relativePath);
    const codes = options.codes();
    let inHeading = false;
    let cell = -1;
    let rowOpen: Token | undefined;

    const diagrams = options.diagrams?.() ?? {};
    state.tokens.forEach((block) => {
      if (block.type === "fence" && block.info.trim().split(/\s+/)[0] === "mermaid") {
        const d = diagrams[diagramId(block.content)];
        if (d !== undefined) {
          block.type = "html_block";
          block.content = diagramHtml({ id: diagramId(block.content), ...d }, block.content);
        }
        return;
      }
      if (block.type === "heading_open") inHeading = true;
      if (block.type === "heading_close") inHeading = false;
      if (block.type === "tr_open") {
        rowOpen = block;
        cell = -1;
      }
      if (block.type === "tr_close") {
        rowOpen = undefined;
        cell = -1;
      }
      if (block.type === "td_open" || block.type === "th_open") cell++;
      if (refPage !== undefined && block.type === "html_block") block.content = sanitizeBlock(block.content);
      if (block.type !== "inline" || block.children === null) return;

      // 参考页：第一格是编号的行，行上加锚点
      const firstCell = cell === 0 && rowOpen !== undefined;
      if (refPage?.rowAnchors === true && firstCell && rowOpen !== undefined && rowOpen.attrGet("id") === null) {
        const id = rowAnchor(block.content);
        if (id !== undefined) rowOpen.attrSet("id", id);
      }

      const out: Token[] = [];
      const stack: Token[] = [];
      const children = block.children;
      let lastAnchor: string | undefined;
      children.forEach((token, i) => {
        if (token.type === "link_open") {
          stack.push(token);
          rewriteLink(token, source, options.site);
          // 课文自己写的编号链接（[R1](../GLOSSARY.md#r1)）和自动链上的编号长得一样
          const text = children[i + 1]?.type === "text" && children[i + 2]?.type === "link_close" ? children[i + 1].content : "";
          if (isCode(text) && (token.attrGet("href") ?? "").endsWith(`#${codeAnchor(text)}`)) token.attrJoin("class", "lp-code-ref");
          out.push(token);
          return;
        }
        if (token.type === "link_close") {
          const open = stack.pop();
          if (open !== undefined && open.tag === "span") token.tag = "span";
          out.push(token);
          return;
        }
        if (token.type === "html_inline") {
          if (refPage !== undefined && !allowedInline(token.content, children[i + 1]?.content, children[i - 1]?.content)) {
            out.push(textToken(state, token.content));
            return;
          }
          lastAnchor = /<a\s+(?:id|name)="([^"]+)"/.exec(token.content)?.[1] ?? lastAnchor;
          out.push(token);
          return;
        }
        const insideLink = stack.length > 0;
        if (token.type === "code_inline" && !insideLink && isPiPath(token.content)) {
          out.push(...linkTokens(state, piUrl(token.content), [token], [["class", "lp-pi-path"]]));
          return;
        }
        if (token.type !== "text" || insideLink || inHeading) {
          out.push(token);
          return;
        }
        // 表格第一格里恰好是编号：那是定义它的那一行，不再链出去
        const definition = firstCell && rowAnchor(token.content) !== undefined && token.content.trim() === block.content.trim();
        out.push(...linkText(state, token.content, definition ? {} : codes, lastAnchor));
      });
      block.children = out;
    });

    // 参考页的表格用满宽度（和课页的代码一样伸进「本页内容」那一栏）：外面套一层会横向滚动的 div，表格自己撑满它
    if (refPage !== undefined) {
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
  });
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
