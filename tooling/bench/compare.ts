// 在一个进程里交替计时两边（mini 和 Pi）：机器忙的时候，两边挨着跑、受同样的干扰，比值比各自的绝对耗时稳得多。
// 先各预热几次（第一次顺便核对两边存下的消息逐条相同），再计时 runs 轮：每轮两边各跑一组，单数轮 mini 先、双数轮 Pi 先。
// 堆的状态会改变结果，所以有两种量法：
//   热堆（默认）：一组是同一边连着跑 block 次，记平均每次的耗时。堆一直是热的，像一个跑了一阵的会话；
//                 一边留下的垃圾也大多在它自己这一组里回收掉。
//   冷堆（gc）：  每次运行前先做一次完整的垃圾回收，一组只跑一次。V8 回收后会把新生代缩小，运行时要重新把堆撑大，
//                 像一个刚启动的进程；分配得多的一边在这里吃亏，而一次运行留到结束还没回收的垃圾不算在它头上。
import { performance } from "node:perf_hooks";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import type { ComparedRun, ComparedOutcome } from "./workloads.ts";

// 不用命令行参数也能拿到 gc()：打开 --expose-gc 以后，新建的上下文里就有它。
setFlagsFromString("--expose-gc");
const gc: () => void = runInNewContext("gc");

export const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
};

/** 一侧的计时结果：每轮一组、平均每次运行的毫秒数（按轮次），和它的订阅者在一次运行里收到的事件数。 */
export type SideTiming = { ms: number[]; events: number };

/** 两边交替计时的结果；pi 为 undefined 时只量了 mini。block 是每组连着跑几次。 */
export type PairTiming = { mini: SideTiming; pi?: SideTiming; block: number };

export type AlternateOptions = {
  warmup: number;
  runs: number;
  /** 热堆：一组至少跑这么多毫秒（按预热时最慢的一边估出每组跑几次，两边相同）；0 表示每组只跑一次。 */
  blockMs: number;
  /** 冷堆：每次运行前做一次完整的垃圾回收，每组只跑一次（不看 blockMs）。 */
  gc?: boolean;
};

/** 两份记录第一处不同的地方，相同时为 undefined。 */
function firstDifference(a: string[], b: string[]): string | undefined {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (a[i] !== b[i]) return `message ${i}: mini ${JSON.stringify(a[i] ?? "(none)")} vs Pi ${JSON.stringify(b[i] ?? "(none)")} (${a.length} vs ${b.length} messages)`;
  }
  return undefined;
}

/** 连着跑 times 次，回平均每次的毫秒数和最后一次的结果。 */
async function block(run: ComparedRun, times: number, collect = false): Promise<{ ms: number; outcome: ComparedOutcome }> {
  if (collect) gc();
  const t0 = performance.now();
  let outcome = await run();
  for (let i = 1; i < times; i++) outcome = await run();
  return { ms: (performance.now() - t0) / times, outcome };
}

/**
 * 交替计时。两边在预热的第一次运行后核对记录：不同就抛错——那说明两边干的不是同一件事，比值没有意义。
 */
export async function alternate(mini: ComparedRun, pi: ComparedRun | undefined, opts: AlternateOptions): Promise<PairTiming> {
  const sides = pi === undefined ? [mini] : [mini, pi];
  const events: number[] = [];
  let slowest = 0;
  for (let w = 0; w < Math.max(1, opts.warmup); w++) {
    const outcomes: ComparedOutcome[] = [];
    for (const side of sides) {
      const { ms, outcome } = await block(side, 1);
      outcomes.push(outcome);
      if (w === opts.warmup - 1 || opts.warmup <= 1) slowest = Math.max(slowest, ms);
    }
    if (w > 0) continue;
    events.push(...outcomes.map((o) => o.events));
    if (outcomes.length === 2) {
      const diff = firstDifference(outcomes[0].transcript(), outcomes[1].transcript());
      if (diff !== undefined) throw new Error(`mini and Pi did different work: ${diff}`);
    }
  }
  const times = opts.gc === true || opts.blockMs <= 0 ? 1 : Math.max(1, Math.ceil(opts.blockMs / Math.max(slowest, 0.001)));
  const ms: number[][] = sides.map(() => []);
  for (let r = 0; r < opts.runs; r++) {
    const order = sides.map((_, i) => i);
    if (r % 2 === 1) order.reverse();
    for (const i of order) ms[i].push((await block(sides[i], times, opts.gc === true)).ms);
  }
  return { mini: { ms: ms[0], events: events[0] }, ...(pi === undefined ? {} : { pi: { ms: ms[1], events: events[1] } }), block: times };
}

/** mini/Pi：最快一组之比，和每轮两边之比的中位数（同一轮的两组挨着跑，这个比值最不受机器忙闲影响）。 */
export function ratios(t: { mini: SideTiming; pi: SideTiming }): { best: number; median: number } {
  return {
    best: Math.min(...t.mini.ms) / Math.min(...t.pi.ms),
    median: median(t.mini.ms.map((m, r) => m / t.pi.ms[r])),
  };
}
