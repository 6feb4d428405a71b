// The teaching checks of tooling/teaching/ on the real course (GLOSSARY.md, each lesson README, the root README's
// chain), and on the broken fixtures in tests/fixtures/teaching/, each of which must be caught with the message shown.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { LESSONS, ROOT, lessonDir } from "../tooling/course.ts";
import { courseVocabulary } from "../tooling/names.ts";
import { checkRootChain } from "../tooling/teaching/chain.ts";
import { checkDiagram } from "../tooling/teaching/diagram.ts";
import { checkGlossary, checkGlossaryLinks, citedCodes, glossaryAnchors, lessonReadme, readText } from "../tooling/teaching/glossary.ts";

const glossary = readText("GLOSSARY.md");
const anchors = glossaryAnchors(glossary).ids;
const vocab = courseVocabulary();
const finalCode = readText(`${lessonDir(LESSONS.at(-1) ?? "s12")}/code.ts`);

describe("术语表 GLOSSARY.md", () => {
  it("课程引用的每个编号（EVOLUTION.md、fidelity/DIFFERENCES.md、各 README）都有一条，没有重复的锚点", () => {
    const problems = checkGlossary(glossary, citedCodes());
    expect(problems, problems.join("\n")).toEqual([]);
  });

  it("它自己链到术语表锚点的链接都落得到", () => {
    const problems = checkGlossaryLinks("GLOSSARY.md", glossary.replace(/\]\(#/g, "](GLOSSARY.md#"), anchors, false);
    expect(problems, problems.join("\n")).toEqual([]);
  });
});

describe("每课的 README 用术语表和一张图来讲", () => {
  for (const lesson of LESSONS) {
    const readme = readText(lessonReadme(lesson));
    it(`${lesson}：引用的每个编号都查得到，每一部分第一次出现时链到 GLOSSARY.md`, () => {
      const problems = checkGlossaryLinks(`${lesson} README`, readme, anchors, true);
      expect(problems, problems.join("\n")).toEqual([]);
    });
    it(`${lesson}：恰好一张 Mermaid 图，图里没有后面课的名字，本节的零件标了出来`, () => {
      const problems = checkDiagram(lesson, readme, vocab);
      expect(problems, problems.join("\n")).toEqual([]);
    });
  }
});

describe("根 README", () => {
  const readme = readText("README.md");
  it("链路只点 s12 里有的函数，标的规则术语表里都有，课号都是真的课", () => {
    const problems = checkRootChain(readme, finalCode, anchors, LESSONS);
    expect(problems, problems.join("\n")).toEqual([]);
  });
  it("引用的每个编号都落在术语表的锚点上", () => {
    const problems = checkGlossaryLinks("README.md", readme, anchors, false);
    expect(problems, problems.join("\n")).toEqual([]);
  });
});

// ── fixtures: each breaks one check, with the message shown ─────────────────────────────────────────
const fixture = (name: string): string => readFileSync(join(ROOT, "tests", "fixtures", "teaching", name), "utf8");

describe("教学检查抓得到每一份改坏的样例（tests/fixtures/teaching）", () => {
  it("好的课文样例两条课文检查都过", () => {
    const good = fixture("s03-good.md");
    expect(checkGlossaryLinks("s03 README", good, anchors, true)).toEqual([]);
    expect(checkDiagram("s03", good, vocab)).toEqual([]);
  });

  const lessonCases: { file: string; check: "links" | "diagram"; message: string }[] = [
    { file: "s03-unknown-code.md", check: "links", message: "s03 README 工作原理: line 8: D999 has no entry in GLOSSARY.md (add <a id=\"d999\"></a> and a few plain sentences)" },
    { file: "s03-unlinked-code.md", check: "links", message: "s03 README 解决方案: line 6: first D6 in this part must link to the glossary: [D6](../GLOSSARY.md#d6)" },
    { file: "s03-wrong-anchor.md", check: "links", message: "s03 README 问题: line 4: [R1] links to #r2; a code links to its own anchor #r1" },
    { file: "s03-dead-anchor.md", check: "links", message: "s03 README 问题: line 4: link to GLOSSARY.md#term-nope, which GLOSSARY.md has no anchor for" },
    { file: "s03-no-diagram.md", check: "diagram", message: "s03 README 图: a lesson README has exactly one ```mermaid diagram of where its part sits in the turn chain; found 0" },
    { file: "s03-two-diagrams.md", check: "diagram", message: "s03 README 图: a lesson README has exactly one ```mermaid diagram of where its part sits in the turn chain; found 2" },
    { file: "s03-later-name.md", check: "diagram", message: "s03 README 图: line 5: `runEventedToolLoop` is introduced in s04; a lesson's picture shows only this and earlier lessons' parts (R-写⑤)" },
    { file: "s03-no-highlight.md", check: "diagram", message: "s03 README 图: line 5: highlight this lesson's part: put at least one labelled node in class `new` (`id:::new` or `class id new`)" },
    { file: "s03-old-highlight.md", check: "diagram", message: "s03 README 图: line 5: the highlighted nodes (b) name nothing s03 introduces" },
  ];
  for (const c of lessonCases) {
    it(`${c.file} 被抓到`, () => {
      const text = fixture(c.file);
      const got = c.check === "links" ? checkGlossaryLinks("s03 README", text, anchors, true) : checkDiagram("s03", text, vocab);
      expect(got).toEqual([c.message]);
    });
  }

  const chainCases: { file: string; message: string }[] = [
    { file: "root-chain-ghost.md", message: "README.md 一轮对话的完整链路: line 4: `newTurn` is not a name in s12's code.ts" },
    { file: "root-chain-not-a-function.md", message: "README.md 一轮对话的完整链路: line 12: `snapshot(…)` is called, but s12's code.ts declares no function or method snapshot" },
    { file: "root-chain-unknown-tag.md", message: "README.md 一轮对话的完整链路: line 3: tag R9 is not in GLOSSARY.md" },
    { file: "root-chain-unknown-lesson.md", message: "README.md 一轮对话的完整链路: line 12: tag s13 is not a lesson" },
  ];
  it("好的链路样例过得了", () => {
    expect(checkRootChain(fixture("root-chain-good.md"), finalCode, anchors, LESSONS)).toEqual([]);
  });
  for (const c of chainCases) {
    it(`${c.file} 被抓到`, () => {
      expect(checkRootChain(fixture(c.file), finalCode, anchors, LESSONS)).toEqual([c.message]);
    });
  }

  it("术语表少了一个被引用的编号、或者锚点重复，都被抓到", () => {
    expect(checkGlossary('<a id="r1"></a>\n<a id="r1"></a>\n', new Map([["R1", "x.md"], ["D7", "EVOLUTION.md"]]))).toEqual([
      'GLOSSARY.md: anchor "r1" appears more than once',
      "GLOSSARY.md: no entry for D7 (cited in EVOLUTION.md)",
    ]);
  });
});
