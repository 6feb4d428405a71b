// npm run site：从仓库生成课程网站。
//   1. 读课（README、code.ts、tests/api/sNN.json）、录好的回放（site/replay/sNN.json）和参考资料（EVOLUTION.md、GLOSSARY.md、
//      fidelity/DIFFERENCES.md）；
//   2. 生成 VitePress 的源页面到 site/.gen：首页、每课一页（「自己写一遍」换成练习卡片，空白来自 tooling/practice 的
//      makePractice）、每份参考资料一页、比较两课的页面；页面里的大块 HTML（代码、差异、API 卡片、链路图）写成片段
//      site/.gen/raw/*.html，同一份也放进 public/lp/ 给站内跳转时取；比较页要的每课高亮行放进 public/lp/lines/
//      （折叠的旧代码展开时也从这里取颜色）；课文里的 Mermaid 图画成 public/lp/diagrams/*.svg；编号 → 链接的表 codes.json；
//      高亮颜色编号 highlight.json 和颜色表 tokens.css；
//   3. VitePress 构建成静态站点 site/dist（git 不收）。npm run site:serve 在本机起一个静态服务器看它。
// 站点默认挂在根 `/`；LEARN_PI_SITE_BASE=/learn-pi-agent/ npm run site 构建成挂在子路径下的（GitHub Pages 的项目页，
// site/lib/base.ts）。挂在哪写进 site/.vitepress/cache/base.json，site:serve 和浏览器测试照它把站点放在同一个路径下。
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { type MarkdownRenderer, build, createMarkdownRenderer, disposeMdItInstance } from "vitepress";
import { siteBase } from "./lib/base.ts";
import { writeBuiltBase } from "./lib/built-base.ts";
import { readHomeChain } from "./lib/chain.ts";
import type { CodeIndex } from "./lib/cited-codes.ts";
import { declarations } from "./lib/codeview.ts";
import { type Chapter, chapterMarkdown, loadChapter } from "./lib/chapter.ts";
import { type Lesson, ROOT, SITE, loadCourse, readRootReadme } from "./lib/course.ts";
import { CodeHighlighter } from "./lib/highlight.ts";
import { type Fragments, homePage, lessonPage } from "./lib/pages.ts";
import { renderDiagram } from "./lib/diagrams.ts";
import { makePractice } from "../tooling/practice/stub.ts";
import { codeIndex, presentRefPages, refPageMarkdown } from "./lib/refs.ts";
import type { Replay } from "./lib/replay-types.ts";

export const GEN = join(SITE, ".gen");
export const DIST = join(SITE, "dist");

/** 比较页取的每课数据：原文（算差异用）和高亮好的每一行。 */
export type LessonLines = { id: string; topic: string; code: string; lines: string[] };

export type Summary = { id: string; fresh: number; cards: number; steps: number; bytes: number };

/** 只生成 site/.gen 里的页面，不构建。返回每课的概况。 */
export async function generate(): Promise<{ lessons: Summary[]; refs: string[]; chapters: string[] }> {
  const lessons = loadCourse();
  const hl = await CodeHighlighter.create();
  const md = await createMarkdownRenderer(GEN, {}, siteBase());
  rmSync(GEN, { recursive: true, force: true });
  for (const dir of ["raw", "public/lp/lines", "public/lp/diagrams"]) mkdirSync(join(GEN, dir), { recursive: true });

  const refs = presentRefPages();
  const codes = codeIndex(md);
  writeFileSync(join(GEN, "codes.json"), `${JSON.stringify(codes, null, 1)}\n`);
  const chapter = loadChapter();
  const summary = lessons.map((lesson, i) => writeLessonPage(lesson, lessons[i - 1], lessons[i + 1], hl, codes, chapter));
  writeHomePage(lessons, md, codes, chapter);
  const last = lessons.at(-1);
  if (chapter !== undefined && last !== undefined) writeFileSync(join(GEN, `${chapter.id}.md`), chapterMarkdown(chapter, last));
  for (const page of refs) writeFileSync(join(GEN, `${page.id}.md`), refPageMarkdown(page, readFileSync(join(ROOT, page.source), "utf8")));
  // 课文、根 README、参考资料里的代码块先在这里高亮一遍：VitePress 构建时照同一张颜色编号表上色（site/.vitepress/config.ts）
  const sources = [readRootReadme(), ...lessons.map((l) => l.readme), ...(chapter === undefined ? [] : [chapter.readme]), ...refs.map((r) => readFileSync(join(ROOT, r.source), "utf8"))];
  const diagrams = await renderFences(sources, md, hl);
  writeFileSync(join(GEN, "highlight.json"), `${JSON.stringify(hl.classMap(), null, 1)}\n`);
  writeFileSync(join(GEN, "diagrams.json"), `${JSON.stringify(diagrams, null, 1)}\n`);
  writeFileSync(join(GEN, "compare.md"), comparePage());
  writeFileSync(join(GEN, "lessons.json"), JSON.stringify(lessons.map((l) => ({ id: l.id, topic: l.topic }))));
  writeFileSync(join(GEN, "tokens.css"), hl.css());
  copyFileSync(join(SITE, "favicon.svg"), join(GEN, "public", "favicon.svg"));
  // VitePress 只留一个 markdown 渲染器；上面借来解析 README 表格的那个没有站点配置（链接改写），构建前扔掉。
  disposeMdItInstance();
  return { lessons: summary, refs: refs.map((r) => r.id), chapters: chapter === undefined ? [] : [chapter.id] };
}

/** 片段写两份：raw/ 给服务端渲染时内联，public/lp/ 给站内跳转时取。 */
function writeFragments(fragments: Fragments): void {
  for (const [name, html] of Object.entries(fragments)) {
    writeFileSync(join(GEN, "raw", `${name}.html`), html);
    writeFileSync(join(GEN, "public", "lp", `${name}.html`), html);
  }
}

/** 一课的页面、片段和比较页要的高亮行。 */
function writeLessonPage(lesson: Lesson, prev: Lesson | undefined, next: Lesson | undefined, hl: CodeHighlighter, codes: CodeIndex, chapter: Chapter | undefined): Summary {
  const file = join(SITE, "replay", `${lesson.id}.json`);
  if (!existsSync(file)) throw new Error(`site/replay/${lesson.id}.json is missing: run npm run gen:replay`);
  const replay = JSON.parse(readFileSync(file, "utf8")) as Replay;
  // 练习卡片列的空白就是 npm run practice 挖的那些（只挖不核对：核对由 npm run test:practice 做）
  const { stubs } = makePractice(lesson.id, { verify: false });
  const page = lessonPage(lesson, prev, next, hl, replay, codes, stubs, next === undefined ? chapter : undefined);
  writeFileSync(join(GEN, `${lesson.id}.md`), page.markdown);
  writeFragments(page.fragments);
  const lines: LessonLines = { id: lesson.id, topic: lesson.topic, code: lesson.code, lines: hl.lines(lesson.code) };
  writeFileSync(join(GEN, "public", "lp", "lines", `${lesson.id}.json`), JSON.stringify(lines));
  const bytes = Object.values(page.fragments).reduce((n, html) => n + Buffer.byteLength(html), 0);
  return { id: lesson.id, fresh: page.fresh, cards: page.cards, steps: page.steps, bytes };
}

function writeHomePage(lessons: Lesson[], md: MarkdownRenderer, codes: CodeIndex, chapter: Chapter | undefined): void {
  const last = lessons[lessons.length - 1];
  const chain = readHomeChain(readRootReadme());
  const home = homePage(readRootReadme(), chain, md, lessons, declarations(last.code), codes, chapter);
  writeFileSync(join(GEN, "index.md"), home.markdown);
  writeFragments(home.fragments);
}

/**
 * 走一遍所有代码块：普通代码块交给高亮器登记颜色编号，Mermaid 图画成 SVG（site/lib/diagrams.ts），
 * markdown 插件照返回的 diagrams.json 把代码块换成图。
 */
async function renderFences(sources: string[], md: MarkdownRenderer, hl: CodeHighlighter): Promise<Record<string, { width: number; height: number }>> {
  const diagrams: Record<string, { width: number; height: number }> = {};
  for (const text of sources) {
    for (const t of md.parse(text, {})) {
      if (t.type !== "fence") continue;
      const lang = t.info.trim().split(/\s+/)[0] ?? "";
      if (lang === "mermaid") {
        const d = await renderDiagram(t.content);
        writeFileSync(join(GEN, "public", "lp", "diagrams", `${d.id}.svg`), d.light);
        writeFileSync(join(GEN, "public", "lp", "diagrams", `${d.id}-dark.svg`), d.dark);
        diagrams[d.id] = { width: d.width, height: d.height };
      } else hl.block(t.content, lang);
    }
  }
  return diagrams;
}

/** 比较任意两课：选两课，在浏览器里现算差异（数据是 /lp/lines/sNN.json）。 */
function comparePage(): string {
  return [
    "---",
    'title: "比较两课"',
    "outline: false",
    "aside: false",
    "pageClass: lp-compare-page",
    "prev: false",
    "next: false",
    "---",
    "",
    "# 比较两课",
    "",
    "任选两课，看 mini Pi 从一个版本长到另一个版本改了哪些行：合并看（和 `git diff` 一样）或左右并排看。相邻两课的差异也在每课页面的「差异」标签里。",
    "",
    '<div class="lp-wide">',
    "<Compare />",
    "</div>",
    "",
  ].join("\n");
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const started = performance.now();
  const { lessons, refs, chapters } = await generate();
  const generated = performance.now();
  console.log(`generated ${lessons.length + refs.length + chapters.length + 2} pages in site/.gen (${Math.round(generated - started)} ms); reference pages: ${refs.join(", ")}; after the lessons: ${chapters.join(", ") || "nothing"}`);
  for (const s of lessons) {
    console.log(`  ${s.id}: ${s.fresh} new lines, ${s.cards} API cards, ${s.steps} replay steps, ${Math.round(s.bytes / 1024)} KB of code/diff/API HTML`);
  }
  // 先记下 base 再构建：构建失败时 site/dist 本来就不能用，记录和它对不上也无妨
  writeBuiltBase(siteBase());
  await build(SITE);
  console.log(`site built in site/dist for base ${siteBase()} (${((performance.now() - started) / 1000).toFixed(1)} s in all); npm run site:serve to read it`);
}
