// 课文里的 Mermaid 流程图（每课一张：这一课的零件在一轮里的位置）在阅读器里画成图。
// 构建时用 beautiful-mermaid（纯 TypeScript，不要浏览器）画成 SVG 文件，浅色、深色各一份，放进 site/.gen/public/lp/diagrams/；
// 页面里是 <img>（图片自己的样式不会漏到页面上，也不会去外网取字体），点开看原尺寸。文件名是源码的哈希，
// markdown 插件（site/lib/links.ts）拿同一段源码算出同一个名字。
import { createHash } from "node:crypto";
import { renderMermaid } from "beautiful-mermaid";
import { withSiteBase } from "./base.ts";

/** 图的文件名（不含 .svg）：源码的哈希。 */
export const diagramId = (source: string): string => createHash("sha256").update(source.trim()).digest("hex").slice(0, 16);

const FONT = `ui-sans-serif, system-ui, -apple-system, "PingFang SC", "Noto Sans CJK SC", "Microsoft YaHei", sans-serif`;
/** VitePress 默认主题的底色和字色。 */
const LIGHT = { bg: "#ffffff", fg: "#3c3c43" };
const DARK = { bg: "#1b1b1f", fg: "#dfdfd6" };

export type Diagram = { id: string; light: string; dark: string; width: number; height: number };

/**
 * 瘦身：不去外网取字体，用页面的字体；坐标留两位小数；去掉注释、缩进，和画图用不上的 data-* 属性（边从哪到哪、线型，
 * 图里另有画出来的线；SVG 当 <img> 看，没有脚本读它们）。
 */
function tidy(svg: string): string {
  return svg
    .replace(/^\s*@import url\([^)]*\);\s*$/m, "")
    .replace(/text \{ font-family:[^}]*\}/, `text { font-family: ${FONT.replace(/"/g, "'")}; }`)
    .replace(/\/\*[^*]*\*\//g, "")
    .replace(/ data-[\w-]+="[^"]*"/g, "")
    .replace(/\n[ \t]+/g, "\n")
    .replace(/(\d+\.\d{3,})/g, (n) => String(Number(Number(n).toFixed(2))));
}

/**
 * 一张图的两份 SVG。课里的图用 classDef 给本节的零件上浅绿底色；深色版里给这种有底色、没写字色的类加上深色字，
 * 浅底上的字才看得清。
 */
export async function renderDiagram(source: string): Promise<Diagram> {
  const light = tidy(await renderMermaid(source, { ...LIGHT, font: "system-ui" }));
  const darkSource = source.replace(/^(\s*classDef\s+\S+\s+)(.*)$/gm, (line, head: string, style: string) =>
    style.includes("fill:") && !style.includes("color:") ? `${head}${style},color:${DARK.bg}` : line,
  );
  const dark = tidy(await renderMermaid(darkSource, { ...DARK, font: "system-ui" }));
  const box = /viewBox="0 0 ([\d.]+) ([\d.]+)"/.exec(light);
  return { id: diagramId(source), light, dark, width: Math.ceil(Number(box?.[1] ?? 800)), height: Math.ceil(Number(box?.[2] ?? 600)) };
}

/**
 * 页面里的图：两份 <img>，CSS 按深浅色模式只显示一份（另一份 loading=lazy、不显示，就不下载）。
 * 这段 HTML 在 markdown 里，由 Vue 编译：<img> 的 `/lp/…` 由 Vite 当成 public 里的文件、自己加上 base；<a> 的不会，要 withSiteBase。
 */
export function diagramHtml(d: Pick<Diagram, "id" | "width" | "height">, source: string): string {
  const img = (variant: "light" | "dark"): string =>
    `<img class="lp-diagram-${variant}" src="/lp/diagrams/${d.id}${variant === "dark" ? "-dark" : ""}.svg" width="${d.width}" height="${d.height}" ` +
    `alt="流程图（Mermaid 源码在图下面）" loading="lazy" decoding="async">`;
  const escaped = source.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  return (
    `<figure class="lp-diagram lp-wide"><a href="${withSiteBase(`/lp/diagrams/${d.id}.svg`)}" target="_blank" title="看原尺寸">${img("light")}${img("dark")}</a>` +
    `<details><summary>图的 Mermaid 源码</summary><pre v-pre>${escaped.trimEnd()}</pre></details></figure>\n`
  );
}
