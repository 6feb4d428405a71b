// 毕业练习在真的 Pi 1.6.0 里（npm run test:graduation，.ci/run 也跑；要起 Node 24 子进程、装 fidelity/ 里的 Pi，不进 npm test）：
//   (a) 每个参考答案都过，两边的每一处不同都有说法（差异表的行或各自的措辞，没有表外的），练习写着用得上的差异表行都用上了；
//   (b) 刚生成的练习文件停在第一处空白上；
//   (c) 每个错误写法（tests/graduation/mistakes.ts）都没过，第一条没过的正是管它的那条要求，说的是对的那件事；
//   (d) README「试一下」贴的就是真跑出来的输出；npm run graduate 本身的退出码和几句话；
//   (e) 参考答案、演示的 rm 和练习文件照 Pi 1.6.0 自己的类型检查通过；对照表和最后那条命令里的命令行选项都在 Pi 的 docs/cli.md 里。
// 每一份报告都是给学习者的：没有维护者的命令、调用栈、颜色。
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../../tooling/course.ts";
import { type GraduationOutcome, runGraduation } from "../../tooling/graduation/check.ts";
import { parseArgs } from "../../tooling/graduation/cli.ts";
import { EXERCISES, type Exercise, solutionPath } from "../../tooling/graduation/exercises.ts";
import { writeExerciseFiles } from "../../tooling/graduation/files.ts";
import { classifyPiSpan, finalCommand, mapRows, tryBlocks } from "../../tooling/graduation/readme.ts";
import { formatGraduation } from "../../tooling/graduation/report.ts";
import { preparePi } from "../../tooling/graduation/setup.ts";
import { type ExerciseFiles, makeStub } from "../../tooling/graduation/stub.ts";
import { MAINTAINER_TEXT } from "../practice/learner-text.ts";
import { MISTAKES, mistakenFiles } from "./mistakes.ts";

const run = promisify(execFile);
const WORK = mkdtempSync(join(tmpdir(), "graduation-proofs-"));
const README = readFileSync(join(ROOT, "graduation", "README.md"), "utf8");
let node = "";

beforeAll(() => {
  const ready = preparePi(() => {});
  if ("problem" in ready) throw new Error(ready.problem);
  node = ready.node;
});
afterAll(() => rmSync(WORK, { recursive: true, force: true }));

/** 把一份练习的文件写到 WORK 下，装进 Pi 检查；报告里的路径写成学习者看到的 practice/graduation/…。 */
async function check(ex: Exercise, files: ExerciseFiles, kind: string): Promise<GraduationOutcome> {
  const target = join(WORK, kind, ex.target);
  writeExerciseFiles(target, files);
  return runGraduation(ex, target, `practice/graduation/${ex.target}`, node);
}

/** 报告的全文；顺手核对它是给学习者的。 */
const report = (outcome: GraduationOutcome, options: { check?: boolean; solution?: boolean } = {}): string => {
  const text = formatGraduation(outcome, options);
  for (const banned of MAINTAINER_TEXT) expect(text, `a learner's report shows ${banned}`).not.toMatch(banned);
  return text;
};
const firstFailure = (outcome: GraduationOutcome) => outcome.requirements.find((r) => r.status === "fail");

describe.concurrent("参考答案", () => {
  for (const ex of EXERCISES) {
    it(`练习 ${ex.n}（${ex.title}）：在 Pi 里过了，两边的每一处不同都有说法，写着的差异表行都用上了`, async () => {
      const outcome = await runGraduation(ex, solutionPath(ex), ex.solution, node);
      const text = report(outcome, { solution: true });
      expect(outcome.ok, text).toBe(true);
      expect(outcome.requirements.map((r) => r.status), text).toEqual(outcome.requirements.map(() => "pass"));
      const all = outcome.differences.flatMap((d) => d.explanations);
      expect(all.filter((e) => e.kind === "unlisted"), text).toEqual([]);
      expect([...new Set(all.flatMap((e) => (e.kind === "row" ? [e.id] : [])))].sort(), "rows the exercise lists but never uses").toEqual([...ex.rows].sort());
    });
  }
});

describe.concurrent("刚生成的练习文件", () => {
  const expected: Record<number, { name: string; says: RegExp }> = {
    1: { name: "Pi 装得上你的扩展", says: /还空着：TODO 毕业 1：写出 fencedRead/ },
    2: { name: "Pi 装得上你的扩展", says: /还空着：TODO 毕业 2：写出 permissionGate/ },
    3: { name: "项目被信任时：包里的 AGENTS.md 进了系统提示", says: /一类资源都没列/ },
  };
  for (const ex of EXERCISES) {
    it(`练习 ${ex.n}（${ex.title}）：没过，停在第一处空白上`, async () => {
      const outcome = await check(ex, makeStub(ex).files, "stub");
      const text = report(outcome);
      expect(outcome.ok, text).toBe(false);
      expect(firstFailure(outcome)?.name, text).toBe(expected[ex.n]?.name);
      expect(firstFailure(outcome)?.lines.join("\n"), text).toMatch(expected[ex.n]?.says ?? /./);
    });
  }
});

describe.concurrent("错误写法", () => {
  for (const m of MISTAKES) {
    it(`练习 ${m.exercise}：${m.mistake}——没过，拦下它的是「${m.fails}」`, async () => {
      const { ex, files } = mistakenFiles(m);
      const outcome = await check(ex, files, `mistake-${MISTAKES.indexOf(m)}`);
      const text = report(outcome);
      expect(outcome.ok, text).toBe(false);
      expect(firstFailure(outcome)?.name, text).toBe(m.fails);
      expect(firstFailure(outcome)?.lines.join("\n"), text).toMatch(m.caught);
    });
  }
});

describe("README 和命令行", () => {
  it("「试一下」贴的就是真跑出来的输出", async () => {
    const blocks = tryBlocks(README);
    expect(blocks.length).toBeGreaterThan(0);
    for (const block of blocks) {
      const args = parseArgs(block.command.replace(/^npm run graduate -- /, "").split(/\s+/));
      if (typeof args === "string") throw new Error(`${block.command}: ${args}`);
      const outcome = args.solution ? await runGraduation(args.ex, solutionPath(args.ex), args.ex.solution, node) : await check(args.ex, makeStub(args.ex).files, "readme");
      expect(report(outcome, { check: args.check, solution: args.solution }), block.command).toBe(block.output);
    }
  });

  it("npm run graduate：没有练习文件就写一份；没过退出码 1、过了 0、参数不对 2；提示的第 4 级是答案", async () => {
    const env = { ...process.env, LEARN_PI_PRACTICE_DIR: join(WORK, "cli") };
    const graduate = (...args: string[]) =>
      run(process.execPath, ["--import", "tsx", join(ROOT, "scripts", "graduate.ts"), ...args], { cwd: ROOT, env }).then(
        (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
        (e: { code?: number; stdout?: string; stderr?: string }) => ({ code: e.code ?? -1, stdout: e.stdout ?? "", stderr: e.stderr ?? "" }),
      );
    const created = await graduate("2");
    expect(created).toMatchObject({ code: 0, stdout: expect.stringContaining("写好了") });
    const first = await graduate("2", "--check");
    expect(first.code, first.stdout + first.stderr).toBe(1);
    expect(first.stdout).toContain("还空着：TODO 毕业 2：写出 permissionGate");
    expect(await graduate("2", "--solution", "--check")).toMatchObject({ code: 0, stdout: expect.stringContaining("参考答案过了") });
    expect(await graduate("9")).toMatchObject({ code: 2, stderr: expect.stringContaining("没有这个练习：9") });
    const answer = await graduate("2", "--hint", "4");
    expect(answer).toMatchObject({ code: 0, stdout: expect.stringContaining('pi.on("tool_call", (event) => decide(event));') });
  });
});

describe("照 Pi 1.6.0 自己的类型和文档核对", () => {
  it("参考答案、演示的 rm、每个练习文件都过得了类型检查（Pi 和 TypeBox 的类型来自 fidelity/node_modules）", () => {
    const config = ts.getParsedCommandLineOfConfigFile(join(ROOT, "graduation", "tsconfig.json"), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
    if (config === undefined) throw new Error("graduation/tsconfig.json does not parse");
    const stubs = EXERCISES.flatMap((ex) => {
      const dir = join(ROOT, "graduation", ".stubs", ex.target);
      writeExerciseFiles(dir, makeStub(ex).files);
      return Object.keys(makeStub(ex).files).filter((f) => f === "" || f.endsWith(".ts")).map((f) => (f === "" ? dir : join(dir, f)));
    });
    try {
      const program = ts.createProgram([...config.fileNames, ...stubs], config.options);
      const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => `${d.file?.fileName ?? ""}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`);
      expect(diagnostics).toEqual([]);
      expect(config.fileNames.length).toBeGreaterThanOrEqual(4);
    } finally {
      rmSync(join(ROOT, "graduation", ".stubs"), { recursive: true, force: true });
    }
  });

  it("对照表和最后那条命令里的每个命令行选项，都在 Pi 1.6.0 的 docs/cli.md 里", () => {
    const cli = readFileSync(join(ROOT, "fidelity", "node_modules", "@earendil-works", "pi-coding-agent", "docs", "cli.md"), "utf8");
    const fromMap = mapRows(README).flatMap((r) => r.pi.map(classifyPiSpan)).flatMap((s) => (s.kind === "cli" ? s.flags : []));
    const fromCommand = (finalCommand(README) ?? "").split(/\s+/).filter((w) => /^-{1,2}[a-z]/.test(w));
    const flags = [...new Set([...fromMap, ...fromCommand, "-l"])];
    expect(flags).toEqual(expect.arrayContaining(["-p", "--mode", "-e", "-a", "-na", "--tools"]));
    for (const flag of flags) expect(cli, flag).toContain(`\`${flag}\``);
  });
});

// 证明用的临时目录在系统的临时目录下；类型检查时写的练习文件放在 graduation/.stubs（好让 tsconfig 的路径照样生效），查完就删
mkdirSync(WORK, { recursive: true });
