// 十二课之后的一章：graduation/README.md（毕业：把 mini Pi 里写过的，写成真的 Pi 1.6.0 扩展和包）。
// 它不是第十三课：没有 code.ts、API 报告和回放，页面就是 README 原文，由 VitePress 渲染（链接、编号、代码块和课文一样经 site/lib/links.ts）。
// 阅读器里它排在 s12 后面：侧栏「课程」一组的最后一项，s12 页底和跳转条上的「下一步」，首页课程卡片的下面一行。
// 只用 node:fs 和 tooling/course.ts——VitePress 的配置也引用它来排侧栏，不能拖进测试框架。
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "../../tooling/course.ts";
import { readmeTitle } from "./course.ts";

export type Chapter = {
  /** 站内页名：/graduation.html */
  id: "graduation";
  /** 仓库里的文件。 */
  source: string;
  /** 一级标题全文：「毕业：mini Pi 里写过的，到真的 Pi 里再写一遍」。 */
  heading: string;
  /** 侧栏和跳转条上的短名：「毕业」。 */
  topic: string;
  /** 副题：一级标题冒号后面那一句。 */
  tagline: string;
  motto: string;
  readme: string;
};

export const CHAPTER_SOURCE = "graduation/README.md";

/** 读毕业一章；仓库里还没有这一章就是 undefined（站点照样生成，只是没有这一页）。 */
export function loadChapter(root: string = ROOT): Chapter | undefined {
  const file = join(root, CHAPTER_SOURCE);
  if (!existsSync(file)) return undefined;
  const readme = readFileSync(file, "utf8");
  const { heading, before: topic, after: tagline, quote: motto } = readmeTitle(readme, "毕业");
  return { id: "graduation", source: CHAPTER_SOURCE, heading, topic, tagline, motto, readme };
}

/** 这一章的 VitePress 源页面：README 原文，上一页是最后一课，没有下一页。 */
export function chapterMarkdown(chapter: Chapter, last: { id: string; topic: string }): string {
  return [
    "---",
    `title: ${JSON.stringify(chapter.topic)}`,
    `description: ${JSON.stringify(chapter.motto)}`,
    "outline: [2, 3]",
    "pageClass: lp-chapter-page",
    "prev:",
    `  text: ${JSON.stringify(`${last.id} ${last.topic}`)}`,
    `  link: /${last.id}`,
    "next: false",
    "---",
    "",
    chapter.readme.trim(),
    "",
  ].join("\n");
}
