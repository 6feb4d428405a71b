// npm run gen:stages：哪些测试归哪个阶段（阶段表在 tooling/practice/stage-table.ts）、每个测试靠哪几处空白，真跑出来，写进 tooling/practice/stage-tests.json。
// 不手写测试名的正则。每次都是做一份练习文件，跑 check 跑的那一次 vitest（tooling/practice/vitest/run.ts 的 runCourseTests，同一批测试文件、同一个过滤）：
//   阶段：对每个 k = 0..n-1，第 1..k 阶段填好（这一课自己的函数体）、后面的阶段还空着（k = 0 就是刚生成的）。
//     一个测试归它「从此一直通过」的第一个阶段：在 k 还没过、k+1 起都过了，就归第 k+1 阶段；刚生成的文件上就过了的归第 0 组
//     （报告里算第 1 阶段）；直到最后一个阶段之前都没过的归最后一个阶段。每个阶段都得有自己的测试（tests/practice/stages.test.ts 核对）。
//   靠哪几处空白：对每一处空白（同名的几段算一处），只把它留成 TODO、别的全填好；这时没过的测试就靠它。
//     check 没过时，「再读」指向没过的测试靠的那一处空白的小节（tooling/practice/stage-lookup.ts 的 blame）。
// 一次两三秒，两课并行；全部跑完要几分钟，所以不进 npm run gen。
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT, LESSONS, lessonDir } from "../../tooling/course.ts";
import { type LessonTests, STAGE_MAP_FILE, type StageMap, inStageOrder, readStageMap, stagesOf, stubsThrough, testKey } from "../../tooling/practice/stage-lookup.ts";
import { courseTestFiles } from "../../tooling/practice/course-tests.ts";
import { type TestRecord, runCourseTests } from "../../tooling/practice/vitest/run.ts";
import { makePractice } from "../../tooling/practice/stub.ts";
import { HANG_GUARD_MS } from "../../tooling/hang-guard.ts";

const WORK = join(ROOT, ".tmp", "gen-stages");
const only = process.argv.slice(2);

/** 第 1..k 阶段之外、再加上 filled 里的空白都填好的练习文件，跑一次课程测试。 */
async function runWith(id: string, label: string, filled: ReadonlySet<string>): Promise<TestRecord[]> {
  const files = courseTestFiles();
  const file = join(WORK, `${id}-${label}`, lessonDir(id), "code.ts");
  mkdirSync(join(file, ".."), { recursive: true });
  writeFileSync(file, makePractice(id, { filled }).text);
  // 挖空的地方一调就抛错，卡不住；有测试在跑时也按防卡死的上限等，免得机器一忙把一个慢测试当成卡住
  const run = await runCourseTests(id, file, [...files.behaviour, ...files.golden], HANG_GUARD_MS);
  if (run.crashed !== undefined) throw new Error(`${id} (${label}): ${run.crashed}`);
  if (run.hung !== undefined) throw new Error(`${id} (${label}): stuck at ${run.hung.name}`);
  return run.tests;
}

async function lessonTests(id: string): Promise<LessonTests> {
  const stages = stagesOf(id);
  const all = new Set<string>();
  /** 每个测试最后一次没过是在前几个阶段填好时（-1 = 从没没过）。 */
  const lastFail = new Map<string, number>();
  for (let k = 0; k < stages.length; k++) {
    for (const t of await runWith(id, `stage-${k}`, stubsThrough(id, k))) {
      const key = testKey(t);
      all.add(key);
      if (t.state !== "passed") lastFail.set(key, k);
    }
  }
  const map: string[][] = [[], ...stages.map(() => [])];
  for (const key of [...all].sort()) map[(lastFail.get(key) ?? -1) + 1].push(key);

  const names = inStageOrder(id, [...new Set(makePractice(id, { verify: false }).stubs.map((s) => s.name))].map((name) => ({ name }))).map((s) => s.name);
  const needs: Record<string, string[]> = {};
  for (const name of names) {
    for (const t of await runWith(id, `without-${name.replace(/\W+/g, "_")}`, new Set(names.filter((n) => n !== name)))) {
      if (t.state !== "passed") (needs[testKey(t)] ??= []).push(name);
    }
  }
  return { stages: map, needs: Object.fromEntries(Object.entries(needs).sort(([a], [b]) => (a < b ? -1 : 1))) };
}

const ids = only.length > 0 ? only : LESSONS;
const result: StageMap = {};
// 两课一起跑：机器只有两个核，check 自己的 vitest 也会开 worker
const queue = [...ids];
await Promise.all(
  [0, 1].map(async () => {
    for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
      const started = Date.now();
      result[id] = await lessonTests(id);
      const blamed = Object.keys(result[id].needs).length;
      console.log(`${id}: ${result[id].stages.map((s) => s.length).join(" / ")} tests per stage, ${blamed} need a stub (${((Date.now() - started) / 1000).toFixed(1)} s)`);
    }
  }),
);
rmSync(WORK, { recursive: true, force: true });
const previous = only.length > 0 ? readStageMap() : {};
const merged = Object.fromEntries(LESSONS.filter((id) => id in result || id in previous).map((id) => [id, result[id] ?? previous[id]]));
writeFileSync(STAGE_MAP_FILE, `${JSON.stringify(merged, null, 2)}\n`);
console.log(`wrote ${STAGE_MAP_FILE.slice(ROOT.length + 1)}`);
