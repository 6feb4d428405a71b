// npm run bench 的表格部分：每个操作在逐级增大的规模上跑几次取最快的一次，打印总耗时和「每项耗时」。
// 每项耗时在各规模上大致不变 = 线性增长；它随规模一起涨 = 有超线性的路径（最后一列是相邻两档每项耗时之比）。
// 最后一张表是整个 npm test 的墙钟时间（跑 BENCH_SUITE_RUNS 次，默认 3，给最小值和中位数），测试变慢了在这里看得见。
// 用法：tsx scripts/bench-table.ts [课号，默认 s12]；BENCH_RUNS 每档跑几次（默认 5）；BENCH_SUITE_RUNS=0 不跑整套测试。
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { availableParallelism } from "node:os";
import { dirname, join } from "node:path";
import { performance } from "node:perf_hooks";
import { collectDeltas, treeAppendAndPath, turnWithCallsInOneResponse, turnWithOneCallPerResponse } from "../tests/bench/workloads.ts";
import { ROOT, importLesson } from "../tests/support/lessons.ts";

const lesson = process.argv[2] ?? process.env.BENCH_LESSON ?? "s12";
const runs = Number(process.env.BENCH_RUNS ?? 5);
const mod = await importLesson(lesson);

async function best(fn: () => unknown): Promise<number> {
  await fn(); // 预热
  let min = Number.POSITIVE_INFINITY;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn();
    min = Math.min(min, performance.now() - t0);
  }
  return min;
}

const fmt = (x: number, digits: number): string => x.toFixed(digits);

async function table(title: string, unit: string, sizes: number[], make: (n: number) => () => unknown): Promise<void> {
  console.log(`\n${title}`);
  console.log(`| ${unit.padStart(9)} | ${"best ms".padStart(9)} | ${"µs / item".padStart(9)} | per-item × prev |`);
  console.log(`|${"-".repeat(11)}|${"-".repeat(11)}|${"-".repeat(11)}|${"-".repeat(17)}|`);
  let prev: number | undefined;
  for (const n of sizes) {
    const ms = await best(make(n));
    const perItem = (ms * 1000) / n;
    const ratio = prev === undefined ? "—" : `${fmt(perItem / prev, 2)}×`;
    console.log(`| ${n.toLocaleString("en-US").padStart(9)} | ${fmt(ms, 2).padStart(9)} | ${fmt(perItem, 3).padStart(9)} | ${ratio.padStart(15)} |`);
    prev = perItem;
  }
}

console.log(`mini Pi ${lesson} — best of ${runs} runs per size (Node ${process.version})`);
await table("SessionTree: append n entries, then currentPath() + allEntries()", "entries", [1_000, 10_000, 100_000], (n) => treeAppendAndPath(mod, n));
// 对照：同样多的条目直接放进一个 Map<string, object>。大 Map 本身每项就会随规模变贵（堆增长、GC、缓存），
// 上面那张表的每项耗时若和这张同步上涨，就不是 SessionTree 自己的超线性路径。
await table("baseline: Map<string, object>.set n entries (no SessionTree)", "entries", [1_000, 10_000, 100_000], (n) => () => {
  const map = new Map<string, object>();
  for (let i = 0; i < n; i++) map.set(`e${i + 1}`, { id: `e${i + 1}`, parentId: i === 0 ? null : `e${i}`, role: "user", content: `q${i}` });
  return map.size;
});
await table("collectAssistantMessage: n text_delta events", "deltas", [10_000, 100_000, 1_000_000], (n) => collectDeltas(mod, n));
await table("one turn, n tool calls in ONE response (default maxTurns)", "calls", [250, 500, 1_000, 2_000, 4_000], (n) => turnWithCallsInOneResponse(lesson, mod, n));
await table("one turn, ONE tool call per response, n responses (maxTurns = n + 1)", "calls", [250, 500, 1_000, 2_000, 4_000], (n) =>
  turnWithOneCallPerResponse(lesson, mod, n),
);

// ── 整套测试的墙钟时间 ─────────────────────────────────────
/** CPU seconds used by this process's waited-for children so far (Linux /proc; undefined elsewhere). */
function childrenCpuSeconds(): number | undefined {
  if (!existsSync("/proc/self/stat")) return undefined;
  const fields = readFileSync("/proc/self/stat", "utf8").replace(/^.*\) /s, "").split(" ");
  const ticks = spawnSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).stdout.trim();
  return (Number(fields[13]) + Number(fields[14])) / (Number(ticks) || 100); // cutime + cstime (fields 16, 17 of stat)
}

const suiteRuns = Number(process.env.BENCH_SUITE_RUNS ?? 3);
if (suiteRuns > 0) {
  const vitest = join(dirname(createRequire(join(ROOT, "package.json")).resolve("vitest/package.json")), "vitest.mjs");
  const walls: number[] = [];
  const cpus: number[] = [];
  console.log(`\nnpm test (vitest run) — the whole suite, ${suiteRuns} runs, ${availableParallelism()} CPUs (Node ${process.version}); a shared machine makes this noisy`);
  console.log(`| ${"run".padStart(5)} | ${"wall s".padStart(7)} | ${"CPU s".padStart(7)} | result |`);
  console.log(`|${"-".repeat(7)}|${"-".repeat(9)}|${"-".repeat(9)}|${"-".repeat(8)}|`);
  for (let i = 1; i <= suiteRuns; i++) {
    const cpu0 = childrenCpuSeconds();
    const t0 = performance.now();
    const run = spawnSync(process.execPath, [vitest, "run", "--reporter=dot"], { cwd: ROOT, encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } });
    const wall = (performance.now() - t0) / 1000;
    const cpu1 = childrenCpuSeconds();
    const cpu = cpu0 === undefined || cpu1 === undefined ? undefined : cpu1 - cpu0;
    walls.push(wall);
    if (cpu !== undefined) cpus.push(cpu);
    console.log(`| ${String(i).padStart(5)} | ${fmt(wall, 1).padStart(7)} | ${(cpu === undefined ? "—" : fmt(cpu, 1)).padStart(7)} | ${(run.status === 0 ? "pass" : "FAIL").padEnd(6)} |`);
  }
  const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)] ?? Number.NaN;
  console.log(`| ${"min".padStart(5)} | ${fmt(Math.min(...walls), 1).padStart(7)} | ${(cpus.length ? fmt(Math.min(...cpus), 1) : "—").padStart(7)} |        |`);
  console.log(`| ${"med".padStart(5)} | ${fmt(median(walls), 1).padStart(7)} | ${(cpus.length ? fmt(median(cpus), 1) : "—").padStart(7)} |        |`);
}
