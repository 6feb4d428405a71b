// 课文之外的代码自己的规矩（issue 32）：源文件不超过 450 行、测试体不超过 60 行（tooling/repo/length-limits.ts）；
// package.json 的脚本按读者分组、npm run gen 跑每个便宜的生成器，不跑的由根 README 说明（tooling/repo/npm-scripts.ts）。
// 每条都配必须失败的样例：超长的文件现场造，超长的测试体在 tests/fixtures/house/long-test-body.ts（名字不以 .test.ts 结尾，vitest 不跑它）。
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../tooling/course.ts";
import { repoFiles } from "../tooling/repo/files.ts";
import { headerProblem, needsHeader } from "../tooling/repo/file-headers.ts";
import { MAX_FILE_LINES, isHouseSource, isTestFile, lineCount, longFiles, longTestBodies } from "../tooling/repo/length-limits.ts";
import { genProblems, genSteps, scriptGroupProblems } from "../tooling/repo/npm-scripts.ts";

const read = (path: string): string => readFileSync(join(ROOT, path), "utf8");

describe("长度上限（tooling/repo/length-limits.ts）", () => {
  const files = repoFiles();

  it("仓库里没有一个源文件超过 450 行（生成的数据、锁文件、Markdown 文档和课的 code.ts 不算）", () => {
    expect(files.length).toBeGreaterThan(300);
    expect(longFiles(files.filter(isHouseSource).map((f) => [f, read(f)] as const))).toEqual([]);
  });

  it("没有一个测试体（it、test 的回调）超过 60 行", () => {
    const tests = files.filter(isTestFile);
    expect(tests.length).toBeGreaterThan(50);
    expect(tests.flatMap((f) => longTestBodies(read(f)).map((where) => `${f}:${where}`))).toEqual([]);
  });

  it("检查本身会失败：451 行的源文件被报出，450 行的不报；生成的数据、课的 code.ts、文档多长都不算", () => {
    const lines = (n: number): string => "x\n".repeat(n);
    expect(lineCount(lines(450))).toBe(450);
    expect(lineCount("a\nb")).toBe(2);
    expect(longFiles([["tooling/a.ts", lines(451)], ["tooling/b.ts", lines(MAX_FILE_LINES)]])).toEqual(["tooling/a.ts: 451 lines (max 450)"]);
    const exempt = ["tests/api/s01.json", "tests/golden/s01-demo.json", "site/replay/s01.json", "tooling/practice/stage-tests.json", "tooling/pi-index.json", "fidelity/DIFFERENCES.md", "package-lock.json", "fidelity/package-lock.json", "s04_tool_loop/code.ts", "GLOSSARY.md"];
    expect(longFiles(exempt.map((f) => [f, lines(1000)] as const))).toEqual([]);
    // 生成的数据只认它们自己的文件夹：别处的 JSON、fixtures 里抄的课都照样算
    expect(longFiles([["tests/fixtures/docs/s03_fixture/code.ts", lines(451)], ["tests/api/nested/x.json", lines(451)]])).toHaveLength(2);
  });

  it("检查本身会失败：样例里 61 行的 it 体、it.each 的体被报出，正好 60 行的不报；注释和字符串里的 it( 不算", () => {
    expect(longTestBodies(read("tests/fixtures/house/long-test-body.ts"))).toEqual([
      "5: 61 行的测试体 (61 lines, max 60)",
      "127: %s 也是 61 行 (61 lines, max 60)",
    ]);
    expect(["tests/a.test.ts", "tests/practice/exercises.proof.ts", "site/e2e/home.e2e.ts"].every(isTestFile)).toBe(true);
    expect(["tests/support/setup.ts", "tests/fixtures/house/long-test-body.ts", "s01_one_turn/x.test.ts"].some(isTestFile)).toBe(false);
  });
});

describe("文件开头的说明用中文写（tooling/repo/file-headers.ts）", () => {
  it("课和样例之外的每个 .ts / .js 文件开头都有一段中文的说明", () => {
    const files = repoFiles().filter(needsHeader);
    expect(files.length).toBeGreaterThan(250);
    const problems = files.map((f) => [f, headerProblem(read(f))] as const).filter(([, problem]) => problem !== undefined);
    expect(problems.map(([f, problem]) => `${f}: ${problem}`)).toEqual([]);
  });

  it("检查本身会失败：英文的说明、没有说明都报得出；#! 行之后的中文说明、块注释的说明都算数", () => {
    expect(headerProblem("// Reads the lesson.\nexport const x = 1;\n")).toBe("opens with a comment that is not written in Chinese");
    expect(headerProblem("import x from \"y\";\n// 读课\n")).toBe("opens with no comment saying what the file does");
    expect(headerProblem("#!/usr/bin/env node\n// 读一课的文件\n")).toBeUndefined();
    expect(headerProblem("/**\n * 读一课的文件\n */\n")).toBeUndefined();
    expect(["s01_one_turn/code.ts", "tests/fixtures/constitution/valid/s01.ts", "README.md", "site/.vitepress/theme/style.css"].some(needsHeader)).toBe(false);
    expect(["tooling/course.ts", "tests/house.test.ts", "fidelity/run.ts"].every(needsHeader)).toBe(true);
  });
});

describe("package.json 的脚本（tooling/repo/npm-scripts.ts）", () => {
  const scripts = (JSON.parse(read("package.json")) as { scripts: Record<string, string> }).scripts;

  it("先学习者的（sNN、start、practice、check、hint、diff、live、site、site:serve、graduate），再维护者的（test、gen、docs、bench、fidelity），每个都在一组里", () => {
    expect(scriptGroupProblems(scripts)).toEqual([]);
    expect(Object.keys(scripts).slice(0, 3)).toEqual(["s01", "s02", "s03"]);
    expect(scripts["docs:check"]).toBe("tsx scripts/check-docs.ts");
  });

  it("npm run gen 跑的是除了根 README「给维护者」写明的几个之外的每个 gen:*", () => {
    expect(genProblems(scripts, read("README.md"))).toEqual([]);
    expect(genSteps(scripts)).toEqual(["gen:api", "gen:golden", "gen:replay", "gen:differences"]);
  });

  it("检查本身会失败：学习者的 check 当了别的脚本的前缀、次序乱了、哪一组都不是，都报得出", () => {
    expect(scriptGroupProblems({ s01: "", check: "", "check:docs": "" })).toEqual([
      'package.json scripts: "check:docs" starts with the learner\'s "check:"; give it a maintainer\'s name (docs:*, test:*, gen:*, bench:*)',
      'package.json scripts: "check:docs" is in no group of tooling/repo/npm-scripts.ts\'s SCRIPT_GROUPS',
    ]);
    expect(scriptGroupProblems({ test: "", start: "", s01: "" }).map((p) => p.split(";")[0])).toEqual([
      'package.json scripts: "start" comes after "test"',
      'package.json scripts: "s01" comes after "test"',
    ]);
    expect(scriptGroupProblems({ s01: "", "site:serve": "", site: "", "bench:x": "", "gen:x": "" }).map((p) => p.split(";")[0])).toEqual([
      'package.json scripts: "site" comes after "site:serve"',
      'package.json scripts: "gen:x" comes after "bench:x"',
    ]);
  });

  it("检查本身会失败：gen 漏跑了一个却没说为什么、README 说不跑的其实在跑、点了不存在的脚本", () => {
    const readme = read("README.md");
    const noStages = { ...scripts };
    delete noStages["gen:stages"];
    expect(genProblems(noStages, readme)).toEqual(["README.md 给维护者: says npm run gen does not run gen:stages, but there is no such script"]);
    expect(genProblems({ ...scripts, "gen:new": "tsx x.ts" }, readme)).toEqual(["README.md 给维护者: npm run gen does not run gen:new, and the README does not say why"]);
    expect(genProblems({ ...scripts, gen: `${scripts.gen} && npm run gen:pi-index && npm run gen:nope` }, readme)).toEqual([
      "package.json scripts: gen runs gen:nope, which is not a script",
      "README.md 给维护者: says npm run gen does not run gen:pi-index, but it does",
    ]);
    expect(genProblems(scripts, readme.replace("不在 `npm run gen` 里", "不归 `npm run gen` 跑"))).toEqual([
      "README.md 给维护者: want one list item that says which generators are 不在 `npm run gen` 里, found 0",
    ]);
  });
});
