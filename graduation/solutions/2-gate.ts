// 毕业练习 2 的参考答案：s05 演示里的权限闸，写成 Pi 1.6.0 的 tool_call 监听。
// 每个工具调用执行之前，Pi 先把它交给订阅了 tool_call 的扩展；回 { block: true, reason } 就拦下，
// 结果文字就是 reason，模型看得到为什么。什么都不回（undefined）就是放行。
//   试：npm run graduate -- 2 --solution
//   用：pi -e ./graduation/rm-tool.ts -e ./graduation/solutions/2-gate.ts --tools read,rm
import type { ExtensionAPI, ToolCallEvent, ToolCallEventResult } from "@earendil-works/pi-coding-agent";

/**
 * 演示的规矩：删除类工具一律拦下，理由里说清删的是哪个文件；别的调用放行。
 * Pi 的放行就是 undefined，不是 mini Pi 的 { type: "allow" }。
 */
export function decide(event: ToolCallEvent): ToolCallEventResult | undefined {
  if (event.toolName !== "rm") return undefined;
  const path = typeof event.input.path === "string" ? event.input.path : "这个文件";
  return { block: true, reason: `删除 ${path} 需要人来确认` };
}

/** 扩展本身：订阅 tool_call，每个调用都问一遍 decide。 */
export default function permissionGate(pi: ExtensionAPI): void {
  pi.on("tool_call", (event) => decide(event));
}
