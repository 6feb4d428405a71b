// tooling/teaching/ 的教学检查，在真的课程上（GLOSSARY.md、每课的 README、根 README 的链路）和 tests/fixtures/teaching/ 里
// 改坏的样例上各跑一遍；每个坏样例都得被抓到，报的就是写着的那句话。
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { LESSONS, ROOT, lessonDir } from "../tooling/course.ts";
import { courseVocabulary } from "../tooling/names.ts";
import { checkRootChain } from "../tooling/teaching/chain-names.ts";
import { observeChain } from "../tooling/teaching/chain-run.ts";
import { checkChainSteps } from "../tooling/teaching/chain-steps.ts";
import { checkDiagram } from "../tooling/teaching/diagram.ts";
import { checkGlossary, checkGlossaryLinks, citedCodes, glossaryAnchors, lessonReadme, readText } from "../tooling/teaching/glossary.ts";

const glossary = readText("GLOSSARY.md");
const anchors = glossaryAnchors(glossary).ids;
const vocab = courseVocabulary();
const finalCode = readText(`${lessonDir(LESSONS.at(-1) ?? "s12")}/code.ts`);
// s12 从里面看着跑一遍（tooling/teaching/chain-run.ts）：链路的步骤对着这一遍查
const run = await observeChain(finalCode);
/** 两条链路检查：名字和标签（chain-names.ts），步骤对着真跑的那一遍（chain-steps.ts）。 */
const chainProblems = (readme: string, code = finalCode, observed = run): string[] => [
  ...checkRootChain(readme, code, anchors, LESSONS),
  ...checkChainSteps(readme, code, observed),
];

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
  it("链路的步骤按 s12 里实际发生的先后编号，图里画出每种收场，s12 的代码在每一步上方标着同一个编号", () => {
    const problems = checkChainSteps(readme, finalCode, run);
    expect(problems, problems.join("\n")).toEqual([]);
  });
  it("引用的每个编号都落在术语表的锚点上", () => {
    const problems = checkGlossaryLinks("README.md", readme, anchors, false);
    expect(problems, problems.join("\n")).toEqual([]);
  });
});

// ── 样例：每个弄坏一条检查，报的是写着的那句话 ─────────────────────────────────────────
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

  const chain = (what: string): string => `README.md 一轮对话的完整链路: ${what}`;
  const chainCases: { file: string; messages: string[] }[] = [
    { file: "root-chain-ghost.md", messages: [chain("line 4: `newTurn` is not a name in s12's code.ts")] },
    { file: "root-chain-not-a-function.md", messages: [chain("line 36: `snapshot(…)` is called, but s12's code.ts declares no function or method snapshot")] },
    { file: "root-chain-unknown-tag.md", messages: [chain("line 3: tag R9 is not in GLOSSARY.md")] },
    { file: "root-chain-unknown-lesson.md", messages: [chain("line 36: tag s13 is not a lesson")] },
    // issue 30：链路出过的每个毛病。① 编在最前，其实它发生在 ③ 里面
    { file: "root-chain-step-order.md", messages: [chain("step ② (`append`) happens before step ① (`getSpecs`) in s12: number the steps in the order they happen")] },
    // 规则的一部分写成了步骤的圈码（R4 ②）
    { file: "root-chain-rule-digit.md", messages: [chain("line 35: `R4 ②` writes a part of R4 with the step digit ②; here circled digits are steps only, name the part in words")] },
    // a step without a number (the row 工具)
    { file: "root-chain-unnumbered.md", messages: [chain("line 36: the step table's row 「收尾」 has no step number: number every step (①, ②, …)")] },
    // ① 画在链路旁边，连到 ③
    {
      file: "root-chain-diagram-order.md",
      messages: [
        chain("the diagram (line 4)'s arrows from its first node reach step ② before any other; they should reach ① first"),
        chain("the diagram (line 4) draws no arrow path from step ① to step ②"),
      ],
    },
    // 被拒绝和开不了头两条路没画
    {
      file: "root-chain-no-refusal.md",
      messages: [
        chain('the diagram (line 4) does not draw the path where 一轮没跑完又来一句: s12 answers "error: agent is already processing a prompt"; draw it, with a node that says "agent is already processing a prompt"'),
        chain('the diagram (line 4) does not draw the path where 输入不是文字: s12 answers "error: user input must be a string, got number"; draw it, with a node that says "user input must be a string"'),
      ],
    },
    {
      file: "root-chain-no-could-not-start.md",
      messages: [chain('the diagram (line 4) does not draw the path where 这一轮的输入备不齐: s12 answers "error: could not start the turn: loader broke"; draw it, with a node that says "could not start the turn"')],
    },
  ];
  it("好的链路样例过得了", () => {
    expect(chainProblems(fixture("root-chain-good.md"))).toEqual([]);
  });
  for (const c of chainCases) {
    it(`${c.file} 被抓到`, () => {
      expect(chainProblems(fixture(c.file))).toEqual(c.messages);
    });
  }

  // s12 的代码改坏一处注释（别的一字不动），再看一遍 s12 怎么跑：步骤的编号标错了地方、没标、规则写成了圆圈数字，都抓得到
  const codeCases: { what: string; from: string; to: string; messages: (line: number) => string[] }[] = [
    {
      what: "把「①」标在已经存完用户消息之后（原来的 ①③④⑤⑥⑦ 在工具循环里依次发生）",
      from: "// ②–⑦ 在工具循环里依次发生",
      to: "// ①③④⑤⑥⑦ 在工具循环里依次发生",
      messages: (line) => [
        chain(`s12_packages/code.ts line ${line} (\`// ①③④⑤⑥⑦ 在工具循环里依次发生\`) says step ① happens from here, but it has already happened (\`append\`)`),
        chain(`s12_packages/code.ts line ${line} (\`// ①③④⑤⑥⑦ 在工具循环里依次发生\`) marks ③, but the next step to happen after it is ② (\`getSpecs\`)`),
      ],
    },
    {
      what: "一步没标",
      from: "// ⑥ s05 hook 包着 registry.run",
      to: "// s05 hook 包着 registry.run",
      messages: () => [chain("step ⑥ is marked nowhere in s12_packages/code.ts: put `// ⑥ …` above the statement where it happens")],
    },
    {
      what: "规则的一部分写成圆圈数字（R4 ①）",
      from: '流出错变成 stopReason "error" 的消息（R4）',
      to: '流出错变成 stopReason "error" 的消息（R4 ①）',
      messages: (line) => [chain(`s12_packages/code.ts line ${line}: \`R4 ①\` writes a part of R4 with the step digit ①; name the part in words`)],
    },
  ];
  for (const c of codeCases) {
    it(`s12 的代码${c.what}，被抓到`, async () => {
      expect(finalCode.split(c.from)).toHaveLength(2);
      const code = finalCode.replace(c.from, c.to);
      const line = code.slice(0, code.indexOf(c.to)).split("\n").length;
      expect(chainProblems(readText("README.md"), code, await observeChain(code))).toEqual(c.messages(line));
    });
  }

  it("术语表少了一个被引用的编号、或者锚点重复，都被抓到", () => {
    expect(checkGlossary('<a id="r1"></a>\n<a id="r1"></a>\n', new Map([["R1", "x.md"], ["D7", "EVOLUTION.md"]]))).toEqual([
      'GLOSSARY.md: anchor "r1" appears more than once',
      "GLOSSARY.md: no entry for D7 (cited in EVOLUTION.md)",
    ]);
  });
});
