// 黄金轨迹没对上时，check 要说出第一处不同在哪一步：在子进程里把那个场景在学习者的文件上再跑一遍（tooling/scenarios/run.ts 的 runScenario，
// 和 tests/golden.test.ts 同一套），把黄金轨迹和实际轨迹以 JSON 交回来，由 explain.ts 的 traceLines 找出第一处不同、说成人话。
// 在子进程里跑，是因为学习者的代码可能卡死（tooling/practice/child-process.ts 到点整组杀掉），也不把课的模块导进 check 自己的进程。
// 这个文件既是 check 调的那个函数（goldenStep），也是子进程跑的脚本：
//   LEARN_PI_LESSON_FILE=s04=<文件> tsx tooling/practice/golden-step.ts s04 s04-max-turns
import { relative, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { ROOT } from "../course.ts";
import { LESSON_FILE_ENV } from "../lesson.ts";
import type { Trace } from "../scenarios/shape.ts";
import { runLearnerCode } from "./child-process.ts";

export type GoldenStep = { about: string; golden: Trace; actual: Trace };

const SELF = relative(ROOT, fileURLToPath(import.meta.url));

/** 在学习者的文件 file 上重跑场景 scenario，拿到场景说明、黄金轨迹和实际轨迹；跑不出来（出错、超时）就是 undefined。 */
export async function goldenStep(id: string, file: string, scenario: string, timeoutMs: number): Promise<GoldenStep | undefined> {
  const env = { [LESSON_FILE_ENV]: `${id}=${resolve(file)}` };
  const { stdout, failure } = await runLearnerCode(SELF, [id, scenario], timeoutMs, env);
  if (failure !== undefined) return undefined;
  try {
    return JSON.parse(stdout) as GoldenStep;
  } catch {
    return undefined;
  }
}

/** 子进程这一侧：跑场景，把轨迹写到 stdout。场景的模块在这里才导入，check 的进程用不着它们。 */
async function main([lesson, scenarioId]: string[]): Promise<void> {
  const { existsSync } = await import("node:fs");
  const { importLesson } = await import("../lesson.ts");
  const { SCENARIOS } = await import("../scenarios/data.ts");
  const { goldenPath, readGolden } = await import("../scenarios/golden.ts");
  const { runScenario } = await import("../scenarios/run.ts");
  const { projectTrace } = await import("../scenarios/shape.ts");
  const scenario = SCENARIOS.find((s) => s.id === scenarioId);
  if (lesson === undefined || scenario === undefined || !existsSync(goldenPath(scenario.id))) {
    console.error(`usage: golden-step.ts <lesson> <scenario>; unknown scenario ${scenarioId}`);
    process.exit(2);
  }
  const golden = readGolden(scenario.id);
  const full = await runScenario(lesson, await importLesson(lesson), scenario);
  const actual = lesson === scenario.since ? full : projectTrace(full, scenario.since);
  process.stdout.write(JSON.stringify({ about: scenario.about, since: scenario.since, golden, actual }));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) await main(process.argv.slice(2));
