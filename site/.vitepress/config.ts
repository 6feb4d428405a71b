// VitePress 配置。页面由 site/build.ts 生成到 site/.gen（srcDir），站点输出到 site/dist。
// 侧栏从仓库里现有的课和参考资料生成；markdown 里指向仓库文件的相对链接、编号、Pi 的路径由 site/lib/links.ts 改成链接。
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { defineConfig } from "vitepress";
import type { CodeIndex } from "../lib/cited-codes.ts";
import { loadChapter } from "../lib/chapter.ts";
import { SITE, loadCourse } from "../lib/course.ts";
import { CodeHighlighter } from "../lib/highlight.ts";
import { siteBase, withSiteBase } from "../lib/base.ts";
import { readerLinks } from "../lib/links.ts";
import { githubSlug, presentRefPages } from "../lib/refs.ts";

const lessons = loadCourse();
const refs = presentRefPages();
// 毕业一章排在十二课后面（侧栏「课程」一组的最后一项）：VitePress 按侧栏算页底的上一页、下一页，s12 的下一页就是它
const chapter = loadChapter();
const chapters = chapter === undefined ? [] : [{ id: chapter.id, source: chapter.source }];
const GEN = join(SITE, ".gen");
let codes: CodeIndex | undefined;
const readCodes = (): CodeIndex => {
  const file = join(GEN, "codes.json");
  codes ??= existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as CodeIndex) : {};
  return codes;
};
let diagrams: Record<string, { width: number; height: number }> | undefined;
const readDiagrams = (): Record<string, { width: number; height: number }> => {
  const file = join(GEN, "diagrams.json");
  diagrams ??= existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as Record<string, { width: number; height: number }>) : {};
  return diagrams;
};
// 课文里的代码块用和代码视图同一个高亮器、同一张颜色编号表（site/build.ts 生成时写下的），页面小、颜色一致
let highlighter: Promise<CodeHighlighter> | undefined;
const highlight = async (code: string, lang: string): Promise<string> => {
  highlighter ??= CodeHighlighter.create(JSON.parse(readFileSync(join(GEN, "highlight.json"), "utf8")) as Record<string, string>, true);
  return (await highlighter).block(code, lang);
};

const refLinks = [...refs.map((r) => ({ text: r.title, link: `/${r.id}` })), { text: "比较两课", link: "/compare" }];

// 默认挂在根 `/`；LEARN_PI_SITE_BASE=/learn-pi-agent/ 时挂在子路径下（site/lib/base.ts）。侧栏、导航和 markdown 里的链接
// VitePress 自己加前缀，head 里的和生成的 HTML 片段里的由 withSiteBase 加。
const base = siteBase();

export default defineConfig({
  base,
  lang: "zh-CN",
  title: "learn-pi-agent",
  description: "十二节课，从零长出一个 mini Pi",
  srcDir: ".gen",
  outDir: "dist",
  cacheDir: ".vitepress/cache",
  cleanUrls: false,
  lastUpdated: false,
  head: [
    ["meta", { name: "theme-color", content: "#3c8772" }],
    ["link", { rel: "icon", type: "image/svg+xml", href: withSiteBase("/favicon.svg", base) }],
  ],
  // 不预取侧栏里其他页面的代码块：读一课只下载这一课（每课的代码和差异只在它自己的 HTML 里）。
  router: { prefetchLinks: false },
  markdown: {
    lineNumbers: false,
    // 代码块（课文里的、练习卡片上的两条命令）右上角的复制按钮说中文
    codeCopyButton: { tooltipText: "复制", copiedText: "已复制" },
    // 和 GitHub 一样的标题锚点：为 GitHub 写的链接（EVOLUTION.md#9-决策…）在站里也对得上
    anchor: { slugify: githubSlug },
    config: (md) => readerLinks(md, { site: { lessons, refs, chapters }, codes: readCodes, diagrams: readDiagrams }),
    highlight,
  },
  themeConfig: {
    nav: [
      { text: "首页", link: "/" },
      { text: "链路", link: "/#chain" },
      { text: `课程（${lessons.length} 节）`, link: `/${lessons[0]?.id ?? "s01"}` },
      { text: "参考", items: refLinks },
    ],
    sidebar: [
      {
        text: "课程",
        items: [...lessons.map((l) => ({ text: `${l.id} ${l.topic}`, link: `/${l.id}` })), ...(chapter === undefined ? [] : [{ text: chapter.topic, link: `/${chapter.id}` }])],
      },
      { text: "参考", items: refLinks },
    ],
    outline: { label: "本页内容", level: [2, 3] },
    docFooter: { prev: "上一课", next: "下一课" },
    darkModeSwitchLabel: "深色模式",
    lightModeSwitchTitle: "切换到浅色",
    darkModeSwitchTitle: "切换到深色",
    sidebarMenuLabel: "目录",
    returnToTopLabel: "回到顶部",
    langMenuLabel: "语言",
    notFound: { title: "没有这一页", quote: "课程只有这些页面。", linkText: "回首页" },
    footer: { message: "由 npm run site 从仓库里的课文、代码、API 报告、录下的回放和参考资料生成。" },
  },
});
