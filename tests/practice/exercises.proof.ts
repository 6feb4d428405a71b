// 每个练习、每个阶段都在检查东西（npm run test:practice，.ci/run 也跑；太慢，不进 npm test）。对每一课证明：
//   (a) 生成的练习文件通过类型检查，API 和这一课一样；check 停在第 1 阶段，拦在一处空白上；README「自己写一遍」贴的正是这时的输出
//   (b) 每处空白一个看着像对的错误写法（mistakes/，按课分两个文件）：前面的阶段写对了、这一处写错了、后面的还空着，
//       check 说学习者在这一处所在的阶段（不是更后面），前面的阶段都过了，拦它的正是管这个机制的测试，「再读」指着这一处的 README 小节
//   (c) check --solution（这一课自己的 code.ts）每项全过，这一课的每个测试在 tooling/practice/stage-tests.json 里都归了阶段
// 每一份报告都是给学习者的：没有维护者的命令、测试框架的名字、调用栈、颜色。
// 再加命令行的坏输入：没有的课、还没生成的练习文件、语法错误、API 不一样。卡死由 s04 第 3 阶段的错误写法证明。
import { execFile } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { type Outcome, runChecks } from "../../tooling/practice/run-checks.ts";
import { PRACTICE_DIR_ENV, practiceFile } from "../../tooling/practice/lesson-arg.ts";
import { PRACTICE_MISTAKES, mistakenPractice } from "./mistakes/patch.ts";
import { checkPracticeSection } from "../../tooling/practice/readme.ts";
import { firstFailurePart, formatReport } from "../../tooling/practice/check-report.ts";
import { makePractice } from "../../tooling/practice/stub.ts";
import { LESSONS, ROOT, lessonDir } from "../../tooling/course.ts";
import { inStageOrder, stageOfStub, stagesOf } from "../../tooling/practice/stage-lookup.ts";
import { MAINTAINER_TEXT } from "./learner-text.ts";
import { HANG_GUARD_MS } from "../../tooling/hang-guard.ts";

const run = promisify(execFile);
/**
 * 证明里的 check 不让机器快慢改结论：有测试在跑时也按防卡死的上限等（学习者的 npm run check 是 10 秒没有进展就算卡住，
 * run-checks.ts）。只有故意卡死的那个错误写法（hangs）照学习者的 10 秒：它永远跑不完，等多久结论都一样。
 */
const PATIENT = { stuckMs: HANG_GUARD_MS };
/** 证明用的文件放在 .tmp/ 下（不进版本库），不碰学习者自己的 practice/。 */
const WORK = join(ROOT, ".tmp", "practice-proofs");
afterAll(() => rmSync(WORK, { recursive: true, force: true }));

const place = (kind: string, id: string, text: string): string => {
  const file = join(WORK, kind, lessonDir(id), "code.ts");
  mkdirSync(join(file, ".."), { recursive: true });
  writeFileSync(file, text);
  return file;
};

/** 报告的正文，文件路径换成学习者会看到的 practice/<课>/code.ts；顺手核对它是给学习者的。 */
const report = (outcome: Outcome, solution = false): string => {
  const text = formatReport({ ...outcome, file: solution ? outcome.file : practiceFile(outcome.id) }, solution);
  for (const banned of MAINTAINER_TEXT) expect(text, `a learner's report shows ${banned}`).not.toMatch(banned);
  return text;
};
const status = (outcome: Outcome): string[] => outcome.checks.map((c) => c.status);
const finding = (outcome: Outcome): string => [outcome.first?.title ?? "", ...(outcome.first?.lines ?? [])].join("\n");
const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

describe.concurrent("每一课的练习", () => {
  for (const id of LESSONS) {
    const stages = stagesOf(id);
    it(`${id}：(a) 练习文件过得了类型检查和 API，check 停在第 1 阶段的空白上，README 贴的是真输出`, async () => {
      const practice = makePractice(id);
      expect(practice.stubs.length, "a practice file with nothing to write").toBeGreaterThan(0);
      const outcome = await runChecks(id, place("practice", id, practice.text), PATIENT);
      const text = report(outcome);
      expect(status(outcome).slice(0, 3), text).toEqual(["pass", "pass", "fail"]);
      expect(outcome.stage?.current, text).toBe(1);
      expect(finding(outcome), "the first failure is a stub this lesson left").toMatch(new RegExp(`还空着：.*（${id} 的 TODO）`));
      const readme = readFileSync(join(ROOT, lessonDir(id), "README.md"), "utf8");
      expect(checkPracticeSection(id, readme, practice.stubs, stages, firstFailurePart(text))).toEqual([]);
    });

    it(`${id}：(c) check --solution 每项全过，每个测试都归了阶段`, async () => {
      const outcome = await runChecks(id, join(ROOT, lessonDir(id), "code.ts"), PATIENT);
      const text = report(outcome, true);
      expect(status(outcome), text).toEqual(status(outcome).map(() => "pass"));
      expect(status(outcome)).toHaveLength(stages.length + 3);
      expect(outcome.ok).toBe(true);
      expect(outcome.unmapped, "tests no stage owns yet: run npm run gen:stages and commit tooling/practice/stage-tests.json").toEqual([]);
    });

    // 每一处空白（同名的几段算一处）至少一个错误写法：拦在它自己的阶段，「再读」指着它的小节
    const stubs = [...new Map(makePractice(id, { verify: false }).stubs.map((s) => [s.name, s])).values()];
    for (const stub of inStageOrder(id, stubs)) {
      const k = stageOfStub(id, stub.name)?.number ?? 0;
      const stage = stages[k - 1];
      const mistakes = PRACTICE_MISTAKES.filter((m) => m.lesson === id && m.stub === stub.name);
      if (mistakes.length === 0) {
        it(`${id}：(b) 第 ${k} 阶段（${stage?.title}）的 ${stub.name}：缺一个错误写法`, () => {
          throw new Error(`tests/practice/mistakes/ has no mistake for ${id} ${stub.name}`);
        });
      }
      for (const [n, mistake] of mistakes.entries()) {
        it(`${id}：(b) 第 ${k} 阶段（${stage?.title}）的 ${stub.name}：${mistake.mistake}，check 停在这一阶段，再读它的小节`, async () => {
          const outcome = await runChecks(id, place(`mistake-${stub.name.replace(/\W+/g, "_")}-${n}`, id, mistakenPractice(mistake)), mistake.hangs ? {} : PATIENT);
          const text = report(outcome);
          expect(outcome.ok, text).toBe(false);
          expect(status(outcome).slice(0, 2), "a mistake must type-check and keep the API, or it proves nothing about the mechanism").toEqual(["pass", "pass"]);
          expect(outcome.stage?.current, `${stub.name} is a stage ${k} stub: a mistake in it must stop check at stage ${k}, not later\n${text}`).toBe(k);
          // 前面的阶段都过了；卡住时检查是被杀掉的，前面阶段排在卡住的测试后面的那些还没跑到，记成「检查停了」，但绝不是没过
          const hung = outcome.first?.title.startsWith("卡住了") === true;
          expect(status(outcome).slice(2, 2 + k), text).toEqual([...status(outcome).slice(2, 1 + k).map((s) => (hung && s === "skip" ? "skip" : "pass")), "fail"]);
          expect(text).toContain(`你在第 ${k} 阶段（共 ${stages.length} 个）：${stage?.title}`);
          expect(finding(outcome), text).toMatch(mistake.caught);
          expect(finding(outcome), "a written stage must not stop at its own or an earlier stub").not.toMatch(/跑到了还空着的地方|^还空着：/m);
          expect(text, `the report must send the learner to ${stub.name}'s section`).toMatch(new RegExp(`^  再读：${lessonDir(id)}/README\\.md:\\d+「${escape(stub.section)}」$`, "m"));
        });
      }
    }
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

  it("check 的命令行输出到管道里时没有颜色", async () => {
    const { out } = await cli("check", ["s01"]);
    expect(out).toContain("你在第 1 阶段");
    expect(out).not.toContain("\x1b[");
  });

  it("语法错误：报告指到那一行，后面的检查不跑", async () => {
    const text = makePractice("s04").text.replace("export const DEFAULT_MAX_TURNS = 8;", "export const DEFAULT_MAX_TURNS = ;");
    const outcome = await runChecks("s04", place("syntax", "s04", text));
    expect(status(outcome)).toEqual(["fail", "skip", "skip", "skip", "skip", "skip"]);
    const line = text.split("\n").findIndex((l) => l.includes("DEFAULT_MAX_TURNS = ;")) + 1;
    expect(finding(outcome)).toContain(`第 ${line} 行`);
    expect(finding(outcome)).toContain(`${line} | export const DEFAULT_MAX_TURNS = ;`);
    report(outcome);
  });

  it("API 不一样：点名少了、变了、多了的声明", async () => {
    const text = makePractice("s04")
      .text.replace("export async function runEventedToolLoop(", "export async function runLoop(")
      .replaceAll("runEventedToolLoop(agent", "runLoop(agent")
      .replace("  run(call: ToolCall): string {", "  run(call: ToolCall, strict: boolean): string {");
    const outcome = await runChecks("s04", place("api", "s04", text));
    expect(status(outcome)).toEqual(["pass", "fail", "skip", "skip", "skip", "skip"]);
    expect(finding(outcome)).toContain("少了：runEventedToolLoop");
    expect(finding(outcome)).toContain("变了：ToolRegistry#run");
    expect(finding(outcome)).toContain("多了：runLoop");
    report(outcome);
  });
});
