// 语法高亮：shiki（VitePress 自己用的高亮器，同样的 github-light / github-dark 主题）把整份 code.ts 切成带颜色的词。
// 整份文件一起高亮，再按行拆开——折叠、差异都只是挑行，不会把模板字符串、注释从中间切断而染错色。
// 页面要小（s12 一页就有上千行代码）：颜色不写成内联样式，而是按「浅色 + 深色」组合编号，每个带颜色的词包进一个
// 自定义元素 <k-3>…</k-3>（HTML 允许不注册就用的自定义元素，行内显示，比 <span class="…"> 短一半），整站共用一份 CSS；
// 主题的正文色不包（由 .lp-code 的 color 给出），只含空白的词不单独换色。
import { type Highlighter, createHighlighter } from "shiki";
import { escapeHtml } from "./html.ts";

export const THEMES = { light: "github-light", dark: "github-dark" } as const;

export class CodeHighlighter {
  private readonly classes = new Map<string, string>();
  private readonly rules: string[] = [];
  private readonly plain: { light: string; dark: string };
  /** 同一份代码（一课的 code.ts 既是这一课的代码，也是下一课差异的旧的一边）只高亮一次。 */
  private readonly done = new Map<string, string[]>();

  private constructor(private readonly shiki: Highlighter) {
    this.plain = { light: shiki.getTheme(THEMES.light).fg.toLowerCase(), dark: shiki.getTheme(THEMES.dark).fg.toLowerCase() };
  }

  static async create(): Promise<CodeHighlighter> {
    return new CodeHighlighter(await createHighlighter({ themes: [THEMES.light, THEMES.dark], langs: ["ts"] }));
  }

  /** 一份 TypeScript 源码，每行一段 HTML（不含换行）。 */
  lines(code: string): string[] {
    let out = this.done.get(code);
    if (out === undefined) {
      out = this.tokenize(code);
      this.done.set(code, out);
    }
    return out;
  }

  private tokenize(code: string): string[] {
    const { tokens } = this.shiki.codeToTokens(code, { lang: "ts", themes: THEMES, defaultColor: false });
    return tokens.map((line) => {
      let html = "";
      let open: string | undefined;
      let text = "";
      const flush = (): void => {
        if (text === "") return;
        html += open === undefined ? escapeHtml(text) : `<${open}>${escapeHtml(text)}</${open}>`;
        text = "";
      };
      for (const token of line) {
        // 空白没有颜色可言：接在当前这段后面，不为它开关 span
        if (token.content.trim() === "") {
          text += token.content;
          continue;
        }
        const cls = this.classFor(token.htmlStyle);
        if (cls !== open) {
          flush();
          open = cls;
        }
        text += token.content;
      }
      flush();
      return html;
    });
  }

  private classFor(style: Record<string, string> | undefined): string | undefined {
    if (style === undefined) return undefined;
    const entries = Object.entries(style)
      .map(([name, value]) => [name, value.toLowerCase()] as const)
      .sort(([a], [b]) => a.localeCompare(b));
    if (entries.length === 0) return undefined;
    const light: string[] = [];
    const dark: string[] = [];
    for (const [name, value] of entries) {
      const m = /^--shiki-(light|dark)(?:-(.+))?$/.exec(name);
      if (m === null) continue;
      (m[1] === "light" ? light : dark).push(`${m[2] ?? "color"}:${value}`);
    }
    // 正文色：不用类，.lp-code 自己就是这个颜色
    if (light.length === 1 && dark.length === 1 && light[0] === `color:${this.plain.light}` && dark[0] === `color:${this.plain.dark}`) return undefined;
    const key = JSON.stringify(entries);
    let cls = this.classes.get(key);
    if (cls === undefined) {
      cls = `k-${this.classes.size}`;
      this.classes.set(key, cls);
      this.rules.push(`.lp-code ${cls}{${light.join(";")}}`, `html.dark .lp-code ${cls}{${dark.join(";")}}`);
    }
    return cls;
  }

  /** 到目前为止用到的所有颜色，加上代码的正文色。 */
  css(): string {
    return [`.lp-code{color:${this.plain.light}}`, `html.dark .lp-code{color:${this.plain.dark}}`, ...this.rules, ""].join("\n");
  }
}
