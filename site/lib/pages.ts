// 生成 VitePress 的源页面（site/.gen/*.md）：首页和每课一页。
// 课文就是课的 README.md 原文，VitePress 渲染；代码、差异、API 卡片、链路图是这里生成的静态 HTML 片段。
// 片段不写进 markdown（VitePress 把 markdown 编译成 Vue 模板，Vue 会压掉只含空白的文字节点，代码的缩进就没了），
// 也不打包进页面的 JavaScript（那样每课的代码和差异要传两遍）：页面用 <LpRaw name="s04.tabs" /> 占位，
// 服务端渲染时把片段原样放进 HTML（不开 JavaScript 也看得到），浏览器里站内跳转过来时再单独取 /lp/s04.tabs.html。
// 回放是 Vue 组件 <Replay>，数据是录好的 site/replay/sNN.json。
// 「试一下」里的「自己写一遍」换成练习卡片（site/lib/practice.ts），跳转条上有一个「练习」直达它，旁边是「练习视图」开关
// （讲本节函数体的代码块折进「提示 / 答案」，site/lib/practice.ts 的 withPracticeFolds）。
import type { MarkdownRenderer } from "vitepress";
import { withSiteBase } from "./base.ts";
import { isChainHeading } from "../../tooling/teaching/chain-section.ts";
import { type HomeChain, chainHtml } from "./chain.ts";
import { type ApiCard, type Declaration, type DiffStats, apiCards, apiCardsHtml, codeViewHtml, declarations, diffViewHtml, newLines } from "./codeview.ts";
import type { CodeIndex } from "./cited-codes.ts";
import { type Lesson, readmeTitle } from "./course.ts";
import type { CodeHighlighter } from "./highlight.ts";
import { escapeHtml } from "./html.ts";
import { PRACTICE_ANCHOR, type Stub, hintLevelsFragment, withPracticeCard, withPracticeFolds } from "./practice.ts";
import { githubSlug } from "./refs.ts";
import type { Replay } from "./replay-types.ts";

/** 页面的 HTML 片段：名字（"s04.tabs"）→ HTML。 */
export type Fragments = Record<string, string>;

export type LessonPage = {
  lesson: Lesson;
  markdown: string;
  fragments: Fragments;
  fresh: number;
  diff: DiffStats | undefined;
  cards: number;
  steps: number;
};

const yaml = (value: string): string => JSON.stringify(value);

/** 片段的占位组件。 */
export const raw = (name: string): string => `<LpRaw name="${name}" />`;

/** 标签上的字：窄屏只留短的那部分（lp-long 在手机上隐藏），一排放得下。 */
const long = (text: string): string => `<span class="lp-long">${text}</span>`;

function tabs(lesson: Lesson, code: string, diff: string, api: string, fresh: number, stats: DiffStats | undefined, cards: number): string {
  const id = (name: string): string => `lp-tab-${lesson.id}-${name}`;
  const prev = lesson.prev;
  const label = (name: string, text: string, extra: string): string =>
    `<label class="lp-tab-label" for="${id(name)}">${text}${extra !== "" ? ` <small>${extra}</small>` : ""}</label>`;
  const input = (name: string, checked: boolean): string =>
    `<input class="lp-tab-in" type="radio" name="lp-tab-${lesson.id}" id="${id(name)}" data-tab="${name}"${checked ? " checked" : ""}>`;
  const diffTools =
    prev === undefined
      ? ""
      : `<div class="lp-diff-tools">` +
        `<span class="lp-view-switch" role="group" aria-label="差异的排法" hidden>` +
        `<button type="button" class="lp-btn" data-action="unified" aria-pressed="true">合并</button>` +
        `<button type="button" class="lp-btn" data-action="split" aria-pressed="false">并排</button></span>` +
        `<span class="lp-diff-legend">红色是 ${prev} 里删掉的行，绿色是 ${lesson.id} 加上的行；同一处改动先列删掉的，再列加上的，和 git 一样。</span>` +
        `<a class="lp-compare-link" href="${withSiteBase(`/compare.html?from=${prev}&amp;to=${lesson.id}`)}">比较任意两课 →</a></div>`;
  return (
    `<div class="lp-tabs" data-lesson="${lesson.id}">` +
    `${input("code", true)}${label("code", `${long("本节")}代码`, lesson.prev === undefined ? "全部是新的" : `${long("新 ")}${fresh}${long(" 行")}`)}` +
    `${input("diff", false)}${label("diff", lesson.prev === undefined ? "差异" : `${long(`与 ${prev} 的`)}差异`, stats === undefined ? "" : `+${stats.added} −${stats.removed}`)}` +
    `${input("api", false)}${label("api", "API", `${long("新增 ")}${cards}`)}` +
    `<div class="lp-panel lp-panel-code" data-panel="code">${code}</div>` +
    `<div class="lp-panel lp-panel-diff" data-panel="diff">${diffTools}${diff}</div>` +
    `<div class="lp-panel lp-panel-api" data-panel="api">${api}</div>` +
    `</div>`
  );
}

/** 「代码」一节要的：高亮好的代码视图、和上一课的差异、API 卡片。 */
type CodeSection = { codeHtml: string; diffHtml: string; stats: DiffStats | undefined; cards: ApiCard[]; freshCount: number };

export function lessonPage(
  lesson: Lesson,
  prev: Lesson | undefined,
  next: Lesson | undefined,
  hl: CodeHighlighter,
  replay: Replay,
  codes: CodeIndex = {},
  /** 这一课练习挖掉的地方（makePractice(id, { verify: false }).stubs）；不给就不放练习卡片。 */
  stubs?: readonly Stub[],
  /** 最后一课之后的那一章（毕业，site/lib/chapter.ts）：最后一课的「下一步」指向它。 */
  after?: ChapterLink,
): LessonPage {
  const code = codeSection(lesson, prev, hl);
  // 练习视图：讲本节函数体的代码块折进「提示 / 答案」，再换上练习卡片
  const readme = stubs === undefined ? lesson.readme : withPracticeCard({ ...lesson, readme: withPracticeFolds(lesson, stubs) }, next, stubs, codes);
  const { head, body } = splitAtFirstH2(readme);
  const own = replay.steps.filter((s) => s.lesson === lesson.id).length;
  const markdown = lessonMarkdown(lesson, next ?? after, {
    head,
    jump: jumpNav(lesson, prev, next, replay, own, code.freshCount, stubs, after),
    body,
    codeIntro: codeIntro(lesson, prev, code.freshCount),
    replayIntro: replayIntro(lesson, replay, own),
  });
  const api = apiCardsHtml(code.cards, codes);
  const fragments: Fragments = { [`${lesson.id}.tabs`]: tabs(lesson, code.codeHtml, code.diffHtml, api, code.freshCount, code.stats, code.cards.length) };
  // 练习视图的第 2、3 级提示：点开「提示」时才取（不进页面，省得每个读者都多下载几 KB）
  if (stubs !== undefined) fragments[`${lesson.id}.hints`] = hintLevelsFragment(lesson, stubs);
  return { lesson, markdown, fragments, fresh: code.freshCount, diff: code.stats, cards: code.cards.length, steps: replay.steps.length };
}

function codeSection(lesson: Lesson, prev: Lesson | undefined, hl: CodeHighlighter): CodeSection {
  const highlighted = hl.lines(lesson.code);
  const decls = declarations(lesson.code);
  const fresh = newLines(prev?.code, lesson.code);
  const codeHtml = codeViewHtml(lesson, highlighted, fresh, decls);
  let diffHtml = `<p class="lp-empty">这是第一课，没有上一课可比：每一行都是新的。</p>`;
  let stats: DiffStats | undefined;
  if (prev !== undefined) {
    const d = diffViewHtml(hl.lines(prev.code), highlighted, prev.code, lesson.code);
    diffHtml = d.html;
    stats = d.stats;
  }
  const cards = apiCards(lesson.id, prev?.api, lesson.api, decls);
  return { codeHtml, diffHtml, stats, cards, freshCount: fresh?.size ?? highlighted.length };
}

/** 课文在第一个二级标题前切开：前面是导语（跳转条插在它后面），后面是正文。 */
function splitAtFirstH2(readme: string): { head: string; body: string } {
  const lines = readme.replace(/\r\n/g, "\n").split("\n");
  const firstH2 = lines.findIndex((l) => l.startsWith("## "));
  const head = lines.slice(0, firstH2 < 0 ? lines.length : firstH2).join("\n").trimEnd();
  const body = firstH2 < 0 ? "" : lines.slice(firstH2).join("\n").trimEnd();
  return { head, body };
}

/** 课以外的一章在跳转条上的样子：站内页名和短名。 */
export type ChapterLink = { id: string; topic: string };

function jumpNav(lesson: Lesson, prev: Lesson | undefined, next: Lesson | undefined, replay: Replay, own: number, freshCount: number, stubs: readonly Stub[] | undefined, after: ChapterLink | undefined): string {
  return (
    `<nav class="lp-jump" aria-label="本页">` +
    `<a href="#code">代码<small>${prev === undefined ? "全部是新的" : `新 ${freshCount} 行，旧的已折叠`}</small></a>` +
    `<a href="#replay">回放<small>${replay.steps.length} 步，本节 ${own} 步</small></a>` +
    `${stubs !== undefined ? `<a href="#${PRACTICE_ANCHOR}">练习<small>自己写一遍：${stubs.length} 处空白</small></a><PracticeToggle lesson="${lesson.id}" />` : ""}` +
    `${prev !== undefined ? `<a href="${withSiteBase(`/${prev.id}.html`)}" rel="prev">上一课<small>${escapeHtml(prev.id)} ${escapeHtml(prev.topic)}</small></a>` : ""}` +
    `${next !== undefined ? `<a href="${withSiteBase(`/${next.id}.html`)}" rel="next">下一课<small>${escapeHtml(next.id)} ${escapeHtml(next.topic)}</small></a>` : ""}` +
    `${next === undefined && after !== undefined ? `<a href="${withSiteBase(`/${after.id}.html`)}" rel="next">下一步<small>${escapeHtml(after.topic)}</small></a>` : ""}` +
    `</nav>`
  );
}

function codeIntro(lesson: Lesson, prev: Lesson | undefined, freshCount: number): string {
  return prev === undefined
    ? `${lesson.id} 是地基：下面每一行都是这一课写的。每个导出的声明都带 \`@since ${lesson.id}\`，后面的课会一直沿用它们。`
    : `浅绿色的 ${freshCount} 行是这一课新加的：和 ${prev.id} 的 code.ts 逐行比对得出，和 \`npm run diff -- ${lesson.id}\` 用的是同一个行差异。` +
        `前面几课已有的代码折叠起来了，点灰色的「第 …–… 行」展开；折叠条上列出里面的声明，小字是它的 \`@since\`——来自哪一课。` +
        `「差异」可以合并看，也可以左右并排看；想隔几课比，用[比较任意两课](/compare.html?from=${prev.id}&to=${lesson.id})。`;
}

function replayIntro(lesson: Lesson, replay: Replay, own: number): string {
  return (
    `把 \`npm run ${lesson.id}\` 的演示放慢，一步一步看：用户消息、provider 收到的输入和吐出的事件、钩子、工具的执行和结果、存进历史的消息、` +
    `运行时事件、会话树的移动，以及终端上打出的每一行。每一步标着它靠的是哪一课的零件；绿色的「本节」是这一课新装的（${replay.steps.length} 步里有 ${own} 步），` +
    `「下一个本节步骤」直接跳过去，也可以自动播放。看到第几步写在网址里，可以发给别人。` +
    `回放由 \`npm run gen:replay\` 从课的代码里录出（site/replay/${lesson.id}.json），测试保证它和代码同步。`
  );
}

function lessonMarkdown(lesson: Lesson, next: { id: string } | undefined, parts: { head: string; jump: string; body: string; codeIntro: string; replayIntro: string }): string {
  return [
    "---",
    `title: ${yaml(`${lesson.id} ${lesson.topic}`)}`,
    `description: ${yaml(lesson.motto)}`,
    "outline: [2, 3]",
    "pageClass: lp-lesson-page",
    ...(next === undefined ? ["next: false"] : []),
    "---",
    "",
    "<script setup>",
    `import replay from "../replay/${lesson.id}.json";`,
    "</script>",
    "",
    parts.head,
    "",
    parts.jump,
    "",
    parts.body,
    "",
    "## 代码 {#code}",
    "",
    parts.codeIntro,
    "",
    '<div class="lp-wide">',
    "<CodeTools />",
    raw(`${lesson.id}.tabs`),
    "</div>",
    "",
    "## 回放 {#replay}",
    "",
    parts.replayIntro,
    "",
    '<div class="lp-wide">',
    '<Replay :data="replay" />',
    "</div>",
    "",
  ].join("\n");
}

/** 根 README 按二级标题切段：[标题, 这一段的 markdown]。用 markdown-it 找标题，代码块里的 "## " 不算。 */
export function readmeSections(readme: string, md: MarkdownRenderer): { preamble: string; sections: { title: string; body: string }[] } {
  const lines = readme.split("\n");
  const tokens = md.parse(readme, {});
  const starts: { line: number; title: string }[] = [];
  tokens.forEach((t, i) => {
    if (t.type === "heading_open" && t.tag === "h2" && t.map !== null) starts.push({ line: t.map[0], title: tokens[i + 1]?.content ?? "" });
  });
  const preambleEnd = starts[0]?.line ?? lines.length;
  const preamble = lines
    .slice(0, preambleEnd)
    .filter((l, i) => !(l.startsWith("# ") || (l.startsWith(">") && lines.slice(0, i).every((x) => !x.startsWith(">")))))
    .join("\n")
    .trim();
  const sections = starts.map((start, i) => ({ title: start.title, body: lines.slice(start.line, starts[i + 1]?.line ?? lines.length).join("\n").trim() }));
  return { preamble, sections };
}

export function homePage(
  rootReadme: string,
  chain: HomeChain,
  md: MarkdownRenderer,
  lessons: Lesson[],
  lastDecls: Declaration[],
  codes: CodeIndex = {},
  /** 十二课之后的那一章（毕业）：课程卡片下面多一行链到它。 */
  after?: ChapterLink & { tagline: string },
): { markdown: string; fragments: Fragments } {
  const hero = homeHero(rootReadme);
  const cards = lessonCards(lessons, md);
  const sections = homeSections(rootReadme, md);
  const fragments: Fragments = { "index.chain": chainHtml(chain, md, lessons, lastDecls, codes), "index.lessons": `<ol class="lp-lessons">${cards}</ol>` };
  return { markdown: homeMarkdown(hero, chain, lessons, sections, after), fragments };
}

/** 首页大标题：根 README 的一级标题按「：」分成名字和副标题，第一段引用当标语。 */
function homeHero(rootReadme: string): { name: string; text: string; tagline: string } {
  const { before: name, after: text, quote: tagline } = readmeTitle(rootReadme, "learn-pi-agent");
  return { name, text, tagline };
}

function lessonCards(lessons: Lesson[], md: MarkdownRenderer): string {
  return lessons
    .map(
      (l) =>
        `<li><a class="lp-lesson" href="${withSiteBase(`/${l.id}.html`)}"><span class="lp-lesson-id">${l.id}</span>` +
        `<span class="lp-lesson-topic">${escapeHtml(l.topic)}</span><span class="lp-lesson-tagline">${escapeHtml(l.tagline)}</span>` +
        `<span class="lp-lesson-motto">${md.renderInline(l.motto, {})}</span></a></li>`,
    )
    .join("");
}

/** 首页用到的根 README 各节：导语、原样放的其余各节、换掉的两节的旧锚点。 */
type HomeSections = { preamble: string; rest: string[]; chainAlias: string; lessonsAlias: string };

// 根 README 的其余各节原样放在课程列表后面；链路那一节换成图，课程目录那张表换成卡片。
function homeSections(rootReadme: string, md: MarkdownRenderer): HomeSections {
  const { preamble, sections } = readmeSections(rootReadme, md);
  const rest = sections.filter((sec) => !isChainHeading(sec.title) && sec.title !== "课程目录").map((sec) => sec.body);
  // 换掉的两节在 GitHub 上的锚点（别的文件会链 README.md#一轮对话的完整链路s12）留在站里，指向换上的那一节
  const alias = (title: string | undefined): string => (title === undefined ? "" : `<a id="${escapeHtml(githubSlug(title))}"></a>`);
  const chainAlias = alias(sections.find((sec) => isChainHeading(sec.title))?.title);
  const lessonsAlias = alias(sections.find((sec) => sec.title === "课程目录")?.title);
  return { preamble, rest, chainAlias, lessonsAlias };
}

function homeMarkdown(hero: { name: string; text: string; tagline: string }, chain: HomeChain, lessons: Lesson[], sections: HomeSections, after: (ChapterLink & { tagline: string }) | undefined): string {
  return [
    "---",
    "layout: home",
    `title: ${yaml(hero.name)}`,
    "hero:",
    `  name: ${yaml(hero.name)}`,
    `  text: ${yaml(hero.text)}`,
    `  tagline: ${yaml(hero.tagline)}`,
    "  actions:",
    "    - theme: brand",
    `      text: ${yaml(`从 ${lessons[0]?.id ?? "s01"} 读起`)}`,
    `      link: /${lessons[0]?.id ?? "s01"}`,
    "    - theme: alt",
    "      text: 一轮对话的完整链路",
    "      link: '#chain'",
    "    - theme: alt",
    `      text: ${yaml(`${lessons.length} 节课`)}`,
    "      link: '#lessons'",
    "---",
    "",
    sections.preamble,
    "",
    sections.chainAlias,
    "",
    "## 一轮对话的完整链路 {#chain}",
    "",
    chain.intro,
    "",
    raw("index.chain"),
    "",
    chain.outro,
    "",
    sections.lessonsAlias,
    "",
    `## ${lessons.length === 12 ? "十二节课" : `${lessons.length} 节课`} {#lessons}`,
    "",
    "每节课是 mini Pi 的一个版本：上一课的代码，再多一个零件。下面每张卡片写着这一课的主题和它的格言。",
    "",
    raw("index.lessons"),
    "",
    ...(after === undefined ? [] : [`十二课之后：[${after.topic}](/${after.id}.html)——${after.tagline}。`, ""]),
    ...sections.rest.flatMap((body) => [body, ""]),
  ].join("\n");
}
