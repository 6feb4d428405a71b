// npm run check 查哪几项、按什么顺序：类型、API、这一课的每个阶段（stage-table.ts）、演示；每一项查完记成一行 CheckResult。
// 命令行的检查（run-checks.ts）、它的报告（check-report.ts）和网页上的练习卡片（site/lib/practice.ts）共用这一份。
import { stagesOf } from "./stage-lookup.ts";
import type { Stage } from "./stage-table.ts";

/** 阶段以外的三项：前两项是门槛，演示在所有阶段都过了之后才比。 */
export const CHECK_NAMES = {
  types: "类型检查（tsconfig.json 的 strict）",
  api: "API 和这一课一样（R1/R2）",
  demo: "演示输出和 README「试一下」一样",
} as const;

export type Status = "pass" | "fail" | "skip";
/** 报告里的一行：哪一项、过了没有（skip 是没轮到，或检查停了没跑完）、后面跟的一句话。 */
export type CheckResult = { name: string; status: Status; note: string };

/** 报告里一个阶段那一行的名字：`第 2 阶段 校验参数，执行一个工具`。 */
export const stageName = (k: number, stage: Stage): string => `第 ${k} 阶段 ${stage.title}`;

/** 报告里一行一项的顺序：类型、API、每个阶段、演示；stage 是阶段那几行的阶段（别的是 undefined）。 */
export function checkLines(id: string): { name: string; stage?: Stage }[] {
  return [
    { name: CHECK_NAMES.types },
    { name: CHECK_NAMES.api },
    ...stagesOf(id).map((stage, i) => ({ name: stageName(i + 1, stage), stage })),
    { name: CHECK_NAMES.demo },
  ];
}
