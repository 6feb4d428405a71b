// npm test 自己的两条规矩（issue 28）：结论不取决于机器多快——时间上限只有 tooling/hang-guard.ts 那一个，只防卡死，到点时报错说清这一点；
// 终端上看得见进度——配置里没有东西挡住 vitest 默认的 reporter。机器忙时三遍全绿由 npm run test:load 证明（scripts/test-load.ts）。
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import config from "../vitest.config.ts";
import e2eConfig from "../site/vitest.e2e.config.ts";
import graduationConfig from "./graduation/vitest.config.ts";
import practiceConfig from "./practice/vitest.config.ts";
import { runTsx } from "../tooling/demos.ts";
import { HANG_GUARD_MS, HANG_GUARD_NOTE, explainTimeout } from "../tooling/hang-guard.ts";
import { ownTimeLimits } from "../tooling/time-limits.ts";
import { ALSO_UNDER_LOAD } from "../scripts/test-load.ts";
import { ROOT } from "../tooling/course.ts";

describe("时间上限只防卡死（tooling/hang-guard.ts）", () => {
  it("vitest.config.ts：每个测试、每个钩子的上限都是那五分钟；不设 reporters、不设 silent，终端上是默认的 reporter", () => {
    const test = config.test ?? {};
    expect(HANG_GUARD_MS).toBe(300_000);
    expect([test.testTimeout, test.hookTimeout]).toEqual([HANG_GUARD_MS, HANG_GUARD_MS]);
    expect(test.reporters).toBeUndefined();
    expect(test.silent).toBeUndefined();
  });

  it("练习模式的证明（npm run test:practice）、毕业练习的证明（npm run test:graduation）和浏览器测试（npm run test:e2e）的配置也只用那五分钟，撞上时说的是同一句话", () => {
    for (const [name, c] of [["tests/practice/vitest.config.ts", practiceConfig], ["site/vitest.e2e.config.ts", e2eConfig]] as const) {
      expect([c.test?.testTimeout, c.test?.hookTimeout], name).toEqual([HANG_GUARD_MS, HANG_GUARD_MS]);
      if (name === "site/vitest.e2e.config.ts") expect(c.test?.expect?.poll?.timeout, "expect.poll waits as long as the hang guard (vitest's default is 1 s)").toBe(HANG_GUARD_MS);
      expect(c.test?.setupFiles, name).toEqual(["tests/support/hang-guard-setup.ts"]);
    }
    // 毕业练习的钩子第一次跑时要装 Pi 和 Node 24，给两倍，仍然只是防卡死
    expect([graduationConfig.test?.testTimeout, graduationConfig.test?.hookTimeout]).toEqual([HANG_GUARD_MS, 2 * HANG_GUARD_MS]);
    expect(graduationConfig.test?.setupFiles).toEqual(["tests/support/hang-guard-setup.ts"]);
    expect(config.test?.setupFiles).toEqual(["tests/support/setup.ts"]);
    // 每个文件都登记（setup.ts 每个文件跑一次；它导入的模块在 isolate: false 下一个 worker 只求值一次，登记不能放在那里）
    for (const setup of ["setup.ts", "hang-guard-setup.ts"]) expect(readFileSync(join(ROOT, "tests", "support", setup), "utf8"), setup).toMatch(/^explainHangGuard\(\);$/m);
    const e2e = readdirSync(join(ROOT, "site", "e2e")).filter((f) => f.endsWith(".ts"));
    expect(e2e.length).toBeGreaterThan(1);
    for (const f of e2e) expect(ownTimeLimits(readFileSync(join(ROOT, "site", "e2e", f), "utf8")), f).toEqual([]);
  });

  it("没有哪个测试文件另设上限（测试、钩子后面的毫秒数、选项里的 timeout、vi.setConfig）；下面故意撞上限的那一条除外", () => {
    const files = readdirSync(join(ROOT, "tests"), { recursive: true, encoding: "utf8" })
      .filter((f) => f.endsWith(".ts") && !f.startsWith("fixtures"))
      .map((f) => `tests/${f.replaceAll("\\", "/")}`);
    const found = files.flatMap((f) => ownTimeLimits(readFileSync(join(ROOT, f), "utf8")).map((where) => `${f}:${where}`));
    expect(found.filter((f) => !f.startsWith("tests/suite.test.ts:"))).toEqual([]);
    expect(found.filter((f) => f.startsWith("tests/suite.test.ts:"))).toEqual([expect.stringMatching(/^tests\/suite\.test\.ts:\d+: it\.fails\("（故意卡住/)]);
  });

  it("检查本身会失败：另设上限的每种写法都找得出来，不设的一个不报", () => {
    const set = [
      'it("a", () => {}, 5_000);',
      'it("a", { timeout: 100 }, () => {});',
      "beforeAll(async () => {}, 120_000);",
      'it.each([1])("%s", (x) => {}, 60_000);',
      'describe("d", { timeout: 1 }, () => {});',
      "vi.setConfig({ testTimeout: 20_000 });",
      "await expect.poll(() => 1, { timeout: 60_000 }).toBe(1);",
      'test.concurrent("c", async () => {}, HANG);',
    ];
    expect(set.map((source) => ownTimeLimits(source).length)).toEqual(set.map(() => 1));
    const unset = 'expect.poll(() => 1, { interval: 5 }).toBe(1);\nit("a", () => {});\nit.each([() => 1])("%s", (f) => {});\nfc.assert(p, { numRuns: 5, timeout: 9 });\nsetTimeout(() => {}, 50);\n// it("x", () => {}, 1);\nvi.setConfig({ sequence: {} });';
    expect(ownTimeLimits(unset)).toEqual([]);
  });

  // 这两条的先后要紧（后一条读前一条撞上上限时的报错），打乱测试顺序（--sequence.shuffle）时也不换
  describe("撞上上限", { shuffle: false }, () => {
    let seen: string[] = [];
    it.fails("（故意卡住：一个永远不落定的测试，上限 50 毫秒，撞上了才算过）", { timeout: 50 }, ({ onTestFailed }) => {
      onTestFailed(({ task }) => void (seen = (task.result?.errors ?? []).map((e) => e.message)));
      return new Promise(() => {});
    });

    it("撞上上限的报错说这是防卡死的上限、不是速度要求（上一条真的撞上了 vitest 的上限，tests/support/hang-guard-message.ts 改写了报错）", () => {
      expect(seen).toEqual([`Test timed out in 50ms. ${HANG_GUARD_NOTE}`]);
      // 没改写时是 vitest 自己那句「长的测试就把上限调大」
      const vitest = 'Test timed out in 50ms.\nIf this is a long-running test, pass a timeout value as the last argument or configure it globally with "testTimeout".';
      expect(explainTimeout(vitest)).toBe(seen[0]);
      expect(explainTimeout("expected 1 to be 2")).toBe("expected 1 to be 2");
    });
  });

  it("跑演示的子进程卡住了：到点杀掉，报错说是防卡死的上限杀的（样例 tests/fixtures/hang/forever.ts 永远不结束）", async () => {
    expect(await runTsx(ROOT, "tests/fixtures/hang/forever.ts", [], 300)).toEqual({
      ok: false,
      error: "still running after 0.3 s, killed by the hang guard (tooling/hang-guard.ts): it is stuck",
    });
  });
});

describe("两组测试（vitest.config.ts ⑦）：npm test 是课程，网页阅读器的生成器另成一组，哪儿都没少跑", () => {
  type Project = { test?: { name?: string; include?: string[]; exclude?: string[]; globalSetup?: string[] } };
  const projects = (config.test?.projects ?? []) as Project[];
  const byName = new Map(projects.map((p) => [p.test?.name, p.test]));
  const scripts = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts;
  const ciLines = readFileSync(join(ROOT, ".ci", "run"), "utf8").split("\n").filter((l) => !l.trimStart().startsWith("#"));

  it("course 和 reader 两组：reader 就是 tests/site/，course 是其余的，两组都不空；演示只给 course 跑", () => {
    expect([...byName.keys()]).toEqual(["course", "reader"]);
    expect(byName.get("course")?.include).toEqual(["tests/**/*.test.ts"]);
    expect(byName.get("course")?.exclude).toContain("tests/site/**");
    expect(byName.get("reader")?.include).toEqual(["tests/site/**/*.test.ts"]);
    expect(byName.get("course")?.globalSetup).toEqual(["tests/support/global-setup.ts"]);
    expect(byName.get("reader")?.globalSetup).toBeUndefined();
    const files = readdirSync(join(ROOT, "tests"), { recursive: true, encoding: "utf8" }).map((f) => f.replaceAll("\\", "/")).filter((f) => f.endsWith(".test.ts") && !f.startsWith("fixtures/"));
    expect(files.filter((f) => f.startsWith("site/")).length).toBeGreaterThan(1);
    expect(files.filter((f) => !f.startsWith("site/")).length).toBeGreaterThan(50);
  });

  it("npm test 跑 course，npm run test:site 跑 reader；.ci/run 单独跑 test:site 并计数，Node 24 那一遍和 test:load 都带上 reader", () => {
    expect(scripts.test).toBe("vitest run --project course");
    expect(scripts["test:site"]).toBe("vitest run --project reader");
    expect(ciLines.filter((l) => l.includes("npm run test:site"))).toEqual(['npm run test:site -- --reporter=default --reporter=json --outputFile.json="$site" || status=1']);
    expect(ciLines.filter((l) => l.includes('PATH="$node24:$PATH" npm test'))).toEqual([expect.stringContaining('npm test -- --project reader --reporter=default')]);
    expect(ciLines.find((l) => l.startsWith("' \"$extra_failed\""))).toContain('"$site"');
    expect(ALSO_UNDER_LOAD).toEqual(["--project", "reader"]);
  });
});
