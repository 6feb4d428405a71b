// npm run gen:golden：每个场景在引入它的那一课上跑一遍，把轨迹写成 tests/golden/<场景>.json。
// 黄金文件进版本库，评审时每一处变化都看得见；tests/golden.test.ts 拿它和每一课现跑的轨迹比。
// 不在 tooling/scenarios/data.ts 里的旧黄金文件会被删掉。
import { lessonNumber } from "../tooling/course.ts";
import { writeGeneratedJson } from "../tooling/generated-json.ts";
import { importLesson } from "../tooling/lesson.ts";
import { SCENARIOS } from "../tooling/scenarios/data.ts";
import { GOLDEN_DIR } from "../tooling/scenarios/golden.ts";
import { runScenario } from "../tooling/scenarios/run.ts";
import { scenarioNeeds } from "../tooling/scenarios/shape.ts";

const files = new Map<string, unknown>();
for (const scenario of SCENARIOS) {
  const needs = scenarioNeeds(scenario);
  if (lessonNumber(needs) > lessonNumber(scenario.since)) throw new Error(`${scenario.id}: since ${scenario.since}, but it uses parts from ${needs}`);
  files.set(`${scenario.id}.json`, await runScenario(scenario.since, await importLesson(scenario.since), scenario));
}
const changed = writeGeneratedJson(GOLDEN_DIR, files);
console.log(`${SCENARIOS.length} scenarios, ${changed} golden file(s) written or removed`);
