// 读练习的阶段：手写的阶段表（stage-table.ts）和 npm run gen:stages 生成的测试归属（stage-tests.json）。
// 一课有哪些阶段、一处空白在第几阶段、练习的先后；一个测试归第几阶段、靠哪几处空白，没过时该怪谁（blame）。
// check（stage-results.ts）、npm run hint、gen:stages、网页的练习卡片都从这里问，不自己翻表。
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "../course.ts";
import { STAGES, type Stage } from "./stage-table.ts";

/** 第 1 到第 k 个阶段的空白（k 从 1 起；k = 0 是一个都没有）。 */
export const stubsThrough = (id: string, k: number): Set<string> => new Set(stagesOf(id).slice(0, k).flatMap((s) => s.stubs));

/**
 * 练习的顺序：空白按所在阶段排，同一阶段里按阶段表列的先后（表先列这个阶段的主角，跟着改的小地方排在后面）。
 * npm run hint 照这个顺序找「现在练的那一处」，check 的「再读」在几处空白都可能是错处时也按它挑第一处。
 * 表里没有的名字排在最后（tests/practice/stages.test.ts 保证不会有）。
 */
export function inStageOrder<T extends { name: string }>(id: string, stubs: readonly T[]): T[] {
  const order = stagesOf(id).flatMap((s) => s.stubs);
  const rank = (t: T): number => {
    const k = order.indexOf(t.name);
    return k < 0 ? order.length : k;
  };
  return stubs.map((t, i) => ({ t, i, k: rank(t) })).sort((a, b) => a.k - b.k || a.i - b.i).map((x) => x.t);
}

/** 一处空白属于第几阶段（从 1 起）和那个阶段；表里没有是 undefined。 */
export function stageOfStub(id: string, name: string): { number: number; stage: Stage } | undefined {
  const stages = stagesOf(id);
  const k = stages.findIndex((s) => s.stubs.includes(name));
  return k < 0 ? undefined : { number: k + 1, stage: stages[k] };
}

/** 一课的阶段；表里没有这一课就抛错（表得跟着课走）。 */
export function stagesOf(id: string): readonly Stage[] {
  const stages = STAGES[id];
  if (stages === undefined) throw new Error(`tooling/practice/stage-table.ts has no stages for ${id}`);
  return stages;
}

// ── 哪些测试归哪个阶段、靠哪几处空白（生成的 stage-tests.json） ──────────
/**
 * 一课的测试，npm run gen:stages 真跑出来，别手改。测试写成 testKey。
 * stages：按阶段分，第 k 个（k ≥ 1）是第 k 阶段才变绿的测试；第 0 个是刚生成的练习文件上就过的测试
 * （前几课的机制，这一课没碰），报告里算在第 1 阶段。
 * needs：测试 → 它靠的空白（按练习的顺序）：别的空白都填好、只把这一处留成 TODO 时它过不了。一处都不靠的测试不列。
 */
export type LessonTests = { stages: string[][]; needs: Record<string, string[]> };
export type StageMap = Record<string, LessonTests>;

export const STAGE_MAP_FILE = join(ROOT, "tooling", "practice", "stage-tests.json");

/** 一个测试在表里的写法：`tests/behaviour/s04.test.ts: s04 > R5：…`（文件加 vitest 的全名）。 */
export const testKey = (t: { file: string; name: string }): string => `${t.file}: ${t.name}`;

export function readStageMap(file: string = STAGE_MAP_FILE): StageMap {
  return existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as StageMap) : {};
}

/**
 * 一个测试归第几个阶段（从 1 起）。表里没有的（生成之后新加的测试）算最后一个阶段：
 * 宁可晚一点报，也不拿它去拦一个还没写到那儿的学习者。
 */
export function stageOfTest(map: StageMap, id: string, t: { file: string; name: string }): number {
  const stages = stagesOf(id);
  const at = (map[id]?.stages ?? []).findIndex((keys) => keys.includes(testKey(t)));
  return at < 0 ? stages.length : Math.max(1, at);
}

/** 测试靠的空白；表里没有这个测试（生成之后新加的）是 undefined。 */
export function needsOf(map: StageMap, id: string, t: { file: string; name: string }): readonly string[] | undefined {
  const tests = map[id];
  const key = testKey(t);
  if (tests === undefined || !tests.stages.some((keys) => keys.includes(key))) return undefined;
  return tests.needs[key] ?? [];
}

/**
 * 第 k 阶段没过，该怪哪个测试、哪一处空白（「再读」指的就是那一处空白的 README 小节）。
 * 前面的阶段都过了，所以只数这个阶段的空白：挑没过的测试里靠这个阶段的空白最少的那个——它最直接，
 * 一个零件自己的测试（tests/behaviour/parts-turn.test.ts、parts-attached.test.ts 里那种）只靠它一处；一样少就按文件和行的先后。
 * 怪的是它靠的这个阶段的空白里练习顺序最前的那一处；它一处都不靠（或者是表里没有的新测试）就没有空白可怪，由调用方指回阶段自己的小节。
 */
export function blame<T extends { file: string; name: string }>(map: StageMap, id: string, k: number, failed: readonly T[]): { test: T; stub?: string } | undefined {
  const here = stagesOf(id)[k - 1]?.stubs ?? [];
  const scored = failed.map((test, i) => {
    const needs = needsOf(map, id, test);
    const mine = needs === undefined ? undefined : here.filter((s) => needs.includes(s));
    return { test, i, mine, size: mine === undefined || mine.length === 0 ? Infinity : mine.length };
  });
  const best = scored.sort((a, b) => a.size - b.size || a.i - b.i)[0];
  return best === undefined ? undefined : { test: best.test, stub: best.mine?.[0] };
}
