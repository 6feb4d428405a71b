// 黄金轨迹（R8.3 行为累积）：每个场景（tooling/scenarios/data.ts）在引入它的那一课跑出的轨迹存在 tests/golden/<id>.json
// （npm run gen:golden 重写）。引入它的那一课必须逐字复现；之后的每一课也必须复现——只有 tooling/scenarios/differences.ts
// 里列出、并且核对得上的差异除外。
import { readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { LESSONS, lessonNumber } from "../tooling/course.ts";
import { importLesson } from "../tooling/lesson.ts";
import { SCENARIOS } from "../tooling/scenarios/data.ts";
import { DIFFERENCES, differenceApplies } from "../tooling/scenarios/differences.ts";
import { GOLDEN_DIR, readGolden } from "../tooling/scenarios/golden.ts";
import { runScenario } from "../tooling/scenarios/run.ts";
import { type Trace, projectTrace, scenarioNeeds } from "../tooling/scenarios/shape.ts";

const used = new Map<string, number>(DIFFERENCES.map((d) => [d.id, 0]));

describe("场景数据", () => {
  it("id 不重复；since 不早于场景用到的零件；每课都有自己的演示场景", () => {
    expect(new Set(SCENARIOS.map((s) => s.id)).size).toBe(SCENARIOS.length);
    for (const s of SCENARIOS) expect(lessonNumber(scenarioNeeds(s)), `${s.id} uses parts from ${scenarioNeeds(s)}`).toBeLessThanOrEqual(lessonNumber(s.since));
    for (const lesson of LESSONS) expect(SCENARIOS.some((s) => s.since === lesson && s.id.startsWith(`${lesson}-demo`)), `${lesson} demo scenario`).toBe(true);
  });

  it("每个场景都有黄金文件，没有多余的黄金文件", () => {
    const files = readdirSync(GOLDEN_DIR).filter((f) => f.endsWith(".json")).sort();
    expect(files).toEqual(SCENARIOS.map((s) => `${s.id}.json`).sort());
  });

  it("差异表引用的场景都存在", () => {
    const ids = new Set(SCENARIOS.map((s) => s.id));
    for (const d of DIFFERENCES) if (Array.isArray(d.scenarios)) for (const id of d.scenarios) expect(ids.has(id), `${d.id} → ${id}`).toBe(true);
  });
});

for (const scenario of SCENARIOS) {
  describe(scenario.id, () => {
    for (const lesson of LESSONS.filter((l) => lessonNumber(l) >= lessonNumber(scenario.since))) {
      it(`${lesson} 复现 ${scenario.since} 的黄金轨迹`, async () => {
        const golden = readGolden(scenario.id);
        const full = await runScenario(lesson, await importLesson(lesson), scenario);
        if (lesson === scenario.since) {
          expect(full, "trace differs from tests/golden; if the change is intended, run npm run gen:golden and review the diff").toEqual(golden);
          return;
        }
        const actual = projectTrace(full, scenario.since);
        const fields = [...new Set([...Object.keys(golden), ...Object.keys(actual)])] as (keyof Trace)[];
        for (const field of fields) {
          if (JSON.stringify(actual[field]) === JSON.stringify(golden[field])) continue;
          const listed = DIFFERENCES.filter((d) => d.fields.includes(field) && differenceApplies(d, scenario, lesson));
          const verdicts = listed.map((d) => ({ d, problem: d.check(field, golden, actual, full) }));
          const explained = verdicts.find((v) => v.problem === undefined);
          if (explained !== undefined) {
            used.set(explained.d.id, (used.get(explained.d.id) ?? 0) + 1);
            continue;
          }
          const why =
            listed.length === 0
              ? `${lesson} differs from ${scenario.since}'s golden trace in "${field}", and tooling/scenarios/differences.ts lists no difference for it`
              : `${lesson} differs in "${field}"; listed difference(s) do not explain it: ${verdicts.map((v) => `${v.d.id}: ${v.problem}`).join("; ")}`;
          expect(actual[field], why).toEqual(golden[field]);
        }
      });
    }
  });
}

describe("差异表", () => {
  it("每条差异都真的用上了（没有过时的条目）", () => {
    const stale = [...used].filter(([, n]) => n === 0).map(([id]) => id);
    expect(stale, "stale entries in tooling/scenarios/differences.ts").toEqual([]);
  });
});
