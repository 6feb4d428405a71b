// 生成 HTML 时用的小工具。浏览器里也用（比较两课的页面），所以这里不引用任何 node: 模块。

export const escapeHtml = (text: string): string =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/**
 * 元素里的文字（不是属性值）：只有 & 和 < 得转义。代码里满是双引号和 =>，按 escapeHtml 每个 " 要写成 6 个字节，
 * s12 一页光这一项就多出五 KB。
 */
export const escapeText = (text: string): string => text.replace(/&/g, "&amp;").replace(/</g, "&lt;");

/** 宽屏上代码长行折行（site/.vitepress/theme/css/code.css）；显示宽度超过这么多列的行才可能折，只给它们标缩进。 */
export const WRAP_FROM = 100;

/**
 * 一行代码最多占几格：中文等宽字体里占两格，保守起见 U+2000 以后的字都算两格。它只决定给哪些行标续行缩进，
 * 宁可多标（多几个字节）也不能漏标，所以不用终端排版的 displayWidth（tooling/display.ts 按字符表算得准，算少了就漏）。
 */
function widthAtMost(text: string): number {
  let width = 0;
  for (const ch of text) width += (ch.codePointAt(0) ?? 0) >= 0x2000 ? 2 : 1;
  return width;
}

/**
 * 长行的折行缩进：` style=--i:4`（这一行开头的空格数）。折下来的续行从这一行代码的开头再往里缩，一眼看得出是同一行；
 * 短行和没有缩进的长行不加（前者放得下，后者的缩进就是样式表的默认值 0），页面不为它多一个字节。html 是一行高亮好（或只转义过）的代码。
 */
export function wrapIndent(html: string): string {
  const text = html.replace(/<[^>]*>/g, "").replace(/&lt;/g, "<").replace(/&amp;/g, "&");
  if (widthAtMost(text) <= WRAP_FROM) return "";
  // 没有缩进的长行不写：样式表里 var(--i, 0) 本来就是 0
  const indent = /^ */.exec(text)?.[0].length ?? 0;
  return indent === 0 ? "" : ` style=--i:${indent}`;
}
