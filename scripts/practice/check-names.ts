// npm run check 的五项检查叫什么、按什么顺序：命令行的报告（checks.ts）和网页上的练习卡片（site/lib/practice.ts）共用这一份。
import { lessonNumber } from "../../tooling/course.ts";

/** 五项检查的名字，键的顺序就是检查的顺序（前一项没过，后面的就不跑）。 */
export function checkNames(id: string) {
  const range = lessonNumber(id) === 1 ? "s01" : `s01–${id}`;
  return {
    types: "类型检查（tsconfig.json 的 strict）",
    api: "API 和这一课一样（R1/R2）",
    behaviour: `行为测试（${range} 的机制）`,
    golden: `黄金轨迹（${range} 的场景）`,
    demo: "演示输出和 README「试一下」一样",
  };
}

export type CheckNames = ReturnType<typeof checkNames>;
