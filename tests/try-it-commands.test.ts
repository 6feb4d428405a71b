// 「试一下」的命令（tooling/demos.ts）：README 里写的 npm 脚本和 tsx 命令读成要跑的文件，同一条命令一次测试运行只跑一次，
// 真的从仓库根目录跑。文档检查的「试一下真的跑得出写着的输出」用的就是它（tests/docs.test.ts）。
import { describe, expect, it } from "vitest";
import { ROOT } from "../tooling/course.ts";
import { createCommandRunner, resolveCommand } from "../tooling/demos.ts";
import { HANG_GUARD_MS } from "../tooling/hang-guard.ts";
import { demoRuns } from "./support/demo-runs.ts";
import { FIXTURE_OUTPUT } from "./support/docs-fixture.ts";

describe("试一下的命令", () => {
  it("读得懂 npm 脚本和 tsx 命令", () => {
    const scripts = {
      s03: "tsx s03_stream/code.ts",
      s04: "node --import zod --import tsx s04_tool_loop/code.ts",
      start: "node --import tsx s12_packages/code.ts",
      plain: "node s04_tool_loop/code.ts",
      other: "node --import zod s04_tool_loop/code.ts",
      lint: "eslint .",
    };
    expect(resolveCommand("npm run s03", scripts)).toEqual({ file: "s03_stream/code.ts", args: [] });
    expect(resolveCommand("npm run s04 -- --verbose", scripts)).toEqual({ file: "s04_tool_loop/code.ts", args: ["--verbose"] });
    expect(resolveCommand("npm start", scripts)).toEqual({ file: "s12_packages/code.ts", args: [] });
    expect(resolveCommand("npx tsx s04_tool_loop/code.ts", scripts)).toEqual({ file: "s04_tool_loop/code.ts", args: [] });
    expect(resolveCommand("npm run s09", scripts)).toBe('npm script "s09" is not in package.json');
    const notTsx = (name: string, script: string): string => `npm script "${name}" is \`${script}\`, not \`tsx <file>\` or \`node --import tsx <file>\``;
    expect(resolveCommand("npm run lint", scripts)).toBe(notTsx("lint", "eslint ."));
    // node 不带 tsx 跑不了 .ts 里的类型（Node 20）：不算课的命令
    expect(resolveCommand("npm run plain", scripts)).toBe(notTsx("plain", "node s04_tool_loop/code.ts"));
    expect(resolveCommand("npm run other", scripts)).toBe(notTsx("other", "node --import zod s04_tool_loop/code.ts"));
  });

  it("同一条命令只跑一次（npm run s01 和 npx tsx s01_one_turn/code.ts 是同一条），直接用演示已经跑出的结果", async () => {
    const run = createCommandRunner(ROOT, HANG_GUARD_MS, await demoRuns());
    const viaNpm = run("npm run s01");
    expect(run("npx tsx s01_one_turn/code.ts")).toBe(viaNpm);
    const result = await viaNpm;
    expect(result.ok && result.stdout.split("\n")[0]).toBe("user: 你好");
  });

  it("真的从仓库根目录跑一个文件（样例假装的输出，就是样例真打印出来的）", async () => {
    const result = await createCommandRunner(ROOT)("npx tsx tests/fixtures/docs/s03_fixture/code.ts");
    expect(result).toEqual({ ok: true, stdout: FIXTURE_OUTPUT });
  });
});
