// 每个练习都在检查东西（npm run test:practice，.ci/run 也跑；太慢，不进 npm test）。对每一课证明：
//   (a) 生成的练习文件通过类型检查，API 和这一课一样（生成器自己核对，check 的前两项也得过）
//   (b) check 拦得住刚生成的练习文件，拦在行为测试或黄金轨迹上；README「自己写一遍」贴的正是这时的输出
//   (c) check --solution（这一课自己的 code.ts）五项全过
//   (d) 一个看着像对的错误写法（scripts/practice/mistakes.ts）被 check 拦下，拦它的正是管这个机制的测试
// 再加命令行的坏输入：没有的课、还没生成的练习文件、语法错误、API 不一样。卡死由 s04 的错误写法证明。
import { execFile } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { type Outcome, runChecks } from "../../scripts/practice/checks.ts";
import { PRACTICE_DIR_ENV, practiceFile } from "../../scripts/practice/lesson-arg.ts";
import { MISTAKES, mistakenCode } from "../../scripts/practice/mistakes.ts";
import { checkPracticeSection, firstFailurePart } from "../../scripts/practice/readme.ts";
import { formatReport } from "../../scripts/practice/report.ts";
import { makePractice } from "../../scripts/practice/stub.ts";
import { LESSONS, ROOT, lessonDir } from "../../tooling/course.ts";

const run = promisify(execFile);
/** 证明用的文件放在 .tmp/ 下（不进版本库），不碰学习者自己的 practice/。 */
const WORK = join(ROOT, ".tmp", "practice-proofs");
afterAll(() => rmSync(WORK, { recursive: true, force: true }));

const place = (kind: string, id: string, text: string): string => {
  const file = join(WORK, kind, lessonDir(id), "code.ts");
  mkdirSync(join(file, ".."), { recursive: true });
  writeFileSync(file, text);
  return file;
};

/** 报告的正文，文件路径换成学习者会看到的 practice/<课>/code.ts。 */
const report = (outcome: Outcome): string => formatReport({ ...outcome, file: practiceFile(outcome.id) }, false);
const status = (outcome: Outcome): string[] => outcome.checks.map((c) => c.status);
const finding = (outcome: Outcome): string => [outcome.first?.title ?? "", ...(outcome.first?.lines ?? [])].join("\n");

describe.concurrent("每一课的练习", () => {
  for (const id of LESSONS) {
    it(`${id}：(a) 练习文件过得了类型检查和 API，(b) check 拦得住它，README 贴的是真输出`, async () => {
      const practice = makePractice(id);
      expect(practice.stubs.length, "a practice file with nothing to write").toBeGreaterThan(0);
      const outcome = await runChecks(id, place("practice", id, practice.text));
      expect(status(outcome).slice(0, 2), report(outcome)).toEqual(["pass", "pass"]);
      expect(outcome.ok, report(outcome)).toBe(false);
      expect(status(outcome).slice(2, 4), report(outcome)).toContain("fail");
      expect(finding(outcome), "the first failure is a stub this lesson left").toMatch(new RegExp(`还空着：.*（${id} 的 TODO）`));
      const readme = readFileSync(join(ROOT, lessonDir(id), "README.md"), "utf8");
      expect(checkPracticeSection(id, readme, practice.stubs, firstFailurePart(report(outcome)))).toEqual([]);
    });

    it(`${id}：(c) check --solution 五项全过`, async () => {
      const outcome = await runChecks(id, join(ROOT, lessonDir(id), "code.ts"));
      expect(status(outcome), formatReport(outcome, true)).toEqual(["pass", "pass", "pass", "pass", "pass"]);
      expect(outcome.ok).toBe(true);
    });

    const mistake = MISTAKES.find((m) => m.lesson === id);
    it(`${id}：(d) ${mistake?.mistake ?? "（缺一个错误写法）"}，check 拦下`, async () => {
      if (mistake === undefined) throw new Error(`scripts/practice/mistakes.ts has no mistake for ${id}`);
      const outcome = await runChecks(id, place("mistake", id, mistakenCode(mistake)));
      expect(outcome.ok, report(outcome)).toBe(false);
      expect(status(outcome).slice(0, 2), "a mistake must type-check and keep the API, or it proves nothing about the mechanism").toEqual(["pass", "pass"]);
      expect(finding(outcome)).toMatch(mistake.caught);
    });
  }
});

describe("命令行的坏输入", () => {
  /** 跑 practice 或 check 的命令行；练习文件夹换成一个空的临时文件夹，不碰学习者的 practice/。 */
  const cli = async (script: string, args: string[]): Promise<{ code: number; out: string }> => {
    const env = { ...process.env, [PRACTICE_DIR_ENV]: join(WORK, "cli") };
    try {
      const { stdout, stderr } = await run(process.execPath, ["--import", "tsx", `scripts/practice/${script}.ts`, ...args], { cwd: ROOT, env });
      return { code: 0, out: stdout + stderr };
    } catch (error) {
      const e = error as { code: number; stdout: string; stderr: string };
      return { code: e.code, out: e.stdout + e.stderr };
    }
  };

  it("没有的课：说清有哪些课，退出码 2", async () => {
    for (const script of ["practice", "check"]) {
      const { code, out } = await cli(script, ["s13"]);
      expect(code).toBe(2);
      expect(out).toContain("没有这一课：s13");
      expect(out).toContain(LESSONS.join(" "));
    }
  });

  it("还没生成的练习文件：告诉学习者先跑哪条命令；生成之后不覆盖，--reset 才覆盖并留一份 .bak", async () => {
    const missing = await cli("check", ["s01"]);
    expect(missing.code).toBe(2);
    expect(missing.out).toContain("还没有练习文件");
    expect(missing.out).toContain("先生成它：npm run practice -- s01");

    const made = await cli("practice", ["s01"]);
    expect(made.code, made.out).toBe(0);
    const file = join(WORK, "cli", "s01_one_turn", "code.ts");
    writeFileSync(file, "// 学习者写的\n");
    const again = await cli("practice", ["s01"]);
    expect(again.code).toBe(1);
    expect(again.out).toContain("不会覆盖你写的东西");
    expect(readFileSync(file, "utf8")).toBe("// 学习者写的\n");
    const reset = await cli("practice", ["s01", "--reset"]);
    expect(reset.code, reset.out).toBe(0);
    expect(reset.out).toContain("--reset：覆盖");
    expect(readFileSync(`${file}.bak`, "utf8")).toBe("// 学习者写的\n");
    expect(readFileSync(file, "utf8")).toBe(makePractice("s01").text);
  });

  it("语法错误：报告指到那一行，后面的检查不跑", async () => {
    const text = makePractice("s04").text.replace("export const DEFAULT_MAX_TURNS = 8;", "export const DEFAULT_MAX_TURNS = ;");
    const outcome = await runChecks("s04", place("syntax", "s04", text));
    expect(status(outcome)).toEqual(["fail", "skip", "skip", "skip", "skip"]);
    const line = text.split("\n").findIndex((l) => l.includes("DEFAULT_MAX_TURNS = ;")) + 1;
    expect(finding(outcome)).toContain(`第 ${line} 行`);
    expect(finding(outcome)).toContain(`${line} | export const DEFAULT_MAX_TURNS = ;`);
  });

  it("API 不一样：点名少了、变了、多了的声明", async () => {
    const text = makePractice("s04")
      .text.replace("export async function runEventedToolLoop(", "export async function runLoop(")
      .replaceAll("runEventedToolLoop(agent", "runLoop(agent")
      .replace("  run(call: ToolCall): string {", "  run(call: ToolCall, strict: boolean): string {");
    const outcome = await runChecks("s04", place("api", "s04", text));
    expect(status(outcome)).toEqual(["pass", "fail", "skip", "skip", "skip"]);
    expect(finding(outcome)).toContain("少了：runEventedToolLoop");
    expect(finding(outcome)).toContain("变了：ToolRegistry#run");
    expect(finding(outcome)).toContain("多了：runLoop");
  });
});
