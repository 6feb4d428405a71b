// 生成 HTML 时用的小工具。浏览器里也用（比较两课的页面），所以这里不引用任何 node: 模块。

export const escapeHtml = (text: string): string =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/**
 * 元素里的文字（不是属性值）：只有 & 和 < 得转义。代码里满是双引号和 =>，按 escapeHtml 每个 " 要写成 6 个字节，
 * s12 一页光这一项就多出五 KB。
 */
export const escapeText = (text: string): string => text.replace(/&/g, "&amp;").replace(/</g, "&lt;");
