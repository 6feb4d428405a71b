// 毕业练习的练习文件和提示（tooling/graduation/stub.ts、hints.ts、cli.ts）：练习文件从参考答案来，只挖掉练习数据点名的那几处；
// 四级提示守练习模式的同一套规矩（tests/support/hint-levels.ts），讲的是第一处还没写的空白；命令行的参数不对时一句中文。
// 不用装 Pi：这里只看文件和文字。练习文件真的装进 Pi 会怎样，在 tests/graduation/graduate.proof.ts。
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ts from "typescript";
import { afterAll, describe, expect, it } from "vitest";
import { parseArgs, hintText } from "../../tooling/graduation/cli.ts";
import { blankName, EXERCISES, solutionPath } from "../../tooling/graduation/exercises.ts";
import { readExerciseFiles, writeExerciseFiles } from "../../tooling/graduation/files.ts";
import { extensionSkeleton, graduationHint } from "../../tooling/graduation/hints.ts";
import { makeStub, openGraduationStubs, replaceBody, solutionFiles, withManifest } from "../../tooling/graduation/stub.ts";
import { levelProblems } from "../support/hint-levels.ts";

const WORK = mkdtempSync(join(tmpdir(), "graduation-stubs-"));
afterAll(() => rmSync(WORK, { recursive: true, force: true }));

const syntaxErrors = (code: string): number =>
  (ts.createSourceFile("x.ts", code, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS) as unknown as { parseDiagnostics: unknown[] }).parseDiagnostics.length;
/** 去掉开头的注释（练习文件和参考答案只有这几行不同）。 */
const body = (code: string): string => code.split("\n").filter((l, i, all) => !(l.startsWith("//") && all.slice(0, i).every((x) => x.startsWith("//")))).join("\n");

describe("毕业练习的练习文件", () => {
  for (const ex of EXERCISES) {
    it(`练习 ${ex.n}（${ex.title}）：只挖掉点名的那几处，挖掉的地方填回参考答案就和参考答案一样`, () => {
      const solution = solutionFiles(ex);
      const { files, stubs } = makeStub(ex);
      expect(Object.keys(files).sort()).toEqual(Object.keys(solution).sort());
      expect(stubs.map((s) => s.name)).toEqual(ex.blanks.map(blankName));
      const refilled = { ...files };
      for (const stub of stubs) {
        const text = refilled[stub.blank.file] ?? "";
        if (stub.blank.kind === "manifest") {
          expect(JSON.parse(text).pi).toEqual({});
          refilled[stub.blank.file] = withManifest(text, JSON.parse(stub.code));
        } else {
          expect(text).toContain(`throw new Error(${JSON.stringify(stub.message)});`);
          expect(syntaxErrors(text)).toBe(0);
          refilled[stub.blank.file] = replaceBody(text, stub.blank.name, stub.code.split("\n").map((l) => l.replace(/^ {2}/, "")));
        }
      }
      for (const [path, text] of Object.entries(solution)) expect(body(refilled[path] ?? ""), `${ex.solution} ${path}`).toBe(body(text));
      expect(openGraduationStubs(stubs, files)).toEqual(stubs);
      expect(openGraduationStubs(stubs, solution)).toEqual([]);
    });
  }

  it("写出来、读回去是同一份（练习 1 是一个文件，练习 3 是一个文件夹）", () => {
    for (const ex of EXERCISES) {
      const target = join(WORK, "roundtrip", ex.target);
      const { files } = makeStub(ex);
      writeExerciseFiles(target, files);
      expect(readExerciseFiles(target)).toEqual(files);
    }
    expect(readExerciseFiles(join(WORK, "nope"))).toBeUndefined();
  });
});

describe("毕业练习的四级提示：逐级多露一点，前三级不露答案", () => {
  for (const ex of EXERCISES) {
    it(`练习 ${ex.n}（${ex.title}）：每一处空白`, () => {
      for (const stub of makeStub(ex).stubs) {
        const levels = [1, 2, 3, 4].map((l) => graduationHint(ex, stub, l as 1 | 2 | 3 | 4)) as [string, string, string, string];
        expect(levels[0].length, `${stub.name} level 1`).toBeGreaterThan(200);
        expect(levelProblems(stub, levels, { openers: true }), stub.name).toEqual([]);
      }
    });
  }

  it("检查抓得到露了答案的提示；扩展的骨架留着调用的形状，函数体仍是骨架", () => {
    const ex = EXERCISES[0];
    const stub = makeStub(ex).stubs.find((s) => s.blank.name === "insideProject");
    if (ex === undefined || stub === undefined) throw new Error("exercise 1 has no insideProject");
    const [l1, l2, l3, l4] = [1, 2, 3, 4].map((l) => graduationHint(ex, stub, l as 1 | 2 | 3 | 4)) as [string, string, string, string];
    expect(levelProblems(stub, [l1, l2, l4, l4], { openers: true }).some((p) => p.includes("level 3 shows the answer line"))).toBe(true);
    expect(levelProblems(stub, [l1, l2, l2, l4], { openers: true })).toContain(`${stub.name}: level 3 does not show strictly more than level 2`);
    expect(l3).toContain("try {");
    const shape = extensionSkeleton('pi.on("tool_call", (event) => decide(event));\npi.registerTool({ name: "x", async execute(id, p) { const t = f(p); return t; } });');
    expect(shape).toContain('pi.on("tool_call", (event) => …);');
    expect(shape).toContain("name: …,");
    expect(shape).toContain("const t = …;");
    expect(shape).not.toContain("decide(event)");
  });

  it("讲的是练习文件里第一处还没写的；都写完了就说去检查；--part 点了不存在的名字说一句中文", () => {
    const ex = EXERCISES[1];
    if (ex === undefined) throw new Error("no exercise 2");
    const target = join(WORK, "hint", ex.target);
    expect(hintText(ex, target, 1, undefined).text).toContain("还没有练习文件，从第一处讲起");
    const { files, stubs } = makeStub(ex);
    writeExerciseFiles(target, files);
    expect(hintText(ex, target, 2, undefined).text).toContain(`毕业练习 2 · ${stubs[0]?.name}`);
    const firstDone = replaceBody(files[""] ?? "", stubs[0]?.blank.name ?? "", ['pi.on("tool_call", (event) => decide(event));']);
    writeExerciseFiles(target, { "": firstDone });
    expect(hintText(ex, target, 2, undefined).text).toContain(`毕业练习 2 · ${stubs[1]?.name}`);
    writeExerciseFiles(target, { "": readFileSync(solutionPath(ex), "utf8") });
    expect(hintText(ex, target, 1, undefined).text).toContain("都写完了");
    expect(hintText(ex, target, 1, "nope")).toEqual({ ok: false, text: expect.stringContaining("没有叫「nope」的空白") });
  });
});

describe("npm run graduate 的参数", () => {
  it("认得 1、2、3 和几种写法；不对时一句中文", () => {
    expect(parseArgs(["1"])).toMatchObject({ ex: { n: 1 }, check: false });
    expect(parseArgs(["2-gate", "--check"])).toMatchObject({ ex: { n: 2 }, check: true });
    expect(parseArgs(["package", "--hint", "3", "--part", "pi"])).toMatchObject({ ex: { n: 3 }, hint: 3, part: "pi" });
    expect(parseArgs([])).toEqual(expect.stringContaining("要说是第几个练习"));
    expect(parseArgs(["4"])).toEqual(expect.stringContaining("没有这个练习：4"));
    expect(parseArgs(["1", "--hint", "5"])).toEqual(expect.stringContaining("提示只有 1–4 级"));
    expect(parseArgs(["1", "--fast"])).toBe("不认识的选项：--fast");
    expect(parseArgs(["1", "--file"])).toBe("--file 后面要跟一个值");
    expect(parseArgs(["1", "2"])).toBe("多了参数：2");
    expect(parseArgs(["1", "--solution", "--file", "x.ts"])).toBe("--solution 和 --file 只能选一个");
    expect(parseArgs(["2", "--solution", "--reset"])).toBe("--solution 和 --reset 只能选一个：参考答案不重置");
  });
});
