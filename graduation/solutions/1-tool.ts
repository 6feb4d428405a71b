// 毕业练习 1 的参考答案：演示里那个只读项目文件的 read，写成 Pi 1.6.0 的工具。
// 这是一个 Pi 扩展：默认导出一个函数，Pi 装载它时把 ExtensionAPI 交进来，它在里面登记工具。
// 登记的名字就叫 read：扩展登记的工具会顶替 Pi 自带的同名工具，模型看到的 read 就是这一个。
//   试：npm run graduate -- 1 --solution
//   用：pi -e ./graduation/solutions/1-tool.ts
import { readFileSync, realpathSync } from "node:fs";
import { isAbsolute, relative, resolve, sep } from "node:path";
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { Type } from "typebox";

/** 相对路径 rel 走出了它的起点（`..`、`../x`，或者在另一个盘上）。 */
const escapes = (rel: string): boolean => rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel);

/**
 * 模型给的路径 → 工作目录里那个文件解开链接后的真实路径。围栏和演示里的一样只认项目里的文件：
 * 绝对路径、走出工作目录的 ..、指到外面的链接一律抛错。错误信息会原样交给模型，所以写清楚为什么。
 */
export function insideProject(cwd: string, requested: string): string {
  // 有的模型会在路径前面加一个 @（Pi 自带的工具也先去掉它）
  const path = requested.replace(/^@/, "");
  if (isAbsolute(path)) throw new Error(`absolute paths are not allowed ("${path}"); use a path relative to the working directory`);
  const root = realpathSync(cwd);
  const wanted = resolve(root, path);
  if (escapes(relative(root, wanted))) throw new Error(`"${path}" is outside the working directory`);
  let real: string;
  try {
    real = realpathSync(wanted);
  } catch {
    throw new Error(`no such file: ${path}`);
  }
  // 字面上在里面，解开链接以后可能在外面：比的是真实路径
  if (escapes(relative(root, real))) throw new Error(`"${path}" is a link that points outside the working directory`);
  return real;
}

/**
 * 扩展本身：登记一个叫 read 的工具。parameters 是 TypeBox 写的 JSON Schema（Pi 照它校验模型给的参数），
 * execute 是异步的，成功时交回 content 和 details，出错时直接抛错——Pi 把它变成一条出错的工具结果。
 */
export default function fencedRead(pi: ExtensionAPI): void {
  pi.registerTool({
    name: "read",
    label: "read",
    description: "Read a text file in the working directory. Paths are relative, e.g. src/main.ts.",
    parameters: Type.Object({ path: Type.String({ description: "file path relative to the working directory, e.g. src/main.ts" }) }),
    async execute(_toolCallId, params, _signal, _onUpdate, ctx) {
      const text = readFileSync(insideProject(ctx.cwd, params.path), "utf8");
      return { content: [{ type: "text", text }], details: {} };
    },
  });
}
