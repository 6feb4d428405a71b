// 终端里的排版：汉字和全角符号占两格。保真对照的表（fidelity/run.ts）和毕业检查的并排对话（tooling/graduation/side-by-side.ts）都用它。

const WIDE = /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/;

/** 一段文字在终端里占几格。 */
export const displayWidth = (text: string): number => [...text].reduce((w, ch) => w + (WIDE.test(ch) ? 2 : 1), 0);

/** 右边补空格，补到 width 格。 */
export const padEnd = (text: string, width: number): string => text + " ".repeat(Math.max(0, width - displayWidth(text)));

/**
 * 按显示宽度折行：每行不超过 width 格，原文里的换行照样换行。英文单词、路径这种连着的一串不从中间断开
 * （比 width 还长的才断），汉字之间哪里都能断。
 */
export function wrap(text: string, width: number): string[] {
  const out: string[] = [];
  for (const line of text.split("\n")) {
    // 行首的缩进留着（它本身就是排版）；折出来的后续行不缩进
    const lead = /^[ \t]*/.exec(line)?.[0] ?? "";
    let current = lead;
    const empty = (): boolean => current.trim() === "";
    for (const piece of line.slice(lead.length).match(/[!-~]+|\s|[^\s!-~]/gu) ?? []) {
      if (!empty() && displayWidth(current + piece) > width) {
        out.push(current.trimEnd());
        current = "";
      }
      if (current === "" && piece.trim() === "") continue;
      for (const ch of displayWidth(piece) > width ? [...piece] : [piece]) {
        if (!empty() && displayWidth(current + ch) > width) {
          out.push(current);
          current = "";
        }
        current += ch;
      }
    }
    out.push(current);
  }
  return out;
}
