// graduation/README.md（毕业一章）：开头、各节的顺序、三个练习各一小节、试一下有命令和输出、最后以那一条 pi -e 命令和「你应该看到」收尾；
// 对照表每一课一行，Pi 一栏的名字和事件都在 Pi 1.6.0 的名字索引里（tooling/pi-index.json，和各课的源码溯源同一份），
// mini Pi 一栏的名字都在 s12 里；引用的编号都在术语表里。每条检查都有一个改坏的 README 必须被抓到。
// 试一下的输出要真跑 Pi 才对得上，在 tests/graduation/graduate.proof.ts 里核对。
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { LESSON_DIRS, ROOT } from "../../tooling/course.ts";
import { classifyPiSpan, mapProblems, mapRows, structureProblems } from "../../tooling/graduation/readme.ts";
import { codeTokens } from "../../tooling/names.ts";
import { hasPiLiteral, hasPiName } from "../../tooling/pi-index.ts";
import { anchorOf, codesIn } from "../../tooling/teaching/glossary.ts";

const README = readFileSync(join(ROOT, "graduation", "README.md"), "utf8");
const s12 = codeTokens(readFileSync(join(ROOT, "s12_packages", "code.ts"), "utf8"));
const lookup = { piName: (n: string) => hasPiName(n), piLiteral: hasPiLiteral, courseName: (n: string) => s12.has(n) };
const lessons = LESSON_DIRS.map((dir) => ({ id: dir.slice(0, 3), dir }));
const glossary = readFileSync(join(ROOT, "GLOSSARY.md"), "utf8");

/** 改一处：把 from 换成 to（必须恰好出现在 README 里）。 */
const edit = (from: string, to: string): string => {
  expect(README.includes(from), `README has ${from}`).toBe(true);
  return README.replace(from, to);
};

describe("毕业一章的 README", () => {
  it("结构：以「毕业」开头、两行引用，五个二级标题按序，三个练习各一小节，试一下有命令和输出，最后是 pi -e 命令和一张清单", () => {
    expect(structureProblems(README)).toEqual([]);
  });

  it("结构的检查抓得到改坏的 README", () => {
    expect(structureProblems(edit("## 对照表", "## 地图"))).toEqual([expect.stringContaining("二级标题该是")]);
    expect(structureProblems(edit("### 练习 2：闸", "### 练习 2：钩子"))).toEqual([expect.stringContaining("「三个练习」的小节")]);
    expect(structureProblems(edit('-e "$LP/practice/graduation/2-gate.ts" ', ""))).toEqual(["最后那条 pi 命令没有装 2-gate.ts"]);
    expect(structureProblems(`${README}\n再见。\n`)).toEqual(["README 要以「你应该看到」的一张清单结束"]);
    expect(structureProblems(edit("> Pi 边界：", "> 边界："))).toEqual([expect.stringContaining("两行引用")]);
    expect(structureProblems(edit("```bash\nnpm run graduate -- 1 --check\n```", "```bash\nnpm test\n```"))).toEqual([expect.stringContaining("npm run graduate")]);
  });

  it("对照表：十二课各一行、按序链到那一课；Pi 一栏的名字和事件都在 Pi 1.6.0 里，mini Pi 一栏的名字都在 s12 里", () => {
    expect(mapProblems(README, lookup, lessons)).toEqual([]);
    const rows = mapRows(README);
    expect(rows).toHaveLength(12);
    // 每一行的 Pi 一栏至少有一个 Pi 的名字或事件（不只是命令行）
    for (const row of rows) expect(row.pi.map(classifyPiSpan).some((s) => s.kind !== "cli"), `line ${row.line}`).toBe(true);
  });

  it("对照表的检查抓得到改坏的 README：不存在的名字、事件、课里的名字，少一行，链错课", () => {
    const problems = (text: string): string[] => mapProblems(text, lookup, lessons);
    expect(problems(edit("`ExtensionAPI.registerTool`", "`ExtensionAPI.addTool`"))).toEqual([expect.stringContaining("`ExtensionAPI.addTool` 不在 Pi 1.6.0 里")]);
    expect(problems(edit('`"tool_call"`', '`"before_tool_call"`'))).toEqual([expect.stringContaining('事件 "before_tool_call" 不在 Pi 1.6.0 里')]);
    expect(problems(edit("`runEventedToolLoop`", "`runToolLoop`"))).toEqual([expect.stringContaining("`runToolLoop` 不在 s12 里")]);
    expect(problems(edit("../s05_hooks/README.md", "../s06_snapshot/README.md"))).toEqual([expect.stringContaining("没链到 ../s05_hooks/README.md")]);
    const withoutS06 = README.split("\n").filter((l) => !l.startsWith("| [s06]")).join("\n");
    expect(problems(withoutS06)).toContain("对照表有 11 行，课有 12 节");
  });

  it("引用的每个编号（F…、D…、R…）在术语表里都有锚点", () => {
    const codes = [...new Set(codesIn(README))];
    expect(codes.length).toBeGreaterThan(10);
    for (const code of codes) expect(glossary, code).toContain(`<a id="${anchorOf(code)}"></a>`);
  });
});
