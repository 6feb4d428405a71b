// 网站生成器（site/lib/practice.ts）的练习卡片和练习视图（D44）：空白和 makePractice 挖的一样，链接都落在页面上的锚点，
// 讲本节函数体的代码块折进「提示 / 答案」，课文别的字一个不动。
import { describe, expect, it } from "vitest";
import { loadCourse } from "../../site/lib/course.ts";
import { STUB_VERB, answerBlocks, firstFailureBlock, hintLevelsFragment, practiceCard, withPracticeCard, withPracticeFolds } from "../../site/lib/practice.ts";
import { githubSlug } from "../../site/lib/refs.ts";
import { makePractice } from "../../tooling/practice/stub.ts";
import { parseMarkdown, walk } from "../../tooling/markdown.ts";
import { toString } from "mdast-util-to-string";

const lessons = loadCourse();

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
