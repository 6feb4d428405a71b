// vitest.config.ts 关掉了 isolate：同一个 worker 里的测试文件一个接一个跑，共用已经导入的模块（课的 code.ts、zod、typescript……），
// 省下每个文件重新导入的时间。代价是一个文件留下的东西会被下一个文件看见，测试结果就可能取决于文件的先后。
// 会留下东西的只有两处，这里在每个测试文件跑完时各查一遍，留下了就让这个文件失败（而不是让后面某个不相干的文件莫名其妙地失败）：
//   ① 课的 DEMO_FILES：演示的 rm 工具会删它，tooling/scenarios/run.ts 的 runScenario 跑完放回去；
//   ② console 的方法、process.stdout / stderr 的 write：R7 的测试 spy 住它们，跑完要还原。
import { afterAll, vi } from "vitest";
import { changedDemoFiles } from "../../tooling/lesson.ts";

const STREAMS: [string, () => unknown][] = [
  ...(["log", "info", "warn", "error", "debug", "trace", "dir", "table", "group", "groupCollapsed", "time", "timeEnd", "timeLog", "count", "assert"] as const).map(
    (m) => [`console.${m}`, () => console[m]] as [string, () => unknown],
  ),
  ["process.stdout.write", () => process.stdout.write],
  ["process.stderr.write", () => process.stderr.write],
];

/** 现在留着、会被同一个 worker 里下一个测试文件看见的东西，一条一句话；什么都没留下就是空的。 */
export async function leftBehind(): Promise<string[]> {
  const left: string[] = [];
  for (const id of await changedDemoFiles()) left.push(`${id} DEMO_FILES differs from the lesson's own (a demo tool changed it and nothing put it back)`);
  for (const [name, get] of STREAMS) if (vi.isMockFunction(get())) left.push(`${name} is still a spy (restore it when the test ends)`);
  return left;
}

/** vitest.config.ts 的 setupFiles 在每个测试文件开头调它：文件跑完时查一遍。 */
export function checkNothingLeftBehind(): void {
  afterAll(async () => {
    const left = await leftBehind();
    if (left.length > 0) throw new Error(`this test file leaves state behind for the next file in the same worker:\n${left.join("\n")}`);
  });
}
