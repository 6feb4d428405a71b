// npm run bench:vitest（vitest bench）：各操作在逐级增大的规模上的耗时（tinybench 的表）。
// 逐规模的「每项耗时」表由 scripts/bench-table.ts 打印，更容易一眼看出是不是线性增长。
// 默认量最终版 s12；BENCH_LESSON=s07 之类可以换一课。`npm test`（vitest run）不会收这个文件：bench 只在 bench 模式下跑。
import { bench, describe } from "vitest";
import { importLesson } from "../../tooling/lesson.ts";
import { collectDeltas, treeAppendAndPath, turnWithCallsInOneResponse, turnWithOneCallPerResponse } from "../../tooling/bench/workloads.ts";

const lesson = process.env.BENCH_LESSON ?? "s12";
const mod = await importLesson(lesson);
const opts = { time: 300, iterations: 5, warmupIterations: 1 };
const run = (f: () => unknown) => async (): Promise<void> => void (await f());

describe(`${lesson} SessionTree: append n + currentPath`, () => {
  for (const n of [1_000, 10_000, 100_000]) bench(`${n} entries`, run(treeAppendAndPath(mod, n)), opts);
});

describe(`${lesson} collectAssistantMessage: n text deltas`, () => {
  for (const n of [10_000, 100_000]) bench(`${n} deltas`, run(collectDeltas(mod, n)), opts);
});

describe(`${lesson} one turn: n tool calls in one response`, () => {
  for (const n of [250, 500, 1_000, 2_000]) bench(`${n} calls`, run(turnWithCallsInOneResponse(lesson, mod, n)), opts);
});

describe(`${lesson} one turn: one tool call per response, n responses (maxTurns n + 1)`, () => {
  for (const n of [250, 500, 1_000, 2_000]) bench(`${n} calls`, run(turnWithOneCallPerResponse(lesson, mod, n)), opts);
});
