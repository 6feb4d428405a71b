// 每一课的场景，写成数据：它的演示（main() 里做的事），和它的测试在意的情形。
// 像 Crafting Interpreters 每章都重跑前面所有章的测试：引入场景的那一课产出黄金轨迹（tests/golden/<id>.json），
// 之后的每一课都得跑出同样的轨迹；确有不同，只能是 tooling/scenarios/differences.ts 里列出、写明原因的那几处。
// 形状见 tooling/scenarios/shape.ts，运行见 tooling/scenarios/run.ts。
import { TURN_AND_LOOP } from "./s01-s04.ts";
import { PARTS } from "./s05-s12.ts";
import type { Scenario } from "./shape.ts";

/** 全部场景，按课排好：s01–s04 在 s01-s04.ts，s05–s12 在 s05-s12.ts。 */
export const SCENARIOS: Scenario[] = [...TURN_AND_LOOP, ...PARTS];

/** 一课的演示场景：id 以 `sNN-demo` 开头、由这一课引入的场景，按表里的顺序（和 main() 做的事一样）。 */
export const demoScenarios = (lesson: string): Scenario[] => SCENARIOS.filter((s) => s.since === lesson && s.id.startsWith(`${lesson}-demo`));
