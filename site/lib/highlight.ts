// 语法高亮：shiki（VitePress 自己用的高亮器，同样的 github-light / github-dark 主题）把整份 code.ts 切成带颜色的词。
// 整份文件一起高亮，再按行拆开——折叠、差异都只是挑行，不会把模板字符串、注释从中间切断而染错色。
// 页面要小（s12 一页就有上千行代码）：颜色不写成内联样式，而是按「浅色 + 深色」组合编号，每个带颜色的词包进一个
// 自定义元素 <k-3>…</k-3>（HTML 允许不注册就用的自定义元素，行内显示，比 <span style="…"> 短得多），整站共用一份 CSS；
// 主题的正文色不包（由外面的 color 给出），只含空白的词不单独换色。
// 课文里的代码块也用它高亮（site/.vitepress/config.ts 的 markdown.highlight）：site/build.ts 先把所有代码块过一遍，
// 把「颜色 → 编号」的表写进 site/.gen/highlight.json，VitePress 构建时照这张表编号，两边的编号和 CSS 对得上。
import { type Highlighter, createHighlighter } from "shiki";
import { escapeText } from "./html.ts";

export const THEMES = { light: "github-light", dark: "github-dark" } as const;
/** 认得的语言；别的（text、没写语言的）只转义，不上色。mermaid 图由 site/lib/diagrams.ts 画成图。 */
export const LANGS = ["ts", "bash", "markdown", "json"] as const;

export class CodeHighlighter {
  private readonly classes: Map<string, string>;
  private readonly plain: { light: string; dark: string };
  /** 同一份代码（一课的 code.ts 既是这一课的代码，也是下一课差异的旧的一边）只高亮一次。 */
  private readonly done = new Map<string, string[]>();

  private constructor(
    private readonly shiki: Highlighter,
    seed: Record<string, string>,
    /** 只认 seed 里的颜色：构建时用，遇到没见过的颜色就报错（说明生成那一步漏了这个代码块）。 */
    private readonly frozen: boolean,
  ) {
    this.classes = new Map(Object.entries(seed));
    this.plain = { light: shiki.getTheme(THEMES.light).fg.toLowerCase(), dark: shiki.getTheme(THEMES.dark).fg.toLowerCase() };
  }

  static async create(seed: Record<string, string> = {}, frozen = false): Promise<CodeHighlighter> {
    return new CodeHighlighter(await createHighlighter({ themes: [THEMES.light, THEMES.dark], langs: [...LANGS] }), seed, frozen);
  }

  /** 一份源码，每行一段 HTML（不含换行）。 */
  lines(code: string, lang = "ts"): string[] {
    const key = `${lang}\n${code}`;
    let out = this.done.get(key);
    if (out === undefined) {
      out = (LANGS as readonly string[]).includes(lang) ? this.tokenize(code, lang) : code.split("\n").map(escapeText);
      this.done.set(key, out);
    }
    return out;
  }

  /** 课文里的一个代码块：VitePress 给它套上语言标签和复制按钮；v-pre 让 Vue 不去解释 {{ }}。 */
  block(code: string, lang: string): string {
    return `<pre class="lp-hl" v-pre tabindex="0"><code>${this.lines(code.trimEnd(), lang).join("\n")}</code></pre>`;
  }

  private tokenize(code: string, lang: string): string[] {
    // tokenizeTimeLimit: 0：不限时。shiki 默认一行最多切 500 毫秒，超时的那一行剩下的部分就不上色——机器一忙，
    // 同一段代码就会高亮得不一样（页面变了，tests/site/lesson-page.test.ts 也会因此失败）。一行切多久都要切完。
    const { tokens } = this.shiki.codeToTokens(code, { lang: lang as (typeof LANGS)[number], themes: THEMES, defaultColor: false, tokenizeTimeLimit: 0 });
    return tokens.map((line) => {
      let html = "";
      let open: string | undefined;
      let text = "";
      const flush = (): void => {
        if (text === "") return;
        html += open === undefined ? escapeText(text) : `<${open}>${escapeText(text)}</${open}>`;
        text = "";
      };
      for (const token of line) {
        // 空白没有颜色可言：接在当前这段后面，不为它开关标签
        if (token.content.trim() === "") {
          text += token.content;
          continue;
        }
        const tag = this.tagFor(token.htmlStyle);
        if (tag !== open) {
          flush();
          open = tag;
        }
        text += token.content;
      }
      flush();
      return html;
    });
  }

  private tagFor(style: Record<string, string> | undefined): string | undefined {
    if (style === undefined) return undefined;
    const entries = Object.entries(style)
      .map(([name, value]) => [name, value.toLowerCase()] as const)
      .sort(([a], [b]) => a.localeCompare(b));
    if (entries.length === 0) return undefined;
    const { light, dark } = split(entries);
    // 正文色：不用标签，外面的 color 就是这个颜色
    if (light.length === 1 && dark.length === 1 && light[0] === `color:${this.plain.light}` && dark[0] === `color:${this.plain.dark}`) return undefined;
    const key = JSON.stringify(entries);
    let tag = this.classes.get(key);
    if (tag === undefined) {
      if (this.frozen) throw new Error(`a code block has a colour site/build.ts did not see (${key}): run npm run site, not vitepress build alone`);
      tag = `k-${this.classes.size}`;
      this.classes.set(key, tag);
    }
    return tag;
  }

  /** 「颜色 → 编号」的表（写进 site/.gen/highlight.json）。 */
  classMap(): Record<string, string> {
    return Object.fromEntries(this.classes);
  }

  /** 用到的所有颜色，加上代码的正文色。 */
  css(): string {
    const rules = [`.lp-code,.lp-hl code{color:${this.plain.light}}`, `html.dark .lp-code,html.dark .lp-hl code{color:${this.plain.dark}}`];
    for (const [key, tag] of this.classes) {
      const { light, dark } = split(JSON.parse(key) as [string, string][]);
      rules.push(`${tag}{${light.join(";")}}`, `html.dark ${tag}{${dark.join(";")}}`);
    }
    return `${rules.join("\n")}\n`;
  }
}

function split(entries: readonly (readonly [string, string])[]): { light: string[]; dark: string[] } {
  const light: string[] = [];
  const dark: string[] = [];
  for (const [name, value] of entries) {
    const m = /^--shiki-(light|dark)(?:-(.+))?$/.exec(name);
    if (m === null) continue;
    (m[1] === "light" ? light : dark).push(`${m[2] ?? "color"}:${value}`);
  }
  return { light, dark };
}
