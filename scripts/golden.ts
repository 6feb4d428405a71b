// npm run golden：每个场景在引入它的那一课上跑一遍，把轨迹写成 tests/golden/<场景>.json。
// 黄金文件进版本库，评审时每一处变化都看得见；tests/golden.test.ts 拿它和每一课现跑的轨迹比。
// 不在 tests/scenarios.ts 里的旧黄金文件会被删掉。
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { SCENARIOS } from "../tests/scenarios.ts";
import { ROOT, importLesson } from "../tests/support/lessons.ts";
import { GOLDEN_DIR, goldenPath, runScenario, scenarioNeeds } from "../tests/support/trace.ts";

mkdirSync(GOLDEN_DIR, { recursive: true });
let changed = 0;
for (const scenario of SCENARIOS) {
  if (scenarioNeeds(scenario) > scenario.since) throw new Error(`${scenario.id}: since ${scenario.since}, but it uses parts from ${scenarioNeeds(scenario)}`);
  const trace = await runScenario(scenario.since, await importLesson(scenario.since), scenario);
  const file = goldenPath(scenario.id);
  const text = `${JSON.stringify(trace, null, 2)}\n`;
  let old: string | undefined;
  try {
    old = readFileSync(file, "utf8");
  } catch {
    old = undefined;
  }
  if (old !== text) {
    writeFileSync(file, text);
    changed++;
    console.log(`${old === undefined ? "new" : "changed"}: ${file.slice(ROOT.length + 1)}`);
  }
}
const known = new Set(SCENARIOS.map((s) => `${s.id}.json`));
for (const name of readdirSync(GOLDEN_DIR)) {
  if (name.endsWith(".json") && !known.has(name)) {
    rmSync(join(GOLDEN_DIR, name));
    changed++;
    console.log(`removed: tests/golden/${name}`);
  }
}
console.log(`${SCENARIOS.length} scenarios, ${changed} golden file(s) written or removed`);
