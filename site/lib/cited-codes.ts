// 课文里引用的规则、决策、差异编号（R1–R8、U1、U2、D1…、F1…、R-写①…，还有 EVOLUTION.md 的 §7 这种节号），
// 在阅读器里链到它的解释：有术语表（GLOSSARY.md）就链到术语表里那一条，否则链到 EVOLUTION.md / DIFFERENCES.md 表里那一行。
// 「编号 → 链接」的表由 site/build.ts 从这几份文件算出（site/lib/refs.ts），写进 site/.gen/codes.json。
// 这个文件浏览器里也用（回放每一步的说明），所以只有纯函数。
import { withSiteBase } from "./base.ts";

/** 一个编号：R-写①…⑤，或字母 R/U/D/F 加数字，或 § 加节号；前后不能紧挨着字母数字（"ADR1"、"D4x" 不算）。 */
export const CODE_RE = /(?<![A-Za-z0-9_§.-])(R-写[①②③④⑤]|[RUDF]\d{1,2}|§\d+(?:\.\d+)?)(?![A-Za-z0-9_])/g;

/** 一段文字恰好是一个规则、决策或差异编号（不含 § 节号）。 */
export const isCode = (text: string): boolean => /^(R-写[①②③④⑤]|[RUDF]\d{1,2})$/.test(text);

/** 术语表约定的锚点：编号小写（r1、d12、f3、r-写①）。 */
export const codeAnchor = (code: string): string => code.toLowerCase();

/** 锚点 → 编号（codeAnchor 的反方向）；不是编号的锚点（term-…）返回 undefined。 */
export function codeOfAnchor(id: string): string | undefined {
  if (/^r-写[①②③④⑤]$/.test(id)) return `R${id.slice(1)}`;
  if (/^[rudf]\d{1,2}$/.test(id)) return id.toUpperCase();
  return undefined;
}

export type CodeIndex = Record<string, string>;
export type CodePart = string | { code: string; href: string };

/** 把一段文字切成「普通文字」和「有链接的编号」。表里没有的编号原样留在文字里。 */
export function splitCodes(text: string, codes: CodeIndex): CodePart[] {
  const out: CodePart[] = [];
  let last = 0;
  for (const m of text.matchAll(CODE_RE)) {
    const href = codes[m[1]];
    if (href === undefined || m.index === undefined) continue;
    if (m.index > last) out.push(text.slice(last, m.index));
    out.push({ code: m[1], href });
    last = m.index + m[1].length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

/** 已经转义过的 HTML 文字里的编号换成链接（生成的 HTML 用：API 卡片的升级理由、链路图的规则标签）。 */
export function linkCodesHtml(escaped: string, codes: CodeIndex): string {
  return splitCodes(escaped, codes)
    .map((part) => (typeof part === "string" ? part : `<a class="lp-code-ref" href="${withSiteBase(part.href)}">${part.code}</a>`))
    .join("");
}
