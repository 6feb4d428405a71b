// npm run site：从仓库生成课程网站。
//   1. 读课（README、code.ts、tests/api/sNN.json）和录好的回放（site/replay/sNN.json）；
//   2. 生成 VitePress 的源页面到 site/.gen（首页 + 每课一页 + 高亮颜色表）；
//   3. VitePress 构建成静态站点 site/dist（git 不收）。npm run site:serve 在本机起一个静态服务器看它。
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { build, createMarkdownRenderer, disposeMdItInstance } from "vitepress";
import { readChain } from "./lib/chain.ts";
import { declarations } from "./lib/codeview.ts";
import { SITE, loadCourse, readRootReadme } from "./lib/course.ts";
import { CodeHighlighter } from "./lib/highlight.ts";
import { homePage, lessonPage } from "./lib/pages.ts";
import type { Replay } from "./lib/replay-types.ts";

export const GEN = join(SITE, ".gen");
export const DIST = join(SITE, "dist");

/** 只生成 site/.gen 里的页面，不构建。返回每课的概况。 */
export async function generate(): Promise<{ id: string; fresh: number; cards: number; steps: number }[]> {
  const lessons = loadCourse();
  const hl = await CodeHighlighter.create();
  const md = await createMarkdownRenderer(GEN);
  rmSync(GEN, { recursive: true, force: true });
  mkdirSync(GEN, { recursive: true });

  const summary: { id: string; fresh: number; cards: number; steps: number }[] = [];
  lessons.forEach((lesson, i) => {
    const file = join(SITE, "replay", `${lesson.id}.json`);
    if (!existsSync(file)) throw new Error(`site/replay/${lesson.id}.json is missing: run npm run site:record`);
    const replay = JSON.parse(readFileSync(file, "utf8")) as Replay;
    const page = lessonPage(lesson, lessons[i - 1], hl, replay);
    writeFileSync(join(GEN, `${lesson.id}.md`), page.markdown);
    writeFileSync(join(GEN, `${lesson.id}.data.json`), JSON.stringify(page.data));
    summary.push({ id: lesson.id, fresh: page.fresh, cards: page.cards, steps: page.steps });
  });
  const last = lessons[lessons.length - 1];
  const chain = readChain(readRootReadme(), md);
  const home = homePage(readRootReadme(), chain, md, lessons, declarations(last.code));
  writeFileSync(join(GEN, "index.md"), home.markdown);
  writeFileSync(join(GEN, "index.data.json"), JSON.stringify(home.data));
  writeFileSync(join(GEN, "tokens.css"), hl.css());
  // VitePress 只留一个 markdown 渲染器；上面借来解析 README 表格的那个没有站点配置（链接改写），构建前扔掉。
  disposeMdItInstance();
  return summary;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const started = performance.now();
  const summary = await generate();
  const generated = performance.now();
  console.log(`generated ${summary.length + 1} pages in site/.gen (${Math.round(generated - started)} ms)`);
  for (const s of summary) console.log(`  ${s.id}: ${s.fresh} new lines, ${s.cards} API cards, ${s.steps} replay steps`);
  await build(SITE);
  console.log(`site built in site/dist (${((performance.now() - started) / 1000).toFixed(1)} s in all); npm run site:serve to read it`);
}
