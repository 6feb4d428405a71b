// 演示用的 rm，写成 Pi 1.6.0 的工具：删工作目录里的一个文件。毕业练习 2 拿它当「危险的调用」——
// Pi 自己没有 rm 工具（删文件一般走 bash），mini Pi 的演示里有，两边跑同一段对话就得两边都有它。
// 它只认工作目录里的文件（和练习 1 的 read 一样不许走出去），可它真的会删：
// 在自己的 pi 里用它，请在一个丢得起的目录里，并且一起装上你写的权限闸。
//   pi -e ./graduation/rm-tool.ts -e ./practice/graduation/2-gate.ts --tools read,rm
import { realpathSync, rmSync } from "node:fs";
import { isAbsolute, relative, resolve, sep } from "node:path";
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { Type } from "typebox";

export default function demoRm(pi: ExtensionAPI): void {
  pi.registerTool({
    name: "rm",
    label: "rm",
    description: "Delete a file in the working directory.",
    parameters: Type.Object({ path: Type.String({ description: "file path relative to the working directory" }) }),
    async execute(_toolCallId, params, _signal, _onUpdate, ctx) {
      const root = realpathSync(ctx.cwd);
      const target = resolve(root, params.path);
      const rel = relative(root, target);
      if (rel === "" || rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel)) throw new Error(`"${params.path}" is outside the working directory`);
      rmSync(target);
      return { content: [{ type: "text", text: `deleted ${params.path}` }], details: {} };
    },
  });
}
