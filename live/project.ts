// 工作目录里的项目说明（AGENTS.md）。它进系统提示，等于原样发给模型服务器，所以读它和工具读文件守同一道围栏：
// 解开符号链接后必须还在工作目录里、不是隐藏文件、不超过大小上限、是文本。过不了就不加载，交出一句说明给 stderr。
// 加载与否仍由 trust 决定（s11 的 ResourceLoader，R6）；这里只管「读不读得」。
import type { ContextResource } from "../s12_packages/code.ts";
import { DEFAULT_LIMITS, NotFoundError, type WorkspaceLimits, readWorkspaceText } from "./fence.ts";

/** 项目说明的文件名。 */
export const PROJECT_NOTES = "AGENTS.md";

/** 读到的资料，和一句要告诉用户的话（没读成的原因）。没有这个文件时两样都是空的：不用提。 */
export type ProjectNotes = { resources: ContextResource[]; notice?: string };

export function readProjectNotes(cwd: string, limits: WorkspaceLimits = DEFAULT_LIMITS): ProjectNotes {
  try {
    const { text } = readWorkspaceText(cwd, PROJECT_NOTES, limits);
    return { resources: [{ kind: "agents", name: PROJECT_NOTES, content: text }] };
  } catch (error) {
    if (error instanceof NotFoundError) return { resources: [] };
    const reason = error instanceof Error ? error.message : String(error);
    return { resources: [], notice: `${PROJECT_NOTES} 没有加载：${reason}（它得是工作目录里的文本文件）` };
  }
}
