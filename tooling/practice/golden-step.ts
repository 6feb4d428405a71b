// check 的帮手：黄金轨迹没对上时，在子进程里把那个场景在学习者的文件上再跑一遍（tooling/scenarios/run.ts 的 runScenario，
// 和 tests/golden.test.ts 同一套），把黄金轨迹和实际轨迹以 JSON 交回 check，由它找出第一处不同、说成人话。
// 用法（check 自己调）：LEARN_PI_LESSON_FILE=s04=<文件> tsx scripts/practice/golden-step.ts s04 s04-max-turns
import { existsSync } from "node:fs";
import { importLesson } from "../lesson.ts";
import { SCENARIOS } from "../scenarios/data.ts";
import { goldenPath, readGolden } from "../scenarios/golden.ts";
import { runScenario } from "../scenarios/run.ts";
import { projectTrace } from "../scenarios/shape.ts";

const [lesson, scenarioId] = process.argv.slice(2);
const scenario = SCENARIOS.find((s) => s.id === scenarioId);
if (lesson === undefined || scenario === undefined || !existsSync(goldenPath(scenario.id))) {
  console.error(`usage: golden-step.ts <lesson> <scenario>; unknown scenario ${scenarioId}`);
  process.exit(2);
}
const golden = readGolden(scenario.id);
const full = await runScenario(lesson, await importLesson(lesson), scenario);
const actual = lesson === scenario.since ? full : projectTrace(full, scenario.since);
process.stdout.write(JSON.stringify({ about: scenario.about, since: scenario.since, golden, actual }));
