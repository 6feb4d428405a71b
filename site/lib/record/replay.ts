// 录一课的回放：把这一课的演示场景（tooling/scenarios/data.ts 里的 sNN-demo*，和 main() 做的事一样）原样跑一遍，
// 一边跑一边记下每一步——用户消息、provider 收到的输入和吐出的事件、钩子的决定、工具的执行、存进历史的消息、
// 运行时事件、会话树的移动、Output 写出的行。
//
// 怎么记：场景由 tooling/scenarios/run.ts 的 runScenario 来跑（黄金轨迹用的是同一个），只是交给它的「课的模块」
// 换成了一层包装（instrument.ts，一个零件一个包装）；每一步写什么查 narration.ts 的表；
// 记账（第几次请求、并哪些步）在 recorder.ts。课的代码一行不改。
// 包装必须是透明的：recordReplay 会把同一个场景不包装再跑一遍，两份轨迹不一样就报错。
import { isDeepStrictEqual } from "node:util";
import { has } from "../../../tooling/features.ts";
import { importLesson } from "../../../tooling/lesson.ts";
import { demoScenarios } from "../../../tooling/scenarios/data.ts";
import { runScenario } from "../../../tooling/scenarios/run.ts";
import { wrapLesson } from "./instrument.ts";
import { NARRATION } from "./narration.ts";
import { Recorder } from "./recorder.ts";
import type { Replay, StepKind } from "../replay-types.ts";

/** 录一课的回放。每个演示场景跑两遍：包装过的一遍记录，原样的一遍对照，两份轨迹必须相同。 */
export async function recordReplay(lesson: string): Promise<Replay> {
  const scenarios = demoScenarios(lesson);
  if (scenarios.length === 0) throw new Error(`${lesson} has no demo scenario in tooling/scenarios/data.ts`);
  const mod = await importLesson(lesson);
  const rec = new Recorder(lesson);
  const replay: Replay = { lesson, runs: [], steps: rec.steps };
  for (const scenario of scenarios) {
    // makeAgent 先登记场景的工具：那是布景，不算演示里的一步
    rec.startRun(has(lesson, "tools") ? (scenario.tools ?? []).length : 0);
    const setup = NARRATION.scene.setupLines(mod, lesson, scenario);
    replay.runs.push({ id: scenario.id, about: scenario.about, setup });
    rec.add(NARRATION.scene.start(lesson, scenario, setup));
    const recorded = await runScenario(lesson, wrapLesson(mod, rec), scenario);
    const plain = await runScenario(lesson, mod, scenario);
    if (!isDeepStrictEqual(recorded, plain)) {
      throw new Error(`${scenario.id}: the recording wrapper changed what ${lesson} does; the replay would not show the real run`);
    }
  }
  return replay;
}

/** 有演示场景的课，按课号。 */
export function replayLessons(lessons: readonly string[]): string[] {
  return lessons.filter((id) => demoScenarios(id).length > 0);
}

export type { Replay, StepKind };
