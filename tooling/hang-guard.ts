// 防卡死的上限（hang guard）：npm test 里所有跟时间有关的上限只有这一个数，它不判断对错，只防一个测试、一个钩子或一个演示
// 永远挂着。测试判对错靠的是运行次数（性质测试的 numRuns）、手拨的假表（tests/live/support.ts 的 HandClock）和只靠下限的
// 真等待，机器再慢，结论也不变；慢只会让整套跑得久，不会让哪一条变红。
// 五分钟是怎么定的：安静的 2 核机器上最慢的一个测试两秒多（起子进程做一遍类型检查）；npm run test:load 占满两个核、机器上
// 还有别人的活（负载 12–19）时，最慢的一个测试 30 秒，最慢的一个文件一分钟。五分钟还差着十倍，到了它只可能是真卡死了。
// 用它的地方：vitest.config.ts 的 testTimeout / hookTimeout（到点时的报错由 tests/support/hang-guard-message.ts 改写成下面这句话；
// 练习模式的证明和浏览器测试的配置也一样），tooling/demos.ts 跑演示的子进程，tooling/practice/vitest/run.ts 里没有测试在跑的时候。
// 测试文件不另设更短的上限：tooling/time-limits.ts 找，tests/suite.test.ts 查。
// （这个文件由 vitest.config.ts 载入，所以不引用 typescript 这样的大模块。）

/** 五分钟。 */
export const HANG_GUARD_MS = 300_000;

/** 到点时报错里说的话：这是防卡死的上限，不是速度要求。 */
export const HANG_GUARD_NOTE =
  "This limit is the hang guard (tooling/hang-guard.ts), not a speed requirement: nothing in the course's tests comes anywhere near it, " +
  "even on a busy machine, so this one is stuck (an await that never settles, or a loop that never ends).";

/** vitest 到点时的报错：`Test timed out in 300000ms.` 或 `Hook timed out in …`，后面一句教人调大上限的话。 */
const VITEST_TIMEOUT = /^((?:Test|Hook) timed out in \d+ms\.)\n.*$/s;

/**
 * vitest 的超时报错换成「这是防卡死的上限」：第一句照旧（好搜），后面那句「长的测试就把上限调大」换成 HANG_GUARD_NOTE。
 * 别的报错原样交回。
 */
export function explainTimeout(message: string): string {
  return message.replace(VITEST_TIMEOUT, (_all, first: string) => `${first} ${HANG_GUARD_NOTE}`);
}
