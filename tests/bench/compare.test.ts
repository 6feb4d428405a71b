// npm run bench 的对照表靠得住的前提：两边干的是同一件事、交替计时真的交替、比值算得对。
// 这些在 npm test 里跑（小规模，几毫秒）；Pi 没装（fidelity/node_modules）时，只跑不需要 Pi 的那几条。
import { performance } from "node:perf_hooks";
import { describe, expect, it, vi } from "vitest";
import { importLesson } from "../../tooling/lesson.ts";
import { loadPiBench } from "../../fidelity/pi-install.ts";
import { alternate, median, ratios } from "../../tooling/bench/compare.ts";
import { type ComparedRun, miniSide, SCRIPT, type WorkloadKind } from "../../tooling/bench/workloads.ts";

const KINDS: WorkloadKind[] = ["deltas", "callsInOneResponse", "oneCallPerResponse"];

/** 三种工作量在规模 n 时应当存下的消息（「角色:文字」），照 SCRIPT 手写，不从任何一边推出来。 */
function expected(kind: WorkloadKind, n: number): string[] {
  const user = `user:${SCRIPT.prompt}`;
  const result = (i: number): string => `toolResult:${SCRIPT.echo(SCRIPT.arg(i))}`;
  switch (kind) {
    case "deltas":
      return [user, `assistant:${SCRIPT.delta.repeat(n)}`];
    case "callsInOneResponse":
      return [user, "assistant:", ...Array.from({ length: n }, (_, i) => result(i)), `assistant:${SCRIPT.done}`];
    case "oneCallPerResponse":
      return [user, ...Array.from({ length: n }, (_, i) => ["assistant:", result(i)]).flat(), `assistant:${SCRIPT.done}`];
  }
}

/** 一个假的一侧：记下自己被调用的次序，回固定的记录。 */
const fake = (name: string, log: string[], transcript: string[]): ComparedRun => async () => {
  log.push(name);
  return { transcript: () => transcript, events: 1 };
};

describe("bench 的计时框架", () => {
  it("中位数和比值：最快比最快，每轮比值的中位数", () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    const r = ratios({ mini: { ms: [2, 6, 3], events: 0 }, pi: { ms: [4, 3, 12], events: 0 } });
    expect(r.best).toBeCloseTo(2 / 3);
    expect(r.median).toBeCloseTo(0.5); // 每轮之比 0.5、2、0.25 的中位数
  });

  it("预热之后，两边轮流先跑", async () => {
    const log: string[] = [];
    const t = await alternate(fake("mini", log, ["a"]), fake("pi", log, ["a"]), { warmup: 1, runs: 4, blockMs: 0 });
    expect(log).toEqual(["mini", "pi", "mini", "pi", "pi", "mini", "mini", "pi", "pi", "mini"]);
    expect(t.mini.ms).toHaveLength(4);
    expect(t.pi?.ms).toHaveLength(4);
  });

  it("每边一块一块地连着跑，两边块一样大，每块够 blockMs 那么长", async () => {
    const log: string[] = [];
    // 手拨的表：performance.now() 只在一次运行里往前走 0.125 ms，块多大只看这个数，不看机器多快
    const clock = { ms: 0 };
    const tick = (side: ComparedRun): ComparedRun => async () => ((clock.ms += 0.125), side());
    const now = vi.spyOn(performance, "now").mockImplementation(() => clock.ms);
    let t: Awaited<ReturnType<typeof alternate>>;
    try {
      t = await alternate(tick(fake("mini", log, ["a"])), tick(fake("pi", log, ["a"])), { warmup: 1, runs: 2, blockMs: 5 });
    } finally {
      now.mockRestore();
    }
    // 一次运行 0.125 ms，凑够 5 ms 要连着跑 40 次
    expect(t.block).toBe(40);
    const b = t.block;
    expect(log.slice(2)).toEqual([...Array(b).fill("mini"), ...Array(b).fill("pi"), ...Array(b).fill("pi"), ...Array(b).fill("mini")]);
  });

  it("两边存下的消息不一样，就不比", async () => {
    const log: string[] = [];
    await expect(alternate(fake("mini", log, ["user:go", "assistant:a"]), fake("pi", log, ["user:go", "assistant:b"]), { warmup: 1, runs: 1, blockMs: 0 })).rejects.toThrow(
      'mini and Pi did different work: message 1: mini "assistant:a" vs Pi "assistant:b"',
    );
    await expect(alternate(fake("mini", log, ["user:go"]), fake("pi", log, ["user:go", "assistant:b"]), { warmup: 1, runs: 1, blockMs: 0 })).rejects.toThrow(
      'message 1: mini "(none)" vs Pi "assistant:b" (1 vs 2 messages)',
    );
  });

  it("没有 Pi 那一侧时只量 mini", async () => {
    const log: string[] = [];
    const t = await alternate(fake("mini", log, []), undefined, { warmup: 2, runs: 3, blockMs: 0 });
    expect(log).toEqual(["mini", "mini", "mini", "mini", "mini"]);
    expect(t.pi).toBeUndefined();
  });
});

describe("bench 的工作量：mini 一侧（s12）存下的正是剧本说的", () => {
  it.each(KINDS)("%s", async (kind) => {
    const side = miniSide("s12", await importLesson("s12"));
    for (const n of [1, 3]) expect((await side[kind](n)()).transcript()).toEqual(expected(kind, n));
  });
});

const pi = await loadPiBench();
describe.skipIf("missing" in pi)("bench 的工作量：Pi 1.6.0 的 runAgentLoop 存下的消息和 mini 一样", () => {
  it.each(KINDS)("%s", async (kind) => {
    if (!("side" in pi)) return;
    for (const n of [1, 3]) expect((await pi.side[kind](n)()).transcript()).toEqual(expected(kind, n));
  });
});
