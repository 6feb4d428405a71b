// vitest.config.ts 关掉了 isolate：同一个 worker 里的测试文件一个接一个跑，共用已经导入的模块（课的 code.ts、zod、typescript……），
// 省下每个文件重新导入的时间。代价是一个文件改了模块里的东西，下一个文件会看见，测试结果就可能取决于文件的先后。
// 测试会改到的模块状态只有课的 DEMO_FILES：演示的 rm 工具会删它，tooling/scenarios/run.ts 的 runScenario 跑完放回去。
// 这里在每个测试文件跑完时查一遍，没放回去就让这个文件失败（而不是让后面某个不相干的文件莫名其妙地失败）。
// （vi.spyOn 留下的 spy、vi.setConfig 改的设置，vitest 自己在每个文件跑完时还原。）
import { afterAll } from "vitest";
import { changedDemoFiles } from "../../tooling/lesson.ts";

/** 现在留着、会被同一个 worker 里下一个测试文件看见的东西，一条一句话；什么都没留下就是空的。 */
export async function leftBehind(): Promise<string[]> {
  return (await changedDemoFiles()).map((id) => `${id} DEMO_FILES differs from the lesson's own (a demo tool changed it and nothing put it back)`);
}

/** vitest.config.ts 的 setupFiles 在每个测试文件开头调它：文件跑完时查一遍。 */
export function checkNothingLeftBehind(): void {
  afterAll(async () => {
    const left = await leftBehind();
    if (left.length > 0) throw new Error(`this test file leaves state behind for the next file in the same worker:\n${left.join("\n")}`);
  });
}
