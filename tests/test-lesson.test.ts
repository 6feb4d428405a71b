// npm run test:lesson -- sNN（scripts/test-lesson.ts）：只跑一课的测试。它交给 vitest 的参数，和根 README 里写的命令。
// 「-t 的式子恰好选中这一课的测试」由练习模式的 lessonTestPattern 保证（tooling/practice/course-tests.ts，npm run check 用的同一个）。
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { LESSONS, ROOT } from "../tooling/course.ts";
import { lessonTestPattern } from "../tooling/practice/course-tests.ts";
import { lessonTestArgs } from "../scripts/test-lesson.ts";

describe("npm run test:lesson -- sNN", () => {
  it("课号不对就只回一句用法，和 npm run practice 认同样的写法", () => {
    for (const bad of ["s13", "s00", "s04 ", "S04", "tool_loop", ""]) {
      expect(lessonTestArgs(bad), JSON.stringify(bad)).toBe(`没有这一课：${bad}\n用法：npm run test:lesson -- s04 [给 vitest 的参数]\n已有的课：${LESSONS.join(" ")}`);
    }
    expect(lessonTestArgs(undefined)).toMatch(/^要说是哪一课。\n用法：/);
    for (const same of ["4", "04", "s4", "s04_tool_loop"]) expect(lessonTestArgs(same), same).toEqual(lessonTestArgs("s04"));
  });

  it("交给 vitest 的是 run、这一课的 -t 式子、多给的参数，和可能有这一课测试的文件（都在）", () => {
    const args = lessonTestArgs("s04", ["--reporter=verbose"]);
    if (typeof args === "string") throw new Error(args);
    expect(args.slice(0, 4)).toEqual(["run", "-t", lessonTestPattern("s04"), "--reporter=verbose"]);
    const files = args.slice(4);
    expect(files).toContain("tests/golden.test.ts");
    expect(files).toContain("tests/bad-input.test.ts");
    expect(files).toContain("tests/behaviour/s04-s05.test.ts");
    expect(files).toContain("tests/properties/registry-errors.test.ts");
    expect(files).not.toContain("tests/docs.test.ts");
    for (const f of files) expect(existsSync(join(ROOT, f)), f).toBe(true);
    for (const id of LESSONS) expect(lessonTestArgs(id)).not.toBeTypeOf("string");
  });

  it("-t 的式子：只认以这一课的课号开头的 describe，和这一课复现黄金轨迹的测试", () => {
    const re = new RegExp(lessonTestPattern("s04"));
    expect(["s04 R5：问满 maxTurns 次就停", "s01-demo s04 复现 s01 的黄金轨迹", "s04-tool-errors s04 复现 s04 的黄金轨迹"].filter((n) => !re.test(n))).toEqual([]);
    expect(["s05 R5", "s14 x", "s04-demo s05 复现 s04 的黄金轨迹", "每课的 README（EVOLUTION.md §6） s04 README 模板（§6.2）", "xs04 y"].filter((n) => re.test(n))).toEqual([]);
  });

  it("根 README 写的就是这条命令，package.json 里有这个脚本", () => {
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    expect(readme).toContain("`npm run test:lesson -- s04`");
    expect(readme).toContain(`\`npx vitest run -t "${lessonTestPattern("s04")}"\``);
    const scripts = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts;
    expect(scripts["test:lesson"]).toBe("tsx scripts/test-lesson.ts");
  });
});
