// 网站生成器（site/lib）的首页：课程卡片要的主题和格言，链路图要的根 README 那一节（tooling/teaching/chain-section.ts 读出来）。
import { describe, expect, it } from "vitest";
import { LAYOUT, readHomeChain } from "../../site/lib/chain.ts";
import { loadCourse, readRootReadme } from "../../site/lib/course.ts";

const lessons = loadCourse();

describe("网站生成器：首页", () => {
  it("每课的 README 读得出主题和格言", () => {
    for (const l of lessons) {
      expect(l.topic, `${l.id} README H1`).not.toBe(l.heading);
      expect(l.motto, `${l.id} motto`).not.toBe("");
    }
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

  it("链路图要的几样从那一节的语法树上取：导语到图为止、说明从表后算起，格子是原样的 Markdown，旁路框的字分行", () => {
    const readme = [
      "# t",
      "",
      "## 一轮对话的完整链路（s12）",
      "",
      "导语，`code` 和 [链接](GLOSSARY.md)。",
      "",
      "```mermaid",
      "flowchart TD",
      '  A["① 甲"] --> B["④ 乙"]',
      '  X["旁路：扩展<br/>包"] -.-> A',
      "```",
      "",
      "图例：写成文字：",
      "",
      ...["| 步骤 | 做什么 | 哪一节 | 规则 | s12 里的函数 |", "|---|---|---|---|---|"],
      ...[...LAYOUT.before, ...LAYOUT.loop, ...LAYOUT.after].map((step) => `| ${step} | 做 **${step}** | s04 | R4 | \`f\` → \`g\` |`),
      "",
      "说明：另外几种收场。",
      "",
      "## 下一节",
      "",
      "不算在里面。",
    ].join("\n");
    const chain = readHomeChain(readme);
    expect(chain.intro).toBe("导语，`code` 和 [链接](GLOSSARY.md)。");
    expect(chain.outro).toBe("说明：另外几种收场。");
    expect(chain.bypass).toBe("旁路：扩展\n包");
    expect(chain.rows[0]).toEqual({ step: "①", what: "做 **①**", lessons: "s04", rules: "R4", functions: "`f` → `g`" });
  });

  it("检查本身会失败：没有这一节、没有步骤表、表里的步骤和 LAYOUT 对不上，生成都直接报错", () => {
    const readme = readRootReadme();
    expect(() => readHomeChain(readme.replace("## 一轮对话的完整链路", "## 另一节"))).toThrow(/has no "## 一轮对话的完整链路" section/);
    expect(() => readHomeChain(readme.replace("| 步骤 |", "| 第几步 |"))).toThrow(/chain section has no table/);
    const without7 = readme.split("\n").filter((l) => !l.startsWith("| ⑦ |")).join("\n");
    expect(() => readHomeChain(without7)).toThrow(/LAYOUT does not match README\.md's chain table: not placed \[\], not in table \["⑦"\]/);
  });
});
