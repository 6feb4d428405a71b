// 在一个进程里交替计时两边（mini 和 Pi）：机器忙的时候，两边挨着跑、受同样的干扰，比值比各自的绝对耗时稳得多。
// 先各预热几次（第一次顺便核对两边存下的消息逐条相同），再计时 runs 轮：每轮两边各跑一次，
// 单数轮 mini 先、双数轮 Pi 先；每次计时前做一次完整 GC，上一边留下的垃圾不会记到这一边头上。
import { performance } from "node:perf_hooks";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import type { ComparedRun, Outcome } from "./workloads.ts";

// 不用命令行参数也能拿到 gc()：打开 --expose-gc 以后，新建的上下文里就有它。
setFlagsFromString("--expose-gc");
const gc: () => void = runInNewContext("gc");

/** 跑一次，回耗时（毫秒）和结果。 */
async function timed(run: ComparedRun): Promise<{ ms: number; outcome: Outcome }> {
  gc();
  const t0 = performance.now();
  const outcome = await run();
  return { ms: performance.now() - t0, outcome };
}

export const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
};

/** 一侧的计时结果：每轮的毫秒数（按轮次），和它的订阅者在一次运行里收到的事件数。 */
export type SideTiming = { ms: number[]; events: number };

/** 两边交替计时的结果；pi 为 undefined 时只量了 mini。 */
export type PairTiming = { mini: SideTiming; pi?: SideTiming };

/** 两份记录第一处不同的地方，相同时为 undefined。 */
function firstDifference(a: string[], b: string[]): string | undefined {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (a[i] !== b[i]) return `message ${i}: mini ${JSON.stringify(a[i] ?? "(none)")} vs Pi ${JSON.stringify(b[i] ?? "(none)")} (${a.length} vs ${b.length} messages)`;
  }
  return undefined;
}

/**
 * 交替计时。两边在预热的第一次运行后核对记录：不同就抛错——那说明两边干的不是同一件事，比值没有意义。
 */
export async function alternate(mini: ComparedRun, pi: ComparedRun | undefined, opts: { warmup: number; runs: number }): Promise<PairTiming> {
  const sides = pi === undefined ? [mini] : [mini, pi];
  const events: number[] = [];
  for (let w = 0; w < Math.max(1, opts.warmup); w++) {
    const outcomes: Outcome[] = [];
    for (const side of sides) outcomes.push((await timed(side)).outcome);
    if (w > 0) continue;
    events.push(...outcomes.map((o) => o.events));
    if (outcomes.length === 2) {
      const diff = firstDifference(outcomes[0].transcript(), outcomes[1].transcript());
      if (diff !== undefined) throw new Error(`mini and Pi did different work: ${diff}`);
    }
  }
  const ms: number[][] = sides.map(() => []);
  for (let r = 0; r < opts.runs; r++) {
    const order = sides.map((_, i) => i);
    if (r % 2 === 1) order.reverse();
    for (const i of order) ms[i].push((await timed(sides[i])).ms);
  }
  return { mini: { ms: ms[0], events: events[0] }, ...(pi === undefined ? {} : { pi: { ms: ms[1], events: events[1] } }) };
}

/** mini/Pi：最快一次之比，和每轮两边之比的中位数（同一轮两边挨着跑，这个比值最不受机器忙闲影响）。 */
export function ratios(t: Required<PairTiming>): { best: number; median: number } {
  return {
    best: Math.min(...t.mini.ms) / Math.min(...t.pi.ms),
    median: median(t.mini.ms.map((m, r) => m / t.pi.ms[r])),
  };
}
