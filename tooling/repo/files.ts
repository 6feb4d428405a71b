// 仓库里有哪些文件：git 记着的，加上还没提交、但也没被 .gitignore 挡掉的（`git ls-files --cached --others --exclude-standard`）。
// node_modules/、.cache/、practice/、.tmp/、site/ 下的生成物这些被忽略的都不在里面，.git 也不在。
// 根 README 的目录表（tooling/docs/folder-map.ts）和文件、测试体的长度上限（length-limits.ts）都从这里问，所以要有 git。
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "../course.ts";

/** 仓库里的每个文件，相对仓库根、用 `/` 分隔，按字母排；在工作区里删掉了、还没提交删除的不算。 */
export function repoFiles(root = ROOT): string[] {
  const out = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard", "-z"], { cwd: root, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  return [...new Set(out.split("\0").filter((f) => f !== "" && existsSync(join(root, f))))].sort();
}

/** 这些文件所在的顶层文件夹（带结尾的 `/`），按字母排。 */
export const topFolders = (files: readonly string[]): string[] => [...new Set(files.filter((f) => f.includes("/")).map((f) => `${f.split("/")[0]}/`))].sort();

/** `under`（比如 `tests/`）下面的每个文件和每一层文件夹（文件夹带结尾的 `/`），路径相对 `under`。 */
export function entriesUnder(files: readonly string[], under: string): string[] {
  const out = new Set<string>();
  for (const f of files) {
    if (!f.startsWith(under)) continue;
    const rest = f.slice(under.length);
    const parts = rest.split("/");
    for (let i = 1; i < parts.length; i++) out.add(`${parts.slice(0, i).join("/")}/`);
    out.add(rest);
  }
  return [...out].sort();
}
