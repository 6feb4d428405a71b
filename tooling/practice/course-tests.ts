// 一课的检查跑哪些测试：npm run check 的 ③④、npm run gen:stages 和 npm run test:lesson 都从这里取，只写在这一处。
// 测试文件是 npm test 的那些（用 forLessonsFrom 按课开 describe 的，加上黄金轨迹），再用 -t 的式子只留这一课的测试。
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "../course.ts";

/**
 * 行为测试：tests/ 下每个用 forLessonsFrom 按课开 describe 的测试文件（行为、坏输入、性质……以后新加的也算），
 * tests/behaviour/ 的排在前面（按课排好）；黄金轨迹：tests/golden.test.ts。
 */
export function courseTestFiles(): { behaviour: string[]; golden: string[] } {
  const dir = join(ROOT, "tests");
  const all = readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".test.ts") && !f.includes("fixtures"))
    .map((f) => `tests/${f.replaceAll("\\", "/")}`)
    .sort();
  const behaviour = all.filter((f) => /\bforLessonsFrom\(/.test(readFileSync(join(ROOT, f), "utf8")));
  const first = (f: string): number => Number(!f.startsWith("tests/behaviour/"));
  behaviour.sort((a, b) => first(a) - first(b) || (a < b ? -1 : 1));
  return { behaviour, golden: ["tests/golden.test.ts"] };
}

/**
 * 只留这一课的测试：forLessonsFrom 给每课开的 describe 就叫课号（全名以 `s04 ` 开头）；
 * 黄金轨迹的测试全名是 `<场景> s04 复现 <课> 的黄金轨迹`。
 */
export const lessonTestPattern = (id: string): string => `^${id} |^[a-z0-9-]+ ${id} 复现 `;
