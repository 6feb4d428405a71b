// 语法高亮：shiki（VitePress 自己用的高亮器，同样的 github-light / github-dark 主题）把整份 code.ts 切成带颜色的词。
// 整份文件一起高亮，再按行拆开——折叠、差异都只是挑行，不会把模板字符串、注释从中间切断而染错色。
// 颜色不写成每个词的内联样式，而是按「浅色 + 深色」组合编成类名，整站共用一份 CSS，页面小得多。
import { type Highlighter, createHighlighter } from "shiki";
import { escapeHtml } from "./course.ts";

export const THEMES = { light: "github-light", dark: "github-dark" } as const;

export class CodeHighlighter {
  private readonly classes = new Map<string, string>();
  private readonly rules: string[] = [];

  private constructor(private readonly shiki: Highlighter) {}

  static async create(): Promise<CodeHighlighter> {
    return new CodeHighlighter(await createHighlighter({ themes: [THEMES.light, THEMES.dark], langs: ["ts"] }));
  }

  /** 一份 TypeScript 源码，每行一段 HTML（不含换行）。 */
  lines(code: string): string[] {
    const { tokens } = this.shiki.codeToTokens(code, { lang: "ts", themes: THEMES, defaultColor: false });
    return tokens.map((line) => {
      let html = "";
      let open: string | undefined;
      let text = "";
      const flush = (): void => {
        if (text === "") return;
        html += open === undefined ? escapeHtml(text) : `<span class="${open}">${escapeHtml(text)}</span>`;
        text = "";
      };
      for (const token of line) {
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
    const entries = Object.entries(style).sort(([a], [b]) => a.localeCompare(b));
    if (entries.length === 0) return undefined;
    const key = JSON.stringify(entries);
    let cls = this.classes.get(key);
    if (cls === undefined) {
      cls = `lp-k${this.classes.size}`;
      this.classes.set(key, cls);
      const light: string[] = [];
      const dark: string[] = [];
      for (const [name, value] of entries) {
        const m = /^--shiki-(light|dark)(?:-(.+))?$/.exec(name);
        if (m === null) continue;
        (m[1] === "light" ? light : dark).push(`${m[2] ?? "color"}:${value}`);
      }
      this.rules.push(`.${cls}{${light.join(";")}}`, `html.dark .${cls}{${dark.join(";")}}`);
    }
    return cls;
  }

  /** 到目前为止用到的所有颜色类。 */
  css(): string {
    return `${this.rules.join("\n")}\n`;
  }
}
