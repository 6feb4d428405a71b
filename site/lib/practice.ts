// 每课页面上的练习卡片：怎么把这一课自己写一遍。全部从仓库里现成的东西生成，没有一课是手写的：
//   - 两条命令（npm run practice -- sNN、npm run check -- sNN），课文的代码块，VitePress 给它们配复制按钮；
//   - 挖掉的每一处：tooling/practice/stub.ts 的 makePractice(id, { verify: false }).stubs（npm run practice 挖的就是这些），
//     写出 / 改写 / 补上加名字，链到「工作原理」里讲它的那一小节（stub.section）；
//   - npm run check 按顺序查的几项：类型、API、这一课的每个阶段（tooling/practice/stage-table.ts）、演示（tooling/practice/check-list.ts）；
//   - 第一次检查会看到什么：README「自己写一遍」里的 text 块（它和真跑出来的一字不差，由 npm test 的文档检查守着）；
//   - --watch、--solution，和下一课的练习。
// 站里这张卡片顶替 README 的「自己写一遍」小节（标题和锚点不变）：那一小节的命令、说明和 text 块卡片里都有，不再重复一遍。
// 「工作原理」没有三级标题、按加粗开头的段落分小节的课（stub.section 是「第三步：…」），给那一段加一个锚点，卡片才链得过去。
import type { Code, Heading, Paragraph, RootContent } from "mdast";
import { toString } from "mdast-util-to-string";
import { CHECK_NAMES, checkLines } from "../../tooling/practice/check-list.ts";
import { LEVEL_NAMES, codeHint, hintSource } from "../../tooling/practice/hints.ts";
import { PRACTICE_HEADING, practiceBlocks } from "../../tooling/practice/readme.ts";
import type { Stub } from "../../tooling/practice/stub.ts";
import { parseReadme } from "../../tooling/markdown.ts";
import { withSiteBase } from "./base.ts";
import { type CodeIndex, linkCodesHtml } from "./cited-codes.ts";
import type { Lesson } from "./course.ts";
import { escapeHtml, escapeText } from "./html.ts";

/** 放进 Vue 模板的文字：HTML 转义，再把 { 写成字符引用（不让 {{ }} 成为插值）。 */
const text = (value: string): string => escapeHtml(value).replace(/\{/g, "&#123;");
import { githubSlug } from "./refs.ts";

export type { Stub };

/** 卡片所在小节的锚点（README 的「### 自己写一遍」）。 */
export const PRACTICE_ANCHOR = githubSlug(PRACTICE_HEADING);

/** 挖空的三种，和 npm run practice 打印的动词一样。 */
export const STUB_VERB: Record<Stub["kind"], string> = { body: "写出", rewrite: "改写", part: "补上" };
const STUB_WHAT: Record<Stub["kind"], string> = {
  body: "整个函数体是本节新写的",
  rewrite: "前面就有，本节改得整个要重写",
  part: "前面就有，只挖了本节改的那几条语句",
};

/** 小节标题在页面上的锚点：标题的锚点（和 GitHub 一样），加粗段落由 withPracticeCard 加上同样写法的锚点。 */
export const sectionAnchor = (section: string): string => githubSlug(section);

const headingText = (node: Heading): string => toString(node).trim();
/** 和 tooling/practice/readme.ts 切小节的规矩一样：加粗开头的段落，标题是加粗的字去掉收尾的标点。 */
const leadTitle = (node: Paragraph): string | undefined =>
  node.children[0]?.type === "strong" ? toString(node.children[0]).trim().replace(/[。：:，,]$/, "") : undefined;

/**
 * 卡片上按顺序查的几项：名字和顺序取自 npm run check 自己（tooling/practice/check-list.ts）。
 * 阶段那几行的小字是它要你做什么（阶段表的 asks），另外三项补一句怎么查。
 */
export function checks(lesson: Lesson, codes: CodeIndex): string[] {
  const notes = new Map<string, string>([
    [CHECK_NAMES.types, "和课程自己的代码同一份设置"],
    [CHECK_NAMES.api, `和提交的 tests/api/${lesson.id}.json 逐项比`],
    [CHECK_NAMES.demo, "所有阶段都过了，跑你的 main()，逐字比"],
  ]);
  const tryIt = `「<a href="#${githubSlug("试一下")}">试一下</a>」`;
  return checkLines(lesson.id).map(
    ({ name, stage }) => `${linkCodesHtml(escapeHtml(name), codes).replace("「试一下」", tryIt)}<small>${text(stage?.asks ?? notes.get(name) ?? "")}</small>`,
  );
}

/**
 * 练习卡片（markdown：HTML 块和代码块）。不用 v-pre：有了它 Vue 就不把卡片当静态内容，页面的脚本里要再带一份；
 * 所以从课里取来的字（名字、小节标题）把 { 写成 &#123;，Vue 不会把 {{ }} 当插值。代码块由 VitePress 自己加 v-pre。
 */
export function practiceCard(lesson: Lesson, next: Lesson | undefined, stubs: readonly Stub[], firstFailure: string | undefined, codes: CodeIndex = {}): string {
  const file = `practice/${lesson.dir}/code.ts`;
  const stubItems = stubs.map(
    (s) =>
      `<li data-kind="${s.kind}"><span class="lp-stub-verb" title="${STUB_WHAT[s.kind]}">${STUB_VERB[s.kind]}</span> ` +
      `<code class="lp-stub-name">${text(s.name)}</code><small>第 ${s.line} 行</small>` +
      `<a class="lp-stub-section" href="#${text(sectionAnchor(s.section))}">${text(s.section)}</a></li>`,
  );
  const legend = (Object.keys(STUB_VERB) as Stub["kind"][])
    .filter((k) => stubs.some((s) => s.kind === k))
    .map((k) => `<b>${STUB_VERB[k]}</b>：${STUB_WHAT[k]}`)
    .join("；");
  const nextLine =
    next === undefined
      ? "这是最后一课：过关了，十二课的零件你就都亲手写过一遍了。"
      : `过关了，接着写下一课：<a href="${withSiteBase(`/${next.id}.html#${PRACTICE_ANCHOR}`)}">${next.id} ${text(next.topic)}</a>（<code>npm run practice -- ${next.id}</code>）。`;
  const step = (n: number, text: string): string => `<p class="lp-practice-step"><span class="lp-practice-no">${n}</span>${text}</p>`;
  return [
    `### ${PRACTICE_HEADING}`,
    "",
    `<div class="lp-practice" data-lesson="${lesson.id}">`,
    "",
    `<p class="lp-practice-lead">看懂了，就合上上面的代码，把本节的零件自己写一遍，再用课程自己的检查查你写的。</p>`,
    "",
    step(
      1,
      `生成练习文件<small>本节的 code.ts 抄到 <code>${text(file)}</code>，本节写的地方挖成空白；类型、签名、注释、前面几课的代码和演示原样留着。` +
        `<code>practice/</code> 不进版本库，已有的文件不会覆盖。</small>`,
    ),
    "",
    "```bash",
    `npm run practice -- ${lesson.id}`,
    "```",
    "",
    `<p class="lp-practice-sub">挖掉的 ${stubs.length} 处，每处只剩一句 <code>throw new Error("TODO ${lesson.id}: …")</code>，→ 指向讲它的那一小节：</p>`,
    `<ul class="lp-stubs">${stubItems.join("")}</ul>`,
    `<p class="lp-practice-legend">${legend}。行号是练习文件里的。</p>`,
    "",
    step(2, "检查<small>按顺序查，前一项没过，后面的就不跑；中间是本节练习的几个阶段，每个写完就能单独变绿。报告说你在第几阶段，只讲它第一个没过的地方。</small>"),
    "",
    "```bash",
    `npm run check -- ${lesson.id}`,
    "```",
    "",
    `<ol class="lp-checks">${checks(lesson, codes)
      .map((c) => `<li>${c}</li>`)
      .join("")}</ol>`,
    "",
    ...(firstFailure === undefined
      ? []
      : [`<p class="lp-practice-sub">刚生成的文件，第一次检查：类型和 API 能过，停在第 1 阶段：</p>`, "", "```text", firstFailure, "```", ""]),
    `<p class="lp-practice-more">加 <code>--watch</code> 每次保存自动重查；<code>--solution</code> 把同样的检查用在本节自己的 code.ts 上（证明检查本身是对的）。` +
      `卡住了：<code>npm run hint -- ${lesson.id}</code> 一级一级给提示，页面顶上的「练习视图」把课文里的答案折起来。${nextLine}</p>`,
    "",
    "</div>",
  ].join("\n");
}

/** 「自己写一遍」里命令后面的 text 块：刚生成的练习文件第一次 check 看到的那一段（和 checkPracticeSection 找的是同一块）。 */
export function firstFailureBlock(readme: string): string | undefined {
  const part = practiceBlocks(readme);
  if (part === undefined) return undefined;
  const shell = part.blocks.findIndex((b) => ["bash", "sh", "shell"].includes(b.lang ?? ""));
  return part.blocks.find((b, i) => i > shell && ["text", "txt", "", null, undefined].includes(b.lang))?.value;
}

/**
 * 课的 README 换上练习卡片：「试一下」里的「自己写一遍」小节（到下一个同级或更高的标题为止）换成卡片；没有这一小节就放在「试一下」末尾。
 * stub.section 指向加粗段落的，在那一段开头加锚点。返回改好的 README 全文。
 */
export function withPracticeCard(lesson: Lesson, next: Lesson | undefined, stubs: readonly Stub[], codes: CodeIndex = {}): string {
  const readme = lesson.readme.replace(/\r\n/g, "\n");
  const lines = readme.split("\n");
  const doc = parseReadme(readme);
  const at = (node: RootContent): number => (node.position?.start.line ?? 1) - 1;

  // 加粗段落的锚点（从后往前插，前面的行号不动）
  const headings = new Set(doc.sections.flatMap((s) => s.nodes.filter((n): n is Heading => n.type === "heading").map(headingText)));
  const wanted = new Set(stubs.map((s) => s.section).filter((t) => !headings.has(t) && !doc.sections.some((s) => s.name === t)));
  const how = doc.sections.find((s) => s.name === "工作原理");
  const inserts: { line: number; column: number; id: string }[] = [];
  for (const node of how?.nodes ?? []) {
    if (node.type !== "paragraph") continue;
    const title = leadTitle(node);
    if (title === undefined || !wanted.has(title)) continue;
    wanted.delete(title);
    inserts.push({ line: at(node), column: (node.position?.start.column ?? 1) - 1, id: sectionAnchor(title) });
  }
  if (wanted.size > 0) throw new Error(`${lesson.dir}/README.md: no heading or bold paragraph for ${[...wanted].map((t) => `「${t}」`).join("、")} (stub sections)`);

  const tryIt = doc.sections.find((s) => s.name === "试一下");
  const card = practiceCard(lesson, next, stubs, firstFailureBlock(readme), codes).split("\n");
  let from = lines.length;
  let to = lines.length;
  if (tryIt !== undefined) {
    const afterTry = doc.sections[doc.sections.indexOf(tryIt) + 1];
    const sectionEnd = afterTry === undefined ? lines.length : afterTry.line - 1;
    const start = tryIt.nodes.findIndex((n) => n.type === "heading" && n.depth === 3 && headingText(n) === PRACTICE_HEADING);
    const end = start < 0 ? -1 : tryIt.nodes.findIndex((n, i) => i > start && n.type === "heading" && n.depth <= 3);
    from = start < 0 ? sectionEnd : at(tryIt.nodes[start]);
    to = end < 0 ? sectionEnd : at(tryIt.nodes[end]);
  }
  for (const ins of [...inserts].sort((a, b) => b.line - a.line)) {
    const line = lines[ins.line];
    lines[ins.line] = `${line.slice(0, ins.column)}<a id="${escapeHtml(ins.id)}"></a>${line.slice(ins.column)}`;
  }
  return [...lines.slice(0, from), ...card, "", ...lines.slice(to)].join("\n");
}

// ── 练习视图：讲本节函数体的代码块折在「提示 / 答案」后面 ────────────
// 页面上的「练习视图」开关（site/.vitepress/theme/PracticeToggle.vue）打开时，这些代码块折起来：先看「提示」（npm run hint 的第 1–3 级），
// 实在写不出再点开「答案」（代码块本身）。普通视图和今天一样：答案的 <details> 开着、「答案」两个字和「提示」都藏着（样式在 site/.vitepress/theme/css/practice-view.css）；
// 不开 JavaScript 也一样，代码块照常看得见。

/** 代码块里像样的代码行（`}`、`try {`、注释这种到处都有的不算），和 tooling/practice/readme.ts 找小节用的是同一条线。 */
const solidLines = (code: string): string[] =>
  code
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l.length >= 12 && !/^(\/\/|\/?\*)/.test(l));

/**
 * README 里算「答案」的代码块，和它讲的那一处空白：TypeScript 代码块里有一行像样的代码是本节挖掉的（某个 stub.code 里的行）。
 * 一块对上几处空白时，算重合的行最多的那一处（一样多取前面的）。只看顶层的代码块（列表、引用里的不折）。
 */
export function answerBlocks(readme: string, stubs: readonly Stub[]): { block: Code; stub: Stub }[] {
  const doc = parseReadme(readme);
  const stubLines = stubs.map((s) => new Set(solidLines(s.code)));
  const out: { block: Code; stub: Stub }[] = [];
  for (const node of [...doc.head, ...doc.sections.flatMap((sec) => sec.nodes)]) {
    if (node.type !== "code" || !["ts", "typescript"].includes(node.lang ?? "")) continue;
    const lines = solidLines(node.value);
    let best = -1;
    let most = 0;
    stubLines.forEach((set, i) => {
      const n = lines.filter((l) => set.has(l)).length;
      if (n > most) [best, most] = [i, n];
    });
    if (best >= 0) out.push({ block: node, stub: stubs[best] });
  }
  return out;
}

/** 片段里的一段代码（片段由浏览器填进页面，不经过 Vue 的模板，{{ 不用转义）。 */
const preLine = (code: string): string => `<pre class="lp-hint-code"><code>${escapeText(code)}</code></pre>`;

const levelHtml = (n: 1 | 2 | 3, body: string): string => `<details><summary>第 ${n} 级 · ${escapeText(LEVEL_NAMES[n].split("：")[0])}</summary>${body}</details>`;

/**
 * 一处空白的「提示」，放在代码块前面，里面是空的：三级提示都不写进页面——s12 一页离 600 KB 的上限只剩几 KB——
 * 读者第一次点开「提示」时才从片段 sNN.hints（hintLevelsFragment）取来，按 data-stub 填进去（PracticeToggle.vue）。
 */
export const hintsHtml = (stub: Stub): string => `<details class="lp-pfold-hint" data-stub="${text(stub.name)}"><summary>提示</summary></details>`;

/**
 * 片段 sNN.hints：这一页折起来的每处空白的第 1–3 级提示，一处一个 <div data-stub="…">。第 1 级链到讲它的小节（锚点在这一页上），
 * 第 2 级是注释和签名，第 3 级是骨架（只印函数体，签名就在上面一级）。
 */
export function hintLevelsFragment(lesson: Pick<Lesson, "code" | "readme">, stubs: readonly Stub[]): string {
  const shown = [...new Set(answerBlocks(lesson.readme, stubs).map((b) => b.stub))];
  return shown
    .map((stub) => {
      const src = hintSource(lesson.code, stub);
      const first = levelHtml(1, `<p>重读「<a href="#${escapeHtml(sectionAnchor(stub.section))}">${escapeText(stub.section)}</a>」的正文，先别看代码。</p>`);
      const code = src === undefined ? "" : levelHtml(2, preLine(codeHint(src, stub, 2))) + levelHtml(3, preLine(codeHint(src, stub, 3, { signature: false })));
      return `<div data-stub="${escapeHtml(stub.name)}">${first}${code}</div>`;
    })
    .join("\n");
}

/**
 * 课的 README 里算「答案」的代码块（answerBlocks）包进折叠：前面一行是「提示」，代码块本身放进「答案」。返回改好的 README。
 */
export function withPracticeFolds(lesson: Pick<Lesson, "readme">, stubs: readonly Stub[]): string {
  const lines = lesson.readme.replace(/\r\n/g, "\n").split("\n");
  const blocks = answerBlocks(lines.join("\n"), stubs);
  // 从后往前包，前面的行号不动
  for (const { block, stub } of [...blocks].reverse()) {
    const start = (block.position?.start.line ?? 1) - 1;
    const end = block.position?.end.line ?? start + 1;
    const open = `<div class="lp-pfold">${hintsHtml(stub)}<details class="lp-pfold-answer" open><summary>答案</summary>`;
    lines.splice(end, 0, "", "</details></div>");
    lines.splice(start, 0, open, "");
  }
  return lines.join("\n");
}
