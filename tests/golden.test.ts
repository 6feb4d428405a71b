// 黄金轨迹（R8.3 行为累积）：每个场景（tooling/scenarios/data.ts）在引入它的那一课跑出的轨迹存在 tests/golden/<id>.json
// （npm run gen:golden 重写）。引入它的那一课必须逐字复现；之后的每一课也必须复现——只有 tooling/scenarios/differences.ts
// 里列出、并且核对得上的差异除外。
import { readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { LESSONS, lessonNumber } from "../tooling/course.ts";
import { importLesson } from "../tooling/lesson.ts";
import { SCENARIOS } from "../tooling/scenarios/data.ts";
import { GOLDEN_DIFFERENCES, goldenDifferenceApplies } from "../tooling/scenarios/differences.ts";
import { GOLDEN_DIR, readGolden } from "../tooling/scenarios/golden.ts";
import { runScenario } from "../tooling/scenarios/run.ts";
import { type Trace, projectTrace, scenarioNeeds } from "../tooling/scenarios/shape.ts";

// 一个场景在一课上的比对只做一次（记住 promise）：场景的测试拿它断言，差异表的测试拿它数用过的条目。
// 这样「差异表」不靠测试的先后（--sequence.shuffle 会打乱），单独跑它也对。
type Comparison = { problems: { field: keyof Trace; why: string; actual: unknown; golden: unknown }[]; used: string[]; exact?: { full: Trace; golden: Trace } };
const comparisons = new Map<string, Promise<Comparison>>();

function compare(scenario: (typeof SCENARIOS)[number], lesson: (typeof LESSONS)[number]): Promise<Comparison> {
  const key = `${scenario.id}@${lesson}`;
  let done = comparisons.get(key);
  if (done === undefined) {
    done = (async (): Promise<Comparison> => {
      const golden = readGolden(scenario.id);
      const full = await runScenario(lesson, await importLesson(lesson), scenario);
      if (lesson === scenario.since) return { problems: [], used: [], exact: { full, golden } };
      const actual = projectTrace(full, scenario.since);
      const fields = [...new Set([...Object.keys(golden), ...Object.keys(actual)])] as (keyof Trace)[];
      const out: Comparison = { problems: [], used: [] };
      for (const field of fields) {
        if (JSON.stringify(actual[field]) === JSON.stringify(golden[field])) continue;
        const listed = GOLDEN_DIFFERENCES.filter((d) => d.fields.includes(field) && goldenDifferenceApplies(d, scenario, lesson));
        const verdicts = listed.map((d) => ({ d, problem: d.check(field, golden, actual, full) }));
        const explained = verdicts.find((v) => v.problem === undefined);
        if (explained !== undefined) {
          out.used.push(explained.d.id);
          continue;
        }
        const why =
          listed.length === 0
            ? `${lesson} differs from ${scenario.since}'s golden trace in "${field}", and tooling/scenarios/differences.ts lists no difference for it`
            : `${lesson} differs in "${field}"; listed difference(s) do not explain it: ${verdicts.map((v) => `${v.d.id}: ${v.problem}`).join("; ")}`;
        out.problems.push({ field, why, actual: actual[field], golden: golden[field] });
      }
      return out;
    })();
    comparisons.set(key, done);
  }
  return done;
}

const pairs = SCENARIOS.flatMap((scenario) => LESSONS.filter((l) => lessonNumber(l) >= lessonNumber(scenario.since)).map((lesson) => ({ scenario, lesson })));

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
    for (const d of GOLDEN_DIFFERENCES) if (Array.isArray(d.scenarios)) for (const id of d.scenarios) expect(ids.has(id), `${d.id} → ${id}`).toBe(true);
  });
});

for (const scenario of SCENARIOS) {
  describe(scenario.id, () => {
    for (const { lesson } of pairs.filter((p) => p.scenario === scenario)) {
      it(`${lesson} 复现 ${scenario.since} 的黄金轨迹`, async () => {
        const { exact, problems } = await compare(scenario, lesson);
        if (exact !== undefined) expect(exact.full, "trace differs from tests/golden; if the change is intended, run npm run gen:golden and review the diff").toEqual(exact.golden);
        for (const p of problems) expect(p.actual, p.why).toEqual(p.golden);
      });
    }
  });
}

describe("差异表", () => {
  it("每条差异都真的用上了（没有过时的条目）", async () => {
    const used = new Set((await Promise.all(pairs.map((p) => compare(p.scenario, p.lesson)))).flatMap((c) => c.used));
    const stale = GOLDEN_DIFFERENCES.map((d) => d.id).filter((id) => !used.has(id));
    expect(stale, "stale entries in tooling/scenarios/differences.ts").toEqual([]);
  });
});
