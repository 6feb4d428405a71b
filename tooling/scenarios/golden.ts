// 黄金文件：每个场景在引入它的那一课跑出的轨迹，存在 tests/golden/<场景>.json（npm run gen:golden 重写）。
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "../course.ts";
import type { Trace } from "./shape.ts";

export const GOLDEN_DIR = join(ROOT, "tests", "golden");
export const goldenPath = (scenarioId: string): string => join(GOLDEN_DIR, `${scenarioId}.json`);

/** 提交的黄金轨迹；没有就说该跑哪条命令。 */
export function readGolden(scenarioId: string): Trace {
  const file = goldenPath(scenarioId);
  if (!existsSync(file)) throw new Error(`tests/golden/${scenarioId}.json is missing: run npm run gen:golden`);
  return JSON.parse(readFileSync(file, "utf8")) as Trace;
}
