// 网站生成器（site/lib）里一课的页面：代码视图（折叠、@since、API 卡片）、差异、高亮、页面的分量和长行、
// 跳转条和片段，还有排在 s12 后面的毕业一章。不开浏览器、不构建，只查它从仓库读出来的东西对不对；
// 真浏览器里的端到端测试在 site/e2e（npm run test:e2e）。
import { createHighlighter } from "shiki";
import { describe, expect, it, vi } from "vitest";
import { type DiffLine, diffLines } from "../../tooling/linediff.ts";
import { MIN_FOLD, apiCards, codeViewHtml, declarations, newLines, segments } from "../../site/lib/codeview.ts";
import { chapterMarkdown, loadChapter } from "../../site/lib/chapter.ts";
import { loadCourse } from "../../site/lib/course.ts";
import { diffRows, gitOrder, numberRows, splitHtml, unifiedHtml } from "../../site/lib/diffview.ts";
import { CodeHighlighter, THEMES } from "../../site/lib/highlight.ts";
import { escapeText, WRAP_FROM, wrapIndent } from "../../site/lib/html.ts";
import { lessonPage } from "../../site/lib/pages.ts";
import { type Site, presentRefPages, readerUrl, resolveRepoLink } from "../../site/lib/refs.ts";
import type { Replay } from "../../site/lib/replay-types.ts";
import { makePractice } from "../../tooling/practice/stub.ts";

const lessons = loadCourse();

describe("网站生成器：代码视图", () => {
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
    expect(wrapIndent("x".repeat(WRAP_FROM + 1)), "no indent: the stylesheet's default 0").toBe("");
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
