// 生成 HTML 时用的小工具。浏览器里也用（比较两课的页面），所以这里不引用任何 node: 模块。

export const escapeHtml = (text: string): string =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
