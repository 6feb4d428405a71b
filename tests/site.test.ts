// 课程网站的生成器（site/lib）：不开浏览器、不构建，只查它从仓库读出来的东西对不对。
// 真浏览器里的端到端测试在 site/e2e（npm run test:e2e）。
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createMarkdownRenderer, disposeMdItInstance } from "vitepress";
import { createHighlighter } from "shiki";
import { afterAll, describe, expect, it, vi } from "vitest";
import { type DiffLine, diffLines } from "../tooling/linediff.ts";
import { LAYOUT, readHomeChain } from "../site/lib/chain.ts";
import { MIN_FOLD, apiCards, codeViewHtml, declarations, newLines, segments } from "../site/lib/codeview.ts";
import { splitCodes } from "../site/lib/codes.ts";
import { chapterMarkdown, loadChapter } from "../site/lib/chapter.ts";
import { loadCourse, readRootReadme } from "../site/lib/course.ts";
import { diagramId, renderDiagram } from "../site/lib/diagrams.ts";
import { diffRows, gitOrder, numberRows, splitHtml, unifiedHtml } from "../site/lib/diffview.ts";
import { CodeHighlighter, THEMES } from "../site/lib/highlight.ts";
import { readerLinks } from "../site/lib/links.ts";
import { escapeText, WRAP_FROM, wrapIndent } from "../site/lib/html.ts";
import { lessonPage } from "../site/lib/pages.ts";
import { STUB_VERB, answerBlocks, firstFailureBlock, hintLevelsFragment, practiceCard, withPracticeCard, withPracticeFolds } from "../site/lib/practice.ts";
import { type Site, REF_PAGES, codeIndex, githubSlug, piUrl, presentRefPages, readerUrl, refPageMarkdown, resolveRepoLink } from "../site/lib/refs.ts";
import type { Replay } from "../site/lib/replay-types.ts";
import { pickEncoding, serveStatic } from "../site/lib/static-server.ts";
import { BASE_ENV, normalizeBase, siteBase, withSiteBase } from "../site/lib/base.ts";
import { makePractice } from "../scripts/practice/stub.ts";
import { parseMarkdown, walk } from "../tooling/markdown.ts";
import { toString } from "mdast-util-to-string";

const lessons = loadCourse();

describe("网站生成器", () => {
  it("每课的 README 读得出主题和格言", () => {
    for (const l of lessons) {
      expect(l.topic, `${l.id} README H1`).not.toBe(l.heading);
      expect(l.motto, `${l.id} motto`).not.toBe("");
    }
  });

  it("折叠：新行前后留两行上下文，连续 MIN_FOLD 行以上的旧代码才折叠", () => {
    expect(segments(30, new Set([10]))).toEqual([
      { kind: "fold", from: 1, to: 7 },
      { kind: "lines", from: 8, to: 12 },
      { kind: "fold", from: 13, to: 30 },
    ]);
    // 第 3 行和第 12 行是新的：上下文之间只剩 6–9 这 4 行旧代码（少于 MIN_FOLD），照常显示，不折叠
    expect(MIN_FOLD).toBe(5);
    expect(segments(40, new Set([3, 12]))).toEqual([
      { kind: "lines", from: 1, to: 14 },
      { kind: "fold", from: 15, to: 40 },
    ]);
    expect(segments(12, undefined)).toEqual([{ kind: "lines", from: 1, to: 12 }]);
  });

  it("每课的新行都落在文件里；第一课全部是新的", () => {
    lessons.forEach((l, i) => {
      const fresh = newLines(lessons[i - 1]?.code, l.code);
      if (i === 0) expect(fresh).toBeUndefined();
      else {
        const total = l.code.split("\n").length;
        expect(fresh?.size, `${l.id} adds lines`).toBeGreaterThan(0);
        for (const n of fresh ?? []) expect(n >= 1 && n <= total).toBe(true);
      }
    });
  });

  it("折叠条上的 @since 和 API 报告里的 @since 一致", () => {
    for (const l of lessons) {
      const decls = declarations(l.code);
      for (const [key, value] of Object.entries(l.api)) {
        if (!key.endsWith("@since") || !(l.api[key.slice(0, -6)] ?? "").startsWith("export")) continue;
        const name = key.slice(0, -6);
        expect(decls.find((d) => d.name === name)?.since, `${l.id} ${name}`).toBe(value);
      }
    }
  });

  it("API 卡片：s04 新声明 ToolCall、ToolRegistry 多了 #run；s03 的 Provider 是 U1 升级", () => {
    const byId = (id: string) => lessons.find((l) => l.id === id);
    const s03 = byId("s03");
    const s04 = byId("s04");
    if (s03 === undefined || s04 === undefined) throw new Error("s03/s04 missing");
    const cards04 = apiCards("s04", s03.api, s04.api, declarations(s04.code));
    expect(cards04.find((c) => c.owner === "ToolCall")?.kind).toBe("new");
    const registry = cards04.find((c) => c.owner === "ToolRegistry");
    expect(registry?.kind).toBe("member");
    expect(registry?.members.map((m) => m.key)).toContain("#run");
    const s02 = byId("s02");
    if (s02 === undefined) throw new Error("s02 missing");
    const provider = apiCards("s03", s02.api, s03.api, declarations(s03.code)).find((c) => c.owner === "Provider");
    expect(provider?.kind).toBe("upgrade");
    expect(provider?.changes.some((c) => c.key === "Provider.complete" && c.to === null && c.why !== undefined)).toBe(true);
  });

  it("首页链路图：根 README 那张表的每一步都排进了图里，点名的课都存在", () => {
    const chain = readHomeChain(readRootReadme());
    expect(chain.rows.map((r) => r.step).sort()).toEqual([...LAYOUT.before, ...LAYOUT.loop, ...LAYOUT.after].sort());
    const ids = new Set(lessons.map((l) => l.id));
    for (const row of chain.rows) {
      const named = row.lessons.match(/s\d\d/g) ?? [];
      expect(named.length, `step ${row.step} names a lesson`).toBeGreaterThan(0);
      for (const id of named) expect(ids.has(id), `${row.step} → ${id}`).toBe(true);
    }
    expect(chain.intro).not.toBe("");
  });
});

/** 一份 diff 里，同一处改动（两段没变的行之间）出现在加上的行后面的删掉的行。 */
function delsAfterAdds(kinds: string[]): number {
  let sawAdd = false;
  let bad = 0;
  for (const k of kinds) {
    if (k === "add") sawAdd = true;
    else if (k === "del") bad += sawAdd ? 1 : 0;
    else sawAdd = false;
  }
  return bad;
}

describe("网站生成器：差异", () => {
  it("同一处改动先删后加（git 的顺序）：每一对相邻的课都没有删在加后面的地方", () => {
    lessons.slice(1).forEach((l, i) => {
      const prev = lessons[i];
      const { rows, stats } = diffRows(prev.code, l.code, [], []);
      expect(delsAfterAdds(rows.map((r) => r.kind)), `${prev.id} → ${l.id}`).toBe(0);
      // 重排不改变哪些行算删、算加
      expect(stats.added).toBe(newLines(prev.code, l.code)?.size);
    });
    // 这个检查真能失败：加在删前面的一处改动会被数出来，gitOrder 把它排回删在前
    const addsFirst: DiffLine[] = [
      { kind: "same", text: "a", line: 1 },
      { kind: "add", text: "B", line: 2 },
      { kind: "del", text: "b", line: 2 },
      { kind: "same", text: "c", line: 3 },
    ];
    expect(delsAfterAdds(addsFirst.map((d) => d.kind))).toBeGreaterThan(0);
    expect(gitOrder(addsFirst).map((d) => `${d.kind}:${d.text}`)).toEqual(["same:a", "del:b", "add:B", "same:c"]);
    expect(gitOrder(diffLines("a\nb\nc", "a\nB\nc")).map((d) => `${d.kind}:${d.text}`)).toEqual(["same:a", "del:b", "add:B", "same:c"]);
  });

  it("合并视图带两边的行号；并排视图两栏行数相同，删掉的第 k 行和加上的第 k 行并排", () => {
    const oldCode = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"].join("\n");
    const newCode = ["one", "two", "THREE", "3b", "four", "five", "six", "seven", "eight", "nine", "ten"].join("\n");
    const { rows, stats } = diffRows(oldCode, newCode, [], [], 1);
    expect(stats).toEqual({ added: 2, removed: 1 });
    expect(rows.map((r) => (r.kind === "gap" ? `gap${r.count}` : `${r.kind}:${r.old ?? ""}:${r.new ?? ""}`))).toEqual([
      "gap1",
      "same:2:2",
      "del:3:",
      "add::3",
      "add::4",
      "same:4:5",
      "gap6",
    ]);
    // 合并视图不写行号（CSS 计数器数，跳过的那段写着两边各加几）；从头数一遍得出的行号和 diffRows 给的一样
    const unified = unifiedHtml(rows);
    expect(unified).toContain('<div class=lp-gap style="counter-increment:o 1 n 1">⋯ 没变的 1 行</div><div class=s>two</div>');
    expect(unified).toContain("<div class=d>three</div><div class=a>THREE</div><div class=a>3b</div>");
    const bare = rows.map((r) => (r.kind === "gap" ? r : { kind: r.kind, html: r.html }));
    expect(numberRows(bare)).toEqual(rows);
    for (const l of lessons.slice(1)) {
      const prev = lessons.find((p) => p.id === l.prev);
      const real = diffRows(prev?.code ?? "", l.code, [], []).rows;
      expect(numberRows(real.map((r) => (r.kind === "gap" ? r : { kind: r.kind, html: r.html }))), l.id).toEqual(real);
    }
    const [left, right] = splitHtml(rows).split("lp-side-new");
    const rowsOf = (html: string): string[] => html.match(/<div class=(?:s|d|a|e|lp-gap)[ >]/g) ?? [];
    expect(rowsOf(left).length).toBe(rowsOf(right).length);
    expect(left).not.toContain("class=a");
    expect(right).not.toContain("class=d");
    // 删一行加两行：旧的一边补一个空行，两边对齐
    expect(left).toContain("<div class=d data-o=3>three</div><div class=e></div>");
    expect(right).toContain("<div class=a data-n=3>THREE</div><div class=a data-n=4>3b</div>");
  });
});

/** 代码视图和课页两条测试共用一个高亮器：s04 的 code.ts 只高亮一遍（整份文件约半秒 CPU），查的东西和颜色编号无关。 */
let shared: Promise<CodeHighlighter> | undefined;
const sharedHighlighter = (): Promise<CodeHighlighter> => (shared ??= CodeHighlighter.create());

describe("网站生成器：高亮和代码视图", () => {
  it("正文色不包标签，带颜色的词用短的自定义元素，CSS 里有每一个用到的", async () => {
    const hl = await CodeHighlighter.create();
    const [line] = hl.lines('export const x = "a";  // note');
    expect(line).not.toContain("<span");
    const tags = [...new Set(line.match(/<(k-\d+)>/g) ?? [])].map((t) => t.slice(1, -1));
    expect(tags.length).toBeGreaterThanOrEqual(3);
    for (const tag of tags) expect(hl.css()).toContain(`\n${tag}{`);
    // 去掉标签就是原文
    expect(line.replace(/<\/?k-\d+>/g, "").replace(/&quot;/g, '"')).toBe('export const x = "a";  // note');
    expect(hl.css()).toMatch(/^\.lp-code,\.lp-hl code\{color:#[0-9a-f]{6}\}/);
  });

  it("高亮不看表：一行切得再久也切完，和机器快慢无关（手拨 Date.now，每读一次过一秒）；shiki 默认的一行 500 毫秒会把行切断（检查本身会失败）", async () => {
    const code = 'export const x = "a";  // note\nconst y = 1;';
    const [hl, raw] = await Promise.all([CodeHighlighter.create(), createHighlighter({ themes: [THEMES.light, THEMES.dark], langs: ["ts"] })]);
    const calm = { ours: (await CodeHighlighter.create()).lines(code), raw: raw.codeToTokens(code, { lang: "ts", themes: THEMES }).tokens };
    let t = 0;
    const now = vi.spyOn(Date, "now").mockImplementation(() => (t += 1_000));
    try {
      expect(hl.lines(code)).toEqual(calm.ours);
      const rushed = raw.codeToTokens(code, { lang: "ts", themes: THEMES }).tokens;
      expect(rushed[0]?.length).toBeLessThan(calm.raw[0]?.length ?? 0);
    } finally {
      now.mockRestore();
    }
  });

  it("课文代码块和代码视图共用颜色编号：构建时照生成时记下的表上色，没见过的颜色直接报错", async () => {
    const first = await CodeHighlighter.create();
    first.block("const a = 1;", "ts");
    const seeded = await CodeHighlighter.create(first.classMap(), true);
    expect(seeded.block("const a = 1;", "ts")).toBe(first.block("const a = 1;", "ts"));
    expect(seeded.block("const a = 1;", "ts")).toMatch(/^<pre class="lp-hl" v-pre tabindex="0"><code>.*<\/code><\/pre>$/);
    // 元素里的文字只转义 & 和 <（" 和 > 原样：s12 的代码里有上千个双引号）
    expect(seeded.block('echo {{ x }} <b> "q" &', "text")).toBe('<pre class="lp-hl" v-pre tabindex="0"><code>echo {{ x }} &lt;b> "q" &amp;</code></pre>');
    expect(() => seeded.block('/** doc */ export class X { "s" = 1; }', "ts")).toThrow(/did not see/);
  });

  it("代码视图：每段开头把行号计数器拨到上一行，折叠的段和显示的段都是", async () => {
    const s04 = lessons.find((l) => l.id === "s04");
    const s03 = lessons.find((l) => l.id === "s03");
    if (s04 === undefined || s03 === undefined) throw new Error("s03/s04 missing");
    const hl = await sharedHighlighter();
    const html = codeViewHtml(s04, hl.lines(s04.code), newLines(s03.code, s04.code), declarations(s04.code));
    const starts = [...html.matchAll(/counter-reset:ln (\d+)">(?:<summary>.*?<\/summary>)?<div id=L(\d+)/g)];
    expect(starts.length).toBe(segments(s04.code.split("\n").length, newLines(s03.code, s04.code)).length);
    for (const m of starts) expect(Number(m[1]) + 1).toBe(Number(m[2]));
    expect((html.match(/<div id=L\d+/g) ?? []).length).toBe(s04.code.split("\n").length);
  });
});

describe("网站生成器：页面的分量和长行", () => {
  it("折叠起来的旧代码只放转义过的原文（展开时再上色），显示的行带高亮；去掉标签两边都是原文", async () => {
    const [s11, s12] = ["s11", "s12"].map((id) => lessons.find((l) => l.id === id));
    if (s11 === undefined || s12 === undefined) throw new Error("s11/s12 missing");
    const hl = await CodeHighlighter.create();
    const highlighted = hl.lines(s12.code);
    const html = codeViewHtml(s12, highlighted, newLines(s11.code, s12.code), declarations(s12.code));
    const folds = html.match(/<details class=lp-fold data-plain[^>]*>.*?<\/details>/g) ?? [];
    expect(folds.length).toBeGreaterThan(3);
    for (const fold of folds) expect(fold).not.toMatch(/<k-\d+>/);
    const shown = html.replace(/<details.*?<\/details>/g, "");
    expect(shown).toMatch(/<k-\d+>/);
    // 每一行（折叠的、显示的）去掉标签、还原转义就是 code.ts 的那一行
    const source = s12.code.split("\n");
    const rows = [...html.matchAll(/<div id=L(\d+)[^>]*>(.*?)<\/div>/g)];
    expect(rows.length).toBe(source.length);
    for (const [, n, line] of rows) expect(line.replace(/<[^>]+>/g, "").replace(/&lt;/g, "<").replace(/&amp;/g, "&")).toBe(source[Number(n) - 1]);
  });

  it("长行带上缩进（宽屏上折行时续行对齐），短行什么都不加；中文按两格算", () => {
    const indent = "    ";
    expect(wrapIndent(`${indent}${"x".repeat(WRAP_FROM - indent.length)}`)).toBe("");
    expect(wrapIndent(`${indent}${"x".repeat(WRAP_FROM)}`)).toBe(" style=--i:4");
    expect(wrapIndent(`  <k-1>${"中".repeat(WRAP_FROM / 2)}</k-1>`)).toBe(" style=--i:2");
    expect(wrapIndent(`<k-0>${"&lt;".repeat(WRAP_FROM)}</k-0>`)).toBe("");
    expect(escapeText('a < b && "c" > d')).toBe('a &lt; b &amp;&amp; "c" > d');
  });
});

describe("网站生成器：课页", () => {
  it("跳转条上「下一课」和「上一课」一样带主题；代码和差异写成片段，不进 markdown", async () => {
    const hl = await sharedHighlighter();
    const [s03, s04, s05] = ["s03", "s04", "s05"].map((id) => lessons.find((l) => l.id === id));
    if (s03 === undefined || s04 === undefined || s05 === undefined) throw new Error("missing lesson");
    const replay: Replay = { lesson: "s04", runs: [], steps: [] };
    const { stubs } = makePractice("s04", { verify: false });
    const page = lessonPage(s04, s03, s05, hl, replay, {}, stubs);
    expect(page.markdown).toContain(`<a href="#自己写一遍">练习<small>自己写一遍：${stubs.length} 处空白</small></a>`);
    expect(page.markdown).toContain(`<a href="/s05.html" rel="next">下一课<small>s05 ${s05.topic}</small></a>`);
    expect(page.markdown).toContain(`<a href="/s03.html" rel="prev">上一课<small>s03 ${s03.topic}</small></a>`);
    expect(page.markdown).toContain('<LpRaw name="s04.tabs" />');
    expect(page.markdown).not.toContain("<div id=L");
    expect(Object.keys(page.fragments)).toEqual(["s04.tabs", "s04.hints"]);
    expect(page.fragments["s04.tabs"]).toContain("<div id=L1 ");
    expect(page.fragments["s04.tabs"]).toContain('href="/compare.html?from=s03&amp;to=s04"');
  });
});

describe("网站生成器：毕业一章", () => {
  it("排在 s12 后面：s12 跳转条上的「下一步」和页底都指向它（不再是 next: false）；它的上一页是 s12，正文就是 README 原文", async () => {
    const chapter = loadChapter();
    if (chapter === undefined) throw new Error("graduation/README.md is missing");
    expect(chapter.topic).toBe("毕业");
    const [s11, s12] = ["s11", "s12"].map((id) => lessons.find((l) => l.id === id));
    if (s11 === undefined || s12 === undefined) throw new Error("missing lesson");
    const page = lessonPage(s12, s11, undefined, await sharedHighlighter(), { lesson: "s12", runs: [], steps: [] }, {}, undefined, chapter);
    expect(page.markdown).toContain(`<a href="/graduation.html" rel="next">下一步<small>毕业</small></a>`);
    expect(page.markdown).not.toContain("next: false");
    expect(lessonPage(s12, s11, undefined, await sharedHighlighter(), { lesson: "s12", runs: [], steps: [] }).markdown).toContain("next: false");
    const md = chapterMarkdown(chapter, s12);
    expect(md).toContain(`prev:\n  text: "s12 ${s12.topic}"\n  link: /s12\nnext: false`);
    expect(md).toContain(chapter.readme.trim());
  });

  it("它的相对链接从 graduation/ 算起；别处链到它的 README 或文件夹，都是这一页", () => {
    const site: Site = { lessons: lessons.map((l) => ({ id: l.id, dir: l.dir })), refs: presentRefPages(), chapters: [{ id: "graduation", source: "graduation/README.md" }] };
    const url = (from: string, href: string): string | undefined => {
      const r = resolveRepoLink(from, href);
      return r === undefined ? undefined : readerUrl(r.path, r.hash, site);
    };
    expect(url("graduation/README.md", "../s05_hooks/README.md")).toBe("/s05.html");
    expect(url("graduation/README.md", "../fidelity/DIFFERENCES.md")).toBe("/differences.html");
    expect(url("README.md", "graduation/README.md")).toBe("/graduation.html");
    expect(url("README.md", "graduation/")).toBe("/graduation.html");
    expect(url("README.md", "graduation/README.md#三个练习")).toBe("/graduation.html#三个练习");
    expect(readerUrl("graduation/README.md", "", { ...site, chapters: [] })).toBeUndefined();
  });
});

describe("网站生成器：练习卡片", () => {
  /** 一页 markdown 上的锚点：标题（和 GitHub 一样，同名的加 -1）和 <a id="…">。 */
  const anchors = (markdown: string): Set<string> => {
    const ids = new Set<string>([...markdown.matchAll(/<a id="([^"]+)"/g)].map((m) => m[1]));
    const seen = new Map<string, number>();
    walk(parseMarkdown(markdown).children, (n) => {
      if (n.type !== "heading") return;
      const slug = githubSlug(toString(n));
      const k = seen.get(slug) ?? 0;
      seen.set(slug, k + 1);
      ids.add(k === 0 ? slug : `${slug}-${k}`);
    });
    return ids;
  };

  it("每课：「自己写一遍」换成卡片（命令只出现一次），空白和 makePractice 挖的一样，每个链接都落在这一页的锚点上", () => {
    lessons.forEach((lesson, i) => {
      const next = lessons[i + 1];
      const { stubs } = makePractice(lesson.id, { verify: false });
      const markdown = withPracticeCard(lesson, next, stubs);
      expect(markdown.match(/^### 自己写一遍$/gm)?.length, lesson.id).toBe(1);
      expect(markdown.split(`npm run practice -- ${lesson.id}\n`).length - 1, lesson.id).toBe(1);
      expect(markdown.split(`npm run check -- ${lesson.id}\n`).length - 1, lesson.id).toBe(1);
      const card = markdown.slice(markdown.indexOf('<div class="lp-practice"'));
      const shown = [...card.matchAll(/<span class="lp-stub-verb"[^>]*>(.+?)<\/span> <code class="lp-stub-name">(.+?)<\/code>.*?href="#([^"]+)">(.+?)<\/a>/g)];
      expect(shown.map((m) => `${m[1]} ${m[2]} ${m[4]}`), lesson.id).toEqual(stubs.map((s) => `${STUB_VERB[s.kind]} ${s.name} ${s.section}`));
      const ids = anchors(markdown);
      for (const m of shown) expect(ids.has(m[3]), `${lesson.id}: #${m[3]}`).toBe(true);
      // 第一次检查看到的那段，和 README 里的一字不差；下一课的练习
      expect(card).toContain(`\`\`\`text\n${firstFailureBlock(lesson.readme)}\n\`\`\``);
      if (next !== undefined) expect(card).toContain(`<a href="/${next.id}.html#自己写一遍">`);
      // 卡片外面的课文一个字没动（加粗段落前多了锚点）
      const outside = (text: string): string => text.replace(/<a id="[^"]+"><\/a>/g, "").split("### 自己写一遍")[0];
      expect(outside(markdown), lesson.id).toBe(outside(lesson.readme));
    });
  });

  it("讲它的小节找不到就报错，不交出一个断了的链接；课里取来的字不会变成 Vue 插值", () => {
    const s12 = lessons.find((l) => l.id === "s12");
    if (s12 === undefined) throw new Error("s12 missing");
    const [stub] = makePractice("s12", { verify: false }).stubs;
    expect(() => withPracticeCard(s12, undefined, [{ ...stub, section: "第九步：没有这一步" }])).toThrow(/第九步：没有这一步/);
    const card = practiceCard(s12, undefined, [{ ...stub, name: "x{{ y }}" }], undefined);
    expect(card).toContain("x&#123;&#123; y }}");
    expect(card).not.toContain("{{");
  });
});

describe("网站生成器：练习视图（D44）", () => {
  const OPEN = /^<div class="lp-pfold"><details class="lp-pfold-hint" data-stub="([^"]+)"><summary>提示<\/summary><\/details><details class="lp-pfold-answer" open><summary>答案<\/summary>$/;

  it("每课：讲本节函数体的代码块包进「提示 / 答案」，课文别的字一个没动；片段里第 1 级的链接落在页面上的小节", () => {
    lessons.forEach((lesson, i) => {
      const { stubs } = makePractice(lesson.id, { verify: false });
      const folded = withPracticeFolds(lesson, stubs);
      const lines = folded.split("\n");
      const opens = lines.filter((l) => OPEN.test(l));
      expect(opens.map((l) => OPEN.exec(l)?.[1]), lesson.id).toEqual(answerBlocks(lesson.readme, stubs).map((b) => b.stub.name));
      expect(opens.length, lesson.id).toBeGreaterThan(0);
      // 去掉包的那几行（开头一行和它后面的空行、结尾的空行和一行）就是原来的 README
      const unwrapped = folded.replace(/^<div class="lp-pfold".*\n\n/gm, "").replace(/\n\n<\/details><\/div>$/gm, "");
      expect(unwrapped, lesson.id).toBe(lesson.readme.replace(/\r\n/g, "\n"));
      // 第 1 级的链接（在片段里）落在这一页的锚点上（卡片给加粗段落加的锚点也算）
      const page = withPracticeCard({ ...lesson, readme: folded }, lessons[i + 1], stubs);
      const ids = new Set([...page.matchAll(/<a id="([^"]+)"/g)].map((m) => m[1]));
      walk(parseMarkdown(page).children, (n) => {
        if (n.type === "heading") ids.add(githubSlug(toString(n)));
      });
      const fragment = hintLevelsFragment(lesson, stubs);
      const hashes = [...fragment.matchAll(/<details><summary>第 1 级[^<]*<\/summary><p>重读「<a href="#([^"]+)"/g)].map((m) => m[1]);
      expect(hashes.length, lesson.id).toBe(new Set(opens.map((l) => OPEN.exec(l)?.[1])).size);
      for (const hash of hashes) expect(ids.has(hash), `${lesson.id}: #${hash}`).toBe(true);
    });
  });

  it("三级提示在片段 sNN.hints 里，页面上每个「提示」都对得上一段；第 3 级是骨架，不是答案", () => {
    for (const lesson of lessons) {
      const { stubs } = makePractice(lesson.id, { verify: false });
      const fragment = hintLevelsFragment(lesson, stubs);
      const names = [...fragment.matchAll(/^<div data-stub="([^"]+)">/gm)].map((m) => m[1].replace(/&gt;/g, ">").replace(/&quot;/g, '"').replace(/&amp;/g, "&"));
      expect(names, lesson.id).toEqual([...new Set(answerBlocks(lesson.readme, stubs).map((b) => b.stub.name))]);
      for (const div of fragment.split(/\n(?=<div data-stub=)/)) {
        expect(div.match(/<details><summary>第 [123] 级/g)?.length, `${lesson.id}: ${div.slice(0, 60)}`).toBe(3);
        expect(div).toContain("…");
      }
    }
    const s04 = lessons.find((l) => l.id === "s04");
    if (s04 === undefined) throw new Error("s04 missing");
    const run = hintLevelsFragment(s04, makePractice("s04", { verify: false }).stubs).split(/\n(?=<div data-stub=)/).find((d) => d.includes('data-stub="ToolRegistry.run"')) ?? "";
    expect(run).toContain("if (…) return …;");
    expect(run).not.toContain("safeParse");
  });

  it("只折本节挖掉的代码：旧代码、类型、命令的代码块不折", () => {
    const s04 = lessons.find((l) => l.id === "s04");
    if (s04 === undefined) throw new Error("s04 missing");
    const { stubs } = makePractice("s04", { verify: false });
    const answerLine = stubs.flatMap((st) => st.code.split("\n").map((l) => l.trim())).find((l) => l.length >= 12 && !l.startsWith("//")) ?? "";
    const readme = ["# t", "", "## 工作原理", "", "```ts", answerLine, "```", "", "```ts", "const somethingOld = previousLesson();", "```", "", "```bash", answerLine, "```", ""].join("\n");
    const blocks = answerBlocks(readme, stubs);
    expect(blocks.map((b) => b.block.value)).toEqual([answerLine]);
    expect(withPracticeFolds({ ...s04, readme }, stubs).split("\n").filter((l) => OPEN.test(l))).toHaveLength(1);
  });
});

describe("网站生成器：参考资料和链接", () => {
  // 参考资料的样例：Markdown 版的 EVOLUTION.md（表、§ 标题）、约定格式的术语表、差异表
  const root = mkdtempSync(join(tmpdir(), "lp-site-"));
  mkdirSync(join(root, "fidelity"));
  const evolution = [
    "# 宪法",
    "",
    "## 1. 元规则（约束所有类型演化）",
    "",
    "| 规则 | 内容 |",
    "|---|---|",
    "| R1 | 字段只增不删 |",
    "| R4 | 错误不崩溃 |",
    "",
    "stream(input): AsyncGenerator<ProviderEvent> 和 <details> 都不是标签，{{ x }} 也不是插值。",
    "",
    "## 9. 决策",
    "",
    "| 编号 | 决策 |",
    "|---|---|",
    "| D4 | 每次回答一条助手消息，见 F13 |",
    "| D23 | afterToolCall |",
    "",
  ].join("\n");
  const glossary = ["# 术语表", "", '<a id="r1"></a>**R1** 字段只增不删，和 R4 一起看。', "", '<a id="d4"></a>**D4** 见 [EVOLUTION](EVOLUTION.md#9-决策)。', "", '<a id="term-快照"></a>**快照**', ""].join("\n");
  const differences = ["# 差异", "", "| 编号 | 为什么 |", "|---|---|", "| F13 | 见 D4 |", "| F2 | D23 |", ""].join("\n");
  writeFileSync(join(root, "EVOLUTION.md"), evolution);
  writeFileSync(join(root, "GLOSSARY.md"), glossary);
  writeFileSync(join(root, "fidelity", "DIFFERENCES.md"), differences);
  afterAll(() => {
    rmSync(root, { recursive: true, force: true });
    disposeMdItInstance();
  });
  const site: Site = { lessons: lessons.map((l) => ({ id: l.id, dir: l.dir })), refs: presentRefPages(root) };
  // 测试里不用 VitePress 自己的 shiki（它在后台异步加载语言，渲染完就扔掉渲染器会报错）
  const plainBlock = (code: string): string => `<pre v-pre><code>${code.replace(/&/g, "&amp;").replace(/</g, "&lt;")}</code></pre>`;

  it("锚点和 GitHub 的一样（为 GitHub 写的链接在站里也对得上）；代码行号的 L12 不变", () => {
    expect(githubSlug("9. 决策（宪法有歧义或自相矛盾处，本仓库的读法）")).toBe("9-决策宪法有歧义或自相矛盾处本仓库的读法");
    expect(githubSlug("Hello, World! (v1.6.0)")).toBe("hello-world-v160");
    expect(githubSlug("R-写④ 用自然中文")).toBe("r-写④-用自然中文");
    expect(githubSlug("1. 模型怎么说「我要调工具」")).toBe("1-模型怎么说我要调工具");
    expect(githubSlug("L12")).toBe("L12");
  });

  it("仓库里的相对链接 → 站内页面；站里没有的文件、仓库外的路径不链", () => {
    const from = "s04_tool_loop/README.md";
    const url = (href: string): string | undefined => {
      const r = resolveRepoLink(from, href);
      return r === undefined ? undefined : readerUrl(r.path, r.hash, site);
    };
    expect(url("../fidelity/DIFFERENCES.md")).toBe("/differences.html");
    expect(url("../EVOLUTION.md#9-决策")).toBe("/evolution.html#9-决策");
    expect(url("../GLOSSARY.md#r1")).toBe("/glossary.html#r1");
    expect(url("../s03_stream/README.md")).toBe("/s03.html");
    expect(url("../s03_stream/")).toBe("/s03.html");
    expect(url("code.ts")).toBe("/s04.html#code");
    expect(url("code.ts#L12")).toBe("/s04.html#L12");
    expect(url("../README.md#怎么读")).toBe("/#怎么读");
    expect(url("../tests/golden.test.ts")).toBeUndefined();
    // 站里没有、读者却会要的两份：链到 package.json 写的仓库
    expect(url("../README.en.md")).toBe("https://github.com/learn-pi-agent/learn-pi-agent/blob/main/README.en.md");
    expect(url("../LICENSE")).toBe("https://github.com/learn-pi-agent/learn-pi-agent/blob/main/LICENSE");
    expect(resolveRepoLink(from, "../../outside.md")).toBeUndefined();
    // 没有术语表时，指向它的链接不链（站里没有这一页）
    expect(readerUrl("GLOSSARY.md", "", { ...site, refs: site.refs.filter((r) => r.id !== "glossary") })).toBeUndefined();
  });

  it("编号 → 解释：术语表里有的链到术语表，没有的链到 EVOLUTION.md / DIFFERENCES.md 表里那一行；§ 节号链到标题", async () => {
    disposeMdItInstance();
    const md = await createMarkdownRenderer(root);
    const codes = codeIndex(md, root);
    expect(codes.R1).toBe("/glossary.html#r1");
    expect(codes.D4).toBe("/glossary.html#d4");
    expect(codes.R4).toBe("/evolution.html#r4");
    expect(codes.D23).toBe("/evolution.html#d23");
    expect(codes.F13).toBe("/differences.html#f13");
    expect(codes["§9"]).toBe("/evolution.html#9-决策");
    expect(codes["§1"]).toBe("/evolution.html#1-元规则约束所有类型演化");
    expect(Object.keys(codes).some((c) => c.startsWith("TERM"))).toBe(false);
    expect(splitCodes("见 D4、F13/F2（R4 ②），ADR1 和 D4x 不算", codes)).toEqual([
      "见 ",
      { code: "D4", href: "/glossary.html#d4" },
      "、",
      { code: "F13", href: "/differences.html#f13" },
      "/",
      { code: "F2", href: "/differences.html#f2" },
      "（",
      { code: "R4", href: "/evolution.html#r4" },
      " ②），ADR1 和 D4x 不算",
    ]);
    disposeMdItInstance();
  });

  it("markdown 插件：改写链接、链上编号和 Pi 路径、参考页的行锚点、参考页里的 HTML 只放行锚点", async () => {
    disposeMdItInstance();
    const codes = { R1: "/glossary.html#r1", R4: "/evolution.html#r4", D4: "/glossary.html#d4", F13: "/differences.html#f13", D23: "/evolution.html#d23" };
    const md = await createMarkdownRenderer(root, { highlight: plainBlock, anchor: { slugify: githubSlug }, config: (m) => readerLinks(m, { site, codes: () => codes }) });
    const lesson = md.render(
      [
        "## 源码溯源",
        "",
        "差别列在 [fidelity/DIFFERENCES.md](../fidelity/DIFFERENCES.md)：F13（D4，R4 ②）。规则见 [R1](../GLOSSARY.md#r1)。",
        "",
        "`packages/agent/src/agent-loop.ts` 的 `runAgentLoop`；目录 `packages/coding-agent/docs/`；不存在的 `packages/nope/x.ts`；测试 [x](../tests/x.ts)。",
        "",
        "标题里的 R1 不链：",
        "",
        "### R1 的由来",
      ].join("\n"),
      { relativePath: "s04.md" },
    );
    expect(lesson).toContain('href="/differences.html"');
    expect(lesson).toContain('<a href="/differences.html#f13" class="lp-code-ref">F13</a>');
    expect(lesson).toContain('<a href="/glossary.html#d4" class="lp-code-ref">D4</a>');
    expect(lesson).toContain('<a href="/evolution.html#r4" class="lp-code-ref">R4</a> ②');
    expect(lesson).toContain('<a href="/glossary.html#r1" class="lp-code-ref">R1</a>');
    expect(lesson).toContain(`<a href="${piUrl("packages/agent/src/agent-loop.ts")}" class="lp-pi-path"`);
    expect(piUrl("packages/agent/src/agent-loop.ts")).toBe("https://github.com/earendil-works/pi/blob/v1.6.0/packages/agent/src/agent-loop.ts");
    expect(lesson).toContain(`href="https://github.com/earendil-works/pi/tree/v1.6.0/packages/coding-agent/docs"`);
    expect(lesson).not.toContain("packages/nope/x.ts</code></a>");
    expect(lesson).toContain('<span class="lp-repo-path">x</span>');
    expect(lesson).toMatch(/<h3 id="r1-的由来"[^>]*>R1 的由来/);

    const evolutionPage = REF_PAGES.find((r) => r.id === "evolution");
    if (evolutionPage === undefined) throw new Error("no evolution page");
    const html = md.render(refPageMarkdown(evolutionPage, evolution).replace(/^---[\s\S]*?---\n/, ""), { relativePath: "evolution.md" });
    expect(html).toContain('<tr id="r1">');
    expect(html).toContain('<tr id="d23">');
    expect(html).toContain('id="9-决策"');
    // 定义它的那一格不链出去，别的格子里的编号照链
    expect(html).toMatch(/<td>D4<\/td>\s*<td>每次回答一条助手消息，见 <a href="\/differences.html#f13"/);
    expect(html).toContain("AsyncGenerator&lt;ProviderEvent&gt;");
    expect(html).toContain("&lt;details&gt;");
    expect(html).toContain("<div v-pre");

    const glossaryPage = REF_PAGES.find((r) => r.id === "glossary");
    if (glossaryPage === undefined) throw new Error("no glossary page");
    const g = md.render(glossary, { relativePath: "glossary.md" });
    // 条目自己的名字不链到自己，提到的别的编号照链；相对链接改成站内页面
    expect(g).toContain('<a id="r1"></a><strong>R1</strong>');
    expect(g).toContain('<a href="/evolution.html#r4" class="lp-code-ref">R4</a>');
    expect(g).toContain('href="/evolution.html#9-决策"');
    disposeMdItInstance();
  });

  it("Mermaid 图画成 SVG：浅色、深色两份，不去外网取字体；markdown 插件把代码块换成图，没画的照旧是代码块", async () => {
    const source = 'flowchart TD\n  a["用户输入"] --> b["runOneTurn"]:::new\n  classDef new fill:#d1fadf,stroke:#12b76a';
    const d = await renderDiagram(source);
    expect(d.id).toBe(diagramId(source));
    for (const svg of [d.light, d.dark]) {
      expect(svg).toMatch(/^<svg /);
      expect(svg).not.toContain("@import");
      expect(svg).toContain("runOneTurn");
    }
    // 深色版：浅绿底上的字是深色
    expect(d.dark).toMatch(/fill="#1b1b1f"[^>]*>runOneTurn/);
    expect(d.width).toBeGreaterThan(0);
    disposeMdItInstance();
    const md = await createMarkdownRenderer(root, {
      highlight: plainBlock,
      config: (m) => readerLinks(m, { site, codes: () => ({}), diagrams: () => ({ [d.id]: { width: d.width, height: d.height } }) }),
    });
    const html = md.render(["```mermaid", source, "```", "", "```mermaid", "flowchart TD\n  x --> y", "```"].join("\n"), { relativePath: "s04.md" });
    expect(html).toContain(`<img class="lp-diagram-light" src="/lp/diagrams/${d.id}.svg" width="${d.width}"`);
    expect(html).toContain(`src="/lp/diagrams/${d.id}-dark.svg"`);
    expect(html).toContain('<div class="language-mermaid">');
    expect(html.match(/<figure/g)?.length).toBe(1);
    disposeMdItInstance();
  });

  it("没有术语表时照样能生成：参考页只有 EVOLUTION.md 和 DIFFERENCES.md", () => {
    const bare = mkdtempSync(join(tmpdir(), "lp-site-bare-"));
    writeFileSync(join(bare, "EVOLUTION.md"), evolution);
    expect(presentRefPages(bare).map((r) => r.id)).toEqual(["evolution"]);
    rmSync(bare, { recursive: true, force: true });
  });

  it("站点服务器按 Accept-Encoding 选压缩", () => {
    expect(pickEncoding("gzip, deflate, br, zstd")).toBe("br");
    expect(pickEncoding("gzip")).toBe("gzip");
    expect(pickEncoding("br;q=0, gzip")).toBe("gzip");
    expect(pickEncoding(undefined)).toBe("identity");
    expect(pickEncoding("identity")).toBe("identity");
  });

  it("base：LEARN_PI_SITE_BASE 规整成 /x/ 的样子，不像网址路径的拒绝；站内的绝对路径加上它，别的原样", () => {
    expect(siteBase({})).toBe("/");
    expect(siteBase({ [BASE_ENV]: "" })).toBe("/");
    for (const raw of ["learn-pi-agent", "/learn-pi-agent", "/learn-pi-agent/", " learn-pi-agent/ "]) expect(normalizeBase(raw)).toBe("/learn-pi-agent/");
    expect(normalizeBase("/a/b.c/")).toBe("/a/b.c/");
    for (const bad of ["/a b/", "/../x/", "/a/./", "https://example.com/", "/a//b/", "/a?b/", "/a#b/"]) expect(() => normalizeBase(bad), bad).toThrow(BASE_ENV);
    expect(withSiteBase("/s04.html#L3", "/learn-pi-agent/")).toBe("/learn-pi-agent/s04.html#L3");
    expect(withSiteBase("/", "/learn-pi-agent/")).toBe("/learn-pi-agent/");
    expect(withSiteBase("/s04.html", "/")).toBe("/s04.html");
    for (const other of ["#L3", "https://github.com/x", "//cdn.example/x", "s04.html"]) expect(withSiteBase(other, "/learn-pi-agent/")).toBe(other);
  });

  it("站点服务器只在 base 下给文件：base 之外 404，少了结尾斜杠的 base 转到首页", async () => {
    const dir = mkdtempSync(join(tmpdir(), "lp-serve-"));
    writeFileSync(join(dir, "index.html"), "home");
    writeFileSync(join(dir, "s04.html"), "s04");
    writeFileSync(join(dir, "404.html"), "none");
    const server = await serveStatic(dir, 0, "127.0.0.1", "/learn-pi-agent/");
    try {
      const get = async (path: string): Promise<[number, string]> => {
        const res = await fetch(`${server.url}${path}`, { redirect: "manual" });
        return [res.status, res.status === 301 ? (res.headers.get("location") ?? "") : await res.text()];
      };
      expect(await get("/learn-pi-agent/")).toEqual([200, "home"]);
      expect(await get("/learn-pi-agent/s04.html")).toEqual([200, "s04"]);
      expect(await get("/learn-pi-agent/s04")).toEqual([200, "s04"]);
      expect(await get("/learn-pi-agent?x=1")).toEqual([301, "/learn-pi-agent/?x=1"]);
      expect(await get("/s04.html")).toEqual([404, "none"]);
      expect(await get("/")).toEqual([404, "none"]);
      expect(await get("/learn-pi-agent-x/s04.html")).toEqual([404, "none"]);
      expect(await get("/learn-pi-agent/../s04.html")).toEqual([404, "none"]); // 网址先把 .. 规整掉：/s04.html，出了 base
    } finally {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
