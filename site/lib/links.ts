// VitePress 的 markdown 插件：课文、根 README 和参考页渲染时，
//   1. 指向仓库文件的相对链接改成站内链接（某课的 README → 那一课的页面，EVOLUTION.md → /evolution.html，……）；
//      站里没有的文件（tests/…）去掉链接只留文字；
//   2. 文字里引用的编号（R1、D4、F3、§7……）链到它的解释（site/lib/codes.ts）；
//   3. Pi 的路径（`packages/agent/src/agent-loop.ts`）链到 Pi 仓库里钉住的那个版本；
//   4. 参考页：表格第一格恰好是编号的行带上锚点（#d4）；原文里的 HTML 只放行锚点 <a id="…"></a> 和 <br>，其余按文字显示
//      （EVOLUTION.md 这种文件里的 AsyncGenerator<ProviderEvent> 不能被当成标签交给 Vue）。
import type { ShikiTransformer } from "shiki";
import type { MarkdownRenderer } from "vitepress";
import { type CodeIndex, splitCodes } from "./codes.ts";
import { type Site, isPiPath, pageSources, piUrl, readerUrl, resolveRepoLink, rowAnchor } from "./refs.ts";

type CoreRule = Parameters<MarkdownRenderer["core"]["ruler"]["push"]>[1];
type State = Parameters<CoreRule>[0];
type Token = State["tokens"][number];

export type LinkOptions = {
  site: Site;
  /** 编号 → 链接；每次渲染时现取（site/.gen/codes.json 由 site/build.ts 先写好）。 */
  codes: () => CodeIndex;
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

    state.tokens.forEach((block) => {
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
      // 参考页的表格也用满宽度（和课页的代码一样伸进「本页内容」那一栏）
      if (refPage !== undefined && block.type === "table_open") block.attrJoin("class", "lp-wide lp-ref-table");
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
  });
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

type Hast = Parameters<NonNullable<ShikiTransformer["line"]>>[0];
type HastChild = Hast["children"][number];

/**
 * 课文里的代码块由 VitePress 自己的 shiki 高亮，每个词一个 span，带一段内联样式 --shiki-light:#…;--shiki-dark:#…。
 * 页面要小（s12 的课文里就有四十多 KB 代码块）：变量名缩成 --sl / --sd（字重、下划线、斜体是 --slw、--slt、--sli……），
 * 正文色的词不包 span（颜色由 style.css 给 .shiki code），相邻同色的词并成一个 span。对应的 CSS 在 style.css。
 */
export const shortShikiVars: ShikiTransformer = {
  name: "lp:short-shiki-vars",
  line(line) {
    const suffix: Record<string, string> = { "": "", "-font-weight": "w", "-text-decoration": "t", "-font-style": "i" };
    const out: HastChild[] = [];
    for (const child of line.children) {
      if (child.type !== "element" || typeof child.properties.style !== "string") {
        out.push(child);
        continue;
      }
      const style = child.properties.style.replace(
        /--shiki-(light|dark)(-font-weight|-text-decoration|-font-style)?(?=:)/g,
        (_, mode: string, rest: string | undefined) => `--s${mode[0]}${suffix[rest ?? ""]}`,
      );
      const text = child.children.length === 1 && child.children[0].type === "text" ? child.children[0].value : undefined;
      const prev = out.at(-1);
      if (text !== undefined && (PLAIN.test(style) || (text.trim() === "" && !style.includes("t:")))) {
        // 正文色，或者只有空白（空白没有颜色可言）：只留文字
        if (prev?.type === "text") prev.value += text;
        else out.push({ type: "text", value: text });
        continue;
      }
      if (text !== undefined && prev?.type === "element" && prev.properties.style === style && prev.children.length === 1 && prev.children[0].type === "text") {
        prev.children[0].value += text;
        continue;
      }
      child.properties.style = style;
      out.push(child);
    }
    line.children = out;
  },
};

/** github-light / github-dark 的正文色。 */
const PLAIN = /^--sl:#24292e;--sd:#e1e4e8;?$/i;
