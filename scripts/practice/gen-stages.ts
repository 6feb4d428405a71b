// npm run gen:stages：哪些测试归哪个阶段（tooling/stages.ts），真跑出来，写进 tooling/stages.json。不手写测试名的正则：
// 对每一课、每个 k = 0..n-1，做一份第 1..k 阶段填好（这一课自己的函数体）、后面的阶段还空着的练习文件（k = 0 就是刚生成的），
// 跑 check 跑的那一次 vitest（checks.ts 的 runCourseTests，同一批测试文件、同一个过滤）。一个测试归它「从此一直通过」的第一个阶段：
// 在 k 还没过、k+1 起都过了，就归第 k+1 阶段；刚生成的文件上就过了的归第 0 组（报告里算第 1 阶段）；
// 直到最后一个阶段之前都没过的归最后一个阶段。每个阶段都得有自己的测试（tests/practice/stages.test.ts 核对）。
// 一次约 8 秒，两课并行；机器忙时全部跑完要好几分钟，所以不进 npm run gen。
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT, LESSONS, lessonDir } from "../../tooling/course.ts";
import { STAGE_MAP_FILE, type StageMap, stagesOf, stubsThrough, testKey } from "../../tooling/stages.ts";
import { courseTestFiles, runCourseTests } from "./checks.ts";
import { makePractice } from "./stub.ts";

const WORK = join(ROOT, ".tmp", "gen-stages");
const only = process.argv.slice(2);

async function lessonMap(id: string): Promise<string[][]> {
  const stages = stagesOf(id);
  const files = courseTestFiles();
  const order = [...files.behaviour, ...files.golden];
  const all = new Set<string>();
  /** 每个测试最后一次没过是在前几个阶段填好时（-1 = 从没没过）。 */
  const lastFail = new Map<string, number>();
  for (let k = 0; k < stages.length; k++) {
    const file = join(WORK, `${id}-${k}`, lessonDir(id), "code.ts");
    mkdirSync(join(file, ".."), { recursive: true });
    writeFileSync(file, makePractice(id, { filled: stubsThrough(id, k) }).text);
    const run = await runCourseTests(id, file, order, 10_000);
    if (run.crashed !== undefined) throw new Error(`${id} with stages 1..${k} filled: ${run.crashed}`);
    for (const t of run.tests) {
      const key = testKey(t);
      all.add(key);
      if (t.state !== "passed") lastFail.set(key, k);
    }
  }
  const map: string[][] = [[], ...stages.map(() => [])];
  for (const key of [...all].sort()) map[(lastFail.get(key) ?? -1) + 1].push(key);
  return map;
}

const ids = only.length > 0 ? only : LESSONS;
const result: StageMap = {};
// 两课一起跑：机器只有两个核，check 自己的 vitest 也会开 worker
const queue = [...ids];
await Promise.all(
  [0, 1].map(async () => {
    for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
      const started = Date.now();
      result[id] = await lessonMap(id);
      console.log(`${id}: ${result[id].map((s) => s.length).join(" / ")} tests per stage (${((Date.now() - started) / 1000).toFixed(1)} s)`);
    }
  }),
);
rmSync(WORK, { recursive: true, force: true });
const previous = only.length > 0 ? (await import("../../tooling/stages.ts")).readStageMap() : {};
const merged = Object.fromEntries(LESSONS.filter((id) => id in result || id in previous).map((id) => [id, result[id] ?? previous[id]]));
writeFileSync(STAGE_MAP_FILE, `${JSON.stringify(merged, null, 2)}\n`);
console.log(`wrote ${STAGE_MAP_FILE.slice(ROOT.length + 1)}`);
