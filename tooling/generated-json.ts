// 生成文件（API 报告、黄金轨迹、网页回放）的共同写法：一个文件夹里的一组 JSON，只在内容变了时才写，
// 多出来的旧文件删掉，每处变化打印一行，评审时一眼看到改了什么。
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { ROOT } from "./course.ts";

/** 把 files（文件名 → 数据）写成 dir 下的 JSON；返回写了或删了几个文件。 */
export function writeGeneratedJson(dir: string, files: Map<string, unknown>): number {
  mkdirSync(dir, { recursive: true });
  let changed = 0;
  for (const [name, data] of files) {
    const file = join(dir, name);
    const text = `${JSON.stringify(data, null, 2)}\n`;
    let old: string | undefined;
    try {
      old = readFileSync(file, "utf8");
    } catch {
      old = undefined;
    }
    if (old !== text) {
      writeFileSync(file, text);
      changed++;
      console.log(`${old === undefined ? "new" : "changed"}: ${relative(ROOT, file)}`);
    }
  }
  for (const name of readdirSync(dir)) {
    if (name.endsWith(".json") && !files.has(name)) {
      rmSync(join(dir, name));
      changed++;
      console.log(`removed: ${relative(ROOT, join(dir, name))}`);
    }
  }
  return changed;
}
