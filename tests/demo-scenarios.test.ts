// 演示场景对得上真的 main()：tooling/scenarios/data.ts 里每课的 sNN-demo* 场景是照着 main() 手抄成数据的，
// 黄金轨迹和网页回放都从它来。这里拿真的演示当子进程跑出的 stdout（tsx sNN_x/code.ts，每次测试运行每课只跑一次，见 tests/support/global-setup.ts），
// 再把场景跑出的轨迹拿来对：
//   ① 轨迹的 Output 行（core 经 Output / mode 写出的每一行）按顺序出现在演示的 stdout 里——stdout 还夹着 main() 自己
//      打的旁白，所以查的是「按顺序的子序列」；同一次 Output 写出的多行在 stdout 里必须挨着；
//   ② stdout 里每一行看上去是 core 输出的（见 looksLikeCore），都得由轨迹的某一行认领——场景少跑一轮就在这里失败；
//   ③ 场景里的命令（steps 里的 `/名字 → 结果`）同样按顺序出现，stdout 里的 `/名字 → …` 行也都得有着落。
// 最后用改坏的场景（在内存里删掉一轮、改一句话）证明检查会失败，而且说得清哪里不对。
import { beforeAll, describe, expect, it } from "vitest";
import { LESSONS } from "../tooling/course.ts";
import { has } from "../tooling/features.ts";
import { importLesson } from "../tooling/lesson.ts";
import { demoScenarios } from "../tooling/scenarios/data.ts";
import { runScenario } from "../tooling/scenarios/run.ts";
import type { Scenario, Trace } from "../tooling/scenarios/shape.ts";
import { demoStdout } from "./support/demo-runs.ts";

// ── 跑真的演示 ───────────────────────────────────────────
// 每课的演示在测试开始前已经跑过一遍（tests/support/global-setup.ts），这里直接拿它的 stdout。

async function demoTraces(lesson: string, scenarios = demoScenarios(lesson)): Promise<DemoTrace[]> {
  const mod = await importLesson(lesson);
  const traces: DemoTrace[] = [];
  for (const scenario of scenarios) traces.push({ id: scenario.id, trace: await runScenario(lesson, mod, scenario) });
  return traces;
}

// ── 检查器 ───────────────────────────────────────────────
type DemoTrace = { id: string; trace: Trace };

/**
 * stdout 里哪些行「看上去是 core 写的」。没有运行模式的课，core 输出有固定的开头（助手消息、工具调用、工具结果）；
 * 有了运行模式，输出经 PrintMode / JsonMode 写出，没有开头可认，就反过来：除了 main() 自己的旁白，都算 core 输出。
 * main() 加了新的旁白行，就在 MAIN_NARRATION 里补上它的样子。
 */
const CORE_PREFIX = /^(assistant: | {2}→ | {2}← )/;
const MAIN_NARRATION: Record<string, RegExp> = {
  s10: /^— (PrintMode|JsonMode)｜user: /,
  s11: /^(— (untrusted|trusted)：系统提示共 \d+ 行$|user: )/,
  s12: /^(装.+?：|工具：|user: |（moveTo |— 会话树$| {2,}e\d+ |\/\S+ → )/,
};
const COMMAND_LINE = /^\/\S+ → /;

function looksLikeCore(lesson: string, line: string): boolean {
  if (!has(lesson, "modes")) return CORE_PREFIX.test(line);
  const narration = MAIN_NARRATION[lesson];
  if (narration === undefined) throw new Error(`${lesson}: no MAIN_NARRATION pattern in tests/demo-scenarios.test.ts; add what main() prints by itself`);
  return !narration.test(line);
}

const show = (line: string): string => JSON.stringify(line);

/** 对一课：这些演示场景的轨迹（按 SCENARIOS 里的顺序）和真的演示 stdout 对得上吗？返回问题，空数组 = 对得上。 */
function checkDemo(lesson: string, stdout: string, traces: DemoTrace[]): string[] {
  const out = stdout.split("\n");
  if (out.at(-1) === "") out.pop();
  const run = `npm run ${lesson}`;
  const ids = traces.map((t) => t.id).join(" + ");
  const accounted = new Set<number>();

  // ① Output 行：按顺序的子序列；一次 Output 写出的多行必须挨着。
  let at = 0;
  for (const { id, trace } of traces) {
    for (const [i, written] of trace.output.entries()) {
      const pieces = written.split("\n");
      const found = out.indexOf(pieces[0], at);
      const where = at === 0 ? "" : ` after stdout line ${at} ${show(out[at - 1])}`;
      if (found === -1) {
        return [`${id}: Output line ${i + 1} ${show(pieces[0])} does not appear in ${run}'s stdout${where}; tooling/scenarios/data.ts no longer does what main() does`];
      }
      for (const [k, piece] of pieces.entries()) {
        if (out[found + k] !== piece) {
          return [`${id}: Output line ${i + 1} continues with ${show(piece)}, but ${run}'s stdout line ${found + k + 1} is ${show(out[found + k] ?? "(end)")}`];
        }
        accounted.add(found + k);
      }
      at = found + pieces.length;
    }
  }

  // ③ 命令：场景里跑过的 `/名字 → 结果` 按顺序出现。
  let cmdAt = 0;
  for (const { id, trace } of traces) {
    for (const step of trace.steps.filter((s) => COMMAND_LINE.test(s))) {
      const found = out.indexOf(step, cmdAt);
      if (found === -1) return [`${id}: command step ${show(step)} does not appear in ${run}'s stdout (in order); tooling/scenarios/data.ts no longer does what main() does`];
      accounted.add(found);
      cmdAt = found + 1;
    }
  }

  // ② 看上去是 core 输出（或命令结果）的行，都要有着落。
  const problems: string[] = [];
  for (const [k, line] of out.entries()) {
    if (accounted.has(k)) continue;
    if (COMMAND_LINE.test(line)) problems.push(`${run} stdout line ${k + 1} ${show(line)} runs a command, but no step of ${ids} does; main() does something tooling/scenarios/data.ts leaves out`);
    else if (looksLikeCore(lesson, line)) problems.push(`${run} stdout line ${k + 1} ${show(line)} looks like core output, but no Output line of ${ids} accounts for it; main() does something tooling/scenarios/data.ts leaves out (a turn dropped?)`);
  }
  return problems;
}

// ── 每一课 ───────────────────────────────────────────────
describe("演示场景（tooling/scenarios/data.ts 的 sNN-demo*）对得上真的 main()", () => {
  // 所有课的演示一起开跑；每条测试只等自己那一课。
  beforeAll(async () => {
    await Promise.all(LESSONS.map((l) => demoStdout(l)));
  });

  for (const lesson of LESSONS) {
    const ids = demoScenarios(lesson).map((s) => s.id);
    it(`${lesson}：${ids.join(" + ") || "(no demo scenario)"} 的 Output 行按顺序出现在 npm run ${lesson} 的 stdout 里，像 core 输出的行都有着落`, async () => {
      expect(ids.length, `${lesson} has no demo scenario in tooling/scenarios/data.ts`).toBeGreaterThan(0);
      const problems = checkDemo(lesson, await demoStdout(lesson), await demoTraces(lesson));
      expect(problems, problems.join("\n")).toEqual([]);
    });
  }
});

// ── 检查会失败 ───────────────────────────────────────────
/** 把某个演示场景改坏（深拷贝，不碰 SCENARIOS），和真的演示 stdout 对一次。 */
async function checkMutated(lesson: string, id: string, mutate: (s: Scenario) => void): Promise<string[]> {
  const scenarios = demoScenarios(lesson).map((s) => {
    if (s.id !== id) return s;
    const copy = structuredClone(s);
    mutate(copy);
    return copy;
  });
  return checkDemo(lesson, await demoStdout(lesson), await demoTraces(lesson, scenarios));
}

describe("检查器会失败：场景和 main() 不一致时说清哪一行", () => {
  it("s01-demo 少了最后一轮：剩下的 Output 行仍是子序列，但 provider 出错那一行没有着落", async () => {
    const problems = await checkMutated("s01", "s01-demo", (s) => void s.steps.pop());
    expect(problems).toEqual([
      'npm run s01 stdout line 6 "assistant: error: provider unavailable (503)" looks like core output, but no Output line of s01-demo accounts for it; main() does something tooling/scenarios/data.ts leaves out (a turn dropped?)',
    ]);
  });

  it("s04-demo 少了中间一轮（grep）：那一轮的助手消息、调用、结果都点名", async () => {
    const problems = await checkMutated("s04", "s04-demo", (s) => void s.steps.splice(1, 1));
    const dropped = ['assistant: 我用 grep 搜一下。', '  → grep({"pattern":"FILE"})', '  ← "error: unknown tool \\"grep\\""', 'assistant: 工具报错了（error: unknown tool "grep"），这一步我没法做。'];
    expect(problems).toEqual(
      dropped.map(
        (line, i) =>
          `npm run s04 stdout line ${13 + i} ${JSON.stringify(line)} looks like core output, but no Output line of s04-demo accounts for it; main() does something tooling/scenarios/data.ts leaves out (a turn dropped?)`,
      ),
    );
  });

  it("s11 的两个场景之一少了一轮：PrintMode 没有开头可认，照样抓得到", async () => {
    const problems = await checkMutated("s11", "s11-demo-trusted", (s) => void s.steps.pop());
    expect(problems.join("\n")).toMatch(/^npm run s11 stdout line \d+ "有一步没做成.*" looks like core output, but no Output line of s11-demo-untrusted \+ s11-demo-trusted accounts for it/m);
  });

  it("s01-demo 问的话和 main() 不同：Output 行在 stdout 里找不到", async () => {
    const problems = await checkMutated("s01", "s01-demo", (s) => {
      s.steps[0] = { turn: "早上好" };
    });
    expect(problems).toEqual([
      `s01-demo: Output line 1 "assistant: 收到第 1 个问题：「早上好」。" does not appear in npm run s01's stdout; tooling/scenarios/data.ts no longer does what main() does`,
    ]);
  });

  it("s09-demo 少跑一个命令：stdout 里那行 /stats 没有着落", async () => {
    const problems = await checkMutated("s09", "s09-demo", (s) => {
      s.steps = s.steps.filter((st) => !("command" in st && st.command === "stats"));
    });
    expect(problems).toEqual([
      'npm run s09 stdout line 7 "/stats → 已完成 1 轮，存下 3 条消息" runs a command, but no step of s09-demo does; main() does something tooling/scenarios/data.ts leaves out',
    ]);
  });

  it("纯函数：多行的 Output 必须挨着；顺序颠倒也算错", () => {
    const trace = (output: string[]): DemoTrace[] => [{ id: "x-demo", trace: { steps: [], messages: [], requests: [], output } }];
    expect(checkDemo("s03", "user: q\nassistant: a\nerror: b\n", trace(["assistant: a\nerror: b"]))).toEqual([]);
    expect(checkDemo("s03", "assistant: a\n（旁白）\nerror: b\n", trace(["assistant: a\nerror: b"]))).toEqual([
      `x-demo: Output line 1 continues with "error: b", but npm run s03's stdout line 2 is "（旁白）"`,
    ]);
    expect(checkDemo("s01", "assistant: 1\nassistant: 2\n", trace(["assistant: 2", "assistant: 1"]))).toEqual([
      `x-demo: Output line 2 "assistant: 1" does not appear in npm run s01's stdout after stdout line 2 "assistant: 2"; tooling/scenarios/data.ts no longer does what main() does`,
    ]);
  });
});
